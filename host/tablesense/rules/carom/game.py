"""Dutch carom as the rest of the house sees it (``tablesense.games``)."""

from ...games import Game

GAME = Game(
    name="carom", order=3,
    aliases=("caram", "carambole", "biljart", "billiards"),
    quiet_s=1.5,
    shot_clock=True,  # a turn clock only where the competition uses one (the set-up's shot_clock)
    variant="profile", variant_default=None,  # the club's profile picks the fouls
    played_to="targets",
    by_hand=("cushion",),
    balls=("white", "yellow", "red"),
    card_colours=(("p1", "yellow"), ("p2", "white")),  # docs/events.md
    title="carom",
    table_sizes=True,
    camera_balls=(("white", "white", 1), ("yellow", "yellow", 1), ("red", "red", 1)),
)
