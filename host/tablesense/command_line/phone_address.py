"""Where phones reach the pub's web server: the address the referee QR code carries.

``tablesense run`` serves the pub's network by default (``0.0.0.0``: every address of
this PC), and the QR code on each table's TV must then carry this PC's address on that
network, not the one the TV happened to use (``127.0.0.1`` on the pub's own PC, which no
phone can open). ``phone_address`` decides it from where the server listens, the
``--public-url`` given and this machine's LAN address (``tablesense.web.lan``), and says
why phones cannot reach it when they cannot. Pure: the LAN address is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass

#: where the web server listens to serve every address of this PC
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


@dataclass(frozen=True)
class PhoneAddress:
    """The base URL the QR code carries (``{port}``: the port bound), and a warning when
    phones cannot reach it."""

    base: str
    warning: str | None = None

    def at(self, port: int | str) -> str:
        return self.base.replace("{port}", str(port))


def phone_address(host: str, public_url: str, lan: str | None) -> PhoneAddress:
    """The address phones use, for a server listening on ``host``; ``public_url``: the one
    the pub named (``--public-url``), which wins; ``lan``: this PC's address on the local
    network (None: it has none but loopback)."""
    if public_url:
        return PhoneAddress(public_url.rstrip("/"))
    if host in EVERY_ADDRESS:
        if lan is None:
            return PhoneAddress("http://127.0.0.1:{port}",
                                "this PC is on no network: phones cannot reach the referee panel "
                                "(connect it to the pub's network and start again)")
        return PhoneAddress(f"http://{_url_host(lan)}:{{port}}")
    base = f"http://{_url_host(host)}:{{port}}"
    if is_loopback(host):
        return PhoneAddress(base, f"--http {_url_host(host)}: this PC only: phones cannot reach the "
                                  "referee panel nor open the QR code (leave out the host to serve the "
                                  "pub's network)")
    return PhoneAddress(base)
