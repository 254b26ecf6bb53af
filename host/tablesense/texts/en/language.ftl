## The language itself: its name in itself (the pages' language menu), the words a
## referee may type for yes and no (comma-separated), and the grammar the messages use.

language = English
answer--yes = yes, y, true
answer--no = no, n, false
