## words: balls, and the words a ruling's parameters name

ball--white = the white
ball--yellow = the yellow
ball--red = the red
# a ball the sensors did not name (keglebillard: a ball fell after lying still)
ball--none = a ball

foul--touch = a ball touched
foul--touch-remove-object = a ball touched to remove something
foul--touch-moved = balls moved
foul--push = push shot
foul--foot = no foot on the floor
foul--stool = the stool used without leave
foul--wrong-ball = the wrong ball played
foul--moving-balls = played before the balls were still
foul--smoking = smoking in the inning
foul--jump = a ball jumped off the table
foul--woodwork = the woodwork touched
foul--reste-dedans = RESTE DEDANS
foul--opening-shot = the opening shot not by the rules
foul--no-blame = no blame on the player
foul--poedel = POEDEL
foul--masse = massé or piqué

choice--outlay = the balls to the starting position
choice--play = play a ball not frozen, or off the cushion
choice--masse = play it loose with a massé or piqué
choice--spot = cue ball and frozen ball on the spots

corner--head-left = bottom left
corner--head-right = bottom right
corner--foot-right = top right
corner--foot-left = top left


call--carom = carom
call--foul = foul

scheme--de-bruijn = de Bruijn system
scheme--belgian = Belgian count
scheme--win-draw-loss = win, draw, loss
scheme--percentage = percentage of the target
