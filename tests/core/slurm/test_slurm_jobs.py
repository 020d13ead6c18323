"""The fast job reader for sprio agrees with the full job parser."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.jobs import parse_jobs
from fairshare_cli.core.slurm.jobs import SlurmJob, slurm_jobs
from fairshare_cli.errors import InputError

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        ["", "idle", "held", "running", "x", "batch,express", "2026-11-21T12:00:00Z", "5:30"]
    ),
)
KEYS = st.sampled_from(
    [
        "account",
        "partition",
        "qos",
        "status",
        "submit_time",
        "time_limit",
        "num_nodes",
        "request_cpus",
        "request_memory",
        "site_factor",
        "nice",
        "admin_priority",
        "count",
        "job_prio",
    ]
)


def _outcome(func: Any, objs: list[Any]) -> Any:
    try:
        return [
            tuple(
                getattr(SlurmJob.of(j) if not isinstance(j, SlurmJob) else j, name)
                for name in SlurmJob.__slots__
            )
            for j in func(objs)
        ]
    except InputError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(
    extra=st.dictionaries(KEYS, VALUES, max_size=5),
    job_id=st.sampled_from(["7", "8.1", 9]),
    owner=st.sampled_from(["alice", 3]),
)
def test_fast_reader_matches_parse_jobs(extra: dict[str, Any], job_id: Any, owner: Any) -> None:
    obj = {"id": job_id, "owner": owner, **extra}
    assert _outcome(lambda o: slurm_jobs(o, "f"), [obj]) == _outcome(
        lambda o: parse_jobs(o, "f"), [obj]
    )


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(InputError, match="f: job 1: duplicate job id '3'"):
        slurm_jobs([{"id": "3", "owner": "a"}, {"id": "3", "owner": "b"}], "f")
