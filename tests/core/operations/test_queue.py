"""The queue operations as library calls: submit, set_priority, remove (and what rm releases)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import Config, MachineSpec, PoolConfig
from fairshare_cli.core.dirac.correction import history_from_json
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import negotiator_from_json
from fairshare_cli.core.operations.negotiate import negotiate
from fairshare_cli.core.operations.queue import read_queue, remove, set_priority, submit
from fairshare_cli.core.state import State
from fairshare_cli.errors import InputError

NOW = 1_795_262_400.0
CONFIG = Config(
    pool=PoolConfig(uid_domain="example.org"), machines=(MachineSpec(name="exec", count=2),)
)


def test_submit_numbers_clusters_and_stamps_the_submit_time() -> None:
    state, new = submit(CONFIG, State(), NOW, [{"owner": "a"}], source="t", where="s")
    state, more = submit(
        CONFIG, state, NOW + 5, [{"owner": "b"}, {"owner": "c", "id": "9.0"}], source="t", where="s"
    )
    assert [j.id for j in new + more] == ["1", "2", "9.0"]
    assert [j.submit_time for j in read_queue(state, "s")] == [NOW, NOW + 5, NOW + 5]
    with pytest.raises(InputError, match="t: job id 2 is already in the queue of s"):
        submit(CONFIG, state, NOW, [{"owner": "d", "id": "2"}], source="t", where="s")


def test_set_priority_names_a_cluster_and_slurm_zero_holds() -> None:
    jobs = [{"id": "5.0", "owner": "a"}, {"id": "5.1", "owner": "a"}, {"id": "6.0", "owner": "a"}]
    state = State().with_section("jobs", jobs)
    state, hit = set_priority(state, "5", 3, slurm=False, where="s")
    assert [j.id for j in hit] == ["5.0", "5.1"]
    assert [j.job_prio for j in read_queue(state, "s")] == [3, 3, 0]
    state, _ = set_priority(state, "6.0", 0, slurm=True, where="s")
    held = read_queue(state, "s")[2]
    assert (held.admin_priority, held.status) == (0, "held")
    with pytest.raises(InputError, match='no job "7" in the queue'):
        set_priority(state, "7", 1, slurm=False, where="s")


def test_remove_releases_claims_usage_and_dirac_history() -> None:
    """Two DIRAC jobs start at NOW (one slot each); removing one at NOW + 60 ends its
    interval: the history counts 2 running from NOW, 1 from NOW + 60."""
    jobs = [{"id": f"1.{k}", "owner": "a", "dirac_group": "g"} for k in (0, 1)]
    state, result = negotiate(CONFIG, State().with_section("jobs", jobs), NOW)
    assert len(result.matches) == 2
    state, gone = remove(CONFIG, state, NOW + 60, ["1.0"], where="s")
    assert [j.id for j in gone] == ["1.0"]
    claims = negotiator_from_json(state.section("negotiator")).claims
    assert [c.job_id for c in claims.values()] == ["1.1"]
    rec = acct.accountant_from_json(state.section("accountant")).records["a@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (1, 1.0)
    history = history_from_json(state.section("dirac"))
    assert history.events[("g", "a")] == [(NOW, 2), (NOW + 60, -1)]
    with pytest.raises(InputError, match=r'no job "1\.0" in the queue'):
        remove(CONFIG, state, NOW + 60, ["1.0"], where="s")
