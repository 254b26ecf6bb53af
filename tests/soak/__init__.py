"""A league season under fire: the soak's harness (docs/reliability.md, "A season under fire").

``season.run(SoakConfig(...))`` plays three pubs of two tables each -- the real firmware
under MicroPython, ``tablesense run``, a real Mosquitto, ``tablesense league serve`` --
with faults at random from a seed, then checks the invariants (``invariants``). Used by
``tests/league/test_season_soak.py`` (a short run in ``make test``) and
``bench/season_soak.py --minutes N --seed S`` (long runs).
"""
