"""A claimed slot's ad values in one cycle, and the part of its slot class key its claim makes.

A claimed slot's ad carries its claim (``RemoteUser``, ``RemoteOwner``, ``RemoteUserPrio``,
``TotalJobRuntime``, ...), its holder's group and the machine ``RANK`` of the job it runs
(``CurrentRank``). Slots split into slot classes by the values of those that some
expression reads; :class:`ClaimedValues` gives them, built once per claim shape a cycle.
:func:`remote_group_quotas` gives the group quotas claimed slots carry (``RemoteGroupQuota``:
the last cycle's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.groups import ROOT, GroupTree, assign_quotas
from fairshare_cli.core.htcondor.negotiator.queue import job_ad
from fairshare_cli.core.htcondor.negotiator.results import Claim, SubmitterPrio
from fairshare_cli.core.htcondor.negotiator.slots import (
    CLAIM_ATTRS,
    Slot,
    SlotClass,
    claim_values,
    claimed_values,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import ConfigError

#: The claim attributes made of the claim's start time (:func:`.slots.claim_values`).
_TIMES = frozenset({"enteredcurrentstate", "jobstart", "totaljobruntime"})


class ClaimedValues:
    """The claimed slots' values of one cycle (at ``now``, with its priorities)."""

    def __init__(
        self,
        machines: Sequence[MachineSpec],
        ev: Evaluator,
        now: float,
        priorities: Callable[[str], SubmitterPrio],
        group_of: Callable[[str], str | None],
    ) -> None:
        self.machines = machines
        self.ev = ev
        self.now = now
        self.priorities = priorities
        self.group_of = group_of
        self._prios: dict[str, SubmitterPrio] = {}
        self._claim_keys: dict[tuple[object, ...], tuple[object, ...]] = {}
        #: stanza -> the machine ``RANK`` when it reads no attribute (``CurrentRank`` of any job)
        self._constant_rank: dict[int, float] = {}
        #: stanzas whose claimed slots' claim attributes come from the claim alone (a
        #: constant ``RANK``, no attribute of the stanza named like one): :meth:`claim_key`
        self.plain_stanzas: set[int] = set()

    def key(
        self, slot: Slot, claim: Claim, running: dict[str, Job], attrs: list[str]
    ) -> tuple[tuple[object, ...], dict[str, object] | None]:
        """The values of ``attrs`` (of :data:`CLAIM_ATTRS`, those the cycle reads) in the
        slot's ad, and its whole values when they were built for it (else None: they are
        built only for a new slot class)."""
        if not attrs:
            return (), None
        if slot.stanza in self.plain_stanzas:
            return self.claim_key(slot.stanza, claim, running, attrs), None
        values = self.values(slot, claim, running)
        lowered = {k.lower(): v for k, v in values.items()}
        return tuple(lowered.get(a) for a in attrs), values

    def values(self, slot: Slot, claim: Claim, running: dict[str, Job]) -> dict[str, object]:
        """A claimed slot's literal attributes: the claim's ``Remote*``, its group and the
        machine's ``CurrentRank`` of the job it runs."""
        spec = self.machines[slot.stanza]
        job = running.get(claim.job_id)
        owner = job.owner if job is not None else claim.submitter.split("@")[0]
        prio = self.prio(claim.submitter)
        values = claimed_values(spec, slot, claim, prio, owner, self.now)
        group = self.group_of(claim.submitter)
        if group is not None and group != ROOT:
            values["AccountingGroup"] = claim.submitter
            values["RemoteGroup"] = group
        if job is None:
            values["CurrentRank"] = 0.0
            return values
        constant = self._constant_rank.get(slot.stanza)
        if constant is None:
            ev = self.ev
            job_side = job_ad(ev, job, claim.submitter)
            probe = Ad(values, {"Rank": spec.rank or "0"}, ev, f"machine {spec.name}")
            rank = probe.exprs["rank"][1]
            value = ev.number(rank, probe, job_side, 0.0)
            if not rank.my_refs and not rank.target_refs:  # reads nothing: every job's rank
                self._constant_rank[slot.stanza] = value
                if not {k.lower() for k in spec.attributes} & set(CLAIM_ATTRS):
                    self.plain_stanzas.add(slot.stanza)
            values["CurrentRank"] = value
        else:
            values["CurrentRank"] = constant
        return values

    def prio(self, submitter: str) -> SubmitterPrio:
        """``priorities(submitter)``, asked once per submitter in a cycle."""
        found = self._prios.get(submitter)
        if found is None:
            found = self._prios[submitter] = self.priorities(submitter)
        return found

    def claim_key(
        self, stanza: int, claim: Claim, running: dict[str, Job], attrs: list[str]
    ) -> tuple[object, ...]:
        """The values of ``attrs`` (of :data:`CLAIM_ATTRS`) in a claimed slot's ad, as
        :meth:`values` gives them, without building the ad: for a stanza in
        :attr:`plain_stanzas`, whose own attributes name no claim attribute and whose
        ``CurrentRank`` is the same for every job.

        Claims that agree on what these values are made of (stanza, submitter, owner,
        whether the job is known, the start time when an attribute made of it is read, and
        the job id when ``GlobalJobId`` is read) share one answer in a cycle.
        """
        job = running.get(claim.job_id)
        owner = job.owner if job is not None else claim.submitter.split("@")[0]
        own_id = claim.job_id if "globaljobid" in attrs else None
        began = claim.start_time if _TIMES.intersection(attrs) else None
        memo = (stanza, claim.submitter, owner, began, job is None, own_id)
        found = self._claim_keys.get(memo)
        if found is not None:
            return found
        values = claim_values(claim, self.prio(claim.submitter), owner, self.now)
        lowered: dict[str, object] = {k.lower(): v for k, v in values.items()}
        group = self.group_of(claim.submitter)
        if group is not None and group != ROOT:
            lowered["accountinggroup"] = claim.submitter
            lowered["remotegroup"] = group
        lowered["currentrank"] = self._constant_rank[stanza] if job is not None else 0.0
        found = self._claim_keys[memo] = tuple(lowered.get(a) for a in attrs)
        return found


