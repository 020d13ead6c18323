"""The ``fs`` command group: lazy subcommands and the one error boundary."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Mapping
from typing import Any, ClassVar

import click

from fairshare_cli.cli.interrupts import (
    change_written,
    interrupt_behind,
    interrupted,
    released,
)

#: Subcommands, imported only when used so that ``fs --help`` stays fast.
_COMMANDS: dict[str, str] = {
    "userprio": "fairshare_cli.cli.userprio:userprio",
    "setfactor": "fairshare_cli.cli.edits:setfactor",
    "setprio": "fairshare_cli.cli.edits:setprio",
    "setfloor": "fairshare_cli.cli.edits:setfloor",
    "setceiling": "fairshare_cli.cli.edits:setceiling",
    "setaccum": "fairshare_cli.cli.edits:setaccum",
    "setbegin": "fairshare_cli.cli.edits:setbegin",
    "setlast": "fairshare_cli.cli.edits:setlast",
    "resetusage": "fairshare_cli.cli.edits:resetusage",
    "delete": "fairshare_cli.cli.edits:delete",
    "import": "fairshare_cli.cli.import_cmd:import_group",
    "config": "fairshare_cli.cli.config_cmd:config_group",
    "init": "fairshare_cli.cli.config_cmd:init",
    "quota": "fairshare_cli.cli.quota:quota",
    "negotiate": "fairshare_cli.cli.negotiate:negotiate",
    "taskqueues": "fairshare_cli.cli.taskqueues:taskqueues",
    "sshare": "fairshare_cli.cli.sshare:sshare",
    "sprio": "fairshare_cli.cli.sprio:sprio",
    "submit": "fairshare_cli.cli.jobs_cmd:submit",
    "prio": "fairshare_cli.cli.jobs_cmd:prio",
    "rm": "fairshare_cli.cli.jobs_cmd:rm",
    "release": "fairshare_cli.cli.jobs_cmd:release",
    "whatif": "fairshare_cli.cli.whatif:whatif",
    "simulate": "fairshare_cli.cli.simulate:simulate",
    "sweep": "fairshare_cli.cli.sweep:sweep",
}

#: One-line summaries for ``fs --help`` without importing every command module.
_SUMMARIES: dict[str, str] = {
    "userprio": "Show user priorities (like condor_userprio).",
    "setfactor": "Set a submitter's priority factor (condor_userprio -setfactor).",
    "setprio": "Set a submitter's real priority (condor_userprio -setprio).",
    "setfloor": "Set a submitter's floor (condor_userprio -setfloor).",
    "setceiling": "Set a submitter's ceiling (condor_userprio -setceiling).",
    "setaccum": "Set accumulated usage in slot-seconds (condor_userprio -setaccum).",
    "setbegin": "Set the usage begin time (condor_userprio -setbegin).",
    "setlast": "Set the last usage time (condor_userprio -setlast).",
    "resetusage": "Reset accumulated usage (condor_userprio -resetusage/-resetall).",
    "delete": "Delete an accountant record (condor_userprio -delete).",
    "import": "Import usage history and real tools' dumps into the state or config.",
    "config": "Check a pool config and print its effective values.",
    "init": "Write a commented starter pool config.",
    "quota": "Show group quotas and this cycle's limits (condor_userprio -quotas).",
    "negotiate": "Run or preview (--dry-run) one negotiation cycle (condor_negotiator).",
    "taskqueues": "Show DIRAC task queues and their priorities (TaskQueueDB).",
    "sshare": "Show association shares, usage and fair share (like sshare).",
    "sprio": "Show the factors of pending jobs' priorities (like sprio).",
    "submit": "Add jobs to the queue (like sbatch / condor_submit).",
    "prio": "Set a job's priority (condor_prio; --slurm: scontrol priority=).",
    "rm": "Remove jobs from the queue (like condor_rm / scancel).",
    "release": "Release held jobs (like scontrol release / condor_release).",
    "whatif": "Show a view with config keys changed (nothing is written).",
    "simulate": "Run negotiation cycles forward over a workload.",
    "sweep": "Run a grid of policies through simulate and rank them by fairness.",
}


def _path_of(ctx: click.Context, words: list[str]) -> str:
    """``fs import sacct``: the group's path and the command names that lead its words."""
    path, command = [ctx.command_path], ctx.command
    for word in words:
        sub = command.get_command(ctx, word) if isinstance(command, click.Group) else None
        if sub is None:
            break
        path.append(word)
        command = sub
    return " ".join(path)


#: The options naming a file a command reads or writes besides the config and the state:
#: given twice with two values, click would keep the last and drop the first without a word
#: (``fs sprio --jobs-file a.json --jobs-file b.json`` would read b.json alone), so it is
#: refused. ``--config``, ``--state`` and ``--now`` keep the last (a script's common set,
#: then one overridden).
GIVEN_ONCE = frozenset(("--jobs-file", "--workload", "--file", "--history", "--into",
                        "--out", "--html", "--plot", "--example"))  # fmt: skip


