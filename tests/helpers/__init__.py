"""Helpers the tests of several folders share, one concept a module: ``from helpers.ports
import free_port``. tests/ is on the path of every test (tests/conftest.py), so the package
is found from any folder; a folder's own fixtures are in its ``conftest.py``."""
