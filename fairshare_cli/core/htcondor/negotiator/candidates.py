"""Candidate slots of an autocluster, ranked: unclaimed slot classes, claimed ones.

``matchmakingAlgorithm`` ranks every slot a job matches by ``NEGOTIATOR_PRE_JOB_RANK``,
the job's ``Rank``, ``NEGOTIATOR_POST_JOB_RANK``, the preemption state (no preemption,
machine rank, user priority) and ``PREEMPTION_RANK``. Here that is done once per
(autocluster, slot class) pair, and for claimed classes once per group of classes that
show the job the same values; the lists are kept for the whole cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor.classads import Ad, Compiled, typed
from fairshare_cli.core.htcondor.negotiator.claimed import ClaimedList
from fairshare_cli.core.htcondor.negotiator.common import (
    DBL_MAX,
    NO_PREEMPTION,
    PRIO_PREEMPTION,
    RANK_PREEMPTION,
    float32,
    match_rank,
)
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster
from fairshare_cli.core.htcondor.negotiator.slots import SlotClass
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot


def _typed(values: Iterable[object]) -> tuple[object, ...]:
    """Results as a cache key that tells ``1``, ``1.0`` and ``True`` apart (and classad2's
    ``Undefined``, an IntEnum equal to 2, from ``2``)."""
    return tuple(map(typed, values))


#: A candidate's rank key (pre-job rank, job rank, post-job rank, preemption state, rank).
Key = tuple[float, ...]


class Candidates:
    """Finds and caches the ranked candidates of autoclusters (over a :class:`Snapshot`)."""

    def __init__(self, snap: Snapshot) -> None:
        self.ev = snap.ev
        self.reference = snap.reference
        self.slot_exprs = snap.slot_exprs
        self.unclaimed_classes = snap.unclaimed_classes
        self.claimed_classes = snap.claimed_classes
        self._slot_only: dict[tuple[object, ...], tuple[float, float, float, float]] = {}
        self._partitions: dict[frozenset[str], list[tuple[SlotClass, list[SlotClass]]]] = {}
        self._entry_lists: dict[tuple[object, ...], ClaimedList] = {}
        self._static_exprs: list[Compiled] | None = None
        #: no partitionable slot: the unclaimed classes stay as they are all cycle
        self._fixed = not snap.reference and not any(c.partitionable for c in snap.classes)
        self._layouts: dict[tuple[int, int], list[tuple[Compiled, bool, list[Ad]]] | None] = {}
        self._vectors: dict[tuple[int, tuple[object, ...]], tuple[object, ...]] = {}
        self._found: dict[tuple[object, ...], tuple[list[list[SlotClass]], list[Key], int]] = {}
        #: (partitionable class, job ad) -> the job ad its requirements see (None: no match):
        #: a consumption policy's ``cp_override_requested`` (set by the matchmaker)
        self.consumption: Callable[[SlotClass, Ad], Ad | None] | None = None

    def unclaimed(self, ac: AutoCluster) -> None:
        """Unclaimed slot classes the autocluster matches, in groups of equal rank, best first.

        Fills ``ac.groups`` and ``ac.group_keys`` (pre-job rank, job rank, post-job rank,
        reason, preemption rank) and ``ac.matching_slots``. Autoclusters whose evaluations
        come out the same with every class (:meth:`_outcomes`) share one answer.
        """
        outcomes = self._outcomes(ac.ad) if self._fixed else None
        if outcomes is not None:
            try:
                found = self._found.get(outcomes)
            except TypeError:  # a value such as a ClassAd (``Requirements = MY``): ranked alone
                found = outcomes = None
            if found is not None:
                ac.groups, ac.group_keys, ac.matching_slots = found
                return
        self._rank_unclaimed(ac)
        if outcomes is not None:
            self._found[outcomes] = (ac.groups or [], ac.group_keys, ac.matching_slots)

    def _outcomes(self, job_ad: Ad) -> tuple[object, ...] | None:
        """Every value :meth:`_rank_unclaimed` reads for this job ad, with every unclaimed
        class (None: not known without evaluating class by class).

        Each expression's value depends only on the values it reads from either side
        (:mod:`~fairshare_cli.core.htcondor.classads`), so it is evaluated once per value
        the job side shows it and per group of classes that show it the same values:
        a handful per autocluster where there are autoclusters × slot classes pairs.
        """
        job_req = job_ad.exprs["requirements"][1]
        job_rank = job_ad.exprs["rank"][1]
        layout_key = (job_req.uid, job_rank.uid)
        if layout_key not in self._layouts:
            self._layouts[layout_key] = self._layout(job_req, job_rank)
        layout = self._layouts[layout_key]
        if layout is None:
            return None
        ev = self.ev
        parts: list[object] = [layout_key]
        for expr, job_is_my, reps in layout:
            seen = job_ad.projection(expr, 0 if job_is_my else 1)
            if seen is None:
                return None
            vec = self._vectors.get((expr.uid, seen))
            if vec is None:
                values = [
                    ev.evaluate(expr, job_ad, rep) if job_is_my else ev.evaluate(expr, rep, job_ad)
                    for rep in reps
                ]
                vec = _typed(values)
                self._vectors[(expr.uid, seen)] = vec
            parts.append(vec)
        return tuple(parts)

    def _layout(
        self, job_req: Compiled, job_rank: Compiled
    ) -> list[tuple[Compiled, bool, list[Ad]]] | None:
        """The expressions a row reads, each with whether the job is its MY ad and one
        class ad per distinct set of values the classes show it (None: some class shows
        an expression that reads further attributes)."""
        cells: dict[int, tuple[Compiled, bool, dict[tuple[object, ...], Ad]]] = {}
        for cls in self.unclaimed_classes:
            exprs = self.slot_exprs[(cls.slots[0].stanza, False)]
            todo = [(job_req, True), (cls.ad.exprs["requirements"][1], False), (job_rank, True)]
            todo += [(e, False) for e in (exprs.pre, exprs.post) if e is not None]
            for expr, job_is_my in todo:
                shown = cls.ad.projection(expr, 1 if job_is_my else 0)
                if shown is None:
                    return None
                entry = cells.setdefault(expr.uid, (expr, job_is_my, {}))
                if entry[1] != job_is_my:
                    return None  # one expression on both sides: not worth the bookkeeping
                entry[2].setdefault(shown, cls.ad)
        return [(expr, mine, list(reps.values())) for expr, mine, reps in cells.values()]

    def unclaimed_key(self, cls: SlotClass, job_ad: Ad) -> Key | None:
        """The rank key of an unclaimed class for a job (None: they do not match; with a
        consumption policy ``IsAMatch`` sees what the job would consume)."""
        ev, sad, job = self.ev, cls.ad, job_ad
        if self.consumption is not None and cls.partitionable:
            seen = self.consumption(cls, job)
            if seen is None:
                return None
            job = seen
        if not ev.is_true(job_ad.exprs["requirements"][1], job, sad):
            return None
        if not ev.is_true(sad.exprs["requirements"][1], sad, job):
            return None
        return (*self.ranks(cls, job_ad, False), NO_PREEMPTION, -FLT_MAX)

    def _rank_unclaimed(self, ac: AutoCluster) -> None:
        """:meth:`unclaimed`, class by class."""
        rows: list[tuple[Key, SlotClass]] = []
        matching = 0
        for cls in self.unclaimed_classes:
            key = self.unclaimed_key(cls, ac.ad)
            if key is None:
                continue
            # a partitionable slot is free in one class (the others hold it as taken)
            matching += len(cls.slots) - cls.head if cls.partitionable else len(cls.slots)
            rows.append((key, cls))
        ac.matching_slots = matching
        rows.sort(key=lambda r: (tuple(-x for x in r[0]), r[1].index))
        groups: list[list[SlotClass]] = []
        keys: list[Key] = []
        for key, cls in rows:
            if not keys or key != keys[-1]:
                groups.append([])
                keys.append(key)
            groups[-1].append(cls)
        ac.groups = groups
        ac.group_keys = keys

    def ranks(self, cls: SlotClass, job_ad: Ad, claimed: bool) -> tuple[float, float, float]:
        """(NEGOTIATOR_PRE_JOB_RANK, job Rank, NEGOTIATOR_POST_JOB_RANK) of a candidate."""
        ev = self.ev
        exprs = self.slot_exprs[(cls.slots[0].stanza, claimed)]
        pre, post = exprs.pre, exprs.post
        return (
            float32(ev.number(pre, cls.ad, job_ad, -math.inf)) if pre else -math.inf,
            ev.number(job_ad.exprs["rank"][1], job_ad, cls.ad, 0.0),
            float32(ev.number(post, cls.ad, job_ad, -math.inf)) if post else -math.inf,
        )

    def claimed_entries(self, job_ad: Ad) -> ClaimedList:
        """Claimed slot classes a job of the autocluster could preempt, best first.

        Each entry is (rank key, class, tier): RANK when the machine prefers the job to the
        one it runs, else PRIO — which still needs ``PREEMPTION_REQUIREMENTS`` for the
        submitter at hand (checked lazily, only for the candidates a job reaches).

        Requirements and the job's Rank are evaluated once per group of classes that agree
        on every slot value they read (:meth:`_claimed_groups`); the slot-side ranks once
        per class and set of job values they read (:meth:`_claimed_static`).
        """
        ev = self.ev
        job_req = job_ad.exprs["requirements"][1]
        job_rank = job_ad.exprs["rank"][1]
        matched: list[tuple[float, list[SlotClass]]] = []
        for rep, members in self._claimed_groups(job_ad):
            sad = rep.ad
            if not ev.is_true(job_req, job_ad, sad):
                continue
            if not ev.is_true(sad.exprs["requirements"][1], sad, job_ad):
                continue
            matched.append((ev.number(job_rank, job_ad, sad, 0.0), members))
        # jobs that match the same groups with the same ranks, and show the slot-side
        # ranks the same values, get the same list (shared, with its search structures)
        sig = self._static_signature(job_ad)
        key = None
        if sig is not None and not self.reference:
            key = (tuple((id(m), r) for r, m in matched), sig)
            shared = self._entry_lists.get(key)
            if shared is not None:
                return shared
        found = ClaimedList()
        for rank_value, members in matched:
            for cls in members:
                found.matching += len(cls.slots)
                machine_rank, pre, post, prank = self._claimed_static(cls, job_ad)
                current = cls.ad.get("currentrank")
                current_rank = float(current) if isinstance(current, (int, float)) else 0.0
                if machine_rank > current_rank:
                    tier = RANK_PREEMPTION
                elif machine_rank < current_rank:
                    found.rank_rejected += len(cls.slots)
                    found.policy_only.append(cls)
                    continue
                elif cls.never_preempted:
                    found.policy_only.append(cls)
                    continue
                else:
                    tier = PRIO_PREEMPTION
                found.entries.append(((pre, rank_value, post, tier, prank), cls, tier))
        found.entries.sort(key=lambda e: (tuple(-x for x in e[0]), e[1].index))
        if key is not None:
            self._entry_lists[key] = found
        return found

    def _static_signature(self, job_ad: Ad) -> tuple[object, ...] | None:
        """The job values every claimed class's slot-side ranks read (None: not known)."""
        if self._static_exprs is None:
            seen: dict[int, Compiled] = {}
            for cls in self.claimed_classes:
                exprs = self.slot_exprs[(cls.slots[0].stanza, True)]
                for expr in (cls.ad.exprs["rank"][1], exprs.pre, exprs.post, exprs.prank):
                    if expr is not None:
                        seen[expr.uid] = expr
            self._static_exprs = list(seen.values())
        out: list[object] = []
        for expr in self._static_exprs:
            proj = job_ad.projection(expr, 1)
            if proj is None:
                return None
            out.append(proj)
        return tuple(out)

    def _claimed_static(self, cls: SlotClass, job_ad: Ad) -> tuple[float, float, float, float]:
        """(machine Rank, pre-job rank, post-job rank, ``PREEMPTION_RANK``) of a claimed
        class for a job: cached per class and the job values these expressions read."""
        ad = cls.ad
        exprs = self.slot_exprs[(cls.slots[0].stanza, True)]
        rank_expr = ad.exprs["rank"][1]
        pre, post, prank = exprs.pre, exprs.post, exprs.prank
        sig: list[object] = []
        key: tuple[object, ...] | None = None
        for expr in (rank_expr, pre, post, prank):
            if expr is None:
                continue
            proj = job_ad.projection(expr, 1)
            if proj is None:
                break
            sig.append((expr.uid, proj))
        else:
            if not self.reference:
                key = (cls.index, tuple(sig))
                found = self._slot_only.get(key)
                if found is not None:
                    return found
        ev = self.ev
        value = (
            ev.number(rank_expr, ad, job_ad, 0.0),
            float32(ev.number(pre, ad, job_ad, -math.inf)) if pre else -math.inf,
            float32(ev.number(post, ad, job_ad, -math.inf)) if post else -math.inf,
            match_rank(ev.evaluate(prank, ad, job_ad)) if prank else -DBL_MAX,
        )
        if key is not None:
            self._slot_only[key] = value
        return value

    def _claimed_groups(self, job_ad: Ad) -> list[tuple[SlotClass, list[SlotClass]]]:
        """Claimed classes grouped by the slot values read by the job's Requirements and
        Rank (their TARGET references) and by the slot's Requirements (its MY references),
        so that one evaluation with a representative decides the match and the job's rank
        for the whole group. Cached per set of job references."""
        job_refs = frozenset(job_ad.exprs["requirements"][1].target_refs) | frozenset(
            job_ad.exprs["rank"][1].target_refs
        )
        found = self._partitions.get(job_refs)
        if found is not None:
            return found
        groups: dict[tuple[object, ...], list[SlotClass]] = {}
        for cls in self.claimed_classes:
            key = None if self.reference else self._partition_key(cls, job_refs)
            groups.setdefault(("class", cls.index) if key is None else key, []).append(cls)
        result = [(members[0], members) for members in groups.values()]
        self._partitions[job_refs] = result
        return result

    def _partition_key(self, cls: SlotClass, job_refs: frozenset[str]) -> tuple[object, ...] | None:
        """The values :meth:`_claimed_groups` groups by (None: the class stands alone)."""
        ad = cls.ad
        stanza = cls.slots[0].stanza
        names = set(job_refs) | set(ad.exprs["requirements"][1].my_refs)
        parts: list[object] = [stanza]
        for name in sorted(names):
            inner = ad.exprs.get(name)
            if inner is None:
                item = ad.values.get(name)
                value = None if item is None else item[1]
                parts.append(typed(value))
                continue
            compiled = inner[1]
            if any(r in ad.exprs for r in compiled.my_refs):
                return None
            inner_values = []
            for r in compiled.my_refs:
                item = ad.values.get(r)
                value = None if item is None else item[1]
                inner_values.append(typed(value))
            parts.append(("expr", compiled.uid, tuple(inner_values)))
        return tuple(parts)

    def any_claimed_match(self, ac: AutoCluster) -> bool:
        """Whether some claimed slot satisfies both Requirements (stops at the first)."""
        if ac.claimed is not None:
            return ac.claimed.matching > 0
        ev = self.ev
        job_req = ac.ad.exprs["requirements"][1]
        return any(
            ev.is_true(job_req, ac.ad, cls.ad)
            and ev.is_true(cls.ad.exprs["requirements"][1], cls.ad, ac.ad)
            for cls in self.claimed_classes
        )
