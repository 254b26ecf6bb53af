# tablesense firmware entry point (ESP32 and MicroPython's unix port): the HAL of the
# port it runs on, then recover.run: the watchdog, the firmware, and a reset after a crash.
try:
    import esp32  # noqa: F401  (present on the ESP32 port only)
    from hal_esp32 import Hal
except ImportError:
    from hal_virtual import Hal

import recover

recover.run(Hal())
