## kegle

kegle_lag = { $player } starter, fra udlægget
kegle_outlay = nyt udlæg efter en kugle sprang af bordet
kegle_outlay_request = nyt udlæg til { $player }
kegle_pin = { $pins_count } { $pins_count ->
    [one] kegle
   *[other] kegler
}: { $points } point
kegle_carambole = carambole: { $points } point
kegle_series = ingen point: serien på { $run } er slut
kegle_distance = distancen er nået
kegle_shot--late-pin = kegle { $pin } væltede efter at kuglerne lå stille: den hører til stødet, som først var slut, da kugler og kegler stod stille
kegle_shot--by-hand = kegle { $pin } væltet mellem stødene, ingen kugle rørt: intet stød; den rejses igen
kegle_shot--hands = dommeren: det var keglerejserens hænder, ingen kugle spillet: intet stød, turen bliver
kegle_break = halvdelen af distancen: 5 minutters pause
kegle_last-series = sidste serie, fra et nyt udlæg
kegle_same-series = { $player } vinder: distancen er nået, begge har spillet { $series } { $series ->
    [one] serie
   *[other] serier
}
kegle_draw = begge spillere nåede distancen: uafgjort
kegle_announce_remaining = { $remaining } mangler
kegle_pin-blocked = kegle { $pin } kan ikke stå på grund af en kugle
kegle_white-in-hole = en hvid i hul { $pocket }: den kommer på punktet over for den anden hvide
kegle_red-in-hand = den røde lægges mellem den nederste bande og den nederste streg
kegle_ball-falls = { $ball } faldt i hul { $pocket } efter at have ligget stille: den lægges tilbage, ingen fejl
kegle_ball-falls--replay = en kugle faldt efter at have ligget stille: stødet spilles om
kegle_disqualified = { $player } erklæres for { $player_plural ->
   *[no] taber
    [yes] tabere
}; { $opponent } vinder
kegle_fault_red-in-hole--which-ball = Hvilken kugle faldt i hul { $pocket }?
kegle_fault_jumped-ball = fejl: en kugle sprang af bordet; stødet giver ingen point
kegle_fault_pins-not-up = fejl: stødte før keglerne var rejst; stødet giver ingen point
kegle_fault_balls-moving = fejl: stødte før kuglerne lå stille; stødet giver ingen point
kegle_fault_touch = fejl: rørte en kugle med hånden, køen eller en genstand; stødet giver ingen point
kegle_fault_touche = fejl: touché: rørte en kugle med andet end læderet; stødet giver ingen point
kegle_fault_push = fejl: køen rørte stadig den røde, da den ramte en kugle eller en bande; stødet giver ingen point
kegle_fault_frozen = fejl: spillede direkte på en kugle der lå an, uden at frigøre den; stødet giver ingen point
kegle_fault_foot = fejl: stødte uden en fod på gulvet; stødet giver ingen point
kegle_fault_marks = fejl: lavede retningsmærker på banden; stødet giver ingen point
kegle_fault_red-in-hole = fejl: den røde gik i hul; stødet giver ingen point
kegle_fault_red-topples-pin = fejl: den røde væltede en kegle; stødet giver ingen point
kegle_fault_pin-by-cue = fejl: en kegle blev væltet af køen, en bro, tøjet eller kroppen; stødet giver ingen point
kegle_fault_touch-toppled-pin = fejl: rørte en væltet kegle; stødet giver ingen point
kegle_fault_no-cushion = fejl: ingen kugle ramte en bande, anden gang i træk efter at keglerne blev rejst; stødet giver ingen point
kegle_fault_three-reds = fejl: tre røde i træk uden kegle; stødet giver ingen point
kegle_announce_remaining--announce = { $remaining } mangler
kegle_distance--announce = distance
kegle_last-series--announce = sidste serie
kegle_break--announce = 5 minutters pause

## rules no ruling says: the rule in a line (seeds/kegle.md), where a page or a refusal cites it

kegle_fault_noticed = en fejl tæller kun, hvis den bemærkes før næste stød
