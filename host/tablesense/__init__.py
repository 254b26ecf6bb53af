"""tablesense: instrumented pub billiards tables, from sensor edge to scoreboard."""

__version__ = "0.1.0"
