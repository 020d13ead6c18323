"""Each history sink takes a batch as it takes its records one by one: the same state.

``fs import history`` hands each model a list of records at a time (``add_batch``, a
hot loop written out for speed). For any records, in start order or not, batched any
way, every model's section must be what ``add`` record by record makes of them, bit for
bit; and a record the model refuses (an unsorted one for the accountant's streaming
sink) is refused at the same record number.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.operations.import_usage import HISTORY_SINKS, import_usage
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import Batches, UnsortedHistory, UsageRecord, batch_adder
from fairshare_cli.io.config import load_config

NOW = 1_795_262_400.0
DAY = 86400.0
CONFIG = load_config(Path(__file__).parents[3] / "sample_configs" / "pool.toml")

record = st.builds(
    lambda who, acct, qos, dirac, start, length, slots, cpus: UsageRecord(
        owner=who[0],
        accounting_group=who[1],
        account=acct,
        qos=qos,
        dirac_group=dirac,
        start=NOW - 3 * DAY + start,
        end=None if length is None else min(NOW, NOW - 3 * DAY + start + length),
        slots=slots,
        cpus=cpus,
    ),
    st.sampled_from(
        [("alice", "group_physics.hep.alice"), ("carol", None), ("ops", None), ("zed", None)]
    ),
    st.sampled_from([None, "hep", "chemistry", "gone"]),
    st.sampled_from([None, "normal", "high"]),
    st.sampled_from([None, "lhcb_user", "lhcb_prod"]),
    st.integers(0, 3 * 86400 // 7).map(lambda k: 7.0 * k),  # times seconds apart, ties too
    st.one_of(st.none(), st.floats(0, DAY)),
    st.integers(0, 3),
    st.integers(1, 4),
)


def _one_by_one(name: str, records: list[UsageRecord], presorted: bool) -> Any:
    sink = HISTORY_SINKS[name](CONFIG, None, NOW, True, presorted=presorted)
    try:
        for r in records:
            sink.add(r)
    except UnsortedHistory as exc:
        return f"unsorted at {exc}"
    return sink.finish()


def _batched(name: str, records: list[UsageRecord], presorted: bool, cut: list[int]) -> Any:
    sink = HISTORY_SINKS[name](CONFIG, None, NOW, True, presorted=presorted)
    add = batch_adder(sink)
    bounds = sorted({0, len(records), *(c % (len(records) + 1) for c in cut)})
    try:
        for a, b in itertools.pairwise(bounds):
            add(records[a:b])
    except UnsortedHistory as exc:
        return f"unsorted at {exc}"
    return sink.finish()


@settings(max_examples=150, deadline=None)
@given(
    records=st.lists(record, max_size=30),
    sort=st.booleans(),
    presorted=st.booleans(),
    cut=st.lists(st.integers(0, 40), max_size=4),
)
def test_a_batch_is_its_records_one_by_one(
    records: list[UsageRecord], sort: bool, presorted: bool, cut: list[int]
) -> None:
    if sort:
        records = sorted(records, key=lambda r: r.start)
    for name in HISTORY_SINKS:
        got = _batched(name, records, presorted, cut)
        want = _one_by_one(name, records, presorted)
        if name != "slurm":
            assert got == want
            continue
        # Slurm folds the passes before the latest start as it goes (after each batch,
        # or every BATCH records): where a record out of order meets a folded pass
        # depends on the batches, but not what is charged, which adds up in any order
        buffered = _one_by_one(name, records, False)
        for result in (got, want):
            assert result == buffered or (presorted and result.startswith("unsorted"))
        if sort:
            assert got == want == buffered


@settings(max_examples=60, deadline=None)
@given(records=st.lists(record, max_size=30))
def test_an_import_in_batches_is_the_import_record_by_record(
    records: list[UsageRecord],
) -> None:
    """Through ``import_usage``: a :class:`Batches` source (its lists taken as they are;
    read again, record by record or buffered, when not in order) gives the state that
    a plain iterable of the same records gives."""
    plain, done = import_usage(CONFIG, State(), NOW, lambda: iter(records), label="h")
    lists = [records[: len(records) // 2], records[len(records) // 2 :]]
    batched, done2 = import_usage(
        CONFIG, State(), NOW, lambda: Batches([x for x in lists if x]), label="h"
    )
    assert done == done2
    assert batched.sections == plain.sections
