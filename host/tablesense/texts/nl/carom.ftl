## carom

carom_foul_touch--fault = fout: { $foul }
carom_foul_touch_remove-object--fault = fout: { $foul }
carom_foul_touch_moved--fault = fout: { $foul }
carom_foul_push--fault = fout: { $foul }
carom_foul_foot--fault = fout: { $foul }
carom_foul_stool--fault = fout: { $foul }
carom_foul_wrong-ball--fault = fout: { $foul }
carom_foul_moving-balls--fault = fout: { $foul }
carom_foul_smoking--fault = fout: { $foul }
carom_jump--fault = fout: { $foul }
carom_jump_driebanden--fault = fout: { $foul }
carom_dedans_reste--fault = fout: { $foul }
carom_opening-shot_direct--fault = fout: afstoot niet rechtstreeks via de rode bal
carom_opening-shot_cushion--fault = fout: afstoot niet van de rode bal via één of meer banden
carom_foul_no-blame--fault = fout: { $foul }
carom_poedel--fault = fout: { $foul }
carom_foul_woodwork--fault = fout: houtwerk geraakt (de ballen blijven liggen waar ze liggen)
carom_outlay--break = { $player } { $player_plural ->
   *[no] stoot
    [yes] stoten
} af vanuit de beginpositie
carom_outlay--respot = alle ballen in de beginpositie
carom_referee_amend = de beslissing '{ $call }' van de arbiter wijzigt de laatste stoot
carom_frozen = vastliggende bal: { $choice }
carom_frozen_libre = { carom_frozen }
carom_frozen_driebanden = { carom_frozen }
carom_foul_no-blame = een fout zonder schuld van de speler: de stoot telt niet
carom_bandstoten = { $cushions } { $cushions ->
    [one] band
   *[other] banden
} voor de derde bal; bandstoten vraagt er { $need }
carom_driebanden = { $cushions } { $cushions ->
    [one] band
   *[other] banden
} voor de derde bal; driebanden vraagt er { $need }
carom_libre = { $cushions } { $cushions ->
    [one] band
   *[other] banden
} voor de derde bal; libre vraagt er { $need }
carom_wrong-ball_counted = de arbiter telde de carambole met de verkeerde bal: die blijft geldig
carom_foul_carom-void = de carambole van een foute stoot telt niet
carom_carom = carambole { $made }
carom_last-carom = { $player } { $player_plural ->
   *[no] heeft
    [yes] hebben
} de partij van { $target } uitgemaakt
carom_poedel = POEDEL { $player }
carom_inning_end = { $run } { $run ->
    [one] carambole
   *[other] caramboles
} in de beurt
carom_series = serie van { $run }
carom_nastoot = { $player } { $player_plural ->
   *[no] speelt
    [yes] spelen
} de nastoot (vanuit de beginpositie)
carom_draw = beide spelers hebben hun partij uitgemaakt: remise
carom_match_won = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
}
carom_shot-clock--timeout = { $player } { $player_plural ->
   *[no] neemt
    [yes] nemen
} een time-out: { $seconds } s extra (nog { $left })
carom_innings-limit = de beurtenlimiet van { $innings } is bereikt: { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
} op het percentage van de partij
carom_innings-limit--draw = de beurtenlimiet van { $innings } is bereikt, gelijk percentage: remise
carom_match_won--short = de nastoot bleef te kort: { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
}
carom_match-points_de-bruijn = partijpunten { $p1 }-{ $p2 } ({ $scheme })
carom_zone = een bal heeft de verboden zone verlaten
carom_zone_line = een bal op de lijn geldt als in de zone
carom_zone_dedans = DEDANS ({ $corner })
carom_zone_entree = ENTREE ({ $corner })
carom_countdown = { $player }: nog { $left }
carom_referee_warning = { $text_given ->
    [yes] { $text }
   *[no] de arbiter waarschuwt de speler
}
carom_referee_show-ball = { $text_given ->
    [yes] { $text }
   *[no] de arbiter wijst de speler zijn speelbal aan
}
carom_referee_duties = { $text_given ->
    [yes] { $text }
   *[no] de taken van de arbiter
}
carom_referee_change = { $text_given ->
    [yes] { $text }
   *[no] wisseling van arbiter
}
carom_protest = { $text_given ->
    [yes] { $text }
   *[no] protest bij de arbiter
}
carom_interruption = { $text_given ->
    [yes] { $text }
   *[no] de partij wordt onderbroken
}
carom_schedule = { $text_given ->
    [yes] { $text }
   *[no] het wedstrijdschema
}
carom_board-decides = { $text_given ->
    [yes] { $text }
   *[no] het bestuur beslist
}

## rules no ruling says: the rule in a line (seeds/carom.md), where a page or a refusal cites it

carom_masse = massé en piqué op eigen risico van de speler: geen fout
carom_target_play-out = de partij wordt gespeeld tot een speler zijn partij heeft uitgemaakt
carom_target_moyenne = de partij is het moyenne van de speler × 25
carom_target_minimum = een partij is minstens 20 caramboles
carom_league_winner = de kampioen van de competitie heeft de meeste partijpunten
carom_league_barrage = gelijk aan punten aan de top: een barragepartij beslist
carom_league_moyenne = na elke halve competitie wordt het moyenne van elke speler opnieuw vastgesteld
carom_league_new-members = wie tijdens de competitie lid wordt, speelt daarin geen partijen
carom_league_visitors-break = bij competitiewedstrijden stoot de bezoekende club af
carom_equipment = drie ballen: twee witte (één gemerkt, of geel) en één rode
