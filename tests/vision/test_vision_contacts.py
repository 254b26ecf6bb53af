"""The camera's contacts read from synthetic tracks (numpy arrays, no images): double kisses, and
which unclear touches and cushions leave a shot to the referee (vision/shot_events.py, doubts.py)."""

from __future__ import annotations

import numpy as np

from tablesense.events import Contact, Cushion, Event, Rest, Setup, Strike
from tablesense.rules import find_engine
from tablesense.vision.shot_events import ShotReader
from tablesense.vision.track import ShotTrack

R = 0.03  # ball radius of the synthetic table (2.84 x 1.42 m)
FPS = 60.0
Keys = list[tuple[float, float, float]]


def track(paths: dict[str, Keys], end: float) -> ShotTrack:
    """Each ball moves straight between its key points (t, x, y) and lies still before the first
    and after the last; filmed at 60 fps from 0 to ``end``."""
    times = np.round(np.arange(0.0, end, 1 / FPS), 6)
    tracks = {}
    for ball, keys in paths.items():
        ts, xs, ys = (np.array(v) for v in zip(*keys))
        tracks[ball] = np.stack([np.interp(times, ts, xs), np.interp(times, ts, ys)], axis=1)
    rest = {b: (float(p[-1, 0]), float(p[-1, 1])) for b, p in tracks.items()}
    return ShotTrack(times=times, tracks=tracks, rest_t=float(times[-1]) - 0.35, rest=rest, done_t=end)


def read(shot: ShotTrack, game: str | None = "carom") -> list[Event]:
    return ShotReader(2.84, 1.42, R, game=game).read(shot).events


def contacts(events: list[Event]) -> list[tuple[str, ...]]:
    return [tuple(sorted(e.balls)) for e in events if isinstance(e, Contact)]


def carom_of(events: list[Event], discipline: str, before: dict[str, tuple[float, float]]) -> dict:
    """What the carom engine makes of the shot played by p1 (yellow): carom made, decided by."""
    engine = find_engine("carom")
    state = engine.new_state(
        Setup(
            t=-5.0,
            game="carom",
            players={"p1": "A", "p2": "B"},
            discipline=discipline,
            targets={"p1": 50, "p2": 50},
        )
    )
    state = engine.apply(state, Rest(t=-1.0, positions={b: list(xy) for b, xy in before.items()}))
    for e in events:
        state = engine.apply(state, e)
    js = engine.to_json(state)
    return {"carom": js["caroms"]["p1"] == 1, "decided_by": js["evidence"]["decided_by"]}


# yellow, struck at 0.1 s, cuts red (lying still) at 0.56 s, then hits white (lying still) full
# at 0.86 s: a carom. The key points follow the two contacts' geometry (line of centres).
YELLOW: Keys = [(0.1, 0.4, 0.6), (0.5627, 0.9553, 0.6), (0.8627, 1.1953, 0.42), (1.1, 1.1953, 0.2776)]
RED_OFF: Keys = [(0.5627, 1.0, 0.64), (0.9, 1.2011, 0.8199)]
WHITE_OFF: Keys = [(0.8627, 1.2553, 0.42), (1.1, 1.4451, 0.42)]
BEFORE = {"yellow": (0.4, 0.6), "red": (1.0, 0.64), "white": (1.2553, 0.42)}


def test_a_clear_carom_gives_both_contacts_and_counts() -> None:
    events = read(track({"yellow": YELLOW, "red": RED_OFF, "white": WHITE_OFF}, 2.0))
    assert contacts(events) == [("red", "yellow"), ("white", "yellow")]
    assert carom_of(events, "libre", BEFORE) == {"carom": True, "decided_by": "contacts"}


# red, rolled off, passes slowly by yellow lying where it stopped, 1 mm further than touching:
# touched or not is unclear (the still yellow does not move, but a crawl could touch and not show)
RED_PASSES_YELLOW: Keys = [*RED_OFF, (1.2, 1.2563, 0.5), (2.2, 1.2563, 0.15)]


def test_an_unclear_touch_after_the_carom_is_made_still_lets_the_carom_count() -> None:
    shot = track({"yellow": YELLOW, "red": RED_PASSES_YELLOW, "white": WHITE_OFF}, 3.0)
    assert contacts(read(shot, game=None)) == []  # every doubt cancels: the referee is asked
    reader = ShotReader(2.84, 1.42, R, game="carom")
    seen = reader.read(shot)
    assert seen.sure and any("unclear" in n for n in seen.notes)
    assert contacts(seen.events) == [("red", "yellow"), ("white", "yellow")]
    assert carom_of(seen.events, "libre", BEFORE) == {"carom": True, "decided_by": "contacts"}


