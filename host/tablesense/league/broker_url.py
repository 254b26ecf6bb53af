"""Where the league's MQTT broker is and who we are there: ``mqtt://user:pass@host:1883``.

``mqtts://`` (default port 8883) connects with TLS; ``?ca=FILE`` names the certificate
authority that signed the broker's certificate (default: the system's). An address with
a user but no password takes it from the environment, ``TABLESENSE_BROKER_PASSWORD``
(a systemd ``EnvironmentFile``), so that it shows in no process list.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from ..errors import TablesenseError

#: a pub's name is one topic level: letters, digits, ``-`` and ``_``
PUB_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
PASSWORD_ENV = "TABLESENSE_BROKER_PASSWORD"


class BrokerURLError(TablesenseError):
    """A broker address that cannot be used."""


@dataclass(frozen=True, slots=True)
class BrokerURL:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None

    def __str__(self) -> str:  # never the password
        who = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{who}{self.host}:{self.port}"


def parse_broker_url(text: str, env: Mapping[str, str] = os.environ) -> BrokerURL:
    """``mqtt[s]://[user[:password]@]host[:port][?ca=FILE]``, or ``BrokerURLError`` saying what is wrong."""
    parts = urlsplit(text)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BrokerURLError(f"a broker address starts mqtt:// or mqtts://, not {text!r}")
    try:
        port = parts.port
    except ValueError:
        raise BrokerURLError(f"the port in {text!r} is no number 1..65535") from None
    if not parts.hostname:
        raise BrokerURLError(f"no broker host in {text!r}")
    tls = parts.scheme == "mqtts"
    ca = parse_qs(parts.query).get("ca", [None])[0]
    password = unquote(parts.password) if parts.password is not None else None
    if parts.username and password is None:
        password = env.get(PASSWORD_ENV)
        if not password:
            raise BrokerURLError(f"no password for {unquote(parts.username)}: give it in the address "
                                 f"(mqtt://USER:PASSWORD@HOST) or in {PASSWORD_ENV}")
    return BrokerURL(parts.hostname, port or (8883 if tls else 1883),
                     unquote(parts.username) if parts.username else None, password, tls, ca)


def check_pub_name(name: str) -> str:
    if not PUB_NAME.match(name):
        raise BrokerURLError(f"a pub's name is 1-64 letters, digits, '-' or '_' (it is a topic level), "
                             f"not {name!r}")
    return name
