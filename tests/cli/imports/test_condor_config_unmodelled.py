"""``fs import condor-config`` warns, one line each, about the negotiator knobs that change
which jobs match, or in what order, and that fs does not model (io/unmodelled_knobs.py),
when they are set to anything but the setting under which they change nothing; a pool
config naming one is refused with what it changes. They were counted among the ignored
knobs, whose summary names the first few alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import write_pool

SET = """\
PRIORITY_HALFLIFE = 3600
NEGOTIATOR_IGNORE_JOB_RANKS = True
NEGOTIATOR_CROSS_SLOT_PRIOS = true
NEGOTIATOR_MAX_TIME_PER_CYCLE = 100
NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 5 * 60
USE_GLOBAL_JOB_PRIOS = yes_please
"""


def test_each_unmodelled_setting_gets_one_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-config FILE --dry-run``: the fragment as before, then a warning
    per unmodelled knob set otherwise than neutrally (a value that does not read as a boolean
    is warned about: the daemon complains about it too); the time knob is not one (a cycle in fs takes no time)."""
    conf = tmp_path / "condor_config"
    conf.write_text(SET, encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "priority_halflife = 3600" in result.stdout
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"fs: warning: {conf}:2: NEGOTIATOR_IGNORE_JOB_RANKS = True: the slots are sorted "
        "once by pre-job then post-job rank, evaluated without a job (ties by the ads' memory "
        "addresses, which fs cannot know); a job's Rank and PREEMPTION_RANK are not read; a "
        "job's search stops once the slot weights of the slots it matches pass its "
        "submitter's limit; fs does not model it and negotiates as if it were false",
        f"fs: warning: {conf}:3: NEGOTIATOR_CROSS_SLOT_PRIOS = true: slot ads carry the other "
        "slots' RemoteUserPrio values, which expressions can read; fs does not model it and "
        "negotiates as if it were false",
        f"fs: warning: {conf}:5: NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 5 * 60: slots that will "
        "shut down within that many seconds are not matched; fs does not model it and "
        "negotiates as if it were 0",
        f"fs: warning: {conf}:6: USE_GLOBAL_JOB_PRIOS = yes_please: a submitter negotiates "
        "once per JobPrio of its idle jobs, highest first among equals, and one with none idle "
        "drops out of the cycle (docs/htcondor.md); fs does not model it and negotiates as if "
        "it were false",
    ]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("NEGOTIATOR_IGNORE_JOB_RANKS = False", id="false"),
        pytest.param("NEGOTIATOR_CROSS_SLOT_PRIOS = 1 == 0", id="false-expression"),
        pytest.param("NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 0", id="zero"),
        pytest.param("NEGOTIATOR_MATCH_EXPRS =", id="blank"),
        pytest.param("NEGOTIATOR.NEGOTIATOR_MATCH_EXPRS =", id="blank-for-the-negotiator"),
    ],
)
def test_a_neutral_setting_is_not_warned_about(
    tmp_path: Path, run: Callable[..., Any], line: str
) -> None:
    """Settings that leave the cycle as HTCondor 25.0's defaults do (a dump lists them all)."""
    conf = tmp_path / "condor_config"
    conf.write_text(f"PRIORITY_HALFLIFE = 3600\n{line}\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr


def test_the_negotiators_own_setting_is_the_one_read(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``NEGOTIATOR.KNOB`` wins over ``KNOB`` for the negotiator: a blank one of its own
    leaves the plain setting unread."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        "PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 0\n"
        "NEGOTIATOR.NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 60\n",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [
        f"fs: warning: {conf}:3: NEGOTIATOR.NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD = 60: slots "
        "that will shut down within that many seconds are not matched; fs does not model it "
        "and negotiates as if it were 0"
    ]


def test_config_check_names_what_an_unmodelled_knob_changes(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs config check`` on a config that sets ``NEGOTIATOR_IGNORE_JOB_RANKS``:
    exit 2, one line saying fs does not model it and what it changes (it listed the known
    keys alone)."""
    config = write_pool(tmp_path, "[negotiator]\nNEGOTIATOR_IGNORE_JOB_RANKS = true\n")["config"]
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(
        f"fs: error: {config}: unknown key 'negotiator.NEGOTIATOR_IGNORE_JOB_RANKS' "
        "(NEGOTIATOR_IGNORE_JOB_RANKS is an HTCondor knob fs does not model: the slots are "
        "sorted once by pre-job then post-job rank, evaluated without a job (ties by the ads' "
        "memory addresses, which fs cannot know); a job's Rank and PREEMPTION_RANK are not "
        "read; a job's search stops once the slot weights of the slots it matches pass its "
        "submitter's limit); known keys: use_slot_weights"
    )


def test_early_preemption_without_preemption_is_not_warned_about(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = true`` beside ``NEGOTIATOR_CONSIDER_PREEMPTION
    = false``: the negotiator ignores it (``Matchmaker::reinitialize`` in matchmaker.cpp logs
    that it does; only with preemption considered does it keep the slots in retirement), so
    it changes nothing fs leaves out. ``fs import condor-config FILE --dry-run`` warned that
    it made such slots candidates for preemption; now it warns only where preemption is
    considered (as by default)."""
    conf = tmp_path / "condor_config"
    early = "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = true\n"
    conf.write_text(
        f"PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_CONSIDER_PREEMPTION = false\n{early}",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "consider_preemption = false" in result.stdout
    assert "warning" not in result.stderr
    conf.write_text(f"PRIORITY_HALFLIFE = 3600\n{early}", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [
        f"fs: warning: {conf}:2: NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = true: claimed slots "
        "still in their retirement time are candidates for preemption; fs does not model it "
        "and negotiates as if it were false"
    ]


def test_pslot_preemption_without_preemption_is_not_warned_about(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``ALLOW_PSLOT_PREEMPTION = true`` beside ``NEGOTIATOR_CONSIDER_PREEMPTION = false``:
    it lets a job preempt dynamic slots, and skips as candidates those that carry their
    partitionable slot's rollup; dynamic slots are claimed, and without preemption the
    negotiator trims every claimed slot from the candidates first
    (``trimStartdAds_PreemptionLogic`` in matchmaker.cpp), so it changes nothing.
    ``fs import condor-config FILE --dry-run`` warned; it warns with preemption only."""
    conf = tmp_path / "condor_config"
    pslot = "ALLOW_PSLOT_PREEMPTION = true\n"
    conf.write_text(f"NEGOTIATOR_CONSIDER_PREEMPTION = false\n{pslot}", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr
    conf.write_text(f"PRIORITY_HALFLIFE = 3600\n{pslot}", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [
        f"fs: warning: {conf}:2: ALLOW_PSLOT_PREEMPTION = true: a job may preempt several "
        "dynamic slots of one partitionable slot at once; fs does not model it and "
        "negotiates as if it were false"
    ]


STABLE = "PREEMPTION_REQUIREMENTS_STABLE = False\nPREEMPTION_RANK_STABLE = false\n"


def test_unstable_preemption_expressions_are_warned_about(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``PREEMPTION_REQUIREMENTS_STABLE = False`` and ``PREEMPTION_RANK_STABLE = false``:
    25.0's ``matchmakingAlgorithm`` pops an autocluster's cached match list only while
    ``MatchListType::cache_still_valid`` holds, which then evaluates the expression again on
    the list's next preempting entry (with the usage read live: ``ResourcesInUseByUser``)
    and, for the first knob, fails on a list used up, so the next job builds a new one.
    ``fs import condor-config FILE --dry-run`` counted them among the ignored knobs and said
    nothing more; now one warning each, saying fs negotiates as if they were true. With
    ``NEGOTIATOR_CONSIDER_PREEMPTION = false`` no entry preempts, and a list rebuilt from
    unclaimed slots finds nothing the used-up one did not: no warning; nor with
    ``NEGOTIATOR_MATCHLIST_CACHING = False``, which keeps no list (taken as
    ``matchlist_caching = false``)."""
    conf = tmp_path / "condor_config"
    conf.write_text(f"PRIORITY_HALFLIFE = 3600\n{STABLE}", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "priority_halflife = 3600" in result.stdout
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [
        f"fs: warning: {conf}:2: PREEMPTION_REQUIREMENTS_STABLE = False: "
        "PREEMPTION_REQUIREMENTS is evaluated again on the next entry of the match list an "
        "autocluster's jobs pop, with the usage of the matches made since, and a list used up "
        "is built afresh for the next job (whose machine-rank preemptions then pass the "
        "submitter limit again); fs does not model it and negotiates as if it were true",
        f"fs: warning: {conf}:3: PREEMPTION_RANK_STABLE = false: PREEMPTION_RANK is "
        "evaluated again on the next entry of the match list an autocluster's jobs pop, with "
        "the usage of the matches made since, and the list is built afresh when it changed; "
        "fs does not model it and negotiates as if it were true",
    ]
    for knob in ("NEGOTIATOR_CONSIDER_PREEMPTION", "NEGOTIATOR_MATCHLIST_CACHING"):
        conf.write_text(f"PRIORITY_HALFLIFE = 3600\n{knob} = false\n{STABLE}", encoding="utf-8")
        result = run("import", "condor-config", str(conf), "--dry-run")
        assert result.exit_code == 0, result.stderr
        assert "warning" not in result.stderr
    assert "matchlist_caching = false" in result.stdout


def test_a_pool_config_naming_an_unstable_knob_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``[negotiator] preemption_requirements_stable = false`` in a pool config: ``fs
    negotiate`` refuses it, exit 2, one line saying what the knob changes; the state is
    untouched."""
    paths = write_pool(tmp_path, "[negotiator]\npreemption_requirements_stable = false\n")
    before = paths["state"].read_bytes()
    result = run("negotiate", "--config", str(paths["config"]), "--state", str(paths["state"]))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(
        f"fs: error: {paths['config']}: unknown key "
        "'negotiator.preemption_requirements_stable' (did you mean 'preemption_requirements'? "
        "PREEMPTION_REQUIREMENTS_STABLE is an HTCondor knob fs does not model: "
        "PREEMPTION_REQUIREMENTS is evaluated again on the next entry of the match list an "
        "autocluster's jobs pop, with the usage of the matches made since, and a list used up "
        "is built afresh for the next job (whose machine-rank preemptions then pass the "
        "submitter limit again)); known keys: use_slot_weights, "
    )
    assert paths["state"].read_bytes() == before
