"""A knob whose value is a whole number of thousands of digits, in ``condor_config`` or
``slurm.conf``: one line, exit 2. fs stopped on a traceback (``ValueError: Exceeds the
limit (4300 digits) for integer string conversion``). HTCondor reads such a literal with
``strtoll``, unchecked for ERANGE (``string_is_long_param``, ``condor_utils/param_info``
... ``result = strtoll(string,&endptr,10)``): it saturates at the 64-bit bound, so it is
that bound fs weighs, here beyond the int the negotiator reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import refused

DIGITS = "9" * 5000


def test_condor_config_knob_of_thousands_of_digits(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-config condor_config`` with ``NEGOTIATOR_INTERVAL = 99...9``."""
    config = tmp_path / "condor_config"
    config.write_text(f"NEGOTIATOR_INTERVAL = {DIGITS}\n")
    result = run("import", "condor-config", str(config))
    refused(
        result,
        f"{config}:1: NEGOTIATOR_INTERVAL: expected at most 2147483647 seconds (HTCondor reads "
        f"an int; beyond it the negotiator stops), got '{'9' * 80}...'",
    )


def test_slurm_conf_knob_of_thousands_of_digits(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import slurm-conf slurm.conf`` with ``PriorityWeightAge=99...9``."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(f"PriorityWeightAge={DIGITS}\n")
    result = run("import", "slurm-conf", str(conf))
    refused(
        result,
        f'{conf}:1: PriorityWeightAge: "{"9" * 80}..." is out of range, and slurmctld stops on it',
    )
