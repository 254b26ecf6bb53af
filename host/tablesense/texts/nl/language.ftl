## The language itself: its name in itself (the pages' language menu), the words a
## referee may type for yes and no (comma-separated), and the grammar the messages use.

language = Nederlands
answer--yes = ja
answer--no = nee