def refuse_given_twice(words: list[str]) -> None:
    """Refuse an option of :data:`GIVEN_ONCE` given twice with two values in ``words``, the
    command line after ``fs`` (``--name value`` or ``--name=value``; none after ``--``).

    Raises:
        click.UsageError: naming the option and both values.
    """
    given: dict[str, str] = {}
    tokens = iter(words)
    for token in tokens:
        if token == "--":
            return
        name, equals, value = token.partition("=")
        if name not in GIVEN_ONCE:
            continue
        if not equals:
            value = next(tokens, "")
        if given.setdefault(name, value) != value:  # (a long value shortened by one_line)
            first = given[name]
            raise click.UsageError(f"{name} is given twice ('{first}' and '{value}'); give it once")


def no_such_command(name: str, names: list[str], what: str = "command") -> str:
    """Click's refusal of an unknown command ``name``, with the commands of ``names`` it
    is close to, the closest first (``fs userpri``: 'userprio', 'sprio', 'setprio');
    ``what``: the word for what ``names`` are (``fs whatif``'s views)."""
    import difflib

    close = difflib.get_close_matches(name, names)
    quoted = ", ".join(repr(n) for n in close)
    if len(close) > 1:
        return f"No such {what} {name!r}. (Did you mean one of: {quoted}?)"
    return f"No such {what} {name!r}." + (f" Did you mean {quoted}?" if close else "")


def usage_text(exc: click.UsageError) -> str:
    """Click's message of a usage error, worded as click 8.4 on words it whatever the click:
    8.1 (Debian 12's) refuses an unknown option as "No such option: --x (Possible options:
    --a, --b)" where 8.4 says "No such option '--x'. (Did you mean one of: '--a', '--b'?)"."""
    if isinstance(exc, click.NoSuchOption) and exc.message == f"No such option: {exc.option_name}":
        close = ", ".join(repr(name) for name in sorted(exc.possibilities or ()))
        text = f"No such option {exc.option_name!r}."
        if len(exc.possibilities or ()) > 1:
            return f"{text} (Did you mean one of: {close}?)"
        return f"{text} Did you mean {close}?" if close else text
    # (a bounded number's refusal of a word names click's type, "integer range", as if a
    # range were asked for: fs submit --count abc is "'abc' is not a valid integer.")
    return re.sub(r"( is not a valid (integer|float)) range\.$", r"\1.", exc.format_message())


def command_words(ctx: click.Context) -> list[str]:
    """The words a group's context holds once click has parsed its own options: the
    subcommand's name (click 8.2 on keeps it in ``_protected_args``, 8.1 in
    ``protected_args``), then the words after it."""
    protected = getattr(ctx, "_protected_args", None)
    if protected is None:
        protected = getattr(ctx, "protected_args", [])
    return [*protected, *ctx.args]


#: Under every help that shows examples: the pool they name, and how to run them on a copy.
EXAMPLES_NOTE = (
    "\b\nExamples that name no other config use the sample pool (its users, accounts and\n"
    "state). To run them on a copy, never on the shipped sample state, in an empty folder:\n"
    "  fs init --example sample_configs\n"
    "  export FAIRSHARE_CONFIG=$PWD/sample_configs/pool.toml FAIRSHARE_NOW=2026-11-21T12:00:00Z\n"
    "(or pass --config sample_configs/pool.toml to each command instead)."
)


def examples_noted(cmd: click.Command | None) -> click.Command | None:
    """``cmd``, its help followed by :data:`EXAMPLES_NOTE` when it shows examples."""
    if cmd is not None and cmd.epilog is None and "Example" in (cmd.help or ""):
        cmd.epilog = EXAMPLES_NOTE
    return cmd


class ListedGroup(click.Group):
    """A group that, refusing a command it does not have, suggests among every command
    it lists (``fs userpri``: 'userprio', 'setprio', 'sprio'): click suggests among those
    registered on it, which for a group whose commands are imported on first use are none
    or a few."""

    #: A word that is no command of this group, and what to type instead (a real tool's
    #: name: :data:`REAL_TOOLS`), said in place of the close matches.
    instead: ClassVar[Mapping[str, str]] = {}

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        said = self.instead.get(args[0] if args else "")
        if said is not None:
            raise click.UsageError(f"No such command {args[0]!r}: {said}", ctx)
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = click.utils.make_str(args[0]) if args else ""
            if name.startswith("-") or self.get_command(ctx, name) is not None:
                raise  # (an option's refusal, or not one of a missing command)
            raise click.UsageError(no_such_command(name, self.list_commands(ctx)), ctx) from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return examples_noted(super().get_command(ctx, cmd_name))


