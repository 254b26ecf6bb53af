"""Golf billiards as the simulator builds and plays it: ``table`` (no physics: the camera
reads it too) and ``play``."""
