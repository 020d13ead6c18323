"""The ``[dirac]`` config section: DIRAC's defaults, the code-versus-docs keys, bad values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.config import (
    DIRAC_CPU_SEGMENTS,
    DiracCorrectionInstance,
    DiracJobDescription,
    DiracSlice,
)
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import load_config


def test_defaults_are_diracs_code(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            "[dirac.groups.g]\n[dirac.correction]\n[[dirac.correction.instances]]\n"
            'name = "i"\nslices = [{}, { time_span = "1:00:00", weight = 2 }]\n'
        )
    )
    dirac = config.dirac
    assert dirac.groups["g"].job_share == 1000
    assert dirac.job_priority_weighting == "average"
    assert dirac.cpu_segments == DIRAC_CPU_SEGMENTS
    assert dirac.correction.enabled is False
    assert dirac.correction.absent_entities == "max_correction"
    assert dirac.correction.in_group_history == "dn"
    assert dirac.correction.instances == (
        DiracCorrectionInstance("i", "", 5, (DiracSlice(604800, 1, 3), DiracSlice(3600, 2, 3))),
    )


def test_one_key_takes_an_instance_of_each_corrector_type(
    write_config: Callable[[str], Path],
) -> None:
    """DIRAC keeps one instance per key within a corrector type, and starts every type."""
    config = load_config(
        write_config(
            "[[dirac.correction.instances]]\nname = 'a'\nslices = [{}]\n"
            "[[dirac.correction.instances]]\nname = 'b'\nslices = [{}]\n"
            "corrector = 'MonitoringHistory'\n"
        )
    )
    kinds = [(i.name, i.corrector) for i in config.dirac.correction.instances]
    assert kinds == [("a", "WMSHistory"), ("b", "MonitoringHistory")]


@pytest.mark.parametrize(
    ("value", "share", "note"),
    [
        pytest.param("250", 250, None, id="positive"),
        pytest.param('"250"', 250, None, id="text-of-an-integer"),
        pytest.param(
            "-5",
            -5,
            "-5: DIRAC floors every task queue of this group at the minimum priority 0.001",
            id="negative",
        ),
        pytest.param("0", 0, "0: DIRAC floors every task queue", id="zero"),
        pytest.param(
            "250.5", 1000, "250.5 is not an integer; DIRAC reads the default 1000", id="float"
        ),
        pytest.param(
            '"500 # half"',
            1000,
            "'500 # half' is not an integer; DIRAC reads the default 1000",
            id="text",
        ),
        pytest.param("true", 1000, "true is not an integer", id="bool"),
        pytest.param("1979-05-27", 1000, "1979-05-27 is not an integer", id="date"),
        pytest.param("{ a = 1 }", 1000, "{a = 1} is not an integer", id="table"),
    ],
)
def test_job_share_as_dirac_reads_it(
    write_config: Callable[[str], Path], value: str, share: int, note: str | None
) -> None:
    """``getGroupShares`` reads ``int(text)``, the default 1000 on failure."""
    path = write_config(f"[dirac.groups.g]\njob_share = {value}\n")
    dirac = load_config(path).dirac
    assert dirac.groups["g"].job_share == share
    if note is None:
        assert dirac.notes == ()
    else:
        assert len(dirac.notes) == 1
        assert dirac.notes[0].startswith(f"{path}: dirac.groups.g.job_share = {note}")


def test_config_check_warns_about_each_share(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    path = write_config(
        '[pool]\ndefaults = "legacy"\n[dirac]\nvo = "v"\n'  # no profile or VO warning
        "[dirac.groups.a]\njob_share = -1\n[dirac.groups.b]\njob_share = 'lots'\n"
        "[dirac.groups.c]\njob_share = 7\n"
    )
    result = run("config", "check", "--config", str(path))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"fs: warning: {path}: dirac.groups.a.job_share = -1: DIRAC floors every task queue of "
        "this group at the minimum priority 0.001",
        f"fs: warning: {path}: dirac.groups.b.job_share = 'lots' is not an integer; DIRAC reads "
        "the default 1000",
    ]
    assert "dirac.groups.a.job_share = -1\n" in result.stdout
    assert "dirac.groups.b.job_share = 1000\n" in result.stdout
    assert "notes" not in result.stdout


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        pytest.param("1979-05-27", "1979-05-27", id="date"),
        pytest.param("07:32:00", "07:32:00", id="time"),
        pytest.param("true", "true", id="bool"),
        pytest.param("{ a = 1 }", "{a = 1}", id="table"),
    ],
)
def test_config_check_shows_a_share_as_toml_writes_it(
    write_config: Callable[[str], Path], run: Callable[..., Any], value: str, shown: str
) -> None:
    """``job_share = 1979-05-27`` was warned of as ``datetime.date(1979, 5, 27)``, ``true``
    as ``True`` and a table as ``{'a': 1}``: Python's words for what the config wrote."""
    path = write_config(f'[pool]\ndefaults = "legacy"\n[dirac]\nvo = "v"\n'
                        f"[dirac.groups.g]\njob_share = {value}\n")  # fmt: skip
    before = path.read_bytes()
    result = run("config", "check", "--config", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"fs: warning: {path}: dirac.groups.g.job_share = {shown} is not an integer; DIRAC "
        "reads the default 1000\n"
    )
    assert path.read_bytes() == before