#: A real tool's name typed as a command, and what fs does in its place: close matches
#: alone suggested none (sbatch, condor_q) or a wrong one (sacct: 'setaccum', an edit).
REAL_TOOLS: Mapping[str, str] = {
    "squeue": "fs import squeue reads squeue --json output; fs sprio shows the queue",
    "sacct": "fs import sacct reads its output",
    "sacctmgr": "fs import sacctmgr reads its show assoc or show qos output",
    "scontrol": "fs import scontrol-assoc reads show assoc_mgr, fs import squeue show jobs, "
    "fs import slurm-conf show config; fs prio --slurm and fs release change a job",
    "sbatch": "fs submit queues a job",
    "scancel": "fs rm removes a job",
    "condor_q": "fs import condor-q reads its -json or -long output",
    "condor_status": "fs import condor-status reads its -json or -long output",
    "condor_history": "fs import condor-history reads its -json or -long output",
    "condor_config_val": "fs import condor-config reads its -dump output",
    "condor_rm": "fs rm removes a job",
    "condor_prio": "fs prio sets a job's priority",
    "condor_release": "fs release releases a held job",
}


class LazyGroup(ListedGroup):
    """A group whose subcommands are imported on first use."""

    instead = REAL_TOOLS

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        cmd = getattr(importlib.import_module(module), attr)
        assert isinstance(cmd, click.Command)
        return examples_noted(cmd)

    def invoke(self, ctx: click.Context) -> Any:
        from fairshare_cli.cli.resolve import print_notes_when_done
        from fairshare_cli.errors import FairshareError

        words = command_words(ctx)  # (the command's names)
        try:
            refuse_given_twice(words)
            with released():  # (held back while click reads the line and ends: entry)
                result = super().invoke(ctx)
            print_notes_when_done(ctx)
            return result
        except FairshareError as exc:
            if _debugging(ctx):
                raise
            raise FsError(str(exc), exc.exit_code) from None
        except click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # fs import, fs config: the help
                raise  # (as bare fs shows it, not as one line of escaped line breaks)
            # Bad usage is one line too: the message, then where to find the usage.
            # (click leaves a missing option value without its context: found from the names)
            where = exc.ctx.command_path if exc.ctx is not None else _path_of(ctx, words)
            # (click lays out the choices of a missing argument on lines of their own)
            text = usage_text(exc).replace(":\n\t", ": ").replace(",\n\t", ", ")
            message = one_line(text)
            view = getattr(exc, "view_help", None)  # (fs whatif ... VIEW: the view's options)
            also = f"; the view's options: '{view} --help'" if view else ""
            raise FsError(f"{message} (see '{where} --help'{also})", exc.exit_code) from None
        except MemoryError:  # (an input too big for this machine: freed by now)
            if _debugging(ctx):
                raise
            raise FsError(OUT_OF_MEMORY, 1) from None
        except BrokenPipeError:  # the reader left (| head -1): 0, unless a change is unmade
            from fairshare_cli.cli.interrupts import change_unmade

            sys.stderr.close()
            raise click.exceptions.Exit(1 if change_unmade() else 0) from None
        except OSError as exc:  # the output's device full or failing (fs ... > /dev/full)
            if _debugging(ctx):
                raise
            raise _os_failure(exc) from None
        except (KeyboardInterrupt, Exception) as exc:  # (click's own: "Aborted!", exit 1)
            interrupt = interrupt_behind(exc)  # (Ctrl-C, SIGTERM, or one wrapped in an error)
            if interrupt is None or _debugging(ctx):
                raise
            raise FsError(*interrupted(interrupt)) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # --create-dirs may come anywhere on the line: it is the group's option.
        if "--create-dirs" in args:
            args = ["--create-dirs", *(a for a in args if a != "--create-dirs")]
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:  # fs --bogus: the same one line as anywhere else
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare 'fs' shows the help
                raise
            message = " ".join(usage_text(exc).split())
            if isinstance(exc, click.NoSuchOption):
                message = self._option_of_command(ctx, exc.option_name, args) or message
            raise FsError(f"{message} (see '{ctx.command_path} --help')", exc.exit_code) from None

    def _option_of_command(self, ctx: click.Context, option: str, args: list[str]) -> str:
        """The refusal of ``option`` given before the command that takes it (``fs --config
        pool.toml userprio``, as ``git -C``): told to follow the command; else ""."""
        name = next((word for word in args if word in _COMMANDS), None)
        command = self.get_command(ctx, name) if name is not None else None
        if isinstance(command, click.Group):  # (fs --config pool.toml import sacct ...)
            rest = args[args.index(str(name)) + 1 :]
            sub = next((word for word in rest if word in command.list_commands(ctx)), None)
            command = command.get_command(ctx, sub) if sub is not None else None
            name = f"{name} {sub}"
        if command is None or not any(option in param.opts for param in command.params):
            return ""
        fs = ctx.command_path
        return (
            f"{option} is an option of {fs} {name}, not of {fs}: give it after the command "
            f"name ('{fs} {name} {option} ...')"
        )

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _SUMMARIES.get(name, "")) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


