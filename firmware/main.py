# tablesense firmware entry point (ESP32 and MicroPython's unix port).
import sys

try:
    import esp32  # noqa: F401  (present on the ESP32 port only)
    from hal_esp32 import Hal
except ImportError:
    from hal_virtual import Hal

import link

try:
    link.main(Hal())
except Exception as e:
    if Hal.name != "virtual":
        raise  # on the board the traceback goes to the REPL, where mpremote shows it
    # unix port: stdout is the serial line, so the traceback goes to stderr
    sys.print_exception(e, sys.stderr)  # pyright: ignore  (unix port only)
    sys.exit(1)
except KeyboardInterrupt as e:  # Ctrl-C (SIGINT on the unix port) ends the firmware
    if Hal.name != "virtual":
        raise
    sys.print_exception(e, sys.stderr)  # pyright: ignore  (unix port only)
    sys.exit(130)
