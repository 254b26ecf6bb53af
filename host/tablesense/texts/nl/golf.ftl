## golf

golf_goal--whose = Wiens bal viel in doel { $goal }?
golf_off-table_own--whose = Wiens bal ging van de tafel?
golf_goal = geldig doelpunt in doel { $goal }: { $player } { $player_plural ->
   *[no] blijft
    [yes] blijven
} aan tafel
golf_goal--turn-lost = geldig doelpunt in doel { $goal }: het telt, maar deze stoot kost { $player } de beurt
golf_own-goal--count = eigen bal in eigen doel { $goal }: telt niet, de bal gaat naar een vervangplek, de beurt gaat over
golf_goal_opponent-ball = de bal van { $player } in doel { $goal } telt voor { $player }; de beurt gaat over
golf_goal_edge = de bal viel pas nadat hij stil lag: hij telt niet en wordt teruggelegd op de rand van het doel
golf_goal_edge--late = de bal viel in doel { $goal } nadat de ballen stil lagen: hij telt niet en wordt teruggelegd op de rand van het doel
golf_turn = geen geldig doelpunt met een eigen bal: de beurt gaat naar { $opponent }
golf_off-table_own = eigen bal van de tafel: naar een vervangplek
golf_off-table_own--goal-lost = eigen bal van de tafel: naar een vervangplek; het geldige doelpunt van deze stoot kost de beurt
golf_off-table_opponent = de bal van { $opponent } van de tafel gaat in het doel; de gespeelde bal gaat naar een vervangplek
golf_off-table_opponent--goal-lost = de bal van { $opponent } van de tafel gaat in het doel; de gespeelde bal gaat naar een vervangplek; het geldige doelpunt van deze stoot kost de beurt
golf_off-table_one-one = bij 1/1 { $player_plural ->
   *[no] speelde { $player } de bal van { $opponent } van de tafel en scoorde: { $player } verliest het spel
    [yes] speelden { $player } de bal van { $opponent } van de tafel en scoorden: { $player } verliezen het spel
}
golf_off-table_on-cushion = de bal bleef op de band, een doelpin of de doelkap liggen: hij geldt als van de tafel
golf_off-table_rail-return = de bal kwam van de rand terug op het laken: geen straf
golf_wedged_attacking-goal = klem tussen de pinnen van het doel dat hij aanvalt, los van het laken: een geldig doelpunt
golf_wedged_defending-goal = klem tussen de pinnen van het eigen doel: naar een vervangplek
golf_wedged_cushion = klem tussen een pin en de korte band: losgemaakt en los neergelegd
golf_spot_choice = { $player } { $player_plural ->
   *[no] kiest
    [yes] kiezen
} vervangplek { $spot } voor de bal van { $ball }
golf_spot_fallback = vervangplekken 1-3 zijn bezet: de bal gaat naar vervangplek { $spot }
golf_spot_fallback--chosen = plekken 1-3 onbruikbaar: de bal van { $ball } op vervangplek { $spot }
golf_spot_fallback--named = { $player } { $player_plural ->
   *[no] kiest
    [yes] kiezen
} vervangplek { $spot } voor de bal van { $ball }
golf_spot_repeat = fout vanaf vervangplek { $from_spot }: de bal gaat naar vervangplek { $spot }
golf_zone_play = een speler heeft nog één bal: het zonespel begint
golf_frame_double-finish = beide laatste ballen vielen in één stoot; die van { $player } viel eerst, { $gap_us } µs eerder
golf_frame_opening = { $member_name } opent spel { $frame }
golf_duo_deciding = { golf_frame_opening }
golf_frame_opening--second = spel { $frame }: { $player } { $player_plural ->
   *[no] opent; de andere speler opent
    [yes] openen; het andere koppel opent
} het tweede spel
golf_frame_opening--deciding = spel { $frame }: { $player } { $player_plural ->
   *[no] opent
    [yes] openen
}; beslissend spel: wie opent wordt opnieuw bepaald (een 'start'-beslissing), standaard zoals in spel 1
golf_frame_won--1-0 = spel { $frame } voor { $player } (1-0)
golf_frame_won--0-1 = spel { $frame } voor { $player } (0-1)
golf_frame_won--1-1 = spel { $frame } voor { $player } (1-1)
golf_frame_won--2-0 = spel { $frame } voor { $player } (2-0)
golf_match_won--2-0 = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
} de partij 2-0
golf_frame_won--0-2 = spel { $frame } voor { $player } (0-2)
golf_match_won--0-2 = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
} de partij 0-2
golf_frame_won--2-1 = spel { $frame } voor { $player } (2-1)
golf_match_won--2-1 = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
} de partij 2-1
golf_frame_won--1-2 = spel { $frame } voor { $player } (1-2)
golf_match_won--1-2 = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
} de partij 1-2
golf_foul_foot = gespeeld zonder een voet op de grond: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_foot--zone = gespeeld zonder een voet op de grond: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_jump = rechtstreeks over pinnen of ballen gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_jump--zone = rechtstreeks over pinnen of ballen gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_lift = de bal vanuit de langebandzone over de dichtstbijzijnde band getild: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_lift--zone = de bal vanuit de langebandzone over de dichtstbijzijnde band getild: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_hard-shot = harde, snelle stoot op het doel van onder de schotlijn: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_hard-shot--zone = harde, snelle stoot op het doel van onder de schotlijn: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_aim-behind = achter een bal van de tegenstander gaan staan: beurt verloren
golf_foul_aim-behind--zone = achter een bal van de tegenstander gaan staan: beurt verloren, { $opponent } { $opponent_plural ->
   *[no] wijst
    [yes] wijzen
} een bal aan die naar een vervangplek gaat
golf_foul_opponent-ball = met een bal van de tegenstander gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_opponent-ball--zone = met een bal van de tegenstander gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, { $opponent } { $opponent_plural ->
   *[no] wijst
    [yes] wijzen
} een bal aan die naar een vervangplek gaat
golf_foul_not-at-rest = gemikt of gespeeld voor de ballen stil lagen: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_not-at-rest--zone = gemikt of gespeeld voor de ballen stil lagen: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touch = een bal aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touch--zone = een bal aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touch_no-shot = een bal aangeraakt zonder een stoot te spelen: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_touch_no-shot--zone = een bal aangeraakt zonder een stoot te spelen: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_touch_own-ball = in het zonespel een eigen bal aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touch_own-ball--zone = in het zonespel een eigen bal aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touch_opponent-ball = in het zonespel een bal van de tegenstander aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd
golf_foul_touch_opponent-ball--zone = in het zonespel een bal van de tegenstander aangeraakt: beurt verloren, de verplaatste ballen worden teruggelegd, { $opponent } { $opponent_plural ->
   *[no] wijst
    [yes] wijzen
} een bal aan die naar een vervangplek gaat
golf_foul_hold_own-ball = een eigen bal tegengehouden, aangeduwd of afgebogen: beurt verloren, de verplaatste ballen worden teruggelegd, de aangeraakte bal gaat naar een vervangplek
golf_foul_hold_own-ball--zone = een eigen bal tegengehouden, aangeduwd of afgebogen: beurt verloren, de verplaatste ballen worden teruggelegd, de aangeraakte bal gaat naar een vervangplek
golf_foul_hold_opponent-ball = een bal van de tegenstander tegengehouden, aangeduwd of afgebogen: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek, de aangeraakte bal gaat in het doel en telt voor { $opponent }
golf_foul_hold_opponent-ball--zone = een bal van de tegenstander tegengehouden, aangeduwd of afgebogen: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek, de aangeraakte bal gaat in het doel en telt voor { $opponent }
golf_foul_push = de pomerans tegen de bal gehouden (duwstoot): beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_push--zone = de pomerans tegen de bal gehouden (duwstoot): beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touching-ball = een rakende bal bewogen zonder ervan weg te spelen: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_touching-ball--zone = een rakende bal bewogen zonder ervan weg te spelen: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_push-through = doorgeduwd op een bal tegen de voorste of buitenste zijpin: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_push-through--zone = doorgeduwd op een bal tegen de voorste of buitenste zijpin: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_own-ball = de eigen bal rechtstreeks op een andere eigen bal gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_foul_own-ball--zone = de eigen bal rechtstreeks op een andere eigen bal gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_triangle_defensive = de bal in de grote verdedigingsdriehoek laten liggen: beurt verloren, de verplaatste ballen worden teruggelegd, de bal gaat naar een vervangplek
golf_triangle_defensive--zone = de bal in de grote verdedigingsdriehoek laten liggen: beurt verloren, de verplaatste ballen worden teruggelegd, de bal gaat naar een vervangplek
golf_triangle_defensive_several = geen van de ballen uit de grote verdedigingsdriehoek gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, alle { $balls } ballen gaan naar vervangplekken
golf_triangle_defensive_several--zone = { golf_triangle_defensive_several }
golf_triangle_attacking = in de grote aanvalsdriehoek geëindigd terwijl de bal van de verdediger in de kleine driehoek ligt: beurt verloren, de bal gaat naar een vervangplek
golf_triangle_attacking--zone = in de grote aanvalsdriehoek geëindigd terwijl de bal van de verdediger in de kleine driehoek ligt: beurt verloren, de bal gaat naar een vervangplek
golf_zone_leave = in het zonespel verliet geen bal zijn zone: beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_zone_leave--zone = in het zonespel verliet geen bal zijn zone: beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_duo_opening = de verkeerde speler van het duo nam de openingsstoot: beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_duo_opening--zone = de verkeerde speler van het duo nam de openingsstoot: beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_duo_order = buiten de volgorde van het duo gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd
golf_duo_order--zone = buiten de volgorde van het duo gespeeld: beurt verloren, de verplaatste ballen worden teruggelegd, de gespeelde bal gaat naar een vervangplek
golf_duo_consult = de partner wees, gebaarde of kwam binnen 1 meter: beurt verloren
golf_duo_consult--zone = de partner wees, gebaarde of kwam binnen 1 meter: beurt verloren
golf_own-goal = de eigen bal in het eigen doel gespeeld (gemeld door de scheidsrechter): beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_own-goal--zone = de eigen bal in het eigen doel gespeeld (gemeld door de scheidsrechter): beurt verloren, de gespeelde bal gaat naar een vervangplek
golf_clock = niet binnen de tijd gespeeld (50 s, TIME, 10 s): beurt verloren
golf_clock--zone = niet binnen de tijd gespeeld (50 s, TIME, 10 s): beurt verloren, { $opponent } { $opponent_plural ->
   *[no] wijst
    [yes] wijzen
} een bal aan die naar een vervangplek gaat

## rules no ruling says: the rule in a line (seeds/golf.md), where a page or a refusal cites it

golf_table = de tafel: een speelvlak van 1,80 x 0,90 m zonder hoekzakken, twaalf pinnen, vijftien zones voor het zonespel
golf_balls = tien ballen, vijf per speler
