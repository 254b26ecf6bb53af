"""Golf billiards: five balls each, goals at both ends, best of three frames (seeds/golf.md)."""
