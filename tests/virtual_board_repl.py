# MicroPython's REPL on a virtual board (tests/virtual_board.py), as the ESP32's is after
# Ctrl-C stopped the firmware: `machine.reset()` (what `mpremote reset` runs) restarts
# the board, which the unix port's machine module cannot do; here it ends this process
# with the exit code the supervisor boots the firmware again on (hal_virtual.RESET_EXIT).
import sys


class _Machine:
    HARD_RESET = 2

    @staticmethod
    def reset():
        sys.exit(75)

    @staticmethod
    def reset_cause():
        return 2


sys.modules["machine"] = _Machine()
del _Machine
