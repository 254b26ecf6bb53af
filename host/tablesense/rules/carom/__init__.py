"""Dutch carom: free game, balkline, one and three cushions, by a club's profile (seeds/carom.md)."""
