"""The club's score sheet of a match: the page made for printing on A4 (``page``) from the
match's figures (``tablesense.club_figures``, the screens' too: carom inning by inning,
keglebillard series by series, golf frame by frame), where a match is read from
(``source``: a log, or the pub's database) and the PDF (``pdf``, chromium).
``tablesense sheet`` and the pub's ``/sheet/<id>`` use them."""
