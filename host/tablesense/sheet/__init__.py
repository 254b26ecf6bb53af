"""The club's score sheet of a match: its figures (``figures``: carom inning by inning,
keglebillard series by series, golf frame by frame, kept by a ``Tally`` as the match
goes), the page made for printing on A4 (``page``), where a match is read from
(``source``: a log, or the pub's database) and the PDF (``pdf``, chromium).
``tablesense sheet`` and the pub's ``/sheet/<id>`` use them."""
