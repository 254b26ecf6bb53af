"""tests/board/: the firmware's checks on a real ESP32 (``make test-board PORT=/dev/ttyUSB0``).

Collected only when ``TABLESENSE_BOARD_PORT`` names a port (the Makefile sets it), so
``make test`` never sees them; with the variable set and no board at that port, the
module skips itself with one line naming the port and the ports seen.
"""

from __future__ import annotations

import os

if not os.environ.get("TABLESENSE_BOARD_PORT"):
    collect_ignore_glob = ["test_*.py"]


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    """No board at the port: the module skipped itself, so nothing ran; that is a pass (0),
    not pytest's "no tests collected" (5)."""
    from tablesense.deploy.ports import PortError, check_port

    port = os.environ.get("TABLESENSE_BOARD_PORT")
    if port and exitstatus == 5:
        try:
            check_port(port)
        except PortError:
            session.exitstatus = 0
