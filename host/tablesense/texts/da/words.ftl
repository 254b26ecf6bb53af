## words: balls, and the words a ruling's parameters name

ball--white = den hvide
ball--yellow = den gule
ball--red = den røde
# a ball the sensors did not name (keglebillard: a ball fell after lying still)
ball--none = en kugle

foul--touch = TOUCHÉ
foul--touch-remove-object = TOUCHÉ (rørte en kugle for at fjerne noget)
foul--touch-moved = TOUCHÉ (flyttede kuglerne)
foul--push = skubbestød
foul--foot = ingen fod på gulvet
foul--stool = brugte en skammel uden tilladelse
foul--wrong-ball = forkert kugle
foul--moving-balls = stødte før kuglerne lå stille
foul--smoking = røg under indgangen
foul--jump = kugle sprang af bordet
foul--woodwork = rørte træværket
foul--reste-dedans = RESTE DEDANS
foul--opening-shot = åbningsstødet fulgte ikke reglerne
foul--no-blame = uden spillerens skyld
foul--poedel = NUL
foul--masse = massé eller piqué

choice--outlay = kuglerne på udlægget
choice--play = spil på en kugle den ikke ligger an mod eller fra en fri bande
choice--masse = spil fri med massé eller piqué
choice--spot = stødkuglen og den anliggende kugle på deres punkter

corner--head-left = nederst til venstre
corner--head-right = nederst til højre
corner--foot-right = øverst til højre
corner--foot-left = øverst til venstre

call--carom = carambole
call--foul = fejl

scheme--de-bruijn = de Bruijn-systemet
scheme--belgian = belgisk optælling
scheme--win-draw-loss = sejr, uafgjort, nederlag
scheme--percentage = procent af målet
