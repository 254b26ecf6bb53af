"""Golf billiards as the rest of the house sees it (``tablesense.games``)."""

from ...games import Game

GAME = Game(
    name="golf", order=1,
    aliases=("golfbiljart", "golf billiards", "golf-billiards", "bumper pool"),
    quiet_s=1.5,
    turn_clock=50,  # seed 000, the golf rules: 50 seconds from the balls coming to rest
    variant="format", variant_default="single",
    by_hand=("goal",),
    balls=("p1", "p2"),
    # the stock sets are red and yellow (hardware/profiles/golf.toml's learned colours)
    card_colours=(("p1", "red"), ("p2", "yellow")),
    title="golf billiards",
    tv=("next_up",),  # a duo: who of each side plays next
    camera_balls=(("p1", "red", 5), ("p2", "yellow", 5)),
    camera_colours_chosen=True,
    camera_cushions=False,  # golf's cushions are not the bed's four straight sides
)
