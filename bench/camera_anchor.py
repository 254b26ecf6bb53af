"""The anchor the camera benches print their frame rates beside: a 5x5 Gaussian blur and an
HSV conversion of one 1280x720 frame of cloth, the least a colour finder does per frame, timed
on this core in the same run (``cv2.setNumThreads(1)`` first)."""

from __future__ import annotations

import time

import cv2
import numpy as np


def blur_hsv_seconds(reps: int = 200) -> float:
    """Seconds for one blur + HSV conversion of a 1280x720 frame, the mean of ``reps``."""
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:] = (150, 95, 25)
    t1 = time.perf_counter()
    for _ in range(reps):
        cv2.cvtColor(cv2.GaussianBlur(frame, (5, 5), 0), cv2.COLOR_BGR2HSV)
    return (time.perf_counter() - t1) / reps