def test_an_unclear_touch_that_could_make_the_carom_leaves_it_to_the_referee() -> None:
    # yellow cuts red, then crawls by white (lying still) 1 mm further than touching
    yellow: Keys = [*YELLOW[:2], (1.5627, 1.1953, 0.42), (2.2627, 1.3553, 0.30)]
    white: Keys = [(0.0, 1.2319, 0.4688)]
    seen = ShotReader(2.84, 1.42, R, game="carom").read(
        track({"yellow": yellow, "red": RED_OFF, "white": white}, 3.0)
    )
    assert not seen.sure and "white-yellow" in seen.doubts[0]
    assert contacts(seen.events) == []
    assert carom_of(seen.events, "libre", {**BEFORE, "white": (1.2319, 0.4688)})["decided_by"] == "none"


def test_a_double_kiss_by_the_cushion_gives_two_contacts() -> None:
    # white lies 4 cm off the foot cushion; yellow hits it full at 0.51 s, white comes back off
    # the cushion and meets yellow again 86 ms later: the balls part by 23 mm between the touches
    yellow: Keys = [(0.1, 2.3, 0.7), (0.51, 2.71, 0.7), (0.5957, 2.7357, 0.7), (0.9957, 2.5757, 0.7)]
    white: Keys = [(0.51, 2.77, 0.7), (0.5671, 2.81, 0.7), (0.5957, 2.7957, 0.7), (0.6457, 2.8057, 0.7)]
    events = read(track({"yellow": yellow, "white": white, "red": [(0.0, 1.0, 0.3)]}, 2.0))
    touches = [e.t for e in events if isinstance(e, Contact)]
    assert contacts(events) == [("white", "yellow")] * 2
    assert abs(touches[0] - 0.51) < 0.01 and abs(touches[1] - 0.5957) < 0.01


def test_a_fast_ball_passing_a_still_one_that_does_not_move_is_no_touch() -> None:
    # yellow passes red at 5 m/s, 1 mm further than touching; red does not stir: no question
    yellow: Keys = [(0.1, 0.5, 0.7), (0.5, 2.5, 0.7)]
    seen = ShotReader(2.84, 1.42, R, game="carom").read(
        track({"yellow": yellow, "red": [(0.0, 1.5, 0.761)], "white": [(0.0, 1.0, 0.3)]}, 1.5)
    )
    assert seen.sure and not seen.notes
    assert contacts(seen.events) == []


def test_a_cue_cushion_just_before_its_third_ball_loses_its_ball_so_libre_counts_and_driebanden_asks() -> (
    None
):
    from tablesense.vision.doubts import judge

    touches = [(0.5, "yellow", "red"), (1.2, "yellow", "white")]
    cushions = [(0.8, "yellow"), (1.195, "yellow"), (1.0, "red")]  # the second: 5 ms before white
    matters, unsure = judge(touches, [], ["yellow"], cushions)
    assert (matters, unsure) == (False, {1})
    events = [
        Strike(t=0.1, ball="yellow"),
        Contact(t=0.5, balls=("yellow", "red")),
        Cushion(t=0.8, cushion=2, ball="yellow"),
        Cushion(t=1.195, cushion=3, ball=None),
        Contact(t=1.2, balls=("yellow", "white")),
        Rest(t=3.0),
    ]
    assert carom_of(events, "libre", BEFORE) == {"carom": True, "decided_by": "contacts"}
    assert carom_of(events, "bandstoten", BEFORE)["decided_by"] == "none"


def test_an_unclear_touch_that_would_change_the_first_ball_matters_and_one_after_it_does_not() -> None:
    from tablesense.vision.doubts import judge

    clear = [(0.5, "yellow", "red"), (1.2, "yellow", "white")]
    assert judge(clear, [(0.4, "yellow", "white")], ["yellow"], [])[0]  # white first, then red
    assert not judge(clear, [(1.5, "yellow", "red")], ["yellow"], [])[0]  # red again, after the carom
    assert not judge(clear, [(0.9, "red", "white")], ["yellow"], [])[0]  # the object balls: no matter
    # the strike unclear: any ball may be the cue ball, and red touching white may make red's carom
    assert judge(clear, [(0.9, "red", "white")], ["yellow", "red", "white"], [])[0]


