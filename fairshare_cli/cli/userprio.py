"""``fs userprio``: user priorities, like ``condor_userprio``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.cli.complete import EDITING, userprio_names
from fairshare_cli.cli.condor_args import condor_spelling as _single_dash  # (-x, --heir)
from fairshare_cli.cli.context import WHATIF_SIDE, Env, load_env
from fairshare_cli.cli.names import group_records, unmatched_names
from fairshare_cli.cli.options import (
    CInt,
    GlobalOptions,
    common_options,
    output_options,
    pass_options,
)
from fairshare_cli.cli.resolve import note_when_done
from fairshare_cli.cli.userprio_inputs import (
    UserprioInputs,
    as_dumped,
    claimed_limits,
    negotiator_claims,
    negotiator_section,
    read_inputs,
    table_entries,
)
from fairshare_cli.cli.userprio_options import (
    NAMES_IGNORED,
    autoformat_of,
    check_constraint,
    check_group_ids,
    check_names,
    columns,
    constrained,
    dumped_quotas_line,
    name_notes,
    names_inside_groups,
    query_of,
    refuse_whatif_edit,
    reslist_name,
    split_names,
    whatif_rows,
)
from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.userprio import (
    UserprioRow,
    UserprioView,
    ties_keep_ad_order,
    userprio_view,
)
from fairshare_cli.core.htcondor.userprio_query import SORT_KEYS, UserprioQuery
from fairshare_cli.core.htcondor.userprio_rows import QueueDemand, queue_demand
from fairshare_cli.core.names import first_five
from fairshare_cli.errors import InputError
from fairshare_cli.io.gc_pause import gc_paused
from fairshare_cli.render.formats import emit_columns

if TYPE_CHECKING:
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.render.userprio_autoformat import AutoFormat


class UserprioCommand(click.Command):
    """``fs userprio`` that also takes condor_userprio's single-dash options and edits."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not any(_single_dash(a) for a in args):
            return super().parse_args(ctx, args)  # no single-dash option: nothing to translate
        from fairshare_cli.cli.condor_args import find_option, translate

        try:
            translated = translate(list(args), ctx.meta.get(WHATIF_SIDE) is None)
        except InputError:
            if not ctx.resilient_parsing:
                raise
            # Shell completion (-setfactor <TAB>: its operands not typed yet): the words
            # complete as without condor_userprio's options, a NAME as a record name (an
            # edit's: a submitter's).
            edits = [o for a in args if _single_dash(a) and (o := find_option(a)) and o.edit]
            ctx.meta[EDITING] = bool(edits)
            return super().parse_args(ctx, [a for a in args if not _single_dash(a)])
        # (printed once the command has run: a refusal is its one error line alone)
        for note in translated.notes:
            note_when_done(note)
        ctx.meta["fs.userprio.af"] = translated.af_letters
        if translated.edit and ctx.meta.get(WHATIF_SIDE) is not None:  # (it would write)
            refuse_whatif_edit(translated.edit[0])
        if translated.edit:  # the edit's operands, then the options it shares with userprio
            ctx.meta["fs.userprio.edit"] = [*translated.edit, *translated.args]
        return super().parse_args(ctx, translated.args)

    def invoke(self, ctx: click.Context) -> Any:
        edit = ctx.meta.get("fs.userprio.edit")
        if not edit:
            return super().invoke(ctx)
        # -setfactor NAME F ... runs the edit command itself, found by name in fs's table.
        from fairshare_cli.cli.main import cli

        command = cli.get_command(ctx, edit[0])
        if command is None:
            raise InputError(f"condor_userprio's -{edit[0]} is not modelled by fs")
        with command.make_context(edit[0], edit[1:], parent=ctx.parent) as sub:
            return command.invoke(sub)