def test_documented_variants(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            '[dirac]\njob_priority_weighting = "sum"\ncpu_segments = [60, 600]\n'
            '[dirac.correction]\nabsent_entities = "weighted"\nin_group_history = "user"\n'
        )
    )
    assert config.dirac.job_priority_weighting == "sum"
    assert config.dirac.cpu_segments == (60, 600)
    assert config.dirac.correction.absent_entities == "weighted"
    assert config.dirac.correction.in_group_history == "user"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        pytest.param(
            '[dirac]\njob_priority_weighting = "mean"\n',
            'dirac.job_priority_weighting: expected one of "average", "sum", got "mean"',
            id="weighting",
        ),
        pytest.param(
            "[dirac]\ncpu_segments = [600, 60]\n",
            "dirac.cpu_segments: expected strictly increasing",
            id="segments-order",
        ),
        pytest.param(
            '[dirac.correction]\nabsent_entities = "zero"\n',
            "dirac.correction.absent_entities: expected one of",
            id="absent",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nmax_global_correction = 2.5\nslices = [{}]\n",
            "max_global_correction: expected a whole number",
            id="global-fraction",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nslices = [{ time_span = 0.5 }]\n",
            "slices[0].time_span: expected a whole number of seconds (or a time string), got 0.5",
            id="fractional-span",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nname = 'a'\nslices = [{}]\n"
            "[[dirac.correction.instances]]\nname = 'b'\nslices = [{}]\n",
            "instances[1]: instance 'b' corrects the same groups as 'a' (both WMSHistory); "
            "DIRAC refuses two correctors of one type for one key",
            id="two-global",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nslices = [{}]\ncorrector = 'Accounting'\n",
            'instances[0].corrector: expected one of "WMSHistory", "MonitoringHistory", '
            'got "Accounting"',
            id="unknown-corrector-type",
        ),
    ],
)
def test_bad_dirac_config(write_config: Callable[[str], Path], text: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write_config(text))
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_an_instance_for_an_unlisted_group_is_kept_with_a_note(
    write_config: Callable[[str], Path],
) -> None:
    """DIRAC starts an in-group instance whatever group it names (a group the registry does
    not list still has its owners corrected), so the instance is kept; a note says so."""
    config = load_config(
        write_config("[[dirac.correction.instances]]\ngroup = 'lhcb'\nslices = [{}]\n")
    )
    assert [i.group for i in config.dirac.correction.instances] == ["lhcb"]
    assert len(config.dirac.notes) == 1
    note = config.dirac.notes[0]
    assert "instances[0].group: 'lhcb' is not in [dirac.groups] (known: none)" in note


def test_an_instance_without_slices_is_kept(write_config: Callable[[str], Path]) -> None:
    """DIRAC starts an instance with no time slices (``_fillSlices`` divides by the weights'
    sum only inside a loop over the slices, none here): it corrects nothing, but
    ``applyCorrection`` still divides by the sum of the shares. It was refused, "the slice
    weights sum to zero"."""
    config = load_config(write_config("[[dirac.correction.instances]]\nname = 'x'\n"))
    assert [(i.name, i.slices) for i in config.dirac.correction.instances] == [("x", ())]


