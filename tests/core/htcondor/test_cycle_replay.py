"""``fs import history --cycle`` (cycle_replay.py): BeginUsageTime on the cycle grid."""

from __future__ import annotations

from fairshare_cli.core.config import AccountantConfig, Config, PoolConfig
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.cycle_replay import CycleReplay
from fairshare_cli.core.usage import UsageRecord

CONFIG = Config(pool=PoolConfig(uid_domain="d"), accountant=AccountantConfig(priority_halflife=1e4))


def test_a_match_begins_at_the_next_cycle() -> None:
    """Cycles every 100 s. a starts at 130 (AddMatch 30 s into the cycle at 100, uncharged
    -30); the cycle at 200 is the first UpdatePriorities after it: AccumulatedUsage
    1 x 100 - 30 = 70 > 0, so BeginUsageTime = 200 (Accountant::UpdateOnePriority), though a
    runs until --now 1000; <none> likewise."""
    grid = CycleReplay(CONFIG, None, 1000.0, rebuild=False, cycle=100.0)
    grid.add(UsageRecord(owner="a", start=130.0, end=None))
    state = acct.accountant_from_json(grid.finish())
    assert state.records["a@d"].begin_usage_time == 200.0
    assert state.records["<none>"].begin_usage_time == 200.0
    assert state.records["a@d"].accumulated_usage == 1000.0 - 130.0


def test_a_stored_match_begins_at_the_first_cycle_after_it() -> None:
    """x@d was matched after the accountant's update at 250 (ResourcesUsed 1, begin 0):
    the next cycle on the 100 s grid is 300, which updates every record: x's begin is 300,
    not --now (1000), though no replayed record touches it. A record stored at 300 exactly
    waits for 400."""
    x = acct.CustomerRecord(name="x@d", last_update=250.0, resources_used=1)
    y = acct.CustomerRecord(name="y@d", last_update=300.0, resources_used=1)
    section = acct.accountant_to_json(acct.AccountantState(records={"x@d": x, "y@d": y}))
    grid = CycleReplay(CONFIG, section, 1000.0, rebuild=False, cycle=100.0)
    grid.add(UsageRecord(owner="a", start=700.0, end=800.0))
    state = acct.accountant_from_json(grid.finish())
    assert state.records["x@d"].begin_usage_time == 300.0
    assert state.records["y@d"].begin_usage_time == 400.0