@click.command("userprio", cls=UserprioCommand)
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=userprio_names)
@click.option(
    "--all", "all_cols", is_flag=True, help="All columns (-all): quotas, dates, real priority."
)
@click.option("--allusers", is_flag=True, help="Also users with no usage in the last 24 hours.")
@click.option("--usage", is_flag=True, help="Usage columns only (-usage).")
@click.option("--priority", is_flag=True, help="Priority columns only (-priority).")
@click.option(
    "--hierarchical/--flat",
    "hierarchical",
    default=None,
    help="Group rows with their users under them, or one flat list [default: grouped "
    "when a user inside a group is shown, as condor_userprio does].",
)
@click.option(
    "--sort",
    type=click.Choice(SORT_KEYS),
    default="priority",
    show_default=True,
    help="fs's own: row order (ties by name); condor_userprio orders by its first column.",
)
@click.option("--long", "long_", is_flag=True, help="Raw accounting ads (-long).")
@click.option("--most", is_flag=True, help="The default columns, added to -priority/-usage.")
@click.option(
    "--modular/--legacy",
    default=False,
    show_default=True,
    help="--long: one ad per record after an empty line (-modular), or as is (-legacy).",
)
@click.option(
    "--negotiator",
    "from_negotiator",
    is_flag=True,
    help="Every record the negotiator holds, not the collector's ads (-negotiator).",
)
@click.option(
    "--quotas", is_flag=True, help="Group quota columns; only group rows when alone (-quotas)."
)
@click.option("--surplus", is_flag=True, help="The Use Surplus column of the groups (-surplus).")
@click.option(
    "--sortkey", is_flag=True, help="The groups' GROUP_SORT_EXPR values, Group Sort Key (-sortkey)."
)
@click.option("--groupid", is_flag=True, help="Each row's group number, Group Id (-groupid).")
@click.option("--order", is_flag=True, help="Each row's group display order, Group Order (-order).")
@click.option(
    "--activefrom",
    "active_from",
    nargs=3,
    type=CInt(),
    default=None,
    metavar="MONTH DAY YEAR",
    help="Records used since local midnight of that day, not the last 24 hours (-activefrom).",
)
@click.option(
    "--grouporder",
    "group_order",
    is_flag=True,
    help="A flat table with the groups first, breadth-first (-grouporder).",
)
@click.option(
    "--grouprollup",
    "group_rollup",
    is_flag=True,
    help="Groups' usage summed over their subgroups, from the negotiator (-grouprollup).",
)
@click.option(
    "--constraint",
    "constraints",
    multiple=True,
    metavar="EXPR",
    help="--long --modular: only the ads EXPR is true in; several are and-ed (-constraint).",
)
@click.option(
    "--autoformat",
    "--af",
    "af_exprs",
    multiple=True,
    metavar="EXPR",
    help="Print EXPR of each accounting ad, a line an ad; repeat for more (-af EXPR...).",
)
@click.option(
    "--af-opts",
    default="",
    metavar="LETTERS",
    help="--af's letters: l labels, V quotes, r raw, t tab, g, n, ',', h headings (-af:LETTERS).",
)
@click.option(
    "--dry-run", is_flag=True, help="fs's own: with an edit option (-setfactor ...), write nothing."
)
@click.option("--create", is_flag=True, help="fs's own: with an edit option, allow a new record.")
@click.option(
    "--getreslist",
    "reslist_of",
    metavar="NAME",
    help="The slots NAME's jobs hold and since when, as the negotiator's claims (-getreslist).",
)
@output_options
@common_options
@pass_options
@gc_paused()  # 20,000 records are 100,000 containers and no cycle: collecting costs 1/8
def userprio(
    opts: GlobalOptions,
    /,
    names: tuple[str, ...],
    all_cols: bool,
    long_: bool,
    modular: bool,
    constraints: tuple[str, ...],
    reslist_of: str | None,
    **display: Any,  # the other display options, read from the context's params
) -> None:
    """Show user priorities, like condor_userprio.

    \b
    Examples:
      fs userprio --config sample_configs/pool.toml
      fs userprio --all --allusers
      fs userprio alice --json
      fs userprio -getreslist group_physics.frank --config sample_configs/pool.toml

    Rows: submitters (and groups) used in the last 24 hours, best priority first; while
    the state holds a queue, only those with jobs in it (the collector's Accounting ads
    that plain condor_userprio reads; --allusers: every record). NAME... narrows these
    rows; --allusers and --negotiator ignore names, as condor_userprio 25.0 does.

    condor_userprio's own spellings work too: single-dash options and their unique
    prefixes (-allusers, -all, -usage, -priority, -quotas, -surplus, -hier, -flat,
    -l/-long, -modular, -legacy, -constraint, -most, -grouprollup, -grouporder, -activefrom,
    -negotiator, -sortkey, -groupid, -order, -af[:LETTERS] EXPR...), and the edits
    -setfactor NAME F, -setprio, -setfloor, -setceiling, -setaccum, -setbegin, -setlast,
    -resetusage NAME, -resetall and -delete NAME run 'fs setfactor' ... instead. fs's own
    options (condor_userprio has none of them): --sort, --dry-run, --create,
    --output/--json, --config, --state, --now.
    """
    from fairshare_cli.render.userprio import render_userprio

    check_names(names)
    names = split_names(names)
    af = autoformat_of(display["af_exprs"], display["af_opts"], opts.output)
    check_constraint(constraints, long_ or af is not None, modular or af is not None, opts.output)
    env = load_env(opts, note_missing=True)
    if reslist_of is not None:
        _print_reslist(env, reslist_of, opts.output, long_)
        return
    inputs = read_inputs(env)
    records, jobs, group_info, demand = inputs
    shown_at, dumped = as_dumped(env)
    group_info.update(dumped)
    params = click.get_current_context().params
    if names and (params["allusers"] or params["from_negotiator"]) and not params["group_rollup"]:
        note_when_done(NAMES_IGNORED)
        names = ()
    names, inside = names_inside_groups(names, records)
    query = query_of(names, params)
    # (the accountant table's size orders the ties of a few records alone: else no claim is read)
    entries = None
    if ties_keep_ad_order(len(records), query):
        entries = table_entries(env, records, negotiator_claims(env))
    queue = queue_demand(jobs, demand, env.config)
    view = userprio_view(records, env.config, shown_at, query, queue=queue, group_info=group_info,
                         activity_now=env.now, table_entries=entries)  # fmt: skip
    for line in unmatched_names(names, records, env.config.pool.uid_domain) if names else ():
        note_when_done(line)
    if dumped and all_cols:  # (stdout stays condor_userprio's, line for line)
        note_when_done(dumped_quotas_line(shown_at))
    fmt = opts.output
    if fmt != "table":  # (the names' notes too: a named record left out gave a bare [])
        return _emit(view, fmt, name_notes(view, records, query, inside))
    if long_ or af is not None:
        text = _long(view, inputs, queue, env, shown_at, query, modular, af)
        click.echo(text, nl=False)
        return
    cols = columns(view, params)
    check_group_ids(view, cols)
    if view.total_records or not names:  # (named, no ad in the collector: ProcessInfo prints none)
        click.echo(render_userprio(view, cols, shown_at), nl=False)
    # (on stderr, right under the table: stdout stays condor_userprio's, line for line)
    for line in _footer(view, records, jobs, env, query, inside, _groups_only(cols)):
        note_when_done(line)


