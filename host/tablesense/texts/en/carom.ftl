## carom

carom_foul_touch--fault = fault: { $foul }
carom_foul_touch_remove-object--fault = fault: { $foul }
carom_foul_touch_moved--fault = fault: { $foul }
carom_foul_push--fault = fault: { $foul }
carom_foul_foot--fault = fault: { $foul }
carom_foul_stool--fault = fault: { $foul }
carom_foul_wrong-ball--fault = fault: { $foul }
carom_foul_moving-balls--fault = fault: { $foul }
carom_foul_smoking--fault = fault: { $foul }
carom_jump--fault = fault: { $foul }
carom_jump_driebanden--fault = fault: { $foul }
carom_dedans_reste--fault = fault: { $foul }
carom_opening-shot_direct--fault = fault: { $foul }
carom_opening-shot_cushion--fault = fault: { $foul }
carom_foul_no-blame--fault = fault: { $foul }
carom_poedel--fault = fault: { $foul }
carom_foul_woodwork--fault = fault: woodwork (the balls stay where they lie)
carom_outlay--break = { $player } { $player_plural ->
   *[no] breaks
    [yes] break
} from the outlay
carom_outlay--respot = all balls to the outlay
carom_referee_amend = the referee's { $call } call amends the last shot
carom_frozen = frozen ball: { $choice }
carom_frozen_libre = { carom_frozen }
carom_frozen_driebanden = { carom_frozen }
carom_foul_no-blame = a fault the player is not to blame for: the shot does not count
carom_bandstoten = { $cushions } cushion(s) before the third ball; bandstoten needs { $need }
carom_driebanden = { $cushions } cushion(s) before the third ball; driebanden needs { $need }
carom_libre = { $cushions } cushion(s) before the third ball; libre needs { $need }
carom_wrong-ball_counted = the referee counted the carom made with the wrong ball: it stands
carom_foul_carom-void = the carom of a faulty shot does not count
carom_carom = carom { $made }
carom_last-carom = { $player } { $player_plural ->
   *[no] has
    [yes] have
} made the target of { $target }
carom_poedel = POEDEL { $player }
carom_inning_end = { $run } { $run ->
    [one] carom
   *[other] caroms
} in the inning
carom_series = series of { $run }
carom_nastoot = { $player } { $player_plural ->
   *[no] plays
    [yes] play
} the equalising inning (outlay)
carom_draw = both targets made: a draw
carom_match_won = { $player } { $player_plural ->
   *[no] wins
    [yes] win
}
carom_shot-clock--timeout = { $player } { $player_plural ->
   *[no] takes
    [yes] take
} a time-out: { $seconds } s more ({ $left } left)
carom_innings-limit = the { $innings } innings are up: { $player } { $player_plural ->
   *[no] wins
    [yes] win
} on the share of the target
carom_innings-limit--draw = the { $innings } innings are up with the same share of the target: a draw
carom_match_won--short = the equalising inning fell short: { $player } { $player_plural ->
   *[no] wins
    [yes] win
}
carom_match-points_de-bruijn = match points { $p1 }-{ $p2 } ({ $scheme })
carom_zone = a ball has left the zone
carom_zone_line = a ball on the line counts as in the zone
carom_zone_dedans = DEDANS ({ $corner })
carom_zone_entree = ENTREE ({ $corner })
carom_countdown = { $player }: { $left } to go
carom_referee_warning = { $text_given ->
    [yes] { $text }
   *[no] the referee warns the player
}
carom_referee_show-ball = { $text_given ->
    [yes] { $text }
   *[no] the referee shows the player his ball
}
carom_referee_duties = { $text_given ->
    [yes] { $text }
   *[no] the referee's duties
}
carom_referee_change = { $text_given ->
    [yes] { $text }
   *[no] the referee changes
}
carom_protest = { $text_given ->
    [yes] { $text }
   *[no] a protest is made to the referee
}
carom_interruption = { $text_given ->
    [yes] { $text }
   *[no] the match is interrupted
}
carom_schedule = { $text_given ->
    [yes] { $text }
   *[no] the match schedule
}
carom_board-decides = { $text_given ->
    [yes] { $text }
   *[no] the board decides
}

## rules no ruling says: the rule in a line (seeds/carom.md), where a page or a refusal cites it

carom_masse = massé and piqué at the player's own risk: not a fault
carom_target_play-out = the match is played until a player reaches his target
carom_target_moyenne = the target is the player's moyenne × 25
carom_target_minimum = a target is at least 20 caroms
carom_league_winner = the competition's winner has the most match points
carom_league_barrage = level on points at the top: a barrage match decides
carom_league_moyenne = after each half season every player's moyenne is set anew
carom_league_new-members = a member who joins during a competition plays no matches in it
carom_league_visitors-break = in a competition match the visiting club breaks
carom_equipment = three balls: two white (one marked, or yellow) and one red
