"""Danish keglebillard: five pins in the middle, points for pins and caroms, a race to a
target (seeds/kegle.md)."""
