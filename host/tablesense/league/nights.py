"""Team nights between pubs: what the league tells the home pub, and the night's score there.

The league service publishes, retained, to each pub that hosts a team competition's nights::

    tablesense/league/nights/PUB   {"v": 1, "pub": PUB, "nights": [CARD, ...]}

a card per night at that pub from yesterday on (``night_card``): the fixture, its
competition and game, the date, both teams with their players (and each player's strength:
a carom moyenne for the bonus, a keglebillard average for the distance; a golf duo its two
players, by whom the log names it), the scheme's record
and who plays whom (``fixtures.pairings``). The pub keeps the newest message in its own
SQLite file (a pub that starts without the broker still knows tonight's night) and

- tags each match played on its tables that night between a player of each team with the
  night's fixture (``tag``): the match message names it (``fixture``, ``competition``), and
  the league checks the tag as it checks everything else;
- adds up the night's score for its TV overview (``night_view``): each finished match read
  and scored as the league will (``card_result``: the same readers and the same scheme), the
  team points it gives, the matches in play with their score line, the pairings still to
  play.

Pure: cards, match logs and states in, data out. The cards are read back with bounds
(``decode_nights``): a pub trusts its league, but not a message past what it could hold.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Annotated, Any

import msgspec

from ..errors import IllegalCall
from . import games
from .fixtures import pairings
from .limits import MAX_COMPETITION, MAX_NAME
from .matchlog import NotACompetitionMatch, ReplayedMatch
from .messages import TopicLevel, nights_topic
from .scheme import Scheme, SchemeError, from_dict
from .standings import Player, Result
from .store import Competition, Fixture, LeagueStore, Team

__all__ = [
    "BadNights",
    "Card",
    "card_result",
    "cards_by_pub",
    "decode_nights",
    "night_card",
    "night_view",
    "nights_message",
    "nights_topic",
    "tag",
    "upcoming",
]

VERSION = 1
#: the most nights one message holds (a pub's next weeks)
MAX_NIGHTS = 60
#: how far ahead the league tells a pub its nights (days)
AHEAD_DAYS = 60


def night_card(comp: Competition, fixture: Fixture, teams: list[Team],
               players: list[Player]) -> dict[str, Any]:
    """What the home pub needs of one night."""
    by_team: dict[str, list[Player]] = {}
    for p in players:
        if p.team:
            by_team.setdefault(p.team, []).append(p)
    pubs = {t.name: t.pub for t in teams}

    def side(team: str) -> dict[str, Any]:
        return {"team": team, "pub": pubs.get(team, ""),
                "players": [_card_player(p) for p in by_team.get(team, [])]}

    home, away = side(fixture.home), side(fixture.away)
    pairs = pairings(comp.record.night, [p["name"] for p in home["players"]],
                     [p["name"] for p in away["players"]])
    return {"fixture": fixture.id, "competition": comp.name, "game": comp.game, "discipline": comp.discipline,
            "profile": comp.profile, "date": fixture.date, "round": fixture.round, "home": home, "away": away,
            "scheme": comp.record.to_dict(), "pairings": [list(p) for p in pairs]}


def _card_player(p: Player) -> dict[str, Any]:
    """A player on a card: his name and strength; a golf duo also its two players."""
    return {"name": p.name, "strength": p.moyenne, "members": list(p.members)}


def nights_message(pub: str, cards: list[dict[str, Any]]) -> dict[str, Any]:
    return {"v": VERSION, "pub": pub, "nights": cards[:MAX_NIGHTS]}


def cards_by_pub(store: LeagueStore, today: str) -> dict[str, list[dict[str, Any]]]:
    """Every home pub's nights from yesterday on, over all team competitions of the league."""
    out: dict[str, list[dict[str, Any]]] = {}
    for comp in store.competitions():
        teams = store.teams(comp)
        if not teams:
            continue
        players = store.players(comp)
        pubs = {t.name: t.pub for t in teams}
        for t in teams:
            out.setdefault(t.pub, [])
        for f in upcoming(store.fixtures(comp), today):
            if f.home in pubs:
                out[pubs[f.home]].append(night_card(comp, f, teams, players))
    return {pub: sorted(cards, key=lambda c: (c["date"], c["fixture"])) for pub, cards in out.items()}


