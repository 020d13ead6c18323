"""``fs import condor-config``: ``$(NAME)`` macros as HTCondor 25.0 expands them
(io/importers/condor_config_macros.py): a macro set nowhere with no built-in default, and a
setting naming its own knob as its line is read, the daemon's ``SUBSYS.X`` naming ``X``.

Every value is derived by hand from config.cpp: ``evaluate_macro_func`` puts in "" where
``lookup_macro`` finds nothing (no file sets the name, param_info.in has no default for
it), or the macro's ``:default``; ``expand_self_macro`` expands, in ``NAME = value`` as
the line is read, only ``$(NAME)`` and, when ``NAME`` is the reading daemon's
``SUBSYS.X``, ``$(X)``, each through ``lookup_macro`` (``SUBSYS.X`` first, then ``X``)
with the files read so far; param_info.in: ``NEGOTIATOR_INTERVAL`` 60.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import HTCONDOR, Refuse

POOL = '[pool]\ndefaults = "current"\n'


def imported(tmp_path: Path, run: Callable[..., Any], text: str) -> tuple[str, list[str]]:
    """The TOML ``fs import condor-config FILE`` prints for FILE holding ``text``, and
    its warnings (exit 0)."""
    conf = tmp_path / "condor_config"
    conf.write_text(text, encoding="utf-8")
    result = run("import", "condor-config", str(conf))
    assert result.exit_code == 0, result.stderr
    warnings = [
        line.replace(str(conf), "FILE")
        for line in result.stderr.splitlines()
        if line.startswith("fs: warning: ")
    ]
    return str(result.stdout), warnings


def undefined(line: str, name: str) -> str:
    return (
        f"fs: warning: FILE:{line}: $({name}) is set in no file read here and has no "
        f"built-in default, so it is taken as empty, as HTCondor does unless the daemon's "
        f"environment sets _CONDOR_{name}; set it, or write $({name}:default)"
    )


def test_a_macro_set_nowhere_is_taken_as_empty_with_a_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-config FILE`` refused a ``$(NOSUCH)`` with no built-in default
    ("set in no file read here and has no built-in default ..."); HTCondor expands it to
    "" (by hand above: 3600 and `` True``), so fs takes it so and warns, once per line
    and macro; a ``:default`` is taken without a warning (7 * 60 = 420)."""
    toml, warnings = imported(
        tmp_path,
        run,
        "PRIORITY_HALFLIFE = 3600$(NOSUCH)\nSTART = $(NOSUCH) True $(nosuch)\n"
        "NEGOTIATOR_INTERVAL = $(NOSUCH:7) * 60\n",
    )
    assert toml == (
        POOL + 'start = "True"\n\n[accountant]\npriority_halflife = 3600\n\n'
        "[negotiator]\ninterval = 420\n"
    )
    assert warnings == [
        undefined("1: PRIORITY_HALFLIFE", "NOSUCH"),
        undefined("2: START", "NOSUCH"),
        undefined("2: START", "nosuch"),
    ]


