"""condor_userprio's own spellings for ``fs userprio``: single-dash options and prefixes.

condor_userprio (``user_prio.cpp``) tests each argument against its options in a fixed
order with ``is_dash_arg_prefix``: an argument matches an option when it is a prefix of the
option's name at least ``must_match_length`` characters long (one when that is 0), and the
first option in the order that matches wins; ``--name`` must spell the name exactly. So
``-a`` is ``-all``, ``-setf`` is ``-setfactor``, ``-d`` is ``-debug``, ``-c`` is
``-constraint`` and ``-del`` is ``-delete`` (HTCondor 25.0's order; the lease options of later
versions, ``-duration`` and ``-cancel...lease``, come after it here, so they take only what
25.0 leaves unmatched). :func:`translate` turns such arguments into ``fs userprio``'s long options,
and the edit options (``-setfactor NAME F`` ...) into the ``fs`` edit command they stand for.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairshare_cli.errors import InputError, did_you_mean


@dataclass(frozen=True)
class CondorOption:
    """One condor_userprio option, in the order ``user_prio.cpp`` tests them.

    Attributes:
        name: the option's name without the dash.
        min_len: ``must_match_length`` (0: any non-empty prefix).
        operands: how many arguments follow it.
        display: the ``fs userprio`` options it becomes, blank-separated ("" for an edit
            or an unsupported one).
        edit: the ``fs`` edit command it runs, with fixed arguments (e.g. ``--all``).
        usage: its operands as condor_userprio's usage names them (``<user> <val>``).
    """

    name: str
    min_len: int = 0
    operands: int = 0
    display: str = ""
    edit: tuple[str, ...] = ()
    usage: str = ""


#: condor_userprio's options in ``user_prio.cpp``'s order (the first match wins).
CONDOR_OPTIONS: tuple[CondorOption, ...] = (
    CondorOption("setprio", operands=2, edit=("setprio",), usage="<user> <val>"),
    CondorOption("setfactor", operands=2, edit=("setfactor",), usage="<user> <val>"),
    CondorOption("setfloor", operands=2, edit=("setfloor",), usage="<user> <val>"),
    CondorOption("setceiling", operands=2, edit=("setceiling",), usage="<user> <val>"),
    CondorOption("setbegin", operands=2, edit=("setbegin",), usage="<user> <val>"),
    CondorOption("setaccum", operands=2, edit=("setaccum",), usage="<user> <val>"),
    CondorOption("setlast", operands=2, edit=("setlast",), usage="<user> <val>"),
    CondorOption("resetusage", operands=1, edit=("resetusage",), usage="<user>"),
    CondorOption("delete", 3, operands=1, edit=("delete",), usage="<user>"),
    CondorOption("resetall", edit=("resetusage", "--all")),
    CondorOption("long", 1, display="--long"),
    CondorOption("constraint", 1, operands=1, display="--constraint", usage="<expr>"),
    CondorOption("legacy", 3, display="--legacy"),
    CondorOption("modular", 3, display="--modular"),
    CondorOption("af", 2, display="--af-opts"),
    CondorOption("autoformat", 5, display="--af-opts"),
    CondorOption("debug", 1),
    CondorOption("hierarchical", 2, display="--hierarchical"),
    CondorOption("heir", display="--hierarchical"),
    CondorOption("flat", 2, display="--flat"),
    CondorOption("grouprollup", display="--grouprollup"),
    CondorOption("grouporder", display="--grouporder --flat"),
    CondorOption("quotas", 1, display="--quotas"),
    CondorOption("surplus", display="--surplus"),
    CondorOption("sortkey", 2, display="--sortkey"),
    CondorOption("all", display="--all"),
    CondorOption("most", 2, display="--most"),
    CondorOption("groupid", display="--groupid"),
    CondorOption("order", display="--order"),
    CondorOption("activefrom", operands=3, display="--activefrom", usage="<month> <day> <year>"),
    CondorOption("allusers", display="--allusers"),
    CondorOption("usage", 2, display="--usage"),
    CondorOption("priority", 4, display="--priority"),
    CondorOption("getreslist", 6, operands=1, display="--getreslist", usage="<user>"),
    CondorOption("inputfile", 2, operands=1, usage="<file>"),
    CondorOption("pool", 1, operands=1, usage="<host>"),
    CondorOption("name", operands=1, usage="<name>"),
    CondorOption("collector", 3),
    CondorOption("negotiator", 3, display="--negotiator"),
)

#: Options of condor_userprio versions after 25.0 (priority-factor, floor and ceiling
#: leases): 25.0 has none of them, so they match only what its own options leave.
NEWER_OPTIONS: tuple[CondorOption, ...] = (
    CondorOption("duration", operands=1),
    CondorOption("cancelceilinglease", operands=1),
    CondorOption("cancelfloorlease", operands=1),
    CondorOption("cancelfactorlease", operands=1),
)

#: Options whose name may end in ``:OPTS`` (``is_dash_arg_colon_prefix``: ``-af:h``).
_COLON_OPTIONS = frozenset({"af", "autoformat", "debug"})

#: Hints for condor_userprio options that ``fs`` answers elsewhere.
_ELSEWHERE = {
    "inputfile": "use 'fs import condor-userprio'",
    "pool": "fs reads the pool from --config",
    "name": "fs reads the pool from --config",
    "collector": "beside -allusers, -negotiator or -grouprollup; alone it is plain "
    "'fs userprio', which reads the collector's ads, and -allusers would read them unfiltered",
    "duration": "an option of HTCondor versions after 25.0, which fs follows; leases are not "
    "modelled",
    "cancelceilinglease": "an option of HTCondor versions after 25.0, which fs follows",
    "cancelfloorlease": "an option of HTCondor versions after 25.0, which fs follows",
    "cancelfactorlease": "an option of HTCondor versions after 25.0, which fs follows",
}

#: ``fs userprio`` options that take a value (copied through untouched).
VALUE_OPTIONS = frozenset({"--config", "--state", "--now", "--sort", "--output", "--af-opts"})


def is_arg_prefix(arg: str, name: str, min_len: int) -> bool:
    """``is_arg_prefix`` of ``match_prefix.cpp``: ``arg`` is a long-enough prefix of ``name``."""
    if not arg or not name.startswith(arg):
        return False
    if min_len < 0:
        return arg == name
    return len(arg) >= min_len


def condor_spelling(arg: str) -> bool:
    """``arg`` is read as one of condor_userprio's options: a single dash (``-allusers``,
    ``-x``), or two spelling a whole name (``--heir``, ``--setfactor``, ``--af:h``), as
    ``is_dash_arg_prefix`` reads them; ``--config``, ``--af-opts`` and ``-`` are not."""
    if arg[:1] != "-" or len(arg) < 2:
        return False
    return arg[1] != "-" or find_option(arg) is not None


def find_option(arg: str) -> CondorOption | None:
    """The condor_userprio option ``arg`` (``-x`` or ``--x``) selects, or None.

    A double dash must spell the whole name, as ``is_dash_arg_prefix`` requires.
    """
    exact = arg.startswith("--")
    bare = arg[2:] if exact else arg[1:]
    for option in (*CONDOR_OPTIONS, *NEWER_OPTIONS):
        name = bare.partition(":")[0] if option.name in _COLON_OPTIONS else bare
        if is_arg_prefix(name, option.name, -1 if exact else option.min_len):
            return option
    return None


@dataclass(frozen=True)
class Translated:
    """``fs userprio``'s arguments after translation, and the edit to run instead, if any."""

    args: list[str]
    edit: list[str] | None
    notes: tuple[str, ...] = ()
    #: each ``--af`` expression's letters, those of its ``-af:LETTERS`` (None: ``--af``'s
    #: own, which takes ``--af-opts``), in order
    af_letters: tuple[str | None, ...] = ()


