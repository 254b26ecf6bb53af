"""Golf billiards as the rest of the house sees it (``tablesense.games``)."""

from ...games import Game

GAME = Game(
    name="golf", order=1,
    aliases=("golfbiljart", "golf billiards", "golf-billiards", "bumper pool"),
    quiet_s=1.5,
    turn_clock=50,  # seed 000, the golf rules: 50 seconds from the balls coming to rest
    variant="format", variant_default="single",
    by_hand=("goal",),
    tv=("next_up",),  # a duo: who of each side plays next
)
