"""HTCondor negotiator knobs that change which jobs match, or in what order, and that fs
does not model: what each changes, and the setting under which it changes nothing.

The knobs are those 25.0's negotiator reads (``Matchmaker::initialize``/``reinitialize``
in matchmaker.cpp, ``USE_GLOBAL_JOB_PRIOS`` and ``REMOVE_SIGNIFICANT_ATTRIBUTES`` there
too) whose setting alters a cycle's matches; each one's neutral setting is its default in
param_info.in (false, true, 0, or not set). Knobs of time and of the connection
(``NEGOTIATOR_MAX_TIME_*``, ``NEGOTIATOR_TIMEOUT``, ``NEGOTIATOR_SOCKET_CACHE_SIZE``) are
left out: a cycle in fs takes no time. ``fs import condor-config`` warns about each one set
otherwise (:func:`fairshare_cli.io.importers.condor_knobs.unmodelled_settings`); a pool
config naming one is refused with what it changes (:func:`effect_hint`).
"""

from __future__ import annotations

from fairshare_cli.core.htcondor.knob_values import param_boolean, param_double
from fairshare_cli.errors import InputError

#: The neutral setting: ``false`` or ``true`` (a boolean), ``0`` (a number, at most 0
#: changes nothing) or nothing set.
FALSE, TRUE, ZERO, UNSET = "false", "true", "0", "unset"

#: Knob -> (its neutral setting, what any other setting changes).
UNMODELLED: dict[str, tuple[str, str]] = {
    "NEGOTIATOR_IGNORE_JOB_RANKS": (
        FALSE,
        "the slots are sorted once by pre-job then post-job rank, evaluated without a job "
        "(ties by the ads' memory addresses, which fs cannot know); a job's Rank and "
        "PREEMPTION_RANK are not read; a job's search stops once the slot weights of the "
        "slots it matches pass its submitter's limit",
    ),
    "NEGOTIATOR_MATCH_EXPRS": (
        UNSET,
        "slot ads carry NegotiatorMatchExpr attributes that job requirements and ranks can read",
    ),
    "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION": (
        FALSE,
        "claimed slots still in their retirement time are candidates for preemption",
    ),
    "NEGOTIATOR_CROSS_SLOT_PRIOS": (
        FALSE,
        "slot ads carry the other slots' RemoteUserPrio values, which expressions can read",
    ),
    "NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD": (
        ZERO,
        "slots that will shut down within that many seconds are not matched",
    ),
    "ALLOW_PSLOT_PREEMPTION": (
        FALSE,
        "a job may preempt several dynamic slots of one partitionable slot at once",
    ),
    "USE_GLOBAL_JOB_PRIOS": (
        FALSE,
        "a submitter negotiates once per JobPrio of its idle jobs, highest first among "
        "equals, and one with none idle drops out of the cycle (docs/htcondor.md)",
    ),
    # matchmakingAlgorithm pops a job's cached match list only while
    # MatchListType::cache_still_valid holds; fs reads the usages as the cycle starts, so
    # under it both would re-evaluate to what the list holds
    "PREEMPTION_REQUIREMENTS_STABLE": (
        TRUE,
        "PREEMPTION_REQUIREMENTS is evaluated again on the next entry of the match list an "
        "autocluster's jobs pop, with the usage of the matches made since, and a list used up "
        "is built afresh for the next job (whose machine-rank preemptions then pass the "
        "submitter limit again)",
    ),
    "PREEMPTION_RANK_STABLE": (
        TRUE,
        "PREEMPTION_RANK is evaluated again on the next entry of the match list an "
        "autocluster's jobs pop, with the usage of the matches made since, and the list is "
        "built afresh when it changed",
    ),
    "REMOVE_SIGNIFICANT_ATTRIBUTES": (
        UNSET,
        "autoclusters leave these attributes out, so a rejected job passes over more jobs",
    ),
    "REMOVE_SIGNIFICANT_ATTRIBUTES_REGEX": (
        UNSET,
        "autoclusters leave the attributes it matches out, so a rejected job passes over more jobs",
    ),
}


def neutral(knob: str, text: str, where: str) -> bool:
    """Whether ``text``, the setting of the unmodelled ``knob``, changes nothing. A value
    that does not read as the knob's type is not neutral: the daemon complains about it
    (``param_boolean`` may stop on it), and fs does not guess what it takes then."""
    kind = UNMODELLED[knob][0]
    if not text.strip():
        return True
    if kind == UNSET:
        return False
    try:
        if kind in (FALSE, TRUE):
            return param_boolean(text, knob, where) == (kind == TRUE)
        return param_double(text, knob, where) <= 0
    except InputError:
        return False


def unmodelled_warning(knob: str, name: str, text: str, where: str) -> str:
    """One line: ``where``'s setting of ``knob`` (written ``name``) and what it changes."""
    neutral_setting, effect = UNMODELLED[knob]
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return (
        f"{where}: {name} = {shown}: {effect}; fs does not model it and negotiates as if it "
        f"were {neutral_setting}"
    )


def effect_hint(key: str) -> str | None:
    """For an unknown config key that is one of these knobs: what the knob changes."""
    found = UNMODELLED.get(key.upper())
    if found is None:
        return None
    return f" ({key.upper()} is an HTCondor knob fs does not model: {found[1]})"
