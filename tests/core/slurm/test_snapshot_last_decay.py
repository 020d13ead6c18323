"""A state moved to slurmctld's pass at ``--last-decay`` with the queue's running jobs ended
at their limits (core/slurm/snapshot.py, ``at_pass_at_limits``: ``fs import sacct
--last-decay``).

By hand, from ``priority_multifactor.c`` (``_decay_thread``, ``_apply_new_usage``): each pass
multiplies usage by ``d^Δ`` (``d = 1 − 0.693/3600``) and charges a running job ``Δ·d^Δ·rate``
for the seconds since the last pass (its start at its first); a pass that finds the job
ended charges it nothing (no ``AccountingStorageEnforce=limits``). A restarted slurmctld's
first pass runs at the new time (``usage.restart``). ``job_time_limit`` ends job 1 at start +
600 s (``OverTimeLimit`` 0); job 2 has no limit (UNLIMITED).
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import Config, PartitionSpec, SlurmPriorityConfig
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.snapshot import at_pass, at_pass_at_limits
from fairshare_cli.errors import InputError

D = 1 - 0.693 / 3600
CONFIG = Config(
    priority=SlurmPriorityConfig(decay_halflife=3600.0, calc_period=300.0, over_time_limit=0.0),
    partitions={"batch": PartitionSpec(name="batch", default=True)},
)
QUEUE = [
    Job(id="1", owner="u", partition="batch", time_limit=600.0, status="running"),
    Job(id="2", owner="u", partition="batch", status="running"),
]
STATE = su.SlurmUsage(
    last_decay_ran=900.0,
    usage={("a", "u"): 10.0},
    running=(
        su.RunningCharge("a", "u", 1.0, 1000.0, job="1"),
        su.RunningCharge("a", "u", 1.0, 1000.0, job="2"),
    ),
)


def test_a_job_ended_at_its_limit_is_charged_up_to_the_pass_before_its_end() -> None:
    """Passes at 1200, 1500, 1800 (the old grid), then the pass at 2000. Job 1 (1000 to
    its limit's end, 1600) is charged at 1200 (200 s) and 1500 (300 s), not at 1800 (it has
    ended); job 2 at all four (200, 300, 300 and 200 s). Job 1's charge is dropped (ended
    before 2000), job 2's kept as stored."""
    moved = at_pass_at_limits(STATE, QUEUE, 2000.0, CONFIG)
    job_1 = 200 * D**200 * D**800 + 300 * D**300 * D**500
    job_2 = job_1 + 300 * D**300 * D**200 + 200 * D**200
    assert moved.last_decay_ran == 2000.0
    assert moved.usage[("a", "u")] == pytest.approx(10 * D**1100 + job_1 + job_2, rel=1e-12)
    assert moved.running == (STATE.running[1],)


def test_without_limits_it_is_at_pass() -> None:
    """No job of the queue ends before the pass: the same state :func:`at_pass` gives."""
    queue = [Job(id=j.id, owner="u", partition="batch", status="running") for j in QUEUE]
    assert at_pass_at_limits(STATE, queue, 2000.0, CONFIG) == at_pass(STATE, 2000.0, CONFIG)


def test_a_pass_before_the_states_is_refused() -> None:
    with pytest.raises(InputError, match="before the state's last decay pass"):
        at_pass_at_limits(STATE, QUEUE, 600.0, CONFIG)
