## kegle

kegle_lag = { $player } { $player_plural ->
   *[no] stoot
    [yes] stoten
} als eerste, vanuit de beginopstelling
kegle_outlay = nieuwe beginopstelling na een uitgesprongen bal
kegle_outlay_request = nieuwe beginopstelling voor { $player }
kegle_pin = { $pins_count } { $pins_count ->
    [one] kegel
   *[other] kegels
}: { $points } punten
kegle_carambole = carambole: { $points } punten
kegle_series = geen punten: serie van { $run } voorbij
kegle_distance = afstand bereikt
kegle_shot--late-pin = kegel { $pin } viel nadat de ballen stil lagen: hij hoort bij de stoot, die pas voorbij was toen ballen en kegels stil stonden
kegle_shot--by-hand = kegel { $pin } tussen de stoten omgestoten, geen bal geraakt: geen stoot; hij wordt weer rechtgezet
kegle_shot--hands = de scheidsrechter: dat waren de handen van de kegelzetter, geen bal gespeeld: geen stoot, de beurt blijft
kegle_break = de helft van de afstand: 5 minuten pauze
kegle_last-series = laatste serie, vanuit een nieuwe beginopstelling
kegle_same-series = { $player } { $player_plural ->
   *[no] wint
    [yes] winnen
}: afstand bereikt, beiden speelden { $series } { $series ->
    [one] serie
   *[other] series
}
kegle_draw = beide spelers bereikten de afstand: gelijkspel
kegle_announce_remaining = nog { $remaining }
kegle_pin-blocked = kegel { $pin } kan niet staan door een bal
kegle_white-in-hole = een witte in zak { $pocket }: hij komt op de stip tegenover de andere witte
kegle_red-in-hand = de rode komt tussen de onderste band en de onderste lijn
kegle_ball-falls = { $ball } viel in zak { $pocket } nadat hij stil lag: hij wordt teruggelegd, geen fout
kegle_ball-falls--replay = een bal viel nadat hij stil lag: de stoot wordt overgespeeld
kegle_disqualified = { $player } { $player_plural ->
   *[no] wordt als verliezer
    [yes] worden als verliezers
} aangewezen; { $opponent } { $opponent_plural ->
   *[no] wint
    [yes] winnen
}
kegle_fault_red-in-hole--which-ball = Welke bal viel in zak { $pocket }?
kegle_fault_jumped-ball = fout: een bal sprong van de tafel; de stoot levert niets op
kegle_fault_pins-not-up = fout: gestoten voor de kegels stonden; de stoot levert niets op
kegle_fault_balls-moving = fout: gestoten voor de ballen stil lagen; de stoot levert niets op
kegle_fault_touch = fout: een bal aangeraakt met de hand, de keu of een voorwerp; de stoot levert niets op
kegle_fault_touche = fout: touché: een bal geraakt met iets anders dan de pomerans; de stoot levert niets op
kegle_fault_push = fout: de keu raakte de rode nog toen die een bal of een band raakte; de stoot levert niets op
kegle_fault_frozen = fout: rechtstreeks op een vastliggende bal gespeeld zonder hem vrij te spelen; de stoot levert niets op
kegle_fault_foot = fout: gestoten zonder een voet op de grond; de stoot levert niets op
kegle_fault_marks = fout: richtingstekens op de band gemaakt; de stoot levert niets op
kegle_fault_red-in-hole = fout: de rode ging in een gat; de stoot levert niets op
kegle_fault_red-topples-pin = fout: de rode wierp een kegel om; de stoot levert niets op
kegle_fault_pin-by-cue = fout: een kegel omgeworpen door de keu, een bok, kleding of het lichaam; de stoot levert niets op
kegle_fault_touch-toppled-pin = fout: een omgevallen kegel aangeraakt; de stoot levert niets op
kegle_fault_no-cushion = fout: voor de tweede keer op rij dat de kegels werden opgezet raakte geen bal een band; de stoot levert niets op
kegle_fault_three-reds = fout: drie keer rood op rij zonder kegel; de stoot levert niets op
kegle_announce_remaining--announce = nog { $remaining }
kegle_distance--announce = afstand bereikt
kegle_last-series--announce = laatste serie
kegle_break--announce = 5 minuten pauze

## rules no ruling says: the rule in a line (seeds/kegle.md), where a page or a refusal cites it

kegle_fault_noticed = een fout telt alleen als ze voor de volgende stoot wordt opgemerkt
