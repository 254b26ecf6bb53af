## summary

summary_golf = sæt { $frame }: kugler tilbage p1 { $left1 }, p2 { $left2 }; sæt { $won1 }-{ $won2 }
summary_golf--zone-play = zonespil
summary_golf--at-table = { $name } ({ $side }) ved bordet
summary_golf--waiting = venter på: { $ids }
summary_golf--spot = erstatningspunkt skal vælges til: { $balls }
summary_carom--player = { $name } { $caroms }/{ $target } på { $innings } indgange
summary_kegle--player = { $side } { $name } { $points } ({ $series } { $series ->
    [one] serie
   *[other] serier
})
summary_kegle--distance = til { $distance }
summary_kegle--at-table = { $side } ved bordet, denne serie { $run }
result--draw = uafgjort
result--won = vundet af { $winner }
result--finished = slut
result--in-play = i spil, { $side } ved bordet
account--match = kamp: { $game }
account--shot = stød { $shot }: { $score }
account--settled = stød { $shot } afgjort: { $score }
account--incident = mellem stød: { $score }
account--result = resultat: { $result }
