## kegle

kegle_lag = { $player } { $player_plural ->
   *[no] shoots
    [yes] shoot
} first, from the outlay
kegle_outlay = new outlay after a jumped ball
kegle_outlay_request = new outlay for { $player }
kegle_pin = { $pins_count } { $pins_count ->
    [one] pin
   *[other] pins
}: { $points }
kegle_carambole = carambole: { $points }
kegle_series = no points: series of { $run } over
kegle_distance = distance reached
kegle_shot--late-pin = pin { $pin } fell after the balls stopped: it belongs to the shot, which was over only once balls and pins were still
kegle_shot--by-hand = pin { $pin } knocked over between shots, no ball touched: no shot; it is put back up
kegle_shot--hands = the referee: that was the pin referee's hands, no ball played: no shot, the turn stays
kegle_break = half the distance: 5-minute break
kegle_last-series = last series, from a new outlay
kegle_same-series = { $player } { $player_plural ->
   *[no] wins
    [yes] win
}: distance reached, both played { $series } series
kegle_draw = both players reached the distance: a draw
kegle_announce_remaining = { $remaining } remaining
kegle_pin-blocked = pin { $pin } cannot stand because of a ball
kegle_white-in-hole = a white in pocket { $pocket }: it goes on the spot opposite the other white
kegle_red-in-hand = the red goes between the lower cushion and the lower string
kegle_ball-falls = { $ball } fell in pocket { $pocket } after lying still: it is put back, no fault
kegle_ball-falls--replay = a ball fell after lying still: the shot is replayed
kegle_disqualified = { $player } { $player_plural ->
   *[no] is designated the loser
    [yes] are designated the losers
}; { $opponent } { $opponent_plural ->
   *[no] wins
    [yes] win
}
kegle_fault_red-in-hole--which-ball = Which ball fell in pocket { $pocket }?
kegle_fault_jumped-ball = fault: a ball jumped off the table; the shot scores nothing
kegle_fault_pins-not-up = fault: played before the pins were put up; the shot scores nothing
kegle_fault_balls-moving = fault: played before the balls lay still; the shot scores nothing
kegle_fault_touch = fault: touched a ball with the hand, the cue or an object; the shot scores nothing
kegle_fault_touche = fault: touche: touched a ball with something other than the cue tip; the shot scores nothing
kegle_fault_push = fault: the cue was in contact with the red when it hit a ball or a cushion; the shot scores nothing
kegle_fault_frozen = fault: played directly on a ball touching another without freeing it; the shot scores nothing
kegle_fault_foot = fault: played without a foot on the floor; the shot scores nothing
kegle_fault_marks = fault: made direction marks on the rail; the shot scores nothing
kegle_fault_red-in-hole = fault: the red went in a hole; the shot scores nothing
kegle_fault_red-topples-pin = fault: the red toppled a pin; the shot scores nothing
kegle_fault_pin-by-cue = fault: a pin was toppled by the cue, a bridge, clothes or the body; the shot scores nothing
kegle_fault_touch-toppled-pin = fault: touched a toppled pin; the shot scores nothing
kegle_fault_no-cushion = fault: no ball touched a cushion the second time in a row the pins were put up; the shot scores nothing
kegle_fault_three-reds = fault: three reds in a row without a pin; the shot scores nothing
kegle_announce_remaining--announce = { $remaining } remaining
kegle_distance--announce = distance reached
kegle_last-series--announce = last series
kegle_break--announce = 5-minute break

## rules no ruling says: the rule in a line (seeds/kegle.md), where a page or a refusal cites it

kegle_fault_noticed = a fault counts only when it is noticed before the next shot