#: The line of a command that ran out of memory (an input too big for the machine, or a
#: memory limit: ``ulimit -v``); a file being written is left whole, old or new.
OUT_OF_MEMORY = "out of memory (an input too big for this machine, or a memory limit)"


def _debugging(ctx: click.Context) -> bool:
    """Whether ``--debug`` asks for the traceback instead of the one line."""
    return "--debug" in sys.argv[1:] or bool((ctx.obj or {}).get("debug"))


class FsError(click.ClickException):
    """A :class:`FairshareError` on its way out: one line on stderr, its exit code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        setattr(self, "exit_code", exit_code)  # noqa: B010 - a class variable in click

    def show(self, file: Any = None) -> None:
        from fairshare_cli.render.progress import end_progress_line

        end_progress_line()
        click.echo(f"fs: error: {one_line(self.format_message())}", err=True)


def _os_failure(exc: OSError) -> FsError:
    """The one line and exit code of an operating system error no reader turned into one
    of ours: a read of a closed standard input (``fs import condor-q - <&-``) is bad input
    (exit 2), anything else the output failing (exit 1)."""
    from fairshare_cli.errors import ClosedStdin

    if isinstance(exc, ClosedStdin):
        return FsError(f"cannot read -: {exc.strerror}", 2)
    if change_written():  # (an edit, import or cycle prints once its state is replaced)
        return FsError(f"{os_error_line(exc)} (the state was written first: the change is made)", 1)
    return FsError(os_error_line(exc), 1)


def os_error_line(exc: OSError) -> str:
    """An operating system error no reader turned into one of ours: writing the output
    (a full disk) unless it names a file."""
    where = exc.filename if exc.filename is not None else "writing the output"
    return f"{where}: {exc.strerror or exc}"


#: A quoted value of 200 characters or more in a message (not an apostrophe of prose: no
#: letter before the opening quote nor after the closing one).
_LONG_QUOTED = re.compile(r"""(?<!\w)(?:'[^']{200,}'|"[^"]{200,}")(?!\w)""")


def one_line(text: str) -> str:
    """An error message on one line: control characters in quoted user text as escapes,
    and a quoted value of 200 characters or more shortened (:func:`core.names.shown`: a
    5,000-digit ``--now`` was echoed whole).

    ``fs delete $'\\n'`` says ``'\\n'``, not a line break; a tab is ``\\t``. Messages of
    our own never span lines, so this only ever changes echoed user text.
    """
    if len(text) >= 200:
        text = _LONG_QUOTED.sub(_shortened, text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text.rstrip("\n"))


def _shortened(quoted: re.Match[str]) -> str:
    from fairshare_cli.core.names import shown

    mark = quoted.group(0)[0]
    return mark + shown(quoted.group(0)[1:-1]) + mark


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from fairshare_cli.cli.about import version_lines

    for line in version_lines():
        click.echo(line)
    ctx.exit()


def _create_dirs(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["fs.create_dirs"] = True


@click.group(
    cls=LazyGroup, context_settings={"help_option_names": ["--help"]}, epilog=EXAMPLES_NOTE
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show fs, Python, htcondor and classad versions, the active config and profile.",
)
@click.option("--debug", is_flag=True, help="Show the traceback of an error (before the command).")
@click.option(
    "--create-dirs",
    is_flag=True,
    expose_value=False,
    callback=_create_dirs,
    help="Create a missing state folder (anywhere on the line; else a missing one is an error).",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """fairshare-cli: fair-share scheduling as HTCondor, Slurm and DIRAC compute it.

    \b
    Examples:
      fs userprio --config sample_configs/pool.toml        # like condor_userprio
      fs userprio -allusers -all                           # condor_userprio's spellings
      fs userprio -setfactor ivan@example.org 2            # same as: fs setfactor ...
      fs sshare -a -l --config sample_configs/pool.toml    # like sshare -a -l

    'fairshare' is the same program as 'fs' (OpenAFS also installs an 'fs').
    'fs userprio' takes condor_userprio's single-dash options and prefixes
    (-allusers, -all, -usage, -priority, -hier, -flat, -l, -most) and its edits
    (-setfactor, -setprio, -setfloor, -setceiling, -setaccum, -setbegin, -setlast,
    -resetusage, -resetall, -delete). The docs (config keys, the job object, the state
    file, JSON fields, exit codes) are installed with fs: 'fs --version' shows where.
    """
    ctx.obj = {"debug": debug}
