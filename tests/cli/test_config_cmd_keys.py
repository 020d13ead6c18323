"""``fs config check`` prints each effective value under the key a config file sets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

POOL = str(REPO / "sample_configs" / "pool.toml")


def test_named_tables_print_no_name_key(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs config check --config sample_configs/pool.toml printed 'qos.high.name = "high"',
    'partitions.batch.name = "batch"', 'accounts.hep.name = "hep"' (and so for groups and
    DIRAC groups): keys the config refuses ('unknown key'). A table's name is its key."""
    result = run("config", "check", "--config", POOL)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert not [line for line in lines if ".name = " in line and not line.startswith("pool.")]
    assert "qos.high.priority = 100" in lines
    assert "partitions.express.priority_job_factor = 4" in lines
    assert 'groups."group_physics.hep".quota = (unset)' in lines
    document = json.loads(run("config", "check", "--config", POOL, "--json").stdout)
    assert document["qos"]["high"] == {"priority": 100, "usage_factor": 2.0}
    refused = run("config", "check", "--config", str(write_config('[qos.high]\nname = "high"\n')))
    assert refused.exit_code == 2  # (why the line misled)


def test_tres_weights_print_as_read_and_no_text_key(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """'priority.weights.tres_text = "CPU=1000,Mem=2G"' (or '= (unset)') was printed beside
    the weights read from it, a key no config may set. The weights as read stay: by hand,
    Mem=2G is 2 per GB, 2/1024 = 0.001953125 per MB; CPU=1000 is 1000."""
    config = write_config(
        '[pool]\ndefaults = "current"\n[priority.weights]\ntres = "CPU=1000,Mem=2G"\n'
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    tres = [line for line in result.stdout.splitlines() if line.startswith("priority.weights.t")]
    assert tres == ["priority.weights.tres.cpu = 1000.0", "priority.weights.tres.mem = 0.001953125"]
    document = json.loads(run("config", "check", "--config", str(config), "--json").stdout)
    assert "tres_text" not in document["priority"]["weights"]
    rows = run("config", "check", "--config", str(config), "--output", "csv").stdout
    assert "tres_text" not in rows


def test_a_string_prints_on_one_line_as_toml(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A ClassAd expression whose string literal holds a line break and a terminal escape
    (``"a\\nb"``, ``"\\e[2J"``) was printed by ``fs config check`` with the line break in
    it, its tail a line of its own (as if another key), and the escape dropped. Each value
    is a TOML basic string on its key's line, escaped as TOML escapes it; read back, it is
    the expression the config gave."""
    from fairshare_cli.io.toml import loads

    expression = 'false || "\x1b[2J" == "a\nb\tc"'
    text = "[negotiator]\npreemption_requirements = " + json.dumps(expression) + "\n"
    result = run("config", "check", "--config", str(write_config(text)))
    assert result.exit_code == 0, result.stderr
    key = "negotiator.preemption_requirements"
    lines = [line for line in result.stdout.splitlines() if line.startswith(key)]
    assert lines == [f'{key} = "false || \\"\\u001B[2J\\" == \\"a\\nb\\tc\\""']
    assert loads(lines[0])["negotiator"]["preemption_requirements"] == expression
    assert "\x1b" not in result.stdout


def test_consumption_expressions_are_parsed_at_load(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs config check --config pool.toml`` with ``[pool] consumption_cpus = "quantize("``
    printed the text as an effective value and exited 0; with a partitionable machine's
    ``consumption_memory = "+"`` the check passed too and ``fs negotiate --dry-run`` then
    failed with 'machine e consumption: cannot parse ...', naming no file or key. Every
    expression is parsed at load (docs/config.md): both are refused there, exit 2, one
    line naming the file and the key."""
    pool = write_config('[pool]\ndefaults = "current"\nconsumption_cpus = "quantize("\n')
    result = run("config", "check", "--config", str(pool))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {pool}: [pool] consumption_cpus: cannot parse ClassAd expression 'quantize('\n"
    )
    machine = write_config(
        '[pool]\ndefaults = "current"\n[[machines]]\nname = "e"\npartitionable = true\n'
        'consumption_policy = true\nconsumption_memory = "+"\nattributes = { Cpus = 4 }\n'
    )
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[{"id": "1.0", "owner": "a"}]', encoding="utf-8")
    state = str(tmp_path / "state.json")
    now = "2026-11-21T12:00:00Z"
    for args in (
        ["config", "check", "--config", str(machine)],
        ["negotiate", "--dry-run", "--config", str(machine), "--state", state, "--now", now,
         "--jobs-file", str(jobs)],
    ):  # fmt: skip
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr == (
            f"fs: error: {machine}: machine e consumption_memory: cannot parse ClassAd "
            "expression '+'\n"
        )
    assert not (tmp_path / "state.json").exists()


def test_a_printed_key_is_one_set_takes(run: Callable[..., Any]) -> None:
    """``fs config check`` printed ``groups.group_physics.hep.dynamic_quota = 0.6``: pasted
    into ``--set``, that key was refused (``group_physics.hep is one name ... quote it``).
    A name with dots is printed quoted, as ``--set`` takes it: the printed key changes the
    value (hep's 0.6 of physics' 200 slots is 120; 0.5 of them, 100)."""
    lines = run("config", "check", "--config", POOL).stdout.splitlines()
    line = next(x for x in lines if ".dynamic_quota = 0.6" in x)
    assert line == 'groups."group_physics.hep".dynamic_quota = 0.6'
    key = line.split(" = ")[0]
    result = run("whatif", "--set", f"{key}=0.5", "quota", "--config", POOL,
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "│ 120 -> 100 │ 120 -> 100 │ 0.6 -> 0.5" in result.stdout
    rows = run("config", "check", "--config", POOL, "--output", "ndjson").stdout.splitlines()
    assert json.loads(next(r for r in rows if "dynamic_quota" in r and "hep" in r)) == {
        "key": key,
        "value": 0.6,
    }