def test_cushion_piezos_settle_the_cushions_the_camera_was_unsure_of() -> None:
    from tablesense.vision.merge import merge_shot

    camera = [
        Strike(t=0.1, ball="yellow"),
        Contact(t=0.5, balls=("yellow", "red")),
        Cushion(t=0.9, cushion=1, ball=None),  # yellow by cushion 1: touched it or not?
        Cushion(t=1.3, cushion=2, ball="yellow"),
        Contact(t=1.6, balls=("yellow", "white")),
        Rest(t=3.0, positions={"red": [1.0, 0.5]}),
    ]
    maybe = [(0.2, "yellow", 4), (0.9, "yellow", 1)]  # yellow struck off cushion 4: into it first?
    # the piezos heard cushion 1 (yellow's, then) and not 4; cushion 2 at 1.595, 5 ms before white
    sensor = [Cushion(t=0.905, cushion=1), Cushion(t=1.595, cushion=2), Rest(t=3.0)]
    merged = merge_shot(sensor, camera, maybe=maybe)
    said = [(e.t, e.cushion, e.ball) for e in merged if isinstance(e, Cushion)]
    assert said == [(0.905, 1, "yellow"), (1.595, 2, None)]
    assert carom_of(merged, "libre", BEFORE) == {"carom": True, "decided_by": "contacts"}
    assert carom_of(merged, "bandstoten", BEFORE)["decided_by"] == "none"  # cushion 2: before white?
    sensor[1] = Cushion(t=1.3, cushion=2)
    merged = merge_shot(sensor, camera, maybe=maybe)
    assert carom_of(merged, "bandstoten", BEFORE) == {"carom": True, "decided_by": "contacts"}


async def test_live_the_camera_s_unsure_cushion_is_named_by_the_piezo_hit() -> None:
    import asyncio
    import time

    from tablesense.vision.merge import merged

    start = time.monotonic()

    async def sensor():  # the board's piezo heard cushion 4 (no ball), then the rest
        yield Cushion(t=100.0, cushion=4)
        await asyncio.sleep(0.1)
        yield Rest(t=100.1)

    async def camera():  # the camera saw yellow by cushion 4 then, unsure whether it touched
        await asyncio.sleep(0.3)
        events = [Cushion(t=start + 0.01, cushion=4, ball=None), Rest(t=start + 0.09)]
        yield time.monotonic(), events, [(start + 0.01, "yellow", 4)]

    got = [item async for item in merged(sensor(), camera(), wait=2.0)]
    assert [(e.t, e.cushion, e.ball) for e in got if isinstance(e, Cushion)] == [(100.0, 4, "yellow")]


def test_a_ball_unseen_from_the_strike_that_was_touched_leaves_the_shot_to_the_referee() -> None:
    # white lies under the arm (unseen) when yellow, struck, cuts it at 0.3 s; white is first
    # seen rolling at 0.45 s; yellow then hits red. Saying only yellow-red would make a miss.
    yellow: Keys = [(0.1, 0.5, 0.7), (0.3, 0.9553, 0.7), (0.8, 1.44, 0.5), (1.0, 1.44, 0.5)]
    white: Keys = [(0.3, 1.0, 0.74), (0.9, 1.2012, 0.9199)]
    red: Keys = [(0.8, 1.5, 0.5), (1.1, 1.65, 0.5)]
    shot = track({"yellow": yellow, "white": white, "red": red}, 2.0)
    shot.tracks["white"][shot.times < 0.45] = np.nan
    seen = ShotReader(2.84, 1.42, R, game="carom").read(shot)
    assert contacts(seen.events) == [] and any("white hidden" in d for d in seen.doubts)
    assert (
        carom_of(seen.events, "libre", {**BEFORE, "white": (1.0, 0.74), "red": (1.5, 0.5)})["decided_by"]
        == "none"
    )


def test_the_reader_asks_the_game_for_its_pockets_and_how_its_doubts_weigh() -> None:
    """Keglebillard's pockets (corners and long-side middles, on this bed), none for golf or
    carom; carom, by any of its names, weighs a doubt by the carom, every other game by all."""
    from tablesense.vision.hidden import pockets
    from tablesense.vision.weigh import weigh_any, weigh_carom, weigh_for

    assert sorted(pockets("kegle", 2.0, 1.0)) == [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0),
                                                  (2.0, 0.0), (2.0, 1.0)]
    assert pockets("golf", 2.0, 1.0) == pockets("carom", 2.0, 1.0) == pockets(None, 2.0, 1.0) == []
    assert weigh_for("carom") is weigh_for("Biljart") is weigh_carom
    assert weigh_for("kegle") is weigh_for("golf") is weigh_for(None) is weigh_any
