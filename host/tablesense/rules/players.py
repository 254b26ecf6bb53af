"""The two sides of a match by their ids (``p1``, ``p2``) and by their names."""

from __future__ import annotations

from typing import Any


def other(player: str) -> str:
    """The other side: ``p2`` for ``p1``, ``p1`` for anything else."""
    return "p2" if player == "p1" else "p1"


def player_names(state: Any) -> dict[str, str]:
    """``p1``/``p2`` to the names of the set-up (a team's names joined with "&")."""
    names: dict[str, str] = {}
    for pid, name in state.players:
        if isinstance(name, (list, tuple)):
            name = " & ".join(str(n) for n in name)
        names[pid] = str(name) if name else pid
    return names