def remote_group_quotas(
    tree: GroupTree, quota_pool: float, oversubscribe: bool, last: Mapping[str, float] | None
) -> Mapping[str, float]:
    """The group quotas claimed slots carry as ``RemoteGroupQuota``.

    ``addRemoteUserPrios`` reads the negotiator's ``groupQuotasHash`` before this cycle
    assigns quotas, so it holds the last cycle's (each group's ``quota``, and under
    autoregroup the whole pool for ``<none>``): ``last``, as a committed cycle stored
    it, where a group it lacks gets no ``RemoteGroup*`` (``getGroupInfoFromUserId``
    fails). With none stored, this cycle's quotas, which a last cycle on the same pool
    and groups gave.
    """
    if last is not None:
        return last
    for g in tree.groups:
        g.quota = g.subtree_quota = 0.0
    assign_quotas(tree.root, quota_pool, oversubscribe)
    quotas = {g.name: g.quota for g in tree.groups}
    if tree.autoregroup:
        quotas[ROOT] = quota_pool
    return quotas


def add_remote_group_attrs(
    classes: Iterable[SlotClass],
    quotas: Mapping[str, float],
    group_of: Callable[[str], str | None],
    group_usage: Mapping[str, float],
    ev: Evaluator,
    where: Sequence[str],
) -> None:
    """Give each claimed slot class whose holder's group has a quota its ``RemoteGroup``,
    ``RemoteGroupResourcesInUse`` and ``RemoteGroupQuota`` (``where``: each stanza's name
    in errors)."""
    for cls in classes:
        group = group_of(cls.remote) if cls.remote is not None else None
        if group is None or group not in quotas:
            continue
        values = {
            "RemoteGroup": group,
            "RemoteGroupResourcesInUse": group_usage.get(group, 0.0),
            "RemoteGroupQuota": quotas[group],
        }
        cls.ad = cls.ad.extended(values, ev, where[cls.slots[0].stanza], ConfigError)