def upcoming(fixtures: list[Fixture], today: str, ahead: int = AHEAD_DAYS) -> list[Fixture]:
    """The fixtures from yesterday to ``ahead`` days on (a night past midnight is yesterday's)."""
    day = time.strptime(today, "%Y-%m-%d")
    base = time.mktime(day)
    first = time.strftime("%Y-%m-%d", time.localtime(base - 86400))
    last = time.strftime("%Y-%m-%d", time.localtime(base + ahead * 86400))
    return [f for f in fixtures if first <= f.date <= last]


# --- the message as the pub reads it --------------------------------------------------------

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]


class CardPlayer(msgspec.Struct, frozen=True):
    name: Name
    strength: Annotated[float, msgspec.Meta(ge=0, le=1000)] = 0.0
    #: a golf duo's two players (the log names a duo by them); none: one player
    members: Annotated[list[Name], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class CardSide(msgspec.Struct, frozen=True):
    team: Name
    pub: str = ""
    players: Annotated[list[CardPlayer], msgspec.Meta(max_length=50)] = msgspec.field(default_factory=list)


class Card(msgspec.Struct, frozen=True):
    fixture: Annotated[int, msgspec.Meta(ge=1)]
    competition: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_COMPETITION)]
    game: str
    date: Annotated[str, msgspec.Meta(pattern=r"^\d{4}-\d{2}-\d{2}$")]
    home: CardSide
    away: CardSide
    scheme: dict[str, Any]
    discipline: str = ""
    profile: str = ""
    round: int = 0
    pairings: Annotated[list[list[Name]], msgspec.Meta(max_length=2500)] = msgspec.field(default_factory=list)


class NightsMessage(msgspec.Struct, frozen=True):
    v: int
    pub: TopicLevel
    nights: Annotated[list[Card], msgspec.Meta(max_length=MAX_NIGHTS)]


_NIGHTS = msgspec.json.Decoder(NightsMessage)


class BadNights(ValueError):
    """The league's nights message does not read (one line)."""


def decode_nights(raw: bytes, pub: str) -> list[dict[str, Any]]:
    """The cards of a nights message for ``pub`` (``BadNights`` says why not)."""
    if len(raw) > 4 * 1024 * 1024:
        raise BadNights(f"a nights message of {len(raw):,} bytes")
    try:
        msg = _NIGHTS.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        raise BadNights(f"the league's nights do not read: {str(exc).splitlines()[0][:160]}") from None
    if msg.v != VERSION or msg.pub != pub:
        raise BadNights(f"nights message version {msg.v} for {msg.pub} (this pub reads {VERSION}, for {pub})")
    out = []
    for card in msg.nights:
        try:
            scheme_of(msgspec.to_builtins(card))
        except SchemeError as exc:
            raise BadNights(f"night {card.fixture}: {exc}") from None
        out.append(msgspec.to_builtins(card))
    return out


def scheme_of(card: dict[str, Any]) -> Scheme:
    return from_dict(card["scheme"])


# --- tagging a match ---------------------------------------------------------------------------

def _team_of(card: dict[str, Any]) -> dict[str, str]:
    """Each entrant's name (a player, a golf duo) -> "home" or "away"."""
    out = {}
    for key in ("home", "away"):
        for p in card[key]["players"]:
            out[p["name"]] = key
    return out


def entrant(card: dict[str, Any], side: Any) -> str | None:
    """The night's entrant a side of a log is: a player by his name, a golf duo by its two
    players' names (as the league reads it, ``ingest.Members.entrant``); None: neither."""
    if isinstance(side, str):
        return side if side in _team_of(card) else None
    if isinstance(side, (list, tuple)):
        wanted = frozenset(str(n) for n in side)
        for key in ("home", "away"):
            for p in card[key]["players"]:
                if p.get("members") and frozenset(p["members"]) == wanted:
                    return str(p["name"])
    return None


