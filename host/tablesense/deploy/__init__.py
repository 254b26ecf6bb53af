"""Deploying the firmware: build (mpy-cross), plan (what to copy), run (mpremote), check (HELLO)."""