def _long(
    view: UserprioView,
    inputs: UserprioInputs,
    queue: QueueDemand,
    env: Env,
    shown_at: float,
    query: UserprioQuery,
    modular: bool,
    af: AutoFormat | None = None,
) -> str:
    """``-long``: with ``-allusers``, ``-grouprollup`` or ``-negotiator`` (no names) the
    negotiator's one numbered ad (every record: it sends it whole), else the collector's
    Accounting ads; -long shows them all, with no 24-hour filter: every group's, and the
    submitters' the collector holds (:func:`in_collector`). ``modular`` (``-modular``):
    one ad per record, each after an empty line (``PrintModularAds``); ``af``
    (``-af``): chosen values of those ads, a line each."""
    from dataclasses import replace

    from fairshare_cli.core.htcondor.accounting_ads import collector_ads_of, numbered_ad
    from fairshare_cli.core.htcondor.userprio_rows import in_collector
    from fairshare_cli.render.userprio_autoformat import render_autoformat
    from fairshare_cli.render.userprio_long import (
        modular_ads,
        print_ad,
        render_long,
        render_modular,
    )

    config, (records, jobs, group_info, _) = env.config, inputs
    if query.negotiator_ad and not query.all_users:  # the negotiator's ad holds every record
        wide = replace(query, all_users=True)
        view = userprio_view(records, config, shown_at, wide, queue=queue, group_info=group_info)
    if query.negotiator_ad and not query.names:
        neg = negotiator_section(env)
        entries = table_entries(env, records, neg.claims)
        limits = claimed_limits([*neg.claims.values(), *neg.jobless], jobs, neg.limits_seen)
        numbered = numbered_ad(view.listed, records, config, shown_at, entries, limits)
        if af is not None:
            return render_autoformat(constrained(modular_ads(numbered)), af)
        return render_modular(constrained(modular_ads(numbered))) if modular else print_ad(numbered)
    # the collector's ads (those named, if any), however long ago their last usage
    wide = replace(query, all_users=True)
    every = userprio_view(records, config, shown_at, wide, queue=queue, group_info=group_info)
    queued = queue.queued
    groups = {ROOT_GROUP, *config.groups}
    blank = CustomerRecord(is_group=True)
    rows = tuple(
        r for r in every.listed if in_collector(r.name, records.get(r.name, blank), groups, queued)
    )
    if query.names:  # (named, with a record, but no ad: said, as under the table)
        with_ad = {r.name for r in rows}
        left = sorted(n for n in records if query.wanted(n) and n not in with_ad)
        if left:
            note_when_done(f"not listed: {first_five(left)}: no Accounting ad in the collector "
                       "(no job in the queue); --allusers lists every record")  # fmt: skip
    ads = collector_ads_of(rows, records, config, shown_at)
    if af is not None:
        return render_autoformat(constrained(ads), af)
    return render_modular(constrained(ads)) if modular else render_long(ads)


