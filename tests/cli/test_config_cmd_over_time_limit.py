"""``priority.over_time_limit`` (OverTimeLimit), ``partitions.<name>.over_time_limit`` and
``priority.kill_wait`` (KillWait) in the config: a duration (a TOML number is seconds, a
string minutes or ``"UNLIMITED"``) of whole minutes, at most 65534 of them (slurmctld
keeps minutes in a ``uint16_t``, 65535 being UNLIMITED); KillWait whole seconds up to
65535. Bad values are one line and exit 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = '[pool]\ndefaults = "current"\n[partitions.batch]\ndefault = true\n{part}[priority]\n{prio}'


@pytest.mark.parametrize(
    ("prio", "part", "shown"),
    [
        pytest.param(
            "", "", ["priority.over_time_limit = 0.0", "priority.kill_wait = 30"], id="defaults"
        ),
        pytest.param(
            'over_time_limit = "5"\n', "", ["priority.over_time_limit = 300.0"], id="minutes"
        ),
        pytest.param(
            "over_time_limit = 300\n", "", ["priority.over_time_limit = 300.0"], id="seconds"
        ),
        pytest.param(
            'over_time_limit = "UNLIMITED"\n',
            "",
            ['priority.over_time_limit = "INFINITE"'],
            id="unlimited",
        ),
        pytest.param(
            "kill_wait = 0\n",
            'over_time_limit = "1"\n',
            ["priority.kill_wait = 0", "partitions.batch.over_time_limit = 60.0"],
            id="partition",
        ),
    ],
)
def test_read(
    tmp_path: Path, run: Callable[..., Any], prio: str, part: str, shown: list[str]
) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(prio=prio, part=part), encoding="utf-8")
    res = run("config", "check", "--config", str(config))
    assert res.exit_code == 0, res.stderr
    for line in shown:
        assert line in res.stdout.splitlines()


@pytest.mark.parametrize(
    ("prio", "part", "error"),
    [
        pytest.param(
            "over_time_limit = 90\n",
            "",
            "priority.over_time_limit: expected whole minutes, at most 65534 (OverTimeLimit), or"
            ' "UNLIMITED", got 90 (a TOML number is seconds)',
            id="not-whole-minutes",
        ),
        pytest.param(
            'over_time_limit = "65535"\n',
            "",
            "priority.over_time_limit: expected whole minutes, at most 65534",
            id="too-many",
        ),
        pytest.param(
            "",
            'over_time_limit = "abc"\n',
            "partitions.batch.over_time_limit: ",
            id="not-a-time",
        ),
        pytest.param("kill_wait = 65536\n", "", "priority.kill_wait: ", id="kill-wait"),
    ],
)
def test_refused(tmp_path: Path, run: Callable[..., Any], prio: str, part: str, error: str) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(prio=prio, part=part), encoding="utf-8")
    res = run("config", "check", "--config", str(config))
    assert res.exit_code == 2
    assert error in res.stderr
    assert len(res.stderr.splitlines()) == 1
