"""HTCondor's config sections (io/config/htcondor.py): the names they hold are names
(core/names.py's rule): not blank, no terminal escapes or NUL; ``fs config check`` says
which key, in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused

MACHINE = '[[machines]]\nname = "m"\n'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            '[pool]\nuid_domain = " "\n',
            "pool.uid_domain: expected a name without blanks or control characters, got ' '",
            id="blank-uid-domain",
        ),
        pytest.param(
            '[pool]\nuid_domain = "x\\u001b[31mred"\n',
            "pool.uid_domain: expected a name without blanks or control characters, "
            "got 'x\\x1b[31mred'",
            id="escape-uid-domain",
        ),
        pytest.param(
            '[pool]\nlocal_domains = ["a\\u0000b"]\n',
            "pool.local_domains[0]: expected a name without blanks",
            id="nul-local-domain",
        ),
        pytest.param(
            '[[machines]]\nname = ""\n', "machines[0].name: expected a name, got an empty", id="m"
        ),
        pytest.param(
            MACHINE + 'attributes = { " " = 1 }\n',
            "machines[0].attributes: an attribute name: expected a name without blanks",
            id="blank-attribute",
        ),
        pytest.param(
            MACHINE + 'hosts = ["h\\u001b"]\n',
            "machines[0].hosts[0]: expected a name without blanks or control",
            id="escape-host",
        ),
        pytest.param(
            MACHINE + 'partitions = [" "]\n',
            "machines[0].partitions[0]: expected a name without blanks",
            id="blank-partition",
        ),
    ],
)
def test_names_in_the_config_are_names(
    tmp_path: Path, run: Callable[..., Any], text: str, expected: str
) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(text, encoding="utf-8")
    refused(run("config", "check", "--config", str(config)), f"{config}: {expected}")


def test_good_names_pass(tmp_path: Path, run: Callable[..., Any]) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\nname = "p"\nuid_domain = "example.org"\nlocal_domains = ["a.org"]\n'
        + MACHINE
        + 'hosts = ["h1"]\npartitions = ["batch"]\nattributes = { Cpus = 1 }\n'
        + "[partitions.batch]\n",
        encoding="utf-8",
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr


def test_pool_consumption_policy_is_the_partitionable_machines_default(
    tmp_path: Path, write_config: Callable[[str], Path]
) -> None:
    """``[pool] consumption_policy`` (``CONSUMPTION_POLICY`` of condor_config, which the
    startd applies to its partitionable slots only): a partitionable machine without its
    own takes it with ``[pool]``'s ``num_claims`` and expressions, a static one has none,
    and a machine's own ``consumption_policy = false`` wins."""
    from fairshare_cli.io.config import load_config

    text = (
        '[pool]\nCONSUMPTION_POLICY = true\nnum_claims = 3\nconsumption_cpus = "1"\n'
        '[[machines]]\nname = "p"\npartitionable = true\nattributes = { Cpus = 4 }\n'
        '[[machines]]\nname = "q"\npartitionable = true\nconsumption_policy = false\n'
        "attributes = { Cpus = 4 }\n"
        '[[machines]]\nname = "s"\nattributes = { Cpus = 4 }\n'
    )
    machines = load_config(write_config(text)).machines
    assert [(m.consumption_policy, m.num_claims, m.consumption_cpus) for m in machines] == [
        (True, 3, "1"),
        (False, 3, "1"),
        (False, 3, "1"),
    ]
