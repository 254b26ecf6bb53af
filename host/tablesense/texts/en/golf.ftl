## golf

golf_goal--whose = Whose ball dropped into goal { $goal }?
golf_off-table_own--whose = Whose ball left the table?
golf_goal = valid goal in goal { $goal }: { $player } { $player_plural ->
   *[no] stays
    [yes] stay
} at the table
golf_goal--turn-lost = valid goal in goal { $goal }: it counts, but this shot costs { $player } the turn
golf_own-goal--count = own ball in own goal { $goal }: does not count, the ball goes on a replacement spot, turn over
golf_goal_opponent-ball = { $player }'s ball into goal { $goal } counts for { $player }; the turn passes
golf_goal_edge = the ball dropped after it had come to rest: it does not count and is put back on the goal edge
golf_goal_edge--late = the ball dropped into goal { $goal } after the balls had come to rest: it does not count and is put back on the goal edge
golf_turn = no valid goal of their own: the turn passes to { $opponent }
golf_off-table_own = own ball off the table: on a replacement spot
golf_off-table_own--goal-lost = own ball off the table: on a replacement spot; the valid goal of this shot costs the turn
golf_off-table_opponent = { $opponent }'s ball off the table goes into the goal; the ball played goes on a replacement spot
golf_off-table_opponent--goal-lost = { $opponent }'s ball off the table goes into the goal; the ball played goes on a replacement spot; the valid goal of this shot costs the turn
golf_off-table_one-one = at 1/1 { $player } sent { $opponent }'s ball off the table and scored: { $player } { $player_plural ->
   *[no] loses
    [yes] lose
} the frame
golf_off-table_on-cushion = the ball stayed on the cushion, a goal peg or the goal cap: it counts as off the table
golf_off-table_rail-return = the ball came back onto the bed off the rail: no penalty
golf_wedged_attacking-goal = wedged between the pegs of the goal it attacks, clear of the bed: a valid goal
golf_wedged_defending-goal = wedged between the pegs of its own goal: on a replacement spot
golf_wedged_cushion = wedged between a peg and the short cushion: freed and laid loose
golf_spot_choice = { $player } { $player_plural ->
   *[no] chooses
    [yes] choose
} replacement spot { $spot } for { $ball }'s ball
golf_spot_fallback = replacement spots 1-3 are taken: the ball goes on replacement spot { $spot }
golf_spot_fallback--chosen = spots 1-3 unusable: { $ball }'s ball on replacement spot { $spot }
golf_spot_fallback--named = { $player } { $player_plural ->
   *[no] chooses
    [yes] choose
} replacement spot { $spot } for { $ball }'s ball
golf_spot_repeat = fouled from replacement spot { $from_spot }: the ball goes on replacement spot { $spot }
golf_zone_play = a player has one ball left: zone play begins
golf_frame_double-finish = both last balls dropped in one shot; { $player }'s dropped first, { $gap_us } µs earlier
golf_frame_opening = { $member_name } opens frame { $frame }
golf_duo_deciding = { golf_frame_opening }
golf_frame_opening--second = frame { $frame }: { $player } { $player_plural ->
   *[no] opens; the other player opens
    [yes] open; the other pair opens
} the second frame
golf_frame_opening--deciding = frame { $frame }: { $player } { $player_plural ->
   *[no] opens
    [yes] open
}; deciding frame: the opening is decided again (a 'start' call), by default as in frame 1
golf_frame_won--1-0 = frame { $frame } to { $player } (1-0)
golf_frame_won--0-1 = frame { $frame } to { $player } (0-1)
golf_frame_won--1-1 = frame { $frame } to { $player } (1-1)
golf_frame_won--2-0 = frame { $frame } to { $player } (2-0)
golf_match_won--2-0 = { $player } { $player_plural ->
   *[no] wins
    [yes] win
} the match 2-0
golf_frame_won--0-2 = frame { $frame } to { $player } (0-2)
golf_match_won--0-2 = { $player } { $player_plural ->
   *[no] wins
    [yes] win
} the match 0-2
golf_frame_won--2-1 = frame { $frame } to { $player } (2-1)
golf_match_won--2-1 = { $player } { $player_plural ->
   *[no] wins
    [yes] win
} the match 2-1
golf_frame_won--1-2 = frame { $frame } to { $player } (1-2)
golf_match_won--1-2 = { $player } { $player_plural ->
   *[no] wins
    [yes] win
} the match 1-2
golf_foul_foot = played without a foot on the floor: turn lost, the moved balls are put back
golf_foul_foot--zone = played without a foot on the floor: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_jump = played directly over pegs or balls: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_jump--zone = played directly over pegs or balls: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_lift = lifted the ball over the nearest cushion from the long-cushion zone: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_lift--zone = lifted the ball over the nearest cushion from the long-cushion zone: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_hard-shot = hard, fast shot at goal from below the shot line: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_hard-shot--zone = hard, fast shot at goal from below the shot line: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_aim-behind = took up position behind an opponent's ball: turn lost
golf_foul_aim-behind--zone = took up position behind an opponent's ball: turn lost, { $opponent } { $opponent_plural ->
   *[no] points
    [yes] point
} out a ball to be placed on a replacement spot
golf_foul_opponent-ball = played with an opponent's ball: turn lost, the moved balls are put back
golf_foul_opponent-ball--zone = played with an opponent's ball: turn lost, the moved balls are put back, { $opponent } { $opponent_plural ->
   *[no] points
    [yes] point
} out a ball to be placed on a replacement spot
golf_foul_not-at-rest = aimed or played before the balls had come to rest: turn lost, the moved balls are put back
golf_foul_not-at-rest--zone = aimed or played before the balls had come to rest: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touch = touched a ball: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touch--zone = touched a ball: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touch_no-shot = touched a ball without playing a shot: turn lost, the moved balls are put back
golf_foul_touch_no-shot--zone = touched a ball without playing a shot: turn lost, the moved balls are put back
golf_foul_touch_own-ball = touched one of their own balls during zone play: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touch_own-ball--zone = touched one of their own balls during zone play: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touch_opponent-ball = touched an opponent's ball during zone play: turn lost, the moved balls are put back
golf_foul_touch_opponent-ball--zone = touched an opponent's ball during zone play: turn lost, the moved balls are put back, { $opponent } { $opponent_plural ->
   *[no] points
    [yes] point
} out a ball to be placed on a replacement spot
golf_foul_hold_own-ball = held back, nudged or deflected one of their own balls: turn lost, the moved balls are put back, the touched ball goes on a replacement spot
golf_foul_hold_own-ball--zone = held back, nudged or deflected one of their own balls: turn lost, the moved balls are put back, the touched ball goes on a replacement spot
golf_foul_hold_opponent-ball = held back, nudged or deflected an opponent's ball: turn lost, the moved balls are put back, the ball played goes on a replacement spot, the touched ball goes into the goal and counts for { $opponent }
golf_foul_hold_opponent-ball--zone = held back, nudged or deflected an opponent's ball: turn lost, the moved balls are put back, the ball played goes on a replacement spot, the touched ball goes into the goal and counts for { $opponent }
golf_foul_push = kept the cue tip against the ball (push shot): turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_push--zone = kept the cue tip against the ball (push shot): turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touching-ball = moved a touching ball when not playing away from it: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_touching-ball--zone = moved a touching ball when not playing away from it: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_push-through = pushed through at a ball touching the front or outer side peg: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_push-through--zone = pushed through at a ball touching the front or outer side peg: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_own-ball = played their own ball directly onto another of their own balls: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_foul_own-ball--zone = played their own ball directly onto another of their own balls: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_triangle_defensive = left their ball in the large defensive triangle: turn lost, the moved balls are put back, the ball goes on a replacement spot
golf_triangle_defensive--zone = left their ball in the large defensive triangle: turn lost, the moved balls are put back, the ball goes on a replacement spot
golf_triangle_defensive_several = left none of several balls out of the large defensive triangle: turn lost, the moved balls are put back, all { $balls } balls go on replacement spots
golf_triangle_defensive_several--zone = { golf_triangle_defensive_several }
golf_triangle_attacking = ended in the large attacking triangle while the defender's ball lies in the small triangle: turn lost, the ball goes on a replacement spot
golf_triangle_attacking--zone = ended in the large attacking triangle while the defender's ball lies in the small triangle: turn lost, the ball goes on a replacement spot
golf_zone_leave = no ball left its zone in zone play: turn lost, the ball played goes on a replacement spot
golf_zone_leave--zone = no ball left its zone in zone play: turn lost, the ball played goes on a replacement spot
golf_duo_opening = the wrong player of the duo took the opening shot: turn lost, the ball played goes on a replacement spot
golf_duo_opening--zone = the wrong player of the duo took the opening shot: turn lost, the ball played goes on a replacement spot
golf_duo_order = played out of the duo's order of play: turn lost, the moved balls are put back
golf_duo_order--zone = played out of the duo's order of play: turn lost, the moved balls are put back, the ball played goes on a replacement spot
golf_duo_consult = team-mate pointed, gestured or came within 1 metre: turn lost
golf_duo_consult--zone = team-mate pointed, gestured or came within 1 metre: turn lost
golf_own-goal = played their own ball into their own goal (called by the referee): turn lost, the ball played goes on a replacement spot
golf_own-goal--zone = played their own ball into their own goal (called by the referee): turn lost, the ball played goes on a replacement spot
golf_clock = did not play within the time (50 s, TIME, 10 s): turn lost
golf_clock--zone = did not play within the time (50 s, TIME, 10 s): turn lost, { $opponent } { $opponent_plural ->
   *[no] points
    [yes] point
} out a ball to be placed on a replacement spot

## rules no ruling says: the rule in a line (seeds/golf.md), where a page or a refusal cites it

golf_table = the table: a 1.80 x 0.90 m bed without corner pockets, twelve pegs, fifteen zones for zone play
golf_balls = ten balls, five per player
