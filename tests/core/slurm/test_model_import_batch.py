"""The Slurm import's batch loop is its one-record path, bit for bit, whatever the knobs.

``SlurmHistorySink.add_batch`` writes out, in one loop, what :meth:`add` does through
:func:`~fairshare_cli.core.slurm.passes.charge` (a measured hot loop). Both must charge the
same amounts to the same passes: their ledgers (every amount, as computed) are compared,
and the state section they leave as JSON text (``repr`` of every float), for records
dense enough that a pass holds more amounts than a ledger keeps before compacting them,
under a usage reset (a cutoff pass), with the end of a job charged
(``AccountingStorageEnforce=limits``), with a rate that is not a whole number (kept as a
Fraction), a zero usage factor, no decay, a decay that underflows (to DBL_MIN),
partitions' ``TRESBillingWeights`` (a record billed other than its CPUs) and records with
a TRES (their job's CPUs, billed with no weights too)."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import (
    AccountSpec,
    Config,
    PartitionSpec,
    QosSpec,
    SlurmPriorityConfig,
)
from fairshare_cli.core.slurm.model import SlurmHistorySink, make_slurm_history_sink
from fairshare_cli.core.slurm.passes import COMPACT_AT, Ledger, partials
from fairshare_cli.core.usage import UnsortedHistory, UsageRecord

NOW = 1_795_262_400.0 + 37.0  # between passes
ACCOUNTS = {
    "a": AccountSpec("a", users={"u1": 1, "u2": 2}),
    "b": AccountSpec("b", users={"u3": 1}),
}
QOS = {
    "normal": QosSpec("normal"),
    "half": QosSpec("half", usage_factor=0.5),
    "tenth": QosSpec("tenth", usage_factor=0.1),
    "free": QosSpec("free", usage_factor=0.0),
}


#: ``batch`` bills 0.3 a CPU (the default partition, of records naming none), ``plain`` CPUs
PARTITIONS = {
    "batch": PartitionSpec("batch", default=True, billing_weights="CPU=0.3,Mem=1G"),
    "plain": PartitionSpec("plain"),
}


def _config(
    halflife: float, period: float, reset: str, limits: bool, billed: bool = False
) -> Config:
    prio = SlurmPriorityConfig(
        decay_halflife=halflife, calc_period=period, usage_reset_period=reset, enforce_limits=limits
    )
    return Config(
        priority=prio, accounts=ACCOUNTS, qos=QOS, partitions=PARTITIONS if billed else {}
    )


def _record(spec: tuple[Any, ...]) -> UsageRecord:
    owner, account, qos, start, length, slots, cpus, partition, tres = spec
    end = None if length is None else start + length
    return UsageRecord(
        owner,
        start,
        end,
        account=account,
        partition=partition,
        qos=qos,
        slots=slots,
        cpus=cpus,
        tres=tres,
    )


_RECORDS = st.lists(
    st.tuples(
        st.sampled_from(["u1", "u1", "u1", "u2", "u3", "nobody"]),
        st.sampled_from([None, None, "a", "b", "gone"]),
        st.sampled_from([None, None, "normal", "half", "tenth", "free"]),
        # two days before now, a second apart (many records share a pass and its seconds)
        st.integers(0, 2 * 86400).map(lambda s: NOW - 2 * 86400 + s),
        st.one_of(st.none(), st.integers(0, 86400).map(float)),
        st.integers(0, 3),
        st.integers(0, 3),  # (0: an HTCondor match no job took, not Slurm's)
        st.sampled_from([None, "batch", "plain"]),
        st.sampled_from([None, None, "cpu=1", "cpu=2,mem=1024,node=1", "mem=512"]),
    ),
    max_size=160,
)


def _feed(sink: Any, records: list[UsageRecord], cuts: list[int] | None) -> None:
    if cuts is None:
        for r in records:
            sink.add(r)
    else:
        bounds = sorted({0, len(records), *(c % (len(records) + 1) for c in cuts)})
        for lo, hi in itertools.pairwise(bounds):
            sink.add_batch(records[lo:hi])


def _section(sink: Any, records: list[UsageRecord], cuts: list[int] | None) -> str:
    try:
        _feed(sink, records, cuts)
    except UnsortedHistory as exc:
        return f"unsorted at {exc}"
    return json.dumps(sink.finish())


@settings(max_examples=120, deadline=None)
@given(
    specs=_RECORDS,
    dense=st.integers(0, 200),
    config=st.builds(
        _config,
        halflife=st.sampled_from([3600.0, 604800.0, 0.0, 0.7]),
        period=st.sampled_from([60.0, 300.0, 7.0]),
        reset=st.sampled_from(["NONE", "DAILY", "NOW"]),
        limits=st.booleans(),
        billed=st.booleans(),
    ),
    rebuild=st.booleans(),
    sort=st.booleans(),
    cuts=st.lists(st.integers(0, 400), max_size=4),
)
def test_a_batch_charges_what_records_one_by_one_charge(
    specs: list[Any],
    dense: int,
    config: Config,
    rebuild: bool,
    sort: bool,
    cuts: list[int],
) -> None:
    """The same section text from ``add_batch`` (cut into batches anywhere) as from
    ``add``, buffered (``presorted`` false) or streamed; streamed, records out of order
    are either refused or charged as buffered, and records in order are charged so."""
    records = [_record(s) for s in specs]
    # ``dense`` records of one association starting within one pass, more than a pass
    # keeps before compacting its amounts
    records += [
        UsageRecord("u1", NOW - 3600.0 + (i * 13) % 50, NOW - 60.0 + i, qos="tenth")
        for i in range(dense)
    ]
    if sort:
        records.sort(key=lambda r: r.start)
    # a stored section (usage, its last pass; a reset since: a cutoff), unless rebuilt
    section = {"last_decay_ran": NOW - 5 * 86400 - 11.0, "usage": {"a": {"u1": 5.0e6}}}

    def sink(presorted: bool) -> Any:
        return make_slurm_history_sink(config, section, NOW, rebuild, presorted=presorted)

    # buffered, the ledgers hold every amount charged (in order, until compacted)
    one, batched = sink(False), sink(False)
    _feed(one, records, None)
    _feed(batched, records, cuts)
    assert batched.ledgers == one.ledgers
    assert batched.running == one.running
    buffered = json.dumps(one.finish())
    assert json.dumps(batched.finish()) == buffered
    for got in (_section(sink(True), records, cuts), _section(sink(True), records, None)):
        assert got == buffered or (not sort and got.startswith("unsorted"))


def test_a_pass_of_many_jobs_keeps_few_floats_and_their_exact_sum() -> None:
    """1,000 jobs of one association start in one pass (minutes apart, 0.1 CPU each):
    the pass holds at most ``COMPACT_AT`` floats, whose ``fsum`` is the ``fsum`` of the
    1,000 amounts ``Δ · d^Δ · 0.1`` charged there."""
    config = _config(3600.0, 300.0, "NONE", False)
    sink = SlurmHistorySink(config, None, NOW, True, presorted=False)
    first = math.floor((NOW - 86400.0) / 300.0) * 300.0 + 0.5  # just after a pass
    records = [
        UsageRecord("u1", first + i * 0.25, first + 1000.0, qos="tenth") for i in range(1000)
    ]
    sink.add_batch(records)
    (ledger,) = sink.ledgers.values()
    (k,) = ledger.extras
    kept = ledger.extras[k]
    assert len(kept) <= COMPACT_AT
    d = 1.0 - 0.693 / 3600.0
    t_pass = sink.grid.anchor + k * 300.0
    amounts = [(t_pass - r.start) * d ** (t_pass - r.start) * 0.1 for r in records]
    assert math.fsum(kept) == math.fsum(amounts)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.floats(min_value=-1e150, max_value=1e150, allow_subnormal=True), max_size=COMPACT_AT * 3
    )
)
def test_partials_keep_the_exact_sum(amounts: list[float]) -> None:
    """Compacted or not, a pass's floats have the amounts' correctly rounded sum."""
    assert math.fsum(partials(amounts)) == math.fsum(amounts)
    ledger = Ledger()
    for x in amounts:
        ledger.add_extra(0, x)
    if amounts:
        assert len(ledger.extras[0]) <= COMPACT_AT
        assert math.fsum(ledger.extras[0]) == math.fsum(amounts)


def test_a_record_of_no_cpus_is_not_slurm_work() -> None:
    """A record of 0 CPUs (the usage history's HTCondor match no job took, still open)
    charges no usage and holds no running charge, where it named a user with an
    association: one of u1's charged 0 and ran on as a running charge of rate 0."""
    config = _config(3600.0, 300.0, "NONE", limits=False)
    for presorted in (True, False):
        for batched in (None, [1]):
            sink = SlurmHistorySink(config, None, NOW, True, presorted)
            _feed(sink, [UsageRecord("u1", NOW - 600.0, account="a", cpus=0)], batched)
            assert sink.running == []
            assert json.dumps(sink.finish()) == json.dumps(
                make_slurm_history_sink(config, None, NOW, True, presorted=presorted).finish()
            )
