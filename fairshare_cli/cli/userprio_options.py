"""``fs userprio``'s display options: the names it reads, the view's query and the table's
columns, as condor_userprio's option flags (``DetailFlag``, ``MinLastUsageTime``, ``GroupRollup``,
``GroupOrder``) set them in ``user_prio.cpp``."""

from __future__ import annotations

import re
import time
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.userprio import UserprioView
from fairshare_cli.core.htcondor.userprio_query import UserprioQuery
from fairshare_cli.core.names import first_five
from fairshare_cli.core.names import shown as shown_text
from fairshare_cli.errors import InputError

if TYPE_CHECKING:
    from fairshare_cli.render.userprio_autoformat import AutoFormat


def _quota_columns(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The group columns ``-quotas`` (``DetailQuotas``) and ``-surplus`` ask for."""
    from fairshare_cli.render.userprio_columns import GROUP_ONLY

    return GROUP_ONLY if params["quotas"] else ("surplus",) if params["surplus"] else ()


def _order_columns(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The group-order columns ``-groupid``, ``-order`` and ``-sortkey`` ask for
    (``DetailGroup``, ``DetailOrder``, ``DetailSortKey``)."""
    asked = (params["groupid"], params["order"], params["sortkey"])
    return tuple(k for k, on in zip(("group_id", "order", "sort_key"), asked, strict=True) if on)


def columns(view: UserprioView, params: Mapping[str, Any]) -> list[str]:
    """The table's columns: those asked for, else condor_userprio's default (-most)."""
    from fairshare_cli.render.userprio_columns import COLUMNS, choose_columns

    priority, usage, quotas = params["priority"], params["usage"], _quota_columns(params)
    order = _order_columns(params)
    cols = choose_columns(
        view,
        all_cols=params["all_cols"],
        priority=priority,
        usage=usage,
        quotas=quotas,
        order=order,
    )
    if params["most"] and (priority or usage or quotas or order):  # -most adds the default
        default = choose_columns(view, all_cols=False, priority=False, usage=False)
        cols = [k for k in COLUMNS if k in {*cols, *default}]
    return cols


def query_of(names: tuple[str, ...], params: Mapping[str, Any]) -> UserprioQuery:
    """What the options ask the view for (``params``: the command's, as Click parsed them).

    Raises:
        InputError: ``--grouprollup`` with names; ``--activefrom`` with ``--allusers``.
    """
    priority, usage, all_cols = params["priority"], params["usage"], params["all_cols"]
    hierarchical, group_order = params["hierarchical"], params["group_order"]
    # DetailFlag: nothing asked is -most's set; -all and -most hold the priority and the
    # usage columns, so their rows sort by priority whatever else is asked; only -priority
    # alone hides the groups; -quotas/-surplus/-groupid/-order/-sortkey alone sort by group
    # id, then name
    asked = priority or usage or _quota_columns(params) or _order_columns(params)
    most = all_cols or params["most"] or not asked
    if params["group_rollup"] and names:
        raise InputError(_ROLLUP_WITH_NAMES)
    active_from = params["active_from"]
    if active_from is not None and params["allusers"]:
        raise InputError(
            "--activefrom and --allusers: condor_userprio keeps the filter of the later one "
            "given (its -allusers and -activefrom spellings do so); give one of them"
        )
    return UserprioQuery(
        names=names,
        all_users=params["allusers"],
        hierarchical=False if group_order and hierarchical is None else hierarchical,
        sort=params["sort"],
        show_priority=priority or most,
        show_usage=usage or most,
        priority_only=priority
        and not (usage or most or _quota_columns(params) or _order_columns(params)),
        group_rollup=params["group_rollup"],
        group_order=group_order,
        from_negotiator=params["from_negotiator"],
        active_from=None if active_from is None else _calc_time(*active_from),
        group_numbers=params["groupid"] or params["order"],
    )


def _calc_time(month: int, day: int, year: int) -> float:
    """``-activefrom MONTH DAY YEAR``: local midnight of that day, as ``CalcTime`` of
    ``user_prio.cpp`` makes it from ``atoi``'s numbers (:func:`_atoi`: ``99999999999`` is
    month 1215752191): a year below 50 is 20xx, one above 1900 is itself, any other 19xx;
    ``mktime`` carries a month or day out of range over (month 13 is January next year, day
    0 the last of the month before), and gives -1 for a date past its range (every record
    is then used after it, as condor_userprio lists them)."""
    month, day, year = _atoi(month), _atoi(day), _atoi(year)
    tm_year = year + 100 if year < 50 else year
    if tm_year > 1900:
        tm_year -= 1900
    try:
        return time.mktime((tm_year + 1900, month, day, 0, 0, 0, 0, 0, -1))
    except (OverflowError, ValueError):  # (mktime's -1: "mktime argument out of range")
        return -1.0


def _atoi(value: int) -> int:
    """``atoi``'s ``int`` of a whole number, as glibc makes it: ``strtol``'s ``long``,
    held to 64 bits, then its low 32 bits (``99999999999`` is 1215752191)."""
    value = max(-(2**63), min(2**63 - 1, value))
    return (value + 2**31) % 2**32 - 2**31


#: ``-grouprollup NAME``: 25.0 prints the rollup ad whole (names only filter the collector's
#: and the direct query's ads); later versions query the negotiator's ads, with no rollup.
_ROLLUP_WITH_NAMES = (
    "--grouprollup lists every record: condor_userprio 25.0 ignores names with it "
    "(later versions drop the rollup instead); leave out the names"
)


def names_inside_groups(
    names: tuple[str, ...], records: Mapping[str, CustomerRecord]
) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    """The names asked for, a user's records inside accounting groups standing for a name
    that matches no record (``alice`` -> ``group_physics.hep.alice@example.org``), and
    what each such name stood for."""
    from fairshare_cli.cli.names import group_records

    if not names:
        return names, {}
    out: list[str] = []
    inside: dict[str, list[str]] = {}
    for name in names:
        if any(UserprioQuery(names=(name,)).wanted(r) for r in records) or name == "<none>":
            out.append(name)
            continue
        found = group_records(name, records)
        if found:
            inside[name] = found
        out.extend(found or [name])
    return tuple(dict.fromkeys(out)), inside


#: ``-allusers NAME`` and ``-negotiator NAME``: 25.0 reads the negotiator's one ad
#: (``GET_PRIORITY``), which ``user_prio.cpp`` never filters by name.
NAMES_IGNORED = (
    "names are ignored with --allusers and --negotiator, as condor_userprio 25.0 ignores "
    "them (it reads the negotiator's whole ad); name records without them to list those alone"
)


def named_left_out(
    view: UserprioView, records: Mapping[str, CustomerRecord], query: UserprioQuery
) -> list[str]:
    """A note naming the named records that are not listed: no usage since the activity
    filter's cutoff, or no Accounting ad in the collector (no job in the queue)."""
    shown = {row.name for row in view.rows}
    left = sorted(
        name
        for name, rec in records.items()
        if not rec.is_group and name not in shown and query.wanted(name)
    )
    if not left:
        return []
    some = first_five(left)
    return [
        f"not listed: {some}: named, but with no usage since the activity cutoff or no job "
        "in the queue (condor_userprio leaves them out too); --allusers lists every record"
    ]


def name_notes(
    view: UserprioView,
    records: Mapping[str, CustomerRecord],
    query: UserprioQuery,
    inside: Mapping[str, list[str]],
) -> list[str]:
    """What the names given came to, for the table and ``--json`` alike: a name found
    inside groups, and the named records the activity filter (or the queue) leaves out."""
    lines = [f"{name} is shown as {' and '.join(found)}" for name, found in inside.items()]
    if query.names and view.cutoff is not None:
        lines.extend(named_left_out(view, records, query))
    return lines


def dumped_quotas_line(shown_at: float) -> str:
    """Which cycle the group quotas of ``-all`` are: the dump's, not the next one's."""
    from fairshare_cli.render.formats import iso

    when = iso(shown_at)
    return (
        f"group quotas are those of the negotiation cycle the condor_userprio dump "
        f"describes ({when}), as condor_userprio shows them; 'fs quota' computes the next "
        "cycle's"
    )


def check_constraint(constraints: tuple[str, ...], long_: bool, modular: bool, fmt: str) -> None:
    """``--constraint`` where condor_userprio 25.0 ignores it without a word: it filters
    only what ``PrintModularAds`` prints (``-long -modular``, ``-af``), never the table nor
    the single ``-long`` ad (``user_prio.cpp``; its usage says so too). There fs ignores it
    too, as stdout must be condor_userprio's, and says so on stderr.

    Raises:
        click.UsageError: a constraint with ``--json`` (fs's own output) but without
            ``--long --modular``.
        InputError: where it applies, the constraints joined with ``&&`` do not parse.
    """
    import click

    if not constraints:
        return
    if long_ and modular and fmt == "table":  # (parsed before any ad is read, as condor does)
        from fairshare_cli.core.htcondor.classads import check_expression
        from fairshare_cli.render.userprio_autoformat import check_clockless

        text = " && ".join(f"({c})" for c in constraints)
        check_expression(text, f"-constraint {text}")
        check_clockless(text, f"-constraint {text}")
        return
    if fmt != "table":
        raise click.UsageError(
            "--constraint (-constraint) filters only --long --modular and --af output, as "
            "condor_userprio 25.0 applies it; "
            + (whatif_rows("-constraint") or "leave out --json, or name the submitters")
        )
    from fairshare_cli.cli.resolve import note_when_done

    note_when_done(
        "-constraint is ignored here, as condor_userprio 25.0 ignores it: it "
        "filters only -long -modular and -af output; name the submitters to narrow the table"
    )


def constrained(ads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ads the command's ``--constraint`` expressions keep (all, with none)."""
    import click

    from fairshare_cli.core.htcondor.accounting_ads import ads_matching

    return ads_matching(ads, click.get_current_context().params["constraints"])


def check_group_ids(view: UserprioView, cols: list[str]) -> None:
    """Refuse ``-groupid`` where the number condor_userprio prints is the order the
    collector sent the ads in: a group row when no user inside a group is read
    (``CollectInfo`` then numbers a group by its place among the ads, and the collector's
    order is its hash table's, which nothing in the state fixes).

    Raises:
        InputError: such a row is shown.
    """
    if "group_id" not in cols:
        return
    left = [r.name for r in view.rows if r.group_id is not None and r.group_id != r.group_id]
    if left:
        raise InputError(
            f"--groupid (-groupid): condor_userprio would number {first_five(left)} by the "
            "order the collector sent their ads in, which fs cannot know (no user inside a "
            "group is listed); --allusers reads the negotiator's ad, whose order is known"
        )


def check_names(names: Sequence[str]) -> None:
    """Refuse a NAME condor_userprio refuses: one that starts with no letter (C's
    ``isalpha``: an ASCII letter) and is not ``<none>`` (``user_prio.cpp``'s ``main``
    prints its usage and exits); fs had listed no record of ``''@uid_domain``.

    Raises:
        InputError: naming the first such name.
    """
    for name in names:
        if name != "<none>" and not (name[:1].isascii() and name[:1].isalpha()):
            raise InputError(
                f"NAME {shown_text(repr(name))}: condor_userprio reads a name that starts with a "
                "letter (a user, user@domain or an accounting group), or <none>"
            )


def split_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names a query matches: a name with no ``@`` (and not ``<none>``) is a list of
    short names, as condor_userprio joins such names into the one list its
    ``StringListMember(splitusername(Name)[0], "...")`` reads (split at commas and blanks:
    ``judy,ops`` names judy and ops); ``user@domain`` is matched whole (``Name =?= "..."``)."""
    out: dict[str, None] = {}
    for name in names:
        full = "@" in name or name == "<none>"
        out.update(dict.fromkeys([name] if full else re.split(r"[, \t\r\n]+", name)))
    out.pop("", None)
    return tuple(out)


def autoformat_of(exprs: tuple[str, ...], letters: str, fmt: str) -> AutoFormat | None:
    """``--af`` (``-af[:LETTERS] EXPR...``), checked before anything is read or printed:
    each expression formatted by the letters of the ``-af`` that gave it (``--af``'s:
    ``--af-opts``), the separators by the last (``parse_autoformat_args``).

    Raises:
        click.UsageError: with ``--output`` other than the table, or letters without ``--af``.
    """
    import click

    if not exprs:
        if letters:
            raise click.UsageError("--af-opts needs --af EXPR")
        return None
    if fmt != "table":
        leave = whatif_rows("-af") or "leave out --json/--output"
        raise click.UsageError(f"--af (-af) prints its own lines; {leave}")
    from fairshare_cli.render.userprio_autoformat import autoformat

    given = click.get_current_context().meta.get("fs.userprio.af", ())
    each = tuple(letters if g is None else g for g in given)
    return autoformat(exprs, letters, each if len(each) == len(exprs) else None)


def whatif_rows(option: str) -> str:
    """What ``-af`` and ``-constraint`` are told under ``fs whatif``, which runs the view
    with ``--json`` itself (the admin gave no ``--json`` to leave out); "" elsewhere."""
    import click

    from fairshare_cli.cli.context import WHATIF_SIDE

    if click.get_current_context().meta.get(WHATIF_SIDE) is None:
        return ""
    return f"fs whatif compares fs userprio's rows: leave {option} out"


def refuse_whatif_edit(edit: str) -> None:
    """Refuse condor_userprio's edit (``-setfactor``, ``-resetall`` ...) under ``fs
    whatif``: it would write the state, where the comparison writes nothing.

    Raises:
        click.UsageError: always, naming the edit and its ``--dry-run``.
    """
    import click

    raise click.UsageError(
        f"condor_userprio's edits (here fs {edit}) write the state, and fs whatif writes"
        f" nothing: compare the views without the edit, or preview it with fs {edit} ..."
        " --dry-run"
    )


def reslist_name(name: str, uid_domain: str, groups: Collection[str]) -> str:
    """``-getreslist NAME``'s submitter: NAME, a bare user given ``@uid_domain`` (fs's
    kindness: condor_userprio wants the full name and stops on one without ``@``).

    Raises:
        InputError: an empty name (or user before ``@``), one with blanks, control
            characters or two ``@``, and a group or ``<none>``: no submitter, as
            condor_userprio refuses them (no ``@``), and no record holds a slot.
    """
    from fairshare_cli.core.htcondor.accountant import ROOT_GROUP, qualify
    from fairshare_cli.core.names import check_name

    check_name(name, "-getreslist NAME", submitter=True)
    if name.startswith("@") or name == ROOT_GROUP or name in groups:
        raise InputError(
            f"-getreslist {shown_text(repr(name))}: expected a submitter, user@domain (or a "
            "user, given the pool's uid_domain), as condor_userprio wants its full name"
        )
    return qualify(name, uid_domain)
