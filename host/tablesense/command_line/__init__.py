"""What every ``tablesense`` sub-command shares: the option vocabulary (``options``), the
old spellings kept for a release (``old_spellings``), the serial-port check
(``serial_port``), the parser walk behind the help test and shell completion
(``parsers``, ``completion``), the help topics (``topics``) and a short command's lean import
of msgspec (``lean_msgspec``)."""
