"""Job ids in negotiation order: whole numbers first, in numeric order, then text."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.negotiator.common import id_key, split_id
from fairshare_cli.core.htcondor.negotiator.queue import order_key
from fairshare_cli.core.jobs import Job


@pytest.mark.parametrize(
    ("job_id", "key"),
    [
        pytest.param("12.3", ((0, 12), (0, 3)), id="numbers"),
        pytest.param("12", ((0, 12), (1, "")), id="no-proc"),
        pytest.param("a.3", ((1, "a"), (0, 3)), id="text-cluster"),
        pytest.param("12.x", ((0, 12), (1, "x")), id="text-proc"),
        pytest.param("\u0661\u0662.3", ((1, "\u0661\u0662"), (0, 3)), id="non-ascii-digits"),
    ],
)
def test_id_key_puts_numbers_before_text(job_id: str, key: object) -> None:
    assert id_key(job_id) == key
    c, p = split_id(job_id)
    assert key == ((0 if isinstance(c, int) else 1, c), (0 if isinstance(p, int) else 1, p))


@pytest.mark.parametrize("legacy", [True, False])
def test_order_key_sorts_as_the_nested_id_key(legacy: bool) -> None:
    ids = ["10.2", "9.11", "9.2", "a.1", "9.x", "10", "2.0", "\u0661.0"]
    jobs = [Job(id=i, owner="alice", job_prio=int(i[0] == "9")) for i in ids]
    flat = sorted(jobs, key=lambda j: order_key(j, legacy))
    nested = sorted(jobs, key=lambda j: (-j.job_prio, id_key(j.id)))
    assert [j.id for j in flat] == [j.id for j in nested]
    cluster = 3 if legacy else 6
    assert all(order_key(j, legacy)[cluster] == split_id(j.id)[0] for j in jobs)
