## summary

summary_golf = frame { $frame }: balls left p1 { $left1 }, p2 { $left2 }; frames { $won1 }-{ $won2 }
summary_golf--zone-play = zone play
summary_golf--at-table = { $name } ({ $side }) at the table
summary_golf--waiting = waiting for: { $ids }
summary_golf--spot = replacement spot to name for: { $balls }
summary_carom--player = { $name } { $caroms }/{ $target } in { $innings }
summary_kegle--player = { $side } { $name } { $points } ({ $series } series)
summary_kegle--distance = to { $distance }
summary_kegle--at-table = { $side } at the table, this series { $run }
result--draw = a draw
result--won = won by { $winner }
result--finished = finished
result--in-play = in play, { $side } at the table
account--match = match: { $game }
account--shot = shot { $shot }: { $score }
account--settled = shot { $shot } settled: { $score }
account--incident = between shots: { $score }
account--result = result: { $result }
