"""The configuration read as each daemon reads it, only where they read it otherwise
(io/importers/condor_config_local.py ``read_as_daemons``)."""

from __future__ import annotations

import io

from fairshare_cli.io.importers.condor_config_local import read_as_daemons


def test_files_read_alike_by_every_daemon_are_read_once() -> None:
    """No condition names a knob some daemon sets as ``SUBSYS.NAME``: one reading (the
    negotiator's) serves all, even with ``NEGOTIATOR.X`` settings elsewhere."""
    text = "NEGOTIATOR.PRIORITY_HALFLIFE = 5\nA = 1\nif $(A)\nB = 2\nendif\n"
    conf, readings = read_as_daemons(io.StringIO(text), "cc", None)
    assert (conf.subsys, conf.per_daemon, readings) == ("NEGOTIATOR", False, {})
    assert conf.raw["B"] == "2"


def test_a_condition_read_otherwise_reads_the_files_as_the_startd_and_the_schedd() -> None:
    text = "A = 0\nSCHEDD.A = 1\nif $(A)\nB = 2\nendif\n"
    conf, readings = read_as_daemons(io.StringIO(text), "cc", None)
    assert conf.per_daemon and "B" not in conf.raw
    assert sorted(readings) == ["SCHEDD", "STARTD"]
    assert readings["SCHEDD"].raw["B"] == "2" and "B" not in readings["STARTD"].raw
