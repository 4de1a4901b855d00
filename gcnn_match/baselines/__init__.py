"""Reference results computed without the papers' models: the floor every table is read
against (floor.py)."""
