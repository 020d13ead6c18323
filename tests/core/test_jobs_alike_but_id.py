"""``core/jobs.py``'s ``alike_but_id``: a run of jobs alike but for their ids (a ``count``
object, an array) is checked at its first job; the queue operations and the config check
that take that shortcut give what checking every job gives."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

import fairshare_cli.core.jobs as jobs_module
from fairshare_cli.core.jobs import Job, alike_but_id
from fairshare_cli.core.operations import queue as queue_module
from fairshare_cli.core.operations.queue import new_jobs
from fairshare_cli.core.operations.validate import check_jobs_against_config
from fairshare_cli.errors import InputError
from fairshare_cli.io.config import build_config
from fairshare_cli.io.toml import loads

NOW = 1_795_262_400.0
CONFIG = build_config(
    loads(
        """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
attributes = { Cpus = 8, Partition = "batch,long" }
[partitions.batch]
default = true
default_time = 3600
max_time = 7200
[partitions.long]
priority_tier = 2
[accounts.hep]
users = { alice = 1 }
[qos.normal]
"""
    ),
    "jobs.toml",
)


def test_alike_but_id_compares_every_field_but_the_id() -> None:
    job = Job(id="1.0", owner="alice", partition="batch", attributes={"Site": "a"})
    assert alike_but_id(replace(job, id="1.1"), job)
    assert not alike_but_id(job, None)
    assert not alike_but_id(replace(job, id="1.1", request_cpus=2), job)
    assert not alike_but_id(replace(job, id="1.1", attributes={"Site": "b"}), job)
    assert not alike_but_id(replace(job, id="1.1", submit_time=NOW), job)


job_object = st.fixed_dictionaries(
    {"owner": st.sampled_from(["alice", "bob"])},
    optional={
        "account": st.just("hep"),
        "partition": st.sampled_from(["batch", "long", "batch,long", "long,batch"]),
        "request_cpus": st.sampled_from([1, 4, 16]),
        "time_limit": st.sampled_from([60, 10800]),
        "status": st.sampled_from(["idle", "running"]),
        "count": st.integers(1, 3),
    },
)


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every job checked on its own: no job is its predecessor's alike."""
    never = lambda job, before: False  # noqa: E731
    monkeypatch.setattr(jobs_module, "alike_but_id", never)
    monkeypatch.setattr(queue_module, "alike_but_id", never)


@settings(max_examples=60, deadline=None)
@given(objects=st.lists(job_object, min_size=1, max_size=6))
def test_new_jobs_of_runs_alike_are_what_checking_each_gives(objects: list[dict[str, Any]]) -> None:
    """``new_jobs`` (``fs submit``) takes a job alike its predecessor but for its id as its
    predecessor was taken (a ``DefaultTime``, the partition a running job runs in, why it
    pends): the same jobs, reasons and refusal as when each is checked."""

    def outcome() -> Any:
        try:
            return new_jobs(CONFIG, [], objects, NOW, source="t", where="s")
        except InputError as exc:
            return str(exc)

    with pytest.MonkeyPatch.context() as patch:
        _plain(patch)
        plain = outcome()
    assert outcome() == plain


@settings(max_examples=40, deadline=None)
@given(objects=st.lists(job_object, min_size=1, max_size=6))
def test_the_config_check_of_runs_alike_refuses_what_checking_each_refuses(
    objects: list[dict[str, Any]],
) -> None:
    """``check_jobs_against_config`` checks a run of jobs alike at its first: it refuses
    a list when checking each job refuses it, with the same words."""
    try:
        found = new_jobs(CONFIG, [], objects, NOW, source="t", where="s")[0]
    except InputError:
        assume(False)
    bad = [replace(job, qos="gold") if job.request_cpus == 4 else job for job in found]
    pairs: list[tuple[Any, Job]] = [({}, job) for job in bad]

    def outcome() -> str | None:
        try:
            check_jobs_against_config(pairs, CONFIG, "t")
        except InputError as exc:
            return str(exc)
        return None

    with pytest.MonkeyPatch.context() as patch:
        _plain(patch)
        plain = outcome()
    assert outcome() == plain
