"""DIRAC group names with blanks inside, as DIRAC's configuration holds them.

diraccfg names a section by its line up to the ``{``, stripped: ``lhcb user`` is a group,
a blank at either end is not (and MariaDB's PAD SPACE collation would read ``lhcb user ``
as ``lhcb user``). Every other rule of a name holds (no control character, at most one
``@``, not empty).
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracGroupSpec
from fairshare_cli.core.dirac.jobs import task_queues_from_objects
from fairshare_cli.core.dirac.priorities import task_queue_rows
from fairshare_cli.core.names import dirac_group_problem, name_problem
from fairshare_cli.errors import InputError


@pytest.mark.parametrize("name", ["lhcb user", "lhcb  prod", "a b c", "o'brien", "back\\slash"])
def test_blanks_inside_a_group_are_taken(name: str) -> None:
    assert dirac_group_problem(name) is None


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (" lhcb", "without a blank at either end"),
        ("lhcb ", "without a blank at either end"),
        (" ", "without a blank at either end"),
        ("lhcb user\x1b[2J", "without control characters, got"),
        ("a b@c@d", "at most one '@'"),
        ("", "got an empty one"),
    ],
)
def test_other_names_are_refused(name: str, said: str) -> None:
    assert said in (dirac_group_problem(name) or "")


def test_a_name_without_blanks_is_judged_as_any_name() -> None:
    for name in ("lhcb_user", "a@b@c", "x\ty", 5):
        assert dirac_group_problem(name) == name_problem(name, submitter=True)


def test_a_group_with_blanks_splits_its_share_over_its_owners() -> None:
    """``lhcb user`` (share 1000) has alice (one queue, priority 1) and bob (two queues at
    different CPU times, priorities 1 and 3): 500 each; bob's queues by their averages
    1 and 3 over 4: 125 and 375. A second group ``lhcb  user`` (two blanks) is another
    group, not listed: the default 1000 for its one owner."""
    groups = {"lhcb user": DiracGroupSpec("lhcb user", job_share=1000)}
    objs = [
        {"id": "1.0", "owner": "alice", "dirac_group": "lhcb user", "user_priority": 1},
        {"id": "2.0", "owner": "bob", "dirac_group": "lhcb user", "user_priority": 1},
        {"id": "3.0", "owner": "bob", "dirac_group": "lhcb user", "user_priority": 3,
         "dirac_requirements": {"cpu_time": 3000}},
        {"id": "4.0", "owner": "carol", "dirac_group": "lhcb  user", "user_priority": 1},
    ]  # fmt: skip
    queues = task_queues_from_objects(objs, "jobs.json", groups, DIRAC_CPU_SEGMENTS)
    rows = task_queue_rows(queues, groups)
    assert [(r.queue.definition.group, r.priority) for r in rows] == [
        ("lhcb user", 500.0),
        ("lhcb user", 125.0),
        ("lhcb user", 375.0),
        ("lhcb  user", 1000.0),
    ]


def test_a_group_with_a_blank_at_an_end_is_refused() -> None:
    objs = [{"id": "1.0", "owner": "alice", "dirac_group": "lhcb user "}]
    with pytest.raises(InputError, match="without a blank at either end"):
        task_queues_from_objects(objs, "jobs.json", {}, DIRAC_CPU_SEGMENTS)
