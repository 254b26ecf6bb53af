"""Targets and match points of carom (seeds/carom.md): ``carom.target.moyenne``,
``carom.target.minimum``, ``carom.match-points.de-bruijn``. Pure calculations; the names a
set-up may use for a rounding or a scheme are in ``tablesense.rules.carom.names``."""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

from ...errors import IllegalCall
from .names import ROUNDING_NAMES, SCHEME_NAMES, setup_name
from .profiles import Profile

ROUNDINGS = {"half-up": ROUND_HALF_UP, "down": ROUND_FLOOR, "up": ROUND_CEILING}


def _named(name: Any, names: dict[str, tuple[str, ...]], what: str) -> str:
    found = setup_name(names, name)
    if found is None:
        raise IllegalCall(f"setup: unknown {what} {name!r} ({what}s: {', '.join(names)})")
    return found


def resolve_rounding(name: Any) -> str:
    """A rounding by name (``half_up``, ``floor``, ``ceil`` ...), or ``IllegalCall``."""
    return _named(name, ROUNDING_NAMES, "rounding")


MULTIPLIER = 25
MINIMUM_TARGET = 20


def target_from_moyenne(moyenne: float, rounding: str = "half-up", multiplier: float = MULTIPLIER,
                        minimum: int = MINIMUM_TARGET) -> int:
    """Seed 003 Art. 11.3–11.4, carom.target.moyenne: moyenne × 25, rounded (half up by default;
    "down" or "up"), never below 20 (carom.target.minimum)."""
    if rounding not in ROUNDINGS:
        raise IllegalCall(f"unknown rounding {rounding!r} (roundings: {', '.join(ROUNDINGS)})")
    exact = Decimal(str(moyenne)) * Decimal(str(multiplier))
    value = int(exact.quantize(Decimal(1), rounding=ROUNDINGS[rounding]))
    return max(minimum, value)


MINIMUM_RULE = "carom.target.minimum"


def championship_match(profile: Profile, extra: dict[str, Any]) -> bool:
    """Seed 003 Art. 11.5, carom.target.minimum: whether the minimum binds explicit targets: a
    match for the club championship's competition (003 Art. 11.1 "Wedstrijden voor de
    onderlinge competitie"): a setup of a profile with a competition minimum whose
    ``competition`` names the competition (or is ``true``). Other matches at the club (a
    friendly, a demonstration) set what target they like; 004 (liemers) has no minimum."""
    if not profile.competition_minimum:
        return False
    marker = extra.get("competition")
    return marker is True or (isinstance(marker, str) and bool(marker.strip()))


def below_minimum(targets: dict[str, int], minimum: int = MINIMUM_TARGET) -> str | None:
    """Seed 003 Art. 11.5, carom.target.minimum ("Het minimaal aantal te behalen caramboles bedraagt 20"):
    why explicit targets are refused, naming the first one below the minimum; None when
    every target is at least ``minimum``. ``targets`` maps a player (or a name) to his target."""
    for who, value in targets.items():
        if value < minimum:
            return (f"target {value} for {who} is below the minimum of {minimum} caroms of a club "
                    f"championship match ({MINIMUM_RULE}, 003 Art. 11.5)")
    return None


def targets_for(setup_targets: dict[str, int] | None, moyennes: dict[str, float] | None,
                extra: dict[str, Any], championship: bool = False) -> tuple[tuple[int, int], tuple[str, str]]:
    """Seed 003 Art. 11.1, carom.target.play-out: the two targets the match is played out to and,
    per player, the rule that set each. In a ``championship`` match
    explicit targets below the minimum are refused (``MINIMUM_RULE``); targets from the
    moyennes are raised to it."""
    rounding = resolve_rounding(extra.get("rounding", "half-up"))
    multiplier = extra.get("multiplier", MULTIPLIER)
    minimum = extra.get("minimum", MINIMUM_TARGET)
    if (not isinstance(multiplier, (int, float)) or isinstance(multiplier, bool)
            or not math.isfinite(multiplier) or multiplier <= 0):
        raise IllegalCall(f"setup: multiplier must be a positive number, not {multiplier!r}")
    if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
        raise IllegalCall(f"setup: minimum must be a positive integer, not {minimum!r}")
    if championship and setup_targets:
        why = below_minimum({p: int(v) for p, v in setup_targets.items()}, minimum)
        if why is not None:
            raise IllegalCall(f"setup: {why}")
    out: list[int] = []
    how: list[str] = []
    for p in ("p1", "p2"):
        if setup_targets and p in setup_targets:
            out.append(int(setup_targets[p]))
            how.append("carom.target.play-out")
        elif moyennes and p in moyennes:
            out.append(target_from_moyenne(moyennes[p], rounding, multiplier, minimum))
            how.append("carom.target.moyenne")
        else:
            out.append(minimum)
            how.append("carom.target.minimum")
    return (out[0], out[1]), (how[0], how[1])


SCHEMES = tuple(SCHEME_NAMES)


def resolve_scheme(name: Any) -> str:
    """A match-point scheme by name: ``de Bruijn`` = ``de_bruijn`` = ``de-bruijn``."""
    return _named(name, SCHEME_NAMES, "match-point scheme")


def de_bruijn(winner: str | None, made: tuple[int, int], targets: tuple[int, int]) -> tuple[int, int]:
    """Seed 003 Art. 11.6, carom.match-points.de-bruijn: the winner 11, a draw 10 each, the loser
    his share of his target × 10, rounded down (at most 9)."""
    if winner == "draw":
        return (10, 10)
    return (11 if winner == "p1" else min(9, _share(made, targets, 0, 10)),
            11 if winner == "p2" else min(9, _share(made, targets, 1, 10)))


def _share(made: tuple[int, int], targets: tuple[int, int], i: int, scale: int) -> int:
    return math.floor(min(made[i], targets[i]) * scale / targets[i])


def match_points(scheme: str, winner: str | None, made: tuple[int, int],
                 targets: tuple[int, int]) -> tuple[int, int]:
    """Points for (p1, p2) of a finished match under ``scheme``: de Bruijn (``de_bruijn``), or a
    competition's own: ``win-draw-loss`` (2/1/0), ``percentage`` (made / target × 100 down),
    ``belgian`` (made / target × 10 down)."""
    if scheme == "de-bruijn":
        return de_bruijn(winner, made, targets)
    if scheme == "win-draw-loss":
        if winner == "draw":
            return (1, 1)
        return (2, 0) if winner == "p1" else (0, 2)
    if scheme == "percentage":
        return (_share(made, targets, 0, 100), _share(made, targets, 1, 100))
    if scheme == "belgian":  # a competition's (visitebiljart): made / target x 10 each, 10 at the target
        return (_share(made, targets, 0, 10), _share(made, targets, 1, 10))
    raise IllegalCall(f"unknown match-point scheme {scheme!r} (schemes: {', '.join(SCHEMES)})")