def test_job_description_defaults_are_diracs(write_config: Callable[[str], Path]) -> None:
    """``JobModel.py``/``JobManifest.check`` defaults: CPUTime 86400 in 100..500000,
    Priority 1 in 0..10."""
    jd = load_config(write_config("[dirac.groups.g]\n")).dirac.job_description
    assert jd == DiracJobDescription(86400, 100, 500000, 1, 0, 10)


def test_job_description_set_and_noted(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            "[dirac.groups.g]\n[dirac.job_description]\n"
            "default_priority = 12\nmin_cpu_time = 100000\nmax_priority = 11\n"
        )
    )
    jd = config.dirac.job_description
    assert (jd.default_priority, jd.min_cpu_time, jd.max_priority) == (12, 100000, 11)
    notes = [note.split(": ", 1)[1] for note in config.dirac.notes]
    assert notes == [
        "dirac.job_description.default_cpu_time = 86400 (DefaultCPUTime) is outside 100000 to "
        "500000; DIRAC's JobManager refuses every job (it validates the default before a "
        "job's own CPUTime)",
        "dirac.job_description.default_priority = 12 (DefaultPriority) is outside 0 to 11; "
        "DIRAC's JobManager refuses every job (it validates the default before a job's own "
        "Priority)",
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("max_priority = 12.5", "dirac.job_description.max_priority: expected a "
                     "whole number, got", id="fraction"),
        pytest.param('min_cpu_time = "100"', "dirac.job_description.min_cpu_time: expected a "
                     "whole number, got", id="text"),
        pytest.param("max_cputime = 5", "unknown key 'dirac.job_description.max_cputime'",
                     id="misspelt"),
    ],
)  # fmt: skip
def test_job_description_bad_values(
    write_config: Callable[[str], Path], line: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")):
        load_config(write_config(f"[dirac.groups.g]\n[dirac.job_description]\n{line}\n"))


def test_weights_and_maxima_below_1_are_kept_as_dirac_keeps_them(
    write_config: Callable[[str], Path],
) -> None:
    """DIRAC reads ``Weight``, ``MaxCorrection`` and ``MaxGlobalCorrection`` as any integers
    and computes with them (``BaseHistoryCorrector``); a maximum of 0 it divides 1 by once it
    has history, which a note says. They were refused ("at least 1", "at least 0")."""
    config = load_config(
        write_config(
            "[[dirac.correction.instances]]\nname = 'x'\nmax_global_correction = -2\n"
            "slices = [{ weight = -1, max_correction = 0 }, { weight = 3, max_correction = -4 }]\n"
        )
    )
    (instance,) = config.dirac.correction.instances
    assert instance.max_global_correction == -2
    assert [(s.weight, s.max_correction) for s in instance.slices] == [(-1, 0), (3, -4)]
    assert [note.split(": ", 1)[1] for note in config.dirac.notes] == [
        "dirac.correction.instances[0]: a max_global_correction or max_correction of 0; "
        "DIRAC's corrector divides 1 by it once it has history, so instance 'x' then fails "
        "each TaskQueuesAgent cycle (fs taskqueues shows what DIRAC keeps)"
    ]


def test_weights_summing_to_zero_are_kept_with_a_note(
    write_config: Callable[[str], Path],
) -> None:
    """DIRAC's ``_fillSlices`` divides each weight by their sum: 1 and -1 raise when the
    agent starts the instance, which then never runs (``started_instances``)."""
    text = "[[dirac.correction.instances]]\nslices = [{ weight = 1 }, { weight = -1 }]\n"
    config = load_config(write_config(text))
    assert len(config.dirac.correction.instances) == 1
    assert [note.split(": ", 1)[1] for note in config.dirac.notes] == [
        "dirac.correction.instances[0].slices: the weights sum to zero; DIRAC's corrector "
        "fails to start instance 'instance0' (it divides each weight by their sum; that "
        "TaskQueuesAgent cycle fails) and never starts it or a later WMSHistory instance: fs "
        "leaves them out, as DIRAC then runs without them"
    ]
