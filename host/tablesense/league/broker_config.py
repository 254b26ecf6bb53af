"""A Mosquitto set-up for a league: password file, ACL and ``mosquitto.conf``.

Each pub is a user that may write only under its own topics (``tablesense/pubs/PUB/#``);
the league service is a user that may only read them. Nobody else connects
(``allow_anonymous false``). The password file holds Mosquitto's own PBKDF2-SHA512
hashes (the ``$7$`` lines ``mosquitto_passwd`` writes), made here with the standard
library, so no Mosquitto is needed where the set-up is generated.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from .broker_url import BrokerURLError, check_pub_name
from .limits import MAX_MESSAGE_BYTES
from .messages import NIGHTS_ROOT, ROOT

#: PBKDF2 rounds of a password hash (mosquitto_passwd's default is 101)
ITERATIONS = 1000
LEAGUE_USER = "league"


@dataclass(frozen=True, slots=True)
class Account:
    user: str
    password: str | None  # None: kept from the existing password file
    line: str  # the password-file line


def hash_line(user: str, password: str, iterations: int = ITERATIONS, salt: bytes | None = None) -> str:
    """A Mosquitto 2 password-file line (``user:$7$rounds$salt$hash``)."""
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"{user}:$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(pubs: list[str], league_user: str = LEAGUE_USER) -> str:
    out = ["# tablesense league ACL (tablesense league broker-config): each pub writes only under its",
           "# own topics and reads only its own team nights; the league service reads the pubs' topics",
           "# and writes only the nights it tells the pubs.", "",
           f"user {league_user}", f"topic read {ROOT}/#", f"topic write {NIGHTS_ROOT}/#", ""]
    for pub in pubs:
        out += [f"user {pub}", f"topic write {ROOT}/{pub}/#", f"topic read {NIGHTS_ROOT}/{pub}", ""]
    return "\n".join(out)


def conf_text(directory: Path, port: int, bind: str = "0.0.0.0", cert: str | None = None,
              key: str | None = None) -> str:
    d = directory.resolve()
    out = ["# tablesense league broker (tablesense league broker-config); run: mosquitto -c THIS_FILE",
           "per_listener_settings false", "allow_anonymous false",
           f"password_file {d / 'passwd'}", f"acl_file {d / 'acl'}",
           "# queued messages of the league's persistent session survive a restart",
           "persistence true", f"persistence_location {d / 'data'}/", "autosave_interval 30",
           "# a league service away for days: its queue may grow this long",
           "max_queued_messages 100000", "max_inflight_messages 100",
           "# no message longer than the league reads (docs/league.md): a pub sending one is told so",
           "# (its PUBACK says 'implementation specific error') and nobody else receives it",
           f"message_size_limit {MAX_MESSAGE_BYTES}", "",
           f"listener {port} {bind}"]
    if cert and key:
        out += [f"certfile {cert}", f"keyfile {key}"]
    else:
        out += ["# TLS (docs/league.md): listener 8883, then", "# certfile /etc/mosquitto/certs/broker.crt",
                "# keyfile /etc/mosquitto/certs/broker.key"]
    return "\n".join(out) + "\n"


def read_passwd(path: Path) -> dict[str, str]:
    """user -> line of an existing password file."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if ":" in line and not line.startswith("#"):
            out[line.split(":", 1)[0]] = line
    return out


def accounts(pubs: list[str], existing: dict[str, str], league_user: str = LEAGUE_USER,
             reset: tuple[str, ...] = ()) -> list[Account]:
    """The league's and every pub's account: new ones get a fresh password, existing ones keep
    their hash unless named in ``reset``."""
    names = [league_user, *pubs]
    for name in pubs:
        check_pub_name(name)
    if len(set(names)) != len(names):
        raise BrokerURLError(f"each pub once, and none called {league_user!r} (the league service)")
    out = []
    for user in names:
        if user in existing and user not in reset:
            out.append(Account(user, None, existing[user]))
        else:
            password = secrets.token_urlsafe(18)
            out.append(Account(user, password, hash_line(user, password)))
    return out


def write(directory: Path, pubs: list[str], port: int = 1883, bind: str = "0.0.0.0",
          cert: str | None = None, key: str | None = None, reset: tuple[str, ...] = ()) -> list[Account]:
    """Write ``passwd``, ``acl`` and ``mosquitto.conf`` into ``directory``; the accounts made."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "data").mkdir(exist_ok=True)
    made = accounts(pubs, read_passwd(directory / "passwd"), reset=reset)
    _private(directory / "passwd", "\n".join(a.line for a in made) + "\n")
    (directory / "acl").write_text(acl_text(pubs))
    (directory / "mosquitto.conf").write_text(conf_text(directory, port, bind, cert, key))
    return made


def _private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.chmod(path, 0o600)