def _footer(
    view: UserprioView,
    records: Mapping[str, CustomerRecord],
    jobs: Sequence[Job],
    env: Env,
    query: UserprioQuery,
    inside: Mapping[str, list[str]],
    groups_only: bool,
) -> list[str]:
    """Notes under the table saying what it shows differently from what was asked or
    from the records: names found inside groups, and submitters with usage that are not
    listed because none of their jobs is in the queue (their usage is in their group's
    row), as condor_userprio leaves them out, silently; not for a table of group rows
    only (``-quotas`` alone), which lists no submitter whatever the filter."""
    lines = name_notes(view, records, query, inside)
    lines[len(inside) : len(inside)] = _groups_left_out(view)
    if query.names or query.negotiator_ad or not jobs or view.cutoff is None or groups_only:
        return lines
    from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
    from fairshare_cli.core.htcondor.userprio_rows import queued_submitters

    queued = queued_submitters(jobs, env.config)
    shown = {row.name for row in view.rows}
    hidden = sorted(
        name
        for name, rec in records.items()
        if not rec.is_group
        and name != ROOT_GROUP
        and name not in shown
        and name not in queued
        and (rec.resources_used > 0 or rec.last_usage_time >= view.cutoff)
    )
    if hidden:
        some = first_five(hidden)
        # (the groups' rows hold their usage where they show: not with --priority alone)
        where = ", counted in their groups' rows" if any(r.is_group for r in view.rows) else ""
        lines.append(
            f"not listed: {len(hidden)} submitter{'s' if len(hidden) != 1 else ''} with "
            f"usage but no job in the queue ({some}){where}; --allusers lists them"
        )
    return lines


def _groups_only(cols: Sequence[str]) -> bool:
    """The table has group columns only (``-quotas`` alone): it prints group rows only."""
    from fairshare_cli.render.userprio_columns import GROUP_ONLY

    return bool(cols) and all(k in GROUP_ONLY for k in cols)


