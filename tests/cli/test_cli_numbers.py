"""A number option out of its range is one line naming the option, exit 2, before anything
starts: ``doctor --stuck nan`` was a traceback (``int(nan)``), ``monitor --duration -5``
stopped at once saying nothing, ``doctor --seconds -1`` ran until Ctrl-C, ``doctor
--noisy-edges -1`` called every channel noisy, ``demo --speed nan`` played on."""

from __future__ import annotations

import pytest

from tablesense.cli import main

PORT = "socket://127.0.0.1:9"  # never opened: the options are read first

SECONDS = "is not a number of seconds more than 0"
CASES = [  # command, option, value, what is said
    ("monitor", "--duration", "-5", SECONDS),
    ("monitor", "--duration", "nan", SECONDS),
    ("doctor", "--stuck", "nan", SECONDS),
    ("doctor", "--seconds", "-1", SECONDS),
    ("doctor", "--noisy-edges", "-1", "is not a whole number 0 or more"),
    ("doctor", "--noisy-pulses", "x", "is not a whole number"),
    ("doctor", "--balls", "0", "is not a whole number 1 or more"),
    ("doctor", "--samples", "0", "is not a whole number 1 or more"),
    ("flash", "--timeout", "inf", SECONDS),
]


@pytest.mark.parametrize(("command", "option", "value", "said"), CASES,
                         ids=[f"{c} {o} {v}" for c, o, v, _ in CASES])
def test_a_number_option_out_of_its_range_is_one_line_and_exit_2(
        command: str, option: str, value: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--serial", PORT, option, value])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"tablesense {command}: ") and f"{option}: '{value}' {said}" in err, err
    assert f"(see tablesense {command} --help)" in err, err


def test_the_numbers_in_range_are_taken() -> None:
    from tablesense.command_line.numbers import count, limit, seconds

    assert (seconds("1.5"), count("5"), limit("0")) == (1.5, 5, 0)
