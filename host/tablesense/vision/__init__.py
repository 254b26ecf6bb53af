"""An overhead camera as a full-information source: calibration, ball tracking, table events.

docs/camera.md describes it for a user. ``lens`` holds the camera model (image pixels to bed
metres), ``calibrate`` finds it from a picture of the empty table, ``detect`` finds the balls
in a frame by colour, ``track`` cuts the stream of detections into shots, ``shot_events``
reads a shot's tracks into ``contact``/``cushion``/``rest`` events, ``merge`` puts them
beside the sensor events of the same table and ``source`` reads a ``cv2.VideoCapture``.
"""