def _groups_left_out(view: UserprioView) -> list[str]:
    """A note for the groups asked for by name that a flat table leaves out: with only the
    priority columns, condor_userprio shows no group row (``HideGroups``), and
    ``fs userprio group_physics --priority`` would print an empty table and say nothing."""
    if not view.named or view.hierarchical:
        return []
    shown = {row.name for row in view.rows}
    left = [r.name for r in view.listed if r.is_group and r.name in view.named]
    left = [name for name in left if name not in shown]
    if not left:
        return []
    them = ", ".join(left)
    return [
        f"{them}: a group's row shows with --hierarchical (with its users when one of "
        "them is read too), and in --long and --json"
    ]


def _print_reslist(env: Env, name: str, fmt: str, long_: bool) -> None:
    """``-getreslist NAME``: the claims of the submitter NAME (a bare user name gets the
    pool's uid_domain), in the order they were made, at ``--now``; and, when NAME holds
    none, a note on stderr naming the submitters inside groups that NAME may mean
    (``dave`` for ``group_physics.hep.dave@example.org``): stdout stays condor_userprio's.

    Raises:
        click.UsageError: an output other than the table, or ``--long``: condor_userprio
            then prints the negotiator's ad, whose ``NameN`` carry each startd's address
            (``GetResourceName``), which fs does not hold.
    """
    from fairshare_cli.core.names import shown
    from fairshare_cli.render.userprio_long import render_reslist

    if fmt != "table" and not long_:
        leave = whatif_rows("-getreslist") or "leave out --json/--output"
        raise click.UsageError(f"--getreslist prints condor_userprio's table only; {leave}")
    if long_:
        raise click.UsageError(
            "--getreslist prints condor_userprio's table only (with -long condor_userprio "
            "prints the negotiator's ad, naming each slot with its startd's address, which "
            "fs does not hold)"
        )
    submitter = reslist_name(name, env.config.pool.uid_domain, env.config.groups)
    negotiator = negotiator_section(env)  # (a match no job took holds its slot's record
    claims = negotiator.claims.values()  # until the next cycle: listed after the claims,
    taken = {c.slot for c in negotiator.jobless}  # its slot's holder's record gone meanwhile)
    listed = (*(c for c in claims if c.slot not in taken), *negotiator.jobless)
    held = [  # (since its record began: a displaced holder's, when a cycle put it back)
        (c.slot, c.start_time if c.accountant_start is None else c.accountant_start)
        for c in listed
        if c.submitter == submitter
    ]
    click.echo(render_reslist(held, env.now), nl=False)
    inside = [] if held else group_records(submitter, {c.submitter for c in claims})
    if inside:
        meant = " or ".join(inside)
        click.echo(f"fs: note: {shown(submitter)} holds no slot; did you mean {meant}", err=True)


def _emit(view: UserprioView, fmt: str, notes: Sequence[str] = ()) -> None:
    """The rows as ``--format json/ndjson/csv`` (docs/json.md ``userprio``), handed to the
    writer a column at a time (the rows transposed at once: 20,000 submitters at
    ``benchmarks/run.py --rows userprio-json``); ``notes`` follow the command."""
    rows = view.listed
    fields = UserprioRow._fields
    columns: dict[str, Sequence[Any]] = dict.fromkeys(fields, ())
    if rows:
        columns = dict(zip(fields, zip(*rows, strict=True), strict=True))
    times = ("begin_usage_time", "last_usage_time")
    emit_columns({k: columns[k] for k in JSON_FIELDS}, len(rows), fmt, times)
    for line in notes:
        note_when_done(line)


#: The ``--format json/ndjson/csv`` keys, in order (docs/json.md ``userprio``).
JSON_FIELDS = (
    "name",
    "is_group",
    "effective_priority",
    "real_priority",
    "priority_factor",
    "resources_in_use",
    "weighted_resources_in_use",
    "accumulated_usage_hours",
    "weighted_accumulated_usage_hours",
    "begin_usage_time",
    "last_usage_time",
)
