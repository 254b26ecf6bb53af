## summary

summary_golf = spel { $frame }: ballen over p1 { $left1 }, p2 { $left2 }; spellen { $won1 }-{ $won2 }
summary_golf--zone-play = zonespel
summary_golf--at-table = { $name } ({ $side }) aan tafel
summary_golf--waiting = wacht op: { $ids }
summary_golf--spot = vervangplek te kiezen voor: { $balls }
summary_carom--player = { $name } { $caroms }/{ $target } in { $innings } beurten
summary_kegle--player = { $side } { $name } { $points } ({ $series } { $series ->
    [one] serie
   *[other] series
})
summary_kegle--distance = tot { $distance }
summary_kegle--at-table = { $side } aan tafel, deze serie { $run }
result--draw = remise
result--won = gewonnen door { $winner }
result--finished = afgelopen
result--in-play = in spel, { $side } aan tafel
account--match = wedstrijd: { $game }
account--shot = stoot { $shot }: { $score }
account--settled = stoot { $shot } nagekomen: { $score }
account--incident = tussen stoten: { $score }
account--result = uitslag: { $result }
