"""The Slurm model from the pool config and the ``slurm`` state section.

Glue between :mod:`~fairshare_cli.core.config` and the pure pieces: the association tree
with usage and fair share (:mod:`~fairshare_cli.core.slurm.tree_usage`), usage decay
(:mod:`~fairshare_cli.core.slurm.usage`) and job priority
(:mod:`~fairshare_cli.core.slurm.priority`); plus the ``fs import history`` sink that
charges records to user associations as billed CPU-seconds × QOS usage factor.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.assoc_priority import assoc_factors
from fairshare_cli.core.slurm.assoc_tree import AssocTree
from fairshare_cli.core.slurm.billing import Billing, billing_flags, billing_weights
from fairshare_cli.core.slurm.factors import job_user, parse_flags
from fairshare_cli.core.slurm.partition import default_partition
from fairshare_cli.core.slurm.passes import (
    COMPACT_AT,
    DBL_MIN,
    Folding,
    Ledger,
    charge_end,
    exact_rate,
    fold,
)
from fairshare_cli.core.slurm.passes import charge as charge_passes
from fairshare_cli.core.slurm.priority import (
    PartitionInfo,
    PriorityContext,
    QosInfo,
    Weights,
)
from fairshare_cli.core.slurm.tree_usage import (
    algorithm,
    cluster_size,
    decay_params,
    tree_from_config,
)
from fairshare_cli.core.usage import HistorySink, UnsortedHistory, UsageRecord
from fairshare_cli.errors import InputError

if TYPE_CHECKING:
    from fractions import Fraction

    from fairshare_cli.core.slurm.pass_grid import PassGrid


def _batch_passes(grid: PassGrid) -> tuple[float, float, float, float, int | None, int]:
    """What every record of a batch charges over: the grid's anchor, period, decay factor
    and end (``upto``), the first pass counted after a usage reset (None without one), and
    the pass of ``upto``."""
    assert grid.after is None  # (record_grid: every pass up to upto counts)
    anchor, period, upto = grid.anchor, grid.period, grid.upto
    k_cut = None if grid.cutoff is None else math.ceil((grid.cutoff - anchor) / period)
    return anchor, period, grid.factor, upto, k_cut, math.floor((upto - anchor) / period)


def priority_context(config: Config, tree: AssocTree) -> PriorityContext:
    """Weights, flags, partitions, QOS and cluster size for sprio's factors
    (:func:`~fairshare_cli.core.slurm.priority_table.compute_table`)."""
    p = config.priority
    size = cluster_size(config)
    partitions = {
        name: PartitionInfo(
            name=name,
            priority_job_factor=spec.priority_job_factor,
            max_time=spec.max_time,
            default_time=spec.default_time,
            tres=size.partition_tres.get(name, {}),
            priority_tier=spec.priority_tier,
            billing_weights=billing_weights(spec.billing_weights) if spec.billing_weights else None,
        )
        for name, spec in config.partitions.items()
    }
    qos = {
        name: QosInfo(name=name, priority=spec.priority, usage_factor=spec.usage_factor)
        for name, spec in config.qos.items()
    }
    default_qos = "normal"  # Slurm always has the "normal" QOS (priority 0 unless set)
    w = p.weights
    return PriorityContext(
        weights=Weights(
            age=w.age,
            assoc=w.assoc,
            fairshare=w.fairshare,
            jobsize=w.jobsize,
            partition=w.partition,
            qos=w.qos,
            tres=dict(w.tres),
            tres_text=w.tres_text,
        ),
        max_age=p.max_age,
        favor_small=p.favor_small,
        flags=billing_flags(p.flags, p.output_compat),
        algorithm=algorithm(config),
        tree=tree,
        partitions=partitions,
        qos=qos,
        node_count=size.node_count,
        cluster_cpus=size.cpus,
        default_partition=default_partition(config.partitions),
        default_qos=default_qos,
        assoc_factors=assoc_factors(config.accounts, "NO_NORMAL_ASSOC" in parse_flags(p.flags)),
        multi_qos=p.output_compat != "22.05",
        admin_parts_zeroed=p.output_compat == "22.05",
        gres_types=p.gres_types,
    )


_Entry = tuple[su.UsageKey, float, Ledger, "dict[int, int | Fraction]", dict[int, list[float]]]
"""An association, its rate per CPU, its ledger and the ledger's ``rates`` and ``extras``."""
_UNSEEN: Any = object()  # (an owner, account and qos not looked up yet)
_NO_TRES: Any = object()  # (no record's tres: see add_batch)
#: Records charged between two folds of the passes behind the latest start (each fold
#: reads every pass still open: about a day of them per association).
FOLD_EVERY = 8192