def translate(args: list[str], outputs: bool = True) -> Translated:
    """Turn condor_userprio's options into ``fs`` options.

    Arguments that are not condor_userprio's options (:func:`condor_spelling`: ``--x``
    must spell a whole name), and the values of ``fs``'s own options, pass through
    unchanged. An edit option (``-setfactor NAME F``) becomes the edit command's
    arguments (``["setfactor", NAME, F]``); the display options beside it are dropped, as
    condor_userprio ignores them when it edits, and fs's ``--json``/``--output`` refused
    (not with ``outputs`` False: ``fs whatif`` gives the view ``--json``, and refuses the
    edit itself).

    Raises:
        InputError: an option fs does not model, or a missing operand.
    """
    out: list[str] = []
    edits: list[tuple[str, list[str]]] = []
    quiet: list[str] = []
    af_letters: list[str | None] = []
    filters: list[tuple[str, int]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":  # (the end of the options: names follow, as typed)
            out.extend(args[i - 1 :])
            break
        if arg in VALUE_OPTIONS and i < len(args):
            out.extend((arg, args[i]))
            i += 1
            continue
        if not condor_spelling(arg):  # (a name, or one of fs's own options)
            out.append(arg)
            continue
        if arg == "-help":  # (25.0 has no -help: anything unknown prints its usage)
            out.append("--help")
            continue
        option = _known(arg)
        if option.name in _COLON_OPTIONS and option.display:  # -af[:OPTS] EXPR...
            i = _autoformat(arg, args, i, out, af_letters)
            continue
        operands = args[i : i + option.operands]
        if len(operands) < option.operands or any(o.startswith("--") for o in operands):
            raise InputError(_needs(arg, option))
        i += option.operands
        if option.display:  # (-grouporder is flat too: a later -hier wins, as in condor)
            _note_filter(option, len(out), filters)
            out.extend((*option.display.split(), *operands))
        elif option.edit:
            edits.append((option.name, [*option.edit, *operands]))
        elif option.name in _QUIET:
            quiet.append(option.name)
        else:
            raise InputError(_unsupported(option.name))
    edit, ignored = _first_edit(edits)
    if edit is not None:
        _check_dropped(out, edit[0] if outputs else "")
        out = _common_only(out)
    notes = (*ignored, *_quiet_notes(quiet, out))
    return Translated(_later_filter(out, filters), edit, notes, tuple(af_letters))


#: The order of ``main``'s if/else chain of edits in ``user_prio.cpp``: the first given runs.
_EDIT_ORDER = ("setprio", "setfactor", "setfloor", "setceiling", "setaccum", "setbegin",
               "setlast", "resetusage", "delete", "resetall")  # fmt: skip


def _first_edit(edits: list[tuple[str, list[str]]]) -> tuple[list[str] | None, list[str]]:
    """The edit condor_userprio runs when given several, and a note naming the others:
    each option keeps the index of its last occurrence (``SetPrio=i``), and the chain
    runs the first set in its order (``-setprio`` before ``-setfactor`` ... ``-resetall``)."""
    if not edits:
        return None, []
    last = dict(edits)
    name = min(last, key=_EDIT_ORDER.index)
    chosen = last[name]
    if len(edits) == 1:
        return chosen, []
    left = [f"-{n} {' '.join(e[1:] if n != 'resetall' else [])}".rstrip()
            for n, e in edits if e is not chosen]  # fmt: skip
    return chosen, [
        f"condor_userprio runs one edit, the last -{name} given (-{name} comes first in "
        f"its order); ignored: {', '.join(left)}"
    ]


#: Options condor_userprio takes that change nothing fs prints: ``-debug`` (its tool's
#: debug log, on stderr) and ``-collector`` (the collector's ads, plain ``fs userprio``'s).
_QUIET = ("debug", "collector")

#: The ``fs userprio`` options that read another source than the collector's ads.
_NOT_COLLECTOR = frozenset({"--allusers", "--negotiator", "--grouprollup"})


def _unsupported(name: str) -> str:
    hint = _ELSEWHERE.get(name, "fs does not model it")
    return f"condor_userprio option -{name} is not supported ({hint})"


def _quiet_notes(quiet: list[str], out: list[str]) -> tuple[str, ...]:
    """The notes for ``-debug`` (``dprintf_set_tool_debug``: stdout is unchanged), and
    ``-collector`` checked: alone it is plain condor_userprio's query (``fromCollector``;
    ``-getreslist`` and the edits ask the negotiator whatever it says); with an option that
    reads the negotiator the later wins, and ``-allusers -collector`` would read the
    collector's ads unfiltered, which fs does not model.

    Raises:
        InputError: ``-collector`` with ``-allusers``, ``-negotiator`` or ``-grouprollup``.
    """
    if "collector" in quiet and _NOT_COLLECTOR.intersection(out):
        raise InputError(_unsupported("collector"))
    if "debug" in quiet:
        return ("-debug: fs talks to no daemon, so it has no debug log to print; the output "
                "is as without it",)  # fmt: skip
    return ()


def _known(arg: str) -> CondorOption:
    """The option ``arg`` selects.

    Raises:
        InputError: none (``usage`` in condor_userprio), naming the option it may mean.
    """
    option = find_option(arg)
    if option is None:
        names = [f"-{known.name}" for known in (*CONDOR_OPTIONS, *NEWER_OPTIONS)]
        longer = [known for known in names if known.startswith(arg)]  # (too short)
        hint = f" (did you mean '{longer[0]}'?)" if len(longer) == 1 else ""
        hint = hint or did_you_mean(arg, names)
        raise InputError(f"unknown condor_userprio option '{arg}'{hint} (see 'fs userprio --help')")
    return option


def _needs(arg: str, option: CondorOption) -> str:
    """``-activefrom needs 3 arguments: -activefrom <month> <day> <year>``, naming the
    option a prefix stands for (``'-setf' is -setfactor``) and its operands as
    condor_userprio's usage does."""
    count = option.operands
    given = "" if arg.lstrip("-") == option.name else f"'{arg}' is -{option.name}, which "
    what = f"{count} argument{'s' if count != 1 else ''}"
    form = f"-{option.name} {option.usage}" if option.usage else f"-{option.name}"
    return f"{given or f'-{option.name} '}needs {what}: {form}"


def _later_filter(out: list[str], filters: list[tuple[str, int]]) -> list[str]:
    """``-allusers`` and ``-activefrom M D Y`` both set condor_userprio's one usage filter
    (``MinLastUsageTime``), so the later wins; ``-allusers`` also reads the negotiator's ad,
    as ``-negotiator`` does, whichever comes later. ``filters``: each such option's
    ``--allusers``/``--activefrom`` and where it went into ``out``."""
    kinds = [kind for kind, _ in filters]
    if "--allusers" not in kinds or "--activefrom" not in kinds:
        return out
    last = filters[-1]
    users = {at for kind, at in filters if kind == "--allusers"}
    dates = {at for kind, at in filters if kind == "--activefrom" and at != last[1]}
    gone = {j for i in dates for j in range(i, i + 4)}  # (each earlier --activefrom M D Y)
    if last[0] == "--activefrom":  # (the negotiator's ad, the date's filter)
        return [("--negotiator" if i in users else a) for i, a in enumerate(out) if i not in gone]
    return [a for i, a in enumerate(out) if i not in gone]


def _note_filter(option: CondorOption, at: int, filters: list[tuple[str, int]]) -> None:
    """Note where ``-allusers`` or ``-activefrom`` went into the output (:func:`_later_filter`)."""
    if option.name in ("allusers", "activefrom"):
        filters.append((option.display, at))


def _autoformat(
    arg: str, args: list[str], i: int, out: list[str], letters: list[str | None]
) -> int:
    """``-af[:OPTS] EXPR...``: the expressions up to the next argument that starts with a
    dash (``parse_autoformat_args``), as ``--af-opts OPTS --af EXPR ...``, and OPTS in
    ``letters`` once an expression (None for ``--af``, whose letters are ``--af-opts``'s);
    the index after.

    Raises:
        InputError: no expression follows.
    """
    exprs: list[str] = []
    while i < len(args) and not args[i].startswith("-"):
        exprs.append(args[i])
        i += 1
    if not exprs:
        raise InputError(f"'{arg}' needs at least one attribute (e.g. {arg} Name)")
    own = ":" in arg or arg[1] != "-"  # (fs's --af EXPR keeps an --af-opts given before it)
    if own:
        out.extend(("--af-opts", arg.partition(":")[2]))
    for expr in exprs:
        out.extend(("--af", expr))
        letters.append(arg.partition(":")[2] if own else None)
    return i


#: How many values each ``fs userprio`` option that takes some has, as they reach
#: :func:`_check_dropped` (condor_userprio's display options translated, fs's own).
_VALUES = {"--config": 1, "--state": 1, "--now": 1, "--sort": 1, "--output": 1,
           "--af-opts": 1, "--af": 1, "--constraint": 1, "--getreslist": 1,
           "--activefrom": 3}  # fmt: skip


def _check_dropped(args: list[str], edit: str) -> None:
    """Refuse what condor_userprio refuses while it reads its arguments, before it runs
    an edit: a NAME that starts with no letter (its usage) and an ``-af`` expression that
    does not parse (``Invalid expression``); and fs's own ``--json``/``--output`` (other
    than the table), which the edit's one line cannot honour (as ``-getreslist``'s table
    refuses them; ``edit`` "": not those). The display options an edit drops are not read
    otherwise.

    Raises:
        InputError: the first such name, expression or output option.
    """
    from fairshare_cli.cli.userprio_options import check_names
    from fairshare_cli.core.htcondor.classads import check_expression

    i = 0
    while i < len(args):
        arg, i = args[i], i + 1
        if arg == "--":
            check_names(args[i:])
            return
        if arg == "--af":
            check_expression(args[i], args[i])
        key, eq, value = arg.partition("=")
        shape = value if eq else "".join(args[i : i + 1])  # (--output's)
        if edit and (key == "--json" or (key == "--output" and shape != "table")):
            raise InputError(
                f"condor_userprio's edits (here fs {edit}) print one line, not rows; "
                "leave out --json/--output"
            )
        if arg in _VALUES:
            i += _VALUES[arg]
        elif arg == "-" or not arg.startswith("-"):
            check_names([arg])


def _common_only(args: list[str]) -> list[str]:
    """The options an edit command shares with ``fs userprio``: config, state, now, dry run."""
    keep: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        key = arg.split("=", 1)[0]
        if key in ("--config", "--state", "--now"):
            keep.append(arg)
            if "=" not in arg and i + 1 < len(args):
                keep.append(args[i + 1])
                i += 1
        elif arg in ("--dry-run", "--create"):
            keep.append(arg)
        i += 1
    return keep
