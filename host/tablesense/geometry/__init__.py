"""Table geometry in metres, one module per table type (golf, kegle, carom)."""
