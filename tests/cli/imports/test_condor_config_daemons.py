"""``fs import condor-config FILE`` reads the files as each daemon whose knobs it takes
reads them (io/importers/condor_config_local.py ``read_as_daemons``).

Every daemon reads the configuration itself, in its own context (``real_config`` ->
``Read_config`` with the daemon's subsystem): ``lookup_macro`` (config.cpp) looks up
``SUBSYS.NAME`` before ``NAME`` for the ``$(NAME)`` of an ``if`` condition, for ``defined
NAME`` and for an ``include`` line's file. So a block can be taken by the negotiator and
not by the startd. fs read every condition once, with plain ``NAME`` only: it took the
branch no daemon takes when the setting was ``NEGOTIATOR.NAME``. Now the negotiator's
knobs come from the files as the negotiator reads them, ``START``/``RANK``/``CONSUMPTION_*``
as the startd reads them and ``UID_DOMAIN`` as the schedd does (the files are read again
for those two only when some condition or line reads otherwise for them).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def test_an_if_block_is_taken_per_daemon(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``NEGOTIATOR.FAST = true`` and ``if $(FAST:false)``: the negotiator expands
    ``$(FAST)`` to its ``NEGOTIATOR.FAST``, true, and takes the first branch (interval 20);
    the startd finds no ``STARTD.FAST`` nor ``FAST`` and takes the default, false: the
    else branch (START = true). fs took the else branch for both (interval 60)."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(
        "UID_DOMAIN = example.org\nNEGOTIATOR.FAST = true\nif $(FAST:false)\n"
        "  NEGOTIATOR_INTERVAL = 20\n  START = false\nelse\n"
        "  NEGOTIATOR_INTERVAL = 60\n  START = true\nendif\n"
    )
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nstart = "true"\nuid_domain = "example.org"\n\n'
        "[negotiator]\ninterval = 20\n"
    )


def test_defined_is_looked_up_per_daemon(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``BUSY =`` (nothing) and ``STARTD.BUSY = 1``: ``defined BUSY`` is false for the
    negotiator (set to nothing) and true for the startd, so START = false comes in and
    the block's PRIORITY_HALFLIFE = 10, the negotiator's knob, does not. fs read the
    plain BUSY for both: START was left out."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(
        "UID_DOMAIN = a\nBUSY =\nSTARTD.BUSY = 1\nif defined BUSY\n"
        "  START = false\n  PRIORITY_HALFLIFE = 10\nendif\n"
    )
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == '[pool]\ndefaults = "current"\nstart = "false"\nuid_domain = "a"\n'


def test_an_include_is_read_per_daemon(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``include : $(INC)`` with ``SCHEDD.INC = schedd.conf``: the schedd reads
    schedd.conf (its UID_DOMAIN), the negotiator other.conf (PRIORITY_HALFLIFE = 77)."""
    monkeypatch.chdir(tmp_path)
    Path("schedd.conf").write_text("UID_DOMAIN = schedd.example.org\n")
    Path("other.conf").write_text("UID_DOMAIN = other.example.org\nPRIORITY_HALFLIFE = 77\n")
    Path("condor_config").write_text(
        "SCHEDD.INC = schedd.conf\nINC = other.conf\ninclude : $(INC)\n"
    )
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nuid_domain = "schedd.example.org"\n\n'
        "[accountant]\npriority_halflife = 77\n"
    )


def test_a_knob_shadowed_by_its_daemons_own_is_not_ignored(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-config -v condor_config`` with ``PRIORITY_HALFLIFE = 100`` and
    ``NEGOTIATOR.PRIORITY_HALFLIFE = 200`` took 200 and said "ignored 2: FOO,
    PRIORITY_HALFLIFE": the negotiator reads its own setting first (``lookup_macro``),
    so the plain one is not its value, but fs does not leave the knob out; only FOO, which
    fs does not model, is ignored. Likewise ``START`` under ``STARTD.START`` (the
    startd's); ``NEGOTIATOR.START`` is no daemon's START and stays ignored."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(
        "PRIORITY_HALFLIFE = 100\nNEGOTIATOR.PRIORITY_HALFLIFE = 200\nFOO = 1\n"
        "START = false\nSTARTD.START = true\nNEGOTIATOR.START = true\n"
    )
    result = run(*shlex.split("import condor-config -v condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nstart = "true"\n\n[accountant]\npriority_halflife = 200\n'
    )
    assert result.stderr == (
        "condor-config condor_config: 2 knobs taken, 0 groups; ignored 2: FOO, "
        "NEGOTIATOR.START\nFOO\nNEGOTIATOR.START\n"
    )


def test_a_daemons_own_built_in_default_is_read_in_an_if(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``if $(IsNegotiator)`` was refused ("set in no file read here"). By hand from
    HTCondor 25.0.13's param_info.in: ``IsNegotiator`` defaults to false, and the
    negotiator's own ``NEGOTIATOR.IsNegotiator`` (looked up first) to true: the
    negotiator takes the first branch (NEGOTIATOR_MIN_INTERVAL 20), the startd the else
    branch (RANK = 2). ``if ! $(NEGOTIATOR_CONSIDER_PREEMPTION)`` (default true) does not
    hold: NEGOTIATOR_CYCLE_DELAY 45."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(
        "if $(IsNegotiator)\n  NEGOTIATOR_MIN_INTERVAL = 20\n  RANK = 1\nelse\n  RANK = 2\n"
        "endif\nif ! $(NEGOTIATOR_CONSIDER_PREEMPTION)\n  NEGOTIATOR_CYCLE_DELAY = 1\nelse\n"
        "  NEGOTIATOR_CYCLE_DELAY = 45\nendif\n"
    )
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nrank = "2"\n\n'
        "[negotiator]\nmin_interval = 20\ncycle_delay = 45\n"
    )
