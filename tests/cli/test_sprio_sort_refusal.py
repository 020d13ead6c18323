"""``fs sprio -S`` with a key sprio refuses: where and when sprio refuses it.

Before, ``fs sprio -S x`` refused the key before printing anything, and so did
``fs sprio -w -S x``. sprio reads the keys in ``sort_job_list`` (``src/sprio/sort.c``),
which ``print_jobs_array`` (``src/sprio/print.c``, 22.05 and today alike) calls after it
has printed the header, and only for a list of jobs: the weights line (``-w``) returns
before it, and so does a list slurmctld sent none of (no pending job at all; in 22.05,
whose slurmctld applied ``-j``, ``-u`` and ``-p`` itself, none of those either:
``priority_p_get_priority_factors_list`` frees an empty answer). So ``sprio -S x`` prints
the header on stdout, then ``Invalid sort specification: x`` (exit 1; fs: exit 2), and
``sprio -w -S x`` prints the weights.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import CONFIG, STATE, common, refused, write_pool

HEADER = (
    "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE"
    "  PARTITION        QOS\n"
)
C2205 = CONFIG + '[priority]\noutput_compat = "22.05"\n'


def test_a_bad_key_is_refused_after_the_header(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    result = run("sprio", "-S", "Y,x", *common(env))
    refused(result, "Invalid sort specification: x")
    assert result.stdout == HEADER
    assert env["state"].read_bytes() == before


def test_a_bad_key_with_no_header_prints_nothing(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run("sprio", "-h", "-S", "x", *common(env))
    refused(result, "Invalid sort specification: x")
    assert result.stdout == ""


def test_the_weights_are_not_sorted(env: dict[str, Path], run: Callable[..., Any]) -> None:
    result = run("sprio", "-w", "-S", "x", *common(env))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == run("sprio", "-w", *common(env)).stdout


def test_no_pending_job_sorts_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    env = write_pool(tmp_path, state=json.dumps({**STATE, "jobs": []}))
    result = run("sprio", "-S", "x", *common(env))
    assert (result.exit_code, result.stdout, result.stderr) == (0, HEADER, "")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        pytest.param(["-p", "nosuch"], 0, id="22.05-none-left-by-slurmctld"),
        pytest.param(["-p", "batch"], 2, id="22.05-some-left"),
    ],
)
def test_22_05_sorts_what_slurmctld_sent(
    args: list[str], code: int, tmp_path: Path, run: Callable[..., Any]
) -> None:
    env = write_pool(tmp_path, C2205)
    header = run("sprio", "-p", "nosuch", *common(env)).stdout
    assert header.count("\n") == 1 and "JOBID" in header
    result = run("sprio", *args, "-S", "x", *common(env))
    assert (result.exit_code, result.stdout) == (code, header), result.stderr
    if code:
        refused(result, "Invalid sort specification: x")


def test_a_bad_key_in_json_is_refused(env: dict[str, Path], run: Callable[..., Any]) -> None:
    result = run("sprio", "--json", "-S", "x", *common(env))
    refused(result, "Invalid sort specification: x")
    assert result.stdout == ""
