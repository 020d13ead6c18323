"""Config loading: profiles, durations, and one clear error for each kind of bad input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.htcondor.classads import check_expression
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import BUILTIN_EXPRESSIONS, load_config

REPO = Path(__file__).resolve().parents[2]


def test_sample_config_loads() -> None:
    config = load_config(REPO / "sample_configs" / "pool.toml")
    assert config.pool.uid_domain == "example.org"
    assert config.groups["group_physics.hep"].dynamic_quota == 0.6
    assert config.priority.decay_halflife == 7 * 86400
    assert config.priority.calc_period == 300


def test_profiles(write_config: Callable[[str], Path]) -> None:
    legacy = load_config(write_config("[pool]\n"))
    assert legacy.accountant.default_prio_factor == 1.0
    assert legacy.accountant.nice_user_prio_factor == 1e7
    assert legacy.accountant.remote_prio_factor == 1e4
    assert legacy.negotiator.use_slot_weights is False
    assert legacy.negotiator.allow_quota_oversubscription is False
    assert legacy.priority.fairshare == "linear"
    assert "1.2" in legacy.negotiator.preemption_requirements
    current = load_config(write_config('[pool]\ndefaults = "current"\n'))
    assert current.accountant.default_prio_factor == 1000.0
    assert current.accountant.nice_user_prio_factor == 1e10
    assert current.accountant.remote_prio_factor == 1e7
    assert current.negotiator.use_slot_weights is True
    assert current.negotiator.allow_quota_oversubscription is True
    assert current.negotiator.preemption_requirements == "false"
    assert current.priority.fairshare == "fair_tree"
    explicit = load_config(
        write_config('[pool]\ndefaults = "current"\n[accountant]\ndefault_prio_factor = 1\n')
    )
    assert explicit.accountant.default_prio_factor == 1.0


def test_consider_preemption_reaches_the_negotiator(write_config: Callable[[str], Path]) -> None:
    """``NEGOTIATOR_CONSIDER_PREEMPTION`` defaults to true in both profiles."""
    from fairshare_cli.core.htcondor.pool import negotiator_knobs

    for profile in ("legacy", "current"):
        default = load_config(write_config(f'[pool]\ndefaults = "{profile}"\n'))
        assert negotiator_knobs(default).consider_preemption is True
    off = load_config(write_config("[negotiator]\nconsider_preemption = false\n"))
    assert off.negotiator.consider_preemption is False
    assert negotiator_knobs(off).consider_preemption is False


def test_concurrency_limits_config(write_config: Callable[[str], Path]) -> None:
    """``NAME_LIMIT`` keys ignore case (HTCondor's knobs do); the default is 2308032."""
    default = load_config(write_config("[pool]\n"))
    assert default.negotiator.concurrency_limit_default == 2308032
    assert default.negotiator.concurrency_limits == {}
    c = load_config(
        write_config(
            '[negotiator]\nconcurrency_limits = { SW = 10, "x.y" = 2.5 }\n'
            "concurrency_limit_default = 4\n"
        )
    )
    assert c.negotiator.concurrency_limits == {"sw": 10.0, "x.y": 2.5}
    assert c.negotiator.concurrency_limit_default == 4.0


def test_durations(write_config: Callable[[str], Path]) -> None:
    c = load_config(
        write_config(
            '[accountant]\npriority_halflife = "1-0"\n'
            '[priority]\ndecay_halflife = "5:30"\nmax_age = 90\ncalc_period = "1"\n'
        )
    )
    assert c.accountant.priority_halflife == 86400
    assert c.priority.decay_halflife == 360  # 5 min 30 s rounds up to 6 minutes
    assert c.priority.max_age == 90
    assert c.priority.calc_period == 60


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        pytest.param("[pool\nname=1", "not valid TOML", id="malformed"),
        pytest.param(
            "[accountant]\npriority_halflive = 5\n",
            "did you mean 'priority_halflife'",
            id="unknown-key",
        ),
        pytest.param("[poool]\n", "did you mean 'pool'", id="unknown-section"),
        pytest.param(
            "[accountant]\npriority_halflife = true\n", "expected a number", id="wrong-type"
        ),
        pytest.param(
            '[negotiator]\nconsider_preemption = "no"\n', "true or false", id="preempt-bool"
        ),
        pytest.param(
            '[negotiator]\nconcurrency_limits = { "bad-name" = 1 }\n',
            "concurrency_limits.bad-name: expected a limit name",
            id="limit-name",
        ),
        pytest.param(
            "[negotiator]\nconcurrency_limits = { sw = -1 }\n", "at least 0", id="limit-neg"
        ),
        pytest.param(
            "[negotiator]\nconcurrency_limits = { sw = 1, SW = 2 }\n",
            "names ignore case",
            id="limit-dup",
        ),
        pytest.param(
            "[negotiator]\nconcurrency_limits = 5\n", "expected a table", id="limit-table"
        ),
        pytest.param("[accountant]\npriority_halflife = -5\n", "0 or more", id="negative-hl"),
        pytest.param(
            '[accountant]\npriority_halflife = "1:2:3:4"\n',
            "not a Slurm time",
            id="bad-time-string",
        ),
        pytest.param("[accountant]\ndefault_prio_factor = nan\n", "finite", id="nan-factor"),
        pytest.param("[accountant]\ndefault_prio_factor = -1\n", "at least 1", id="neg-factor"),
        pytest.param('[pool]\ndefaults = "modern"\n', '"legacy" or "current"', id="profile"),
        pytest.param('[groups."a.b"]\nquota = 1\n', 'parent group "a"', id="missing-parent"),
        pytest.param('[groups."a"]\nquota = -1\n', "at least 0", id="neg-quota"),
        pytest.param(
            '[groups."a"]\ndynamic_quota = 1.5\n', "from 0 to 1, got 1.5", id="dyn-above-1"
        ),
        pytest.param(
            '[priority]\nfairshare = "fairtree"\n', "did you mean 'fair_tree'", id="algorithm"
        ),
        pytest.param("[priority]\ncalc_period = 30\n", "PriorityCalcPeriod", id="calc-period"),
        pytest.param(
            '[priority]\nusage_reset_period = "HOURLY"\n', "PriorityUsageResetPeriod", id="reset"
        ),
        pytest.param(
            "[priority.weights]\nage = 4294967296\n", "at most 4294967295", id="weight-too-big"
        ),
        pytest.param("[accounts.a]\nshares = -3\n", "at least 0", id="neg-shares"),
        pytest.param(
            '[partitions.b]\nbilling_weights = "CPU=1,GPU=2"\n',
            "partitions.b.billing_weights: TRES weight 'gpu' is not a configured TRES type",
            id="billing-tres",
        ),
        pytest.param(
            "[partitions.b]\nbilling_weights = { cpu = 1 }\n",
            "billing_weights: expected a string",
            id="billing-table",
        ),
        # (a time span of 0 and weights summing to 0 are taken, as DIRAC takes them:
        # tests/io/test_config_dirac.py)
    ],
)
def test_bad_config(write_config: Callable[[str], Path], text: str, needle: str) -> None:
    path = write_config(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert needle in message
    assert str(path) in message
    assert "\n" not in message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_override(write_config: Callable[[str], Path]) -> None:
    path = write_config('[groups."g"]\nquota = 5\n')
    c = load_config(path, {'groups."g".quota': 7, "accountant.priority_halflife": 60})
    assert c.groups["g"].quota == 7
    assert c.accountant.priority_halflife == 60


@pytest.mark.parametrize("text", sorted(BUILTIN_EXPRESSIONS))
def test_builtin_expressions_parse(text: str) -> None:
    """check_expressions skips the built-in texts, so each must parse (classad2 says so)."""
    check_expression(text, "built-in", ConfigError)


def test_a_config_with_no_expressions_of_its_own_checks_none(
    write_config: Callable[[str], Path],
) -> None:
    """A config setting no expression holds only built-in texts; one it sets is checked
    (a typo in a legacy profile's knob is still refused when the config is read)."""
    config = load_config(write_config('[pool]\ndefaults = "current"\n'))
    neg = config.negotiator
    assert {neg.slot_weight, neg.preemption_requirements, neg.pre_job_rank} <= BUILTIN_EXPRESSIONS
    with pytest.raises(ConfigError, match=r"\[negotiator\] slot_weight: cannot parse"):
        load_config(write_config('[pool]\n[negotiator]\nslot_weight = "Cpus +"\n'))


def test_default_cpu_segments_are_valid() -> None:
    """read_dirac checks cpu_segments only when a config sets them: the default must pass."""
    from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS
    from fairshare_cli.core.dirac.taskqueues import valid_cpu_segments

    assert valid_cpu_segments(DIRAC_CPU_SEGMENTS)


def test_backfill_keys_default_and_limits(write_config: Callable[[str], Path]) -> None:
    """Slurm's defaults and ranges (``_load_config`` in src/plugins/sched/backfill/
    backfill.c: ``DEF_BF_MAX_JOB_TEST`` 500, ``BACKFILL_WINDOW`` 24 h = 1440 minutes,
    ``BACKFILL_RESOLUTION`` 60 s, ``BACKFILL_INTERVAL`` 30 s; at most 1,000,000 jobs,
    30 days = 43200 minutes, 3600 s, 10800 s)."""
    prio = load_config(write_config("[pool]\n")).priority
    assert (prio.bf_max_job_test, prio.bf_window, prio.bf_resolution, prio.bf_interval) == (
        500,
        1440,
        60,
        30,
    )
    top = load_config(
        write_config(
            "[priority]\nbf_max_job_test = 1000000\nbf_window = 43200\n"
            "bf_resolution = 3600\nbf_interval = 10800\n"
        )
    ).priority
    assert (top.bf_max_job_test, top.bf_window, top.bf_resolution, top.bf_interval) == (
        1000000,
        43200,
        3600,
        10800,
    )
    for key, bad, says in [
        ("bf_window", "43201", "at most 43200"),
        ("bf_resolution", "0", "at least 1"),
        ("bf_interval", "10801", "at most 10800"),
        ("bf_max_job_test", '"500"', "expected a whole number"),
    ]:
        with pytest.raises(ConfigError, match=f"priority.{key}: {says}|{key}.*{says}"):
            load_config(write_config(f"[priority]\n{key} = {bad}\n"))


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        pytest.param("30", True, id="number-is-seconds"),
        pytest.param('"0"', False, id="string-is-minutes"),
    ],
)
def test_a_short_calc_period_says_a_number_is_seconds(
    value: str, hint: bool, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs config check --config c.toml with calc_period = 30: 'Bad value "30"' read as 30
    minutes (slurm.conf's unit) to a Slurm admin; the message says a number is seconds."""
    cfg = write_config(f'[pool]\ndefaults = "current"\n[priority]\ncalc_period = {value}\n')
    result = run("config", "check", "--config", str(cfg))
    assert result.exit_code == 2
    assert "(must be at least 1 minute)" in result.stderr
    assert ("a TOML number is seconds" in result.stderr) is hint


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["config", "check"],
                     "accountant.priority_halflife: expected a finite number, got 111", id="file"),
        pytest.param(["whatif", "--set", "accountant.default_prio_factor=" + "1" * 400,
                      "userprio"],
                     "--set: accountant.default_prio_factor: expected a finite number",
                     id="whatif-set"),
        pytest.param(["whatif", "--set", "accountant.priority_halflife=" + "1" * 5000,
                      "userprio"],
                     "has a number of more than 18 digits", id="whatif-set-digits"),
        pytest.param(["submit", "--owner", "alice", "--set", "run_time=" + "1" * 5000],
                     "--set run_time: \"" + "1" * 80 + "...\" has a number of more than 18",
                     id="submit-run-time"),
    ],
)  # fmt: skip
def test_a_number_beyond_any_float_is_refused(
    args: list[str], said: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``priority_halflife = <400 digits>`` (TOML reads whole numbers of any size) crashed
    ``fs config check`` with an OverflowError traceback converting it to a float, as did
    ``--set`` such a value; a 5,000-digit time string crashed ``int()``."""
    sample = Path(__file__).resolve().parents[2] / "sample_configs" / "pool.toml"
    text = sample.read_text(encoding="utf-8")
    config = tmp_path / "pool.toml"
    config.write_text(text.replace("priority_halflife = 86400", f"priority_halflife = {'1' * 400}"))
    if args[0] != "config":
        config.write_text(text)
    state = tmp_path / "state.json"
    line = [*args, "--config", str(config)]
    now = ["--state", str(state), "--now", "2026-11-21T13:00:00Z"]
    result = run(*line, *([] if args[0] == "config" else now))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: ") and said in result.stderr
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 400
    assert not state.exists()


@pytest.mark.parametrize("command", [["userprio"], ["setfactor", "a@d", "2", "--create"]])
def test_a_state_path_with_a_nul_is_refused(
    tmp_path: Path, run: Callable[..., Any], command: list[str]
) -> None:
    """``[pool] state = "\\u0000x"`` crashed every command with 'ValueError: embedded null
    byte' (a traceback, exit 1), the first time the path reached the operating system."""
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "d"\nstate = "\\u0000x"\n', encoding="utf-8")
    result = run(*command, "--config", str(config), "--now", "2026-11-21T13:00:00Z")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {config}: pool.state: a path with a NUL character; give the state "
        "file's path, or leave the key out\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]


@pytest.mark.parametrize("state", ['""', '"  "'])
def test_an_empty_state_path_is_refused(
    tmp_path: Path, run: Callable[..., Any], state: str
) -> None:
    """``[pool] state = ""`` (a template's unfilled value) read and wrote the user state
    folder's state in silence, as ``--state ""`` did before it was refused."""
    config = tmp_path / "pool.toml"
    config.write_text(f'[pool]\nuid_domain = "d"\nstate = {state}\n', encoding="utf-8")
    result = run("setfactor", "a@d", "2", "--create", "--config", str(config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {config}: pool.state: an empty path; give the state file's path, or "
        "leave the key out\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]  # (no user state)


@pytest.mark.parametrize("factor", [0.5, 0, -2, 1e6])
def test_group_prio_factor_takes_any_finite_number(
    write_config: Callable[[str], Path], factor: float
) -> None:
    """HTCondor reads ``GROUP_PRIO_FACTOR_<g>`` with ``param_double`` and no bounds
    (``Accountant::getGroupPriorityFactor``); what a record stores is clamped later, by
    ``SetPriorityFactor``. So the loader keeps the number as written."""
    config = load_config(write_config(f'[groups."group_a"]\nquota = 1\nprio_factor = {factor}\n'))
    assert config.groups["group_a"].prio_factor == factor
