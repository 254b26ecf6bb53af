"""Danish keglebillard as the rest of the house sees it (``tablesense.games``)."""

from ...games import Game

GAME = Game(
    name="kegle", order=2,
    aliases=("keglebillard", "kegle billard", "keglebillar", "kegler"),
    quiet_s=2.0,  # pins may rock for a while after the balls stop
    variant="format", variant_default="single",
    played_to="distance",
    by_hand=("pin", "pocket"),
    balls=("red", "white"),
    title="keglebillard",
    camera_balls=(("red", "red", 1), ("white", "white", 2)),
)