class SlurmHistorySink:
    """``fs import history`` for Slurm: charge records to user associations.

    A record's CPU-seconds (``slots × cpus``, or ``slots ×`` its billing where its
    partition sets ``TRESBillingWeights``, times its QOS usage factor) accrue to the
    user's association in the record's account (its first association when the record
    names none), decayed pass by pass as Slurm's decay thread does. Records of users with
    no association and no account are not Slurm work and are left out, and so are records
    of no CPUs (an HTCondor match no job took); a record for an
    association the tree lacks keeps its usage in its account (as Slurm keeps a deleted
    association's usage), or in root for an unknown account.
    """

    def __init__(
        self,
        config: Config,
        section: Any,
        now: float,
        rebuild: bool,
        presorted: bool = False,
    ) -> None:
        self.config = config
        #: what a record bills per slot where not its CPUs (``TRESBillingWeights``)
        self.billing = Billing.of_config(config)
        #: records come in start order: passes before the latest start are folded as
        #: records go (flat memory); a record that would charge one raises UnsortedHistory
        self.presorted = presorted
        self.folds: dict[su.UsageKey, Folding] = {}
        self._folded_below: int | None = None
        self._latest = -math.inf
        self.now = now
        self.params = decay_params(config)
        self.tree: AssocTree | None = tree_from_config(config) if config.accounts else None
        state = su.usage_from_json(section)
        if rebuild:
            state = su.SlurmUsage(last_decay_ran=state.last_decay_ran)
        self.state = su.advance(state, now, self.params)
        self.usage = dict(self.state.usage)
        self.running = list(self.state.running)
        self.cutoff = su.record_cutoff(self.state, self.params)
        self.count = 0
        t = self.state.last_decay_ran
        assert t is not None  # advanced
        self.grid = su.record_grid(t, self.cutoff, now, self.params)
        #: what the records charge each association, pass by pass (folded at the end)
        self.ledgers: dict[su.UsageKey, Ledger] = {}
        #: Users whose records were left out (no association, no account), by name.
        self.ignored: set[str] = set()
        #: Accounts records name that the config does not have (charged all the same).
        self.unknown_accounts: set[str] = set()
        #: what records charge, by (owner, account, qos): :meth:`_entry`
        self._keys: dict[tuple[str, str | None, str | None], _Entry | None] = {}
        #: a rate as :class:`~.passes.Ledger` keeps it (an int when whole), by rate
        self._exacts: dict[float, int | Fraction] = {}

    def add(self, record: UsageRecord) -> None:
        """Charge one record (the reference :meth:`add_batch` is held to)."""
        self.count += 1
        if not record.cpus:  # (HTCondor's accountant's charge alone: no work ran)
            return
        found = self._keys.get((record.owner, record.account, record.qos), _UNSEEN)
        if found is _UNSEEN:
            found = self._entry(record)
        if found is None:
            return
        key, per_cpu, ledger, _, _ = found
        rate = record.slots * record.cpus * per_cpu
        billed_apart = self.billing.active or record.tres is not None
        if billed_apart and (billed := self.billing.of_record(record)) is not None:
            rate = record.slots * billed * per_cpu
        if not self.presorted:
            charge_passes(ledger, record.start, record.end, rate, self.grid)
        elif rate != 0:  # (no charge adds no usage: left out, it may come in any order)
            self._check_order(record.start)
            charge_passes(ledger, record.start, record.end, rate, self.grid)
        if su.still_running(record.end, self.now):
            self.running.append(su.RunningCharge(key[0], key[1], rate, record.start, record.end))
        if self.presorted and not self.count % FOLD_EVERY:
            self._fold_passed()

    def _entry(self, record: UsageRecord) -> _Entry | None:
        """What records of ``record``'s (owner, account, qos) charge (None: not Slurm
        work), looked up once: the association, its rate per CPU and its ledger (made
        here, at the first record that charges it) with the ledger's two dicts.

        Raises:
            InputError: the record names an unknown QOS.
        """
        one = self.key_and_rate(record._replace(slots=1), f"record {self.count}", billing=1.0)
        entry: _Entry | None = None
        if one is not None:
            key, per_cpu = one
            ledger = self.ledgers.get(key)
            if ledger is None:
                ledger = self.ledgers[key] = Ledger()
            entry = (key, per_cpu, ledger, ledger.rates, ledger.extras)
        self._keys[(record.owner, record.account, record.qos)] = entry
        return entry

    def _check_order(self, start: float) -> None:
        """Note a charge from ``start``; raise if it may fall on a folded pass.

        Raises:
            UnsortedHistory: ``start`` is in a pass already folded.
        """
        below = self._folded_below
        if below is not None and math.floor((start - self.grid.anchor) / self.grid.period) < below:
            raise UnsortedHistory(f"record {self.count}")
        if start > self._latest:
            self._latest = start

    def _fold_passed(self) -> None:
        """Fold every pass before the latest start charged (no later record charges one:
        a job charges its start's pass or later)."""
        if self._latest == -math.inf:
            return
        below = math.floor((self._latest - self.grid.anchor) / self.grid.period)
        if self._folded_below is not None and below <= self._folded_below:
            return
        for key, ledger in self.ledgers.items():
            folding = self.folds.get(key)
            if folding is None:
                folding = self.folds[key] = Folding(self.grid)
            folding.take(ledger, below)
        self._folded_below = below

    def add_batch(self, batch: list[UsageRecord]) -> None:  # noqa: C901 - charge inline (hot)
        """:meth:`add` for each record of ``batch``, in order: the same operations on the
        same numbers, in the same order (``tests/core/slurm/test_model_import_batch.py``)."""
        # A measured hot loop (benchmarks/run.py --rows import): _check_order, charge and
        # Ledger.add_extra written out in place, on locals, with what is the same for every
        # record worked out once (the passes of the cutoff and of upto, each rate's exact
        # form): 1M records 2.2 -> 1.3 s CPU in the Slurm sink.
        keys, running, now, presorted = self._keys, self.running, self.now, self.presorted
        grid, floor = self.grid, math.floor
        anchor, period, factor, upto, k_cut, k_upto = _batch_passes(grid)
        end_charge = grid.charge_job_end
        below, latest, count, exacts = self._folded_below, self._latest, self.count, self._exacts
        # a record bills its CPUs unless it has a TRES or weights may bill it (then none is plain)
        bills, plain = self.billing.of_record, (_NO_TRES if self.billing.active else None)
        for record in batch:
            count += 1
            owner, start, end, _, _, account, _, qos, _, slots, cpus, tres, _ = record
            if not cpus:  # (HTCondor's accountant's charge alone: no work ran)
                continue
            found = keys.get((owner, account, qos), _UNSEEN)
            if found is _UNSEEN:
                self.count = count
                found = self._entry(record)
            if found is None:
                continue
            key, per_cpu, ledger, rates, extras = found
            rate = slots * cpus * per_cpu
            if tres is not plain and (billed := bills(record)) is not None:
                rate = slots * billed * per_cpu
            if rate != 0.0 or not presorted:  # (0.0: floats compared in place)
                k_start = floor((start - anchor) / period)
                if presorted:  # _check_order(start)
                    if below is not None and k_start < below:
                        self.count = count
                        raise UnsortedHistory(f"record {count}")
                    if start > latest:
                        latest = start
                # charge(ledger, start, end, rate, grid):
                k_first = k_start + 1
                if k_cut is not None and k_cut > k_first:
                    k_first = k_cut
                k_last = (
                    floor((end - anchor) / period) if end is not None and end < upto else k_upto
                )
                if k_first <= k_last:
                    t_first = anchor + k_first * period
                    prev = t_first - period
                    delta = t_first - (start if start > prev else prev)
                    if delta < period:
                        if delta <= 0.0:  # real_decay(factor, delta)
                            decay = 1.0
                        else:
                            decay = factor**delta
                            if decay < DBL_MIN:
                                decay = DBL_MIN
                        amount = delta * decay * rate
                        partials = extras.get(k_first)  # ledger.add_extra(k_first, amount)
                        if partials is None:
                            extras[k_first] = [amount]
                        elif len(partials) < COMPACT_AT:
                            partials.append(amount)
                        else:
                            ledger.add_extra(k_first, amount)
                        k_first += 1
                    if k_first <= k_last:  # ledger.add_rate(k_first, k_last, rate)
                        exact = exacts.get(rate)
                        if exact is None:
                            exact = exacts[rate] = exact_rate(rate)
                        rates[k_first] = rates.get(k_first, 0) + exact
                        k_last += 1
                        rates[k_last] = rates.get(k_last, 0) - exact
                if end_charge and end is not None:
                    charge_end(ledger, start, end, rate, grid)
            if end is None or end > now:  # (su.still_running)
                running.append(su.RunningCharge(key[0], key[1], rate, start, end))
        before, self.count, self._latest = self.count, count, latest
        if presorted and count // FOLD_EVERY > before // FOLD_EVERY:
            self._fold_passed()

    def key_and_rate(
        self, record: UsageRecord, where: str, billing: float | None = None
    ) -> tuple[su.UsageKey, float] | None:
        """The association a record charges and its rate (slots × CPUs, or ``billing``
        per slot where given, × QOS usage factor), or None when it is not Slurm work (its
        user is then in ``ignored``).

        Raises:
            InputError: the record names an unknown QOS.
        """
        tree = self.tree
        if tree is None:
            return None
        user = job_user(record.owner)
        assoc = tree.user_assoc(user, record.account)
        if assoc is None:
            if record.account is None:
                self.ignored.add(user)
                return None
            # An association Slurm no longer has: its usage stays with the account.
            key = (record.account, user)
            if record.account not in self.config.accounts:
                self.unknown_accounts.add(record.account)
        else:
            assert assoc.user is not None
            key = (assoc.account, assoc.user)
        factor = 1.0
        qname = record.qos or ("normal" if "normal" in self.config.qos else None)
        if qname is not None:
            spec = self.config.qos.get(qname)
            if spec is None and qname != "normal":
                raise InputError(f'{where}: unknown QOS "{qname}"')
            if spec is not None and spec.usage_factor >= 0:
                factor = spec.usage_factor
        return key, record.slots * (record.cpus if billing is None else billing) * factor

    def finish(self) -> Any:
        from dataclasses import replace

        usage = dict(self.usage)
        for key, ledger in self.ledgers.items():
            if self.presorted:
                folding = self.folds.get(key) or Folding(self.grid)
                folding.take(ledger)
                usage[key] = usage.get(key, 0.0) + folding.result()
            else:
                usage[key] = usage.get(key, 0.0) + fold(ledger, self.grid, None)
        return su.usage_to_json(replace(self.state, usage=usage, running=tuple(self.running)))


def make_slurm_history_sink(
    config: Config,
    section: Any,
    now: float,
    rebuild: bool,
    presorted: bool = True,
) -> HistorySink:
    """The Slurm sink for ``fs import history`` (charges add up in any order; with
    ``presorted``, passes are folded as records go and a record that charges one already
    folded raises :class:`~fairshare_cli.core.usage.UnsortedHistory`)."""
    return SlurmHistorySink(config, section, now, rebuild, presorted)
