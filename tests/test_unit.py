"""test_unit.py - the C unit tests (tests/unit/, their own small harness), one
pytest test each: `unit_tests --list` names them, `unit_tests NAME` runs one."""
import subprocess

import pytest

import hmb


def unit_names():
    p = subprocess.run([str(hmb.UNIT), "--list"], capture_output=True, text=True, check=True)
    return [n for n in p.stdout.splitlines() if n]


def test_unit_list_is_not_empty():
    assert len(unit_names()) >= 9


@pytest.mark.parametrize("name", unit_names())
def test_unit(name):
    p = subprocess.run([str(hmb.UNIT), name], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and f"ok   unit: {name}" in p.stdout, p.stdout + p.stderr


def test_unit_unknown_name_is_refused():
    p = subprocess.run([str(hmb.UNIT), "no such test"], capture_output=True, text=True)
    assert p.returncode == 2 and "no test named" in p.stderr
