"""One module per ``tablesense`` sub-command (see ``tablesense.cli.COMMANDS``)."""
