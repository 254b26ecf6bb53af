## carom

carom_foul_touch--fault = fejl: { $foul }
carom_foul_touch_remove-object--fault = fejl: { $foul }
carom_foul_touch_moved--fault = fejl: { $foul }
carom_foul_push--fault = fejl: { $foul }
carom_foul_foot--fault = fejl: { $foul }
carom_foul_stool--fault = fejl: { $foul }
carom_foul_wrong-ball--fault = fejl: { $foul }
carom_foul_moving-balls--fault = fejl: { $foul }
carom_foul_smoking--fault = fejl: { $foul }
carom_jump--fault = fejl: { $foul }
carom_jump_driebanden--fault = fejl: { $foul }
carom_dedans_reste--fault = fejl: { $foul }
carom_opening-shot_direct--fault = fejl: åbningsstødet gik ikke direkte på den røde
carom_opening-shot_cushion--fault = fejl: åbningsstødet gik ikke fra den røde via en eller flere bander
carom_foul_no-blame--fault = fejl: { $foul }
carom_poedel--fault = fejl: { $foul }
carom_foul_woodwork--fault = fejl: rørte træværket (kuglerne bliver liggende, hvor de ligger)
carom_outlay--break = { $player } åbner fra udlægget
carom_outlay--respot = alle kugler på udlægget
carom_referee_amend = dommerens kendelse '{ $call }' retter sidste stød
carom_frozen = anliggende kugle: { $choice }
carom_frozen_libre = { carom_frozen }
carom_frozen_driebanden = { carom_frozen }
carom_foul_no-blame = en fejl spilleren ikke har skyld i: stødet tæller ikke
carom_bandstoten = { $cushions } { $cushions ->
    [one] bande
   *[other] bander
} før tredje kugle; enbande kræver { $need }
carom_driebanden = { $cushions } { $cushions ->
    [one] bande
   *[other] bander
} før tredje kugle; trebande kræver { $need }
carom_libre = { $cushions } { $cushions ->
    [one] bande
   *[other] bander
} før tredje kugle; fripartie kræver { $need }
carom_wrong-ball_counted = dommeren talte carambolen med den forkerte kugle: den står ved magt
carom_foul_carom-void = carambolen i et fejlstød tæller ikke
carom_carom = carambole { $made }
carom_last-carom = { $player } har nået målet på { $target }
carom_poedel = NUL { $player }
carom_inning_end = { $run } { $run ->
    [one] carambole
   *[other] caramboler
} i indgangen
carom_series = serie på { $run }
carom_nastoot = { $player } spiller udligningsindgangen (fra udlægget)
carom_draw = begge har nået deres mål: uafgjort
carom_match_won = { $player } vinder
carom_shot-clock--timeout = { $player } tager en time-out: { $seconds } s mere ({ $left } tilbage)
carom_innings-limit = de { $innings } indgange er brugt: { $player } vinder på andelen af målet
carom_innings-limit--draw = de { $innings } indgange er brugt med samme andel af målet: uafgjort
carom_match_won--short = udligningsindgangen slog ikke til: { $player } vinder
carom_match-points_de-bruijn = matchpoint { $p1 }-{ $p2 } ({ $scheme })
carom_zone = en kugle har forladt zonen
carom_zone_line = en kugle på linjen regnes som i zonen
carom_zone_dedans = DEDANS ({ $corner })
carom_zone_entree = ENTREE ({ $corner })
carom_countdown = { $player }: { $left } mangler
carom_referee_warning = { $text_given ->
    [yes] { $text }
   *[no] dommeren advarer spilleren
}
carom_referee_show-ball = { $text_given ->
    [yes] { $text }
   *[no] dommeren viser spilleren hvilken kugle der er hans
}
carom_referee_duties = { $text_given ->
    [yes] { $text }
   *[no] dommerens pligter
}
carom_referee_change = { $text_given ->
    [yes] { $text }
   *[no] dommerskifte
}
carom_protest = { $text_given ->
    [yes] { $text }
   *[no] der protesteres til dommeren
}
carom_interruption = { $text_given ->
    [yes] { $text }
   *[no] kampen afbrydes
}
carom_schedule = { $text_given ->
    [yes] { $text }
   *[no] kampprogrammet
}
carom_board-decides = { $text_given ->
    [yes] { $text }
   *[no] bestyrelsen afgør
}

## rules no ruling says: the rule in a line (seeds/carom.md), where a page or a refusal cites it

carom_masse = massé og piqué på spillerens egen risiko: ingen fejl
carom_target_play-out = kampen spilles, til en spiller når sit mål
carom_target_moyenne = målet er spillerens gennemsnit × 25
carom_target_minimum = et mål er mindst 20 caramboler
carom_league_winner = turneringens vinder har flest matchpoint
carom_league_barrage = lige på point i toppen: en omkamp afgør
carom_league_moyenne = efter hver halvsæson fastsættes hver spillers gennemsnit på ny
carom_league_new-members = et medlem, der kommer til under turneringen, spiller ingen kampe i den
carom_league_visitors-break = i turneringskampe åbner den besøgende klub
carom_equipment = tre kugler: to hvide (den ene mærket, eller gul) og en rød
