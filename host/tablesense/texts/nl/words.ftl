## words: balls, and the words a ruling's parameters name

ball--white = de witte
ball--yellow = de gele
ball--red = de rode
# a ball the sensors did not name (keglebillard: a ball fell after lying still)
ball--none = een bal

foul--touch = TOUCHE
foul--touch-remove-object = TOUCHE (bal aangeraakt om iets te verwijderen)
foul--touch-moved = TOUCHE (ballen verplaatst)
foul--push = RIJEN (gebiljardeerd)
foul--foot = geen voet op de vloer
foul--stool = bankje gebruikt zonder toestemming
foul--wrong-ball = verkeerde bal
foul--moving-balls = gestoten voor de ballen stil lagen
foul--smoking = roken tijdens de beurt
foul--jump = UITGESPRONGEN
foul--woodwork = houtwerk geraakt
foul--reste-dedans = RESTE DEDANS
foul--opening-shot = afstoot niet volgens de regels
foul--no-blame = zonder schuld van de speler
foul--poedel = POEDEL
foul--masse = massé of piqué

choice--outlay = de ballen in de beginpositie
choice--play = spelen van een niet vastliggende bal of van losse band
choice--masse = losspelen met een kopstoot (massé of piqué)
choice--spot = speelbal en vastliggende bal op de acquits

corner--head-left = linksonder
corner--head-right = rechtsonder
corner--foot-right = rechtsboven
corner--foot-left = linksboven

call--carom = carambole
call--foul = fout

scheme--de-bruijn = de Bruijn-systeem
scheme--belgian = Belgische telling
scheme--win-draw-loss = winst, remise, verlies
scheme--percentage = percentage van de partij