def test_a_macro_set_nowhere_in_if_and_include_lines(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``if $(NOSUCH)``: the condition expands to nothing, which config.cpp takes as
    false (so 30, not 5); ``include ifexist : $(DIR)/x.conf``: ``/x.conf``, missing, so
    skipped. Each named in a warning."""
    toml, warnings = imported(
        tmp_path,
        run,
        "if $(NOSUCH)\nNEGOTIATOR_INTERVAL = 5\nelse\nNEGOTIATOR_INTERVAL = 30\nendif\n"
        "include ifexist : $(DIR)/x.conf\n",
    )
    assert toml == POOL + "\n[negotiator]\ninterval = 30\n"
    assert warnings == [undefined("1: if", "NOSUCH"), undefined("6: include", "DIR")]


def test_a_knob_fs_does_not_take_is_not_warned_of(tmp_path: Path, run: Callable[..., Any]) -> None:
    _, warnings = imported(tmp_path, run, "FOO = $(NOSUCH)\nNEGOTIATOR_INTERVAL = 30\n")
    assert warnings == []


def test_a_macro_set_nowhere_leaving_a_value_its_key_refuses(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Empty, ``$(NOSUCH)x`` is ``x``, which HTCondor's daemon stops on: the warning, then
    the one error naming the knob's line; nothing printed, the config untouched."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = $(NOSUCH)x\n", encoding="utf-8")
    into = tmp_path / "pool.toml"
    into.write_text("[pool]\nname = 'p'\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--into", str(into))
    assert result.exit_code == 2
    assert result.stdout == ""
    warning, error = result.stderr.splitlines()
    assert warning.replace(str(conf), "FILE") == undefined("1: PRIORITY_HALFLIFE", "NOSUCH")
    assert error.startswith(f"fs: error: {conf}:1: PRIORITY_HALFLIFE: expected a number, got 'x'")
    assert into.read_text(encoding="utf-8") == "[pool]\nname = 'p'\n"


def test_a_dump_is_not_warned_of(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A ``condor_config_val -dump`` holds every knob HTCondor has a default for: a macro
    it does not set is nothing, as HTCondor expands it, and no surprise."""
    first = (HTCONDOR / "condor_config_val.dump.txt").read_text(encoding="utf-8").splitlines()[0]
    toml, warnings = imported(tmp_path, run, f"{first}\nSTART = true $(NOWHERE)\n")
    assert (toml, warnings) == (POOL + 'start = "true"\n', [])


@pytest.mark.parametrize(
    ("text", "toml"),
    [
        # the negotiator's earlier NEGOTIATOR.X, not X (was "Later && Memory > 2": X's
        # last value, expanded at lookup)
        pytest.param(
            "NEGOTIATOR.PREEMPTION_REQUIREMENTS = False\nPREEMPTION_REQUIREMENTS = True\n"
            "NEGOTIATOR.PREEMPTION_REQUIREMENTS = $(PREEMPTION_REQUIREMENTS) && Memory > 2\n"
            "PREEMPTION_REQUIREMENTS = Later\n",
            POOL + '\n[negotiator]\npreemption_requirements = "False && Memory > 2"\n',
            id="earlier-subsys-value",
        ),
        # no earlier NEGOTIATOR.X: X as set at that line, 100 * 2 = 200 (was 7 * 2 = 14)
        pytest.param(
            "PRIORITY_HALFLIFE = 100\nNEGOTIATOR.PRIORITY_HALFLIFE = $(PRIORITY_HALFLIFE) * 2\n"
            "PRIORITY_HALFLIFE = 7\n",
            POOL + "\n[accountant]\npriority_halflife = 200\n",
            id="plain-value-so-far",
        ),
        # the startd reads STARTD.START as it reads the files: START at that line (was
        # "X && Cpus > 1")
        pytest.param(
            "START = Memory > 10\nSTARTD.START = $(START) && Cpus > 1\nSTART = X\n",
            POOL + 'start = "Memory > 10 && Cpus > 1"\n',
            id="startd-reads-its-own",
        ),
        # no file sets either: the built-in default, 60 * 2 = 120; any case
        pytest.param(
            "NEGOTIATOR.NEGOTIATOR_INTERVAL = $(negotiator_interval) * 2\n",
            POOL + "\n[negotiator]\ninterval = 120\n",
            id="built-in-default",
        ),
        # what is put in is scanned again: $(NEGOTIATOR.PRIORITY_HALFLIFE:50) is set
        # nowhere yet, so 50, and 500
        pytest.param(
            "PRIORITY_HALFLIFE = $(NEGOTIATOR.PRIORITY_HALFLIFE:50)\n"
            "NEGOTIATOR.PRIORITY_HALFLIFE = $(PRIORITY_HALFLIFE)0\n",
            POOL + "\n[accountant]\npriority_halflife = 500\n",
            id="scanned-again",
        ),
        # another daemon's: the negotiator keeps STARTD.X's $(X) as written (its $(X) is
        # expanded at lookup), and reads its own NEGOTIATOR.X
        pytest.param(
            "PRIORITY_HALFLIFE = 10\nSCHEDD.PRIORITY_HALFLIFE = $(PRIORITY_HALFLIFE)0\n"
            "NEGOTIATOR.PRIORITY_HALFLIFE = $(PRIORITY_HALFLIFE)1\n",
            POOL + "\n[accountant]\npriority_halflife = 101\n",
            id="other-daemons-own",
        ),
    ],
)
def test_a_subsys_knob_naming_its_plain_knob(
    tmp_path: Path, run: Callable[..., Any], text: str, toml: str
) -> None:
    assert imported(tmp_path, run, text) == (toml, [])


def test_a_template_value_under_a_subsys_knob_is_not_held(refuse_dump: Refuse) -> None:
    """``NEGOTIATOR.PREEMPTION_REQUIREMENTS = $(PREEMPTION_REQUIREMENTS) && ...`` builds
    on what ``use POLICY : UWCS_DESKTOP`` set, which fs does not hold: refused, naming
    the ``use`` line (and the knob to set after it, for the value to be one fs holds)."""
    refuse_dump(
        "condor-config",
        "use POLICY : UWCS_DESKTOP\nSTART = True\n"
        "NEGOTIATOR.PREEMPTION_REQUIREMENTS = $(PREEMPTION_REQUIREMENTS) && Memory > 2\n",
        ":1: use POLICY : UWCS_DESKTOP sets PREEMPTION_REQUIREMENTS, which fs takes, to a "
        "value fs does not hold; set PREEMPTION_REQUIREMENTS after this line",
        into=True,
    )
