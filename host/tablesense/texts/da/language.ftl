## The language itself: its name in itself (the pages' language menu), the words a
## referee may type for yes and no (comma-separated), and the grammar the messages use.

language = Dansk
answer--yes = ja
answer--no = nej

# GENITIVE($name): a name as an owner: "Anns kugle", but "Jens' kugle" after a sibilant
-genitive = s
-genitive-sibilant = '
-sibilants = s x z