def _side_team(card: dict[str, Any], side: Any) -> str | None:
    team_of = _team_of(card)
    duo = entrant(card, side)
    if duo is not None:
        return team_of[duo]
    names = side if isinstance(side, list) else [side]
    teams = {team_of.get(n) if isinstance(n, str) else None for n in names}
    return teams.pop() if len(teams) == 1 else None


def tag(cards: list[dict[str, Any]], game: str, players: dict[str, Any],
        started: float) -> dict[str, Any] | None:
    """The night a match belongs to: one of this date's cards of its game with a player of each
    team on either side (None: no night)."""
    day = time.strftime("%Y-%m-%d", time.localtime(started))
    for card in cards:
        if card["date"] != day or card["game"] != game:
            continue
        sides = {_side_team(card, players.get("p1")), _side_team(card, players.get("p2"))}
        if sides == {"home", "away"}:
            return card
    return None


# --- the night's score ----------------------------------------------------------------------------

def card_players(card: dict[str, Any]) -> dict[str, Player]:
    out = {}
    for key in ("home", "away"):
        for p in card[key]["players"]:
            out[p["name"]] = Player(p["name"], float(p.get("strength", 0.0)), team=card[key]["team"],
                                    members=tuple(p.get("members", ())))
    return out


def card_result(card: dict[str, Any], match: ReplayedMatch, source: str = "") -> Result | None:
    """A match of the night read and scored as the league will (None: not a result yet, e.g.
    not finished, or one the league would refuse)."""
    scheme = scheme_of(card)
    try:
        result = games.read(match, scheme, source)
        ps = card_players(card)
        p1, p2 = (ps[entrant(card, side) or games.side_name(side)]
                  for side in (match.players.get("p1"), match.players.get("p2")))
        result = replace(result, p1=p1.name, p2=p2.name)  # a duo by its name in the competition
        games.check_entry(card.get("profile", ""), scheme, result, p1, p2)
    except (NotACompetitionMatch, IllegalCall, KeyError):
        return None
    return games.score(result, scheme, (p1, p2))


def night_view(card: dict[str, Any], played: list[tuple[str, Result]], playing: list[dict[str, Any]],
               ) -> dict[str, Any]:
    """The night as the pub's overview shows it: ``played`` (table, result) and ``playing``
    (table, players, the score line) matches of the night; ``to_play`` the pairings left (the
    referee panel offers them), ``members`` each golf duo's two players (a duo's log names them)."""
    scheme = scheme_of(card)
    team_of = _team_of(card)
    totals = {"home": 0, "away": 0}
    matches = []
    done: set[frozenset[str]] = set()
    for table, r in played:
        for i, name in enumerate((r.p1, r.p2)):
            side = team_of.get(name)
            if side is not None:
                totals[side] += r.points[i]
        done.add(frozenset((r.p1, r.p2)))
        matches.append({"table": table, "p1": r.p1, "p2": r.p2, "points": list(r.points), "winner": r.winner,
                        "state": "played"})
    for m in playing:
        p1, p2 = (entrant(card, m[k]) or games.side_name(m[k]) for k in ("p1", "p2"))
        done.add(frozenset((p1, p2)))
        matches.append({"table": m["table"], "p1": p1, "p2": p2, "summary": m.get("summary", ""),
                        "state": "playing"})
    to_play = [pair for pair in card.get("pairings", []) if frozenset(pair) not in done]
    team_points = scheme.team_result(totals["home"], totals["away"]) if played else None
    members = {p["name"]: list(p["members"]) for key in ("home", "away") for p in card[key]["players"]
               if p.get("members")}
    return {"fixture": card["fixture"], "competition": card["competition"], "game": card["game"],
            "date": card["date"], "scheme": scheme.name, "members": members,
            "home": {"team": card["home"]["team"], "points": totals["home"]},
            "away": {"team": card["away"]["team"], "points": totals["away"]},
            "team_points": list(team_points) if team_points is not None else None,
            "played": len(played), "expected": len(card.get("pairings", [])), "matches": matches,
            "to_play": to_play}
