"""A guess at what an input file is, for the refusal of a file handed to the wrong import.

``fs import condor-config dirac.cfg`` is refused by the condor_config reader at its first
line; this module adds which import the file is for (``fs import dirac-cfg``), from the
first few kilobytes of it. It reads no format: each guess is one unmistakable mark of a
dump (a header line, an ad's ``MyType``, a JSON key only that tool writes), and a file
with none is no guess at all. A line starting ``$ `` (a pasted shell prompt) is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fairshare_cli.errors import FairshareError, InputError

#: How much of a file is looked at.
HEAD = 65536


@dataclass(frozen=True)
class Guess:
    """What a file looks like: ``what`` in words, and the imports that read it (none for
    fs's own files, where ``use`` says where the file goes instead)."""

    what: str
    kinds: tuple[str, ...] = ()
    use: str = ""

    def hint(self) -> str:
        """The words added to a refusal: ``it looks like X: fs import K reads it``."""
        if not self.kinds:
            return f"it looks like {self.what}: {self.use}"
        reads = " or ".join(f"fs import {kind}" for kind in self.kinds)
        return f"it looks like {self.what}: {reads} reads it"


_CONDOR_JOBS = ("condor-q", "condor-history")
STATE_FILE = Guess("fs's own state file", (), "give it as --state")
POOL_CONFIG = Guess("fs's own pool config", (), "give it as --config")
JOBS_FILE = Guess("a jobs file", (), "give it to fs submit --file, or as --jobs-file or --workload")
HISTORY_FILE = Guess("a usage history", ("history",))
SWEEP_SPEC = Guess("a sweep spec", (), "give it to fs sweep")
#: A pool config given as a sweep spec: the spec names it (fs sweep has no --config).
SPEC_POOL_CONFIG = Guess(
    "fs's own pool config", (), 'a sweep spec names it as config = "..." (docs/sweep.md)'
)
#: The tables sprio and squeue print, which no import reads: fs computes sprio's numbers,
#: and reads the queue from squeue's --json output or scontrol's.
_QUEUE_READ = "squeue --json or scontrol show jobs output"
SPRIO_TABLE = Guess(
    "sprio output",
    (),
    f"fs sprio computes it, from the queue fs import squeue reads ({_QUEUE_READ})",
)
SQUEUE_TABLE = Guess("squeue's table", (), f"fs import squeue reads {_QUEUE_READ} instead")
#: The usage history store beside a state (``state.history.sqlite``): fs opens it itself,
#: beside the state it keeps; no option takes it (it is no state, no history text).
STORE_FILE = Guess(
    "an SQLite database, such as the usage history fs keeps beside a state (STATE.history.sqlite)",
    (),
    "fs reads that one itself, beside the state given as --state (fs whatif replays it "
    "without --history)",
)
_M = re.M

#: A usage history's first line: a CSV header naming ``owner``, then after a comma
#: ``start`` (a word each, in any case), or a JSON line with ``"owner"`` then ``"start"``.
#: Told by :func:`_history_head` (a pattern with three ``[^\n]*`` took minutes on the
#: one 64 KB line of a jobs file written by ``json.dumps``). The other marks read a line
#: from its start with ``[ \t]*``, not ``\s*``, which tried each blank line again.
_HISTORY_HEAD = "usage history head"
_WORD_OWNER = re.compile(r"\bowner\b")
_WORD_START = re.compile(r"\bstart\b")


def _history_head(body: str) -> bool:
    """Whether ``body`` starts as a usage history does (:data:`_HISTORY_HEAD`), in one
    pass: the first ``owner``, the first comma after it, any ``start`` after that."""
    line = body[: body.find("\n")] if "\n" in body else body
    line = line.lower()
    if line.startswith("["):  # (a JSON list: a jobs file, whose jobs name an owner)
        return False
    if line.startswith("{"):
        owner = line.find('"owner"')
        return owner >= 0 and line.find('"start"', owner) >= 0
    found = _WORD_OWNER.search(line)
    comma = -1 if found is None else line.find(",", found.end())
    return comma >= 0 and _WORD_START.search(line, comma) is not None


#: Each mark (a pattern, its flags) and what it tells; the first that the head of a file
#: shows decides, so the order matters: a state file holds job objects, a ClassAd dump an
#: ``Owner``, a jobs file an ``"owner"``.
_TABLE: list[tuple[str, int, Guess]] = [
    (r"\ASQLite format 3\x00", 0, STORE_FILE),
    (r'"format"\s*:\s*"fairshare-cli state"', 0, STATE_FILE),
    # (a state whose "format" was edited away: its claims' "job_id" read as squeue's)
    (r'"schema_version"\s*:\s*\d+\s*[,}]', 0, STATE_FILE),
    (r"^\[(pool|accountant|negotiator|priority)\]\s*$|^\[\[machines\]\]", _M, POOL_CONFIG),
    (r'"MyType"\s*:\s*"Job"', 0, Guess("condor_q or condor_history -json output", _CONDOR_JOBS)),
    (r'"MyType"\s*:\s*"Machine"', 0, Guess("condor_status -json output", ("condor-status",))),
    (r'^MyType = "Job"', _M, Guess("condor_q or condor_history -long output", _CONDOR_JOBS)),
    (r'^MyType = "Machine"', _M, Guess("condor_status -long output", ("condor-status",))),
    (
        r'^MyType = "(Accounting|Negotiator)"|^(AccountingGroup|PriorityFactor)1 = ',
        _M,
        Guess("condor_userprio -l output", ("condor-userprio",)),
    ),
    (
        r"\ALast Priority Update:",
        0,
        Guess("condor_userprio's table (give its -l -allusers output)", ("condor-userprio",)),
    ),
    (r'"job_id"\s*:', 0, Guess("squeue --json output", ("squeue",))),
    (r'"shares"\s*:\s*[\[{]', 0, Guess("sshare --json output", ("sshare",))),
    (
        r"\ACurrent Association Manager state",
        0,
        Guess("scontrol show assoc_mgr output", ("scontrol-assoc",)),
    ),
    (r"\AJobId=\d", 0, Guess("scontrol show jobs output", ("squeue",))),
    (
        r"^[ \t]*JOBID[ \t]+PARTITION[ \t]+(?:USER[ \t]+)?(?:ACCOUNT[ \t]+)?PRIORITY\b",
        _M,
        SPRIO_TABLE,
    ),
    (r"^[ \t]*JOBID[ \t][^\n]*\b(?:ST|STATE|NODELIST)\b", _M, SQUEUE_TABLE),
    (
        r"^(ClusterName|SlurmctldHost|ControlMachine|SchedulerType|SelectType)\s*="
        r"|^Priority(Type|DecayHalfLife|CalcPeriod|MaxAge|Flags|Weight\w+)\s*="
        r"|^(PartitionName|NodeName)=\S|\AConfiguration data as of",
        _M,
        Guess("a slurm.conf", ("slurm-conf",)),
    ),
    (r"^[ \t]*Account[ |]+User[ |]+RawShares", _M, Guess("sshare output", ("sshare",))),
    (r"\A\s*JobID[ |]", 0, Guess("sacct output", ("sacct",))),
    (
        r"^[ \t]*(Cluster[ |]+Account|Name[ |]+Priority)[ |]",
        _M,
        Guess("sacctmgr output", ("sacctmgr",)),
    ),
    (
        r"\A# Configuration from machine:|^use\s+\w+\s*:"
        r"|^(RELEASE_DIR|CONDOR_HOST|DAEMON_LIST|LOCAL_CONFIG_FILE|GROUP_NAMES)\s*=",
        _M,
        Guess("a condor_config file", ("condor-config",)),
    ),
    (
        r"^[ \t]*(DIRAC|Registry|Operations|Systems|Resources)[ \t]*\n(?:[ \t]*\n)*[ \t]*\{",
        _M,
        Guess("a DIRAC configuration", ("dirac-cfg",)),
    ),
    (_HISTORY_HEAD, 0, HISTORY_FILE),
    (r'\A\s*\[\s*\{[^\]]*"owner"\s*:', 0, JOBS_FILE),
    (r"^\[\[axis\]\]", _M, SWEEP_SPEC),
]
_MARKS: list[tuple[Callable[[str], object], Guess]] = [
    (_history_head if pattern is _HISTORY_HEAD else re.compile(pattern, flags).search, guess)
    for pattern, flags, guess in _TABLE
]


def guess_text(text: str) -> Guess | None:
    """What ``text`` (the head of a file) looks like, or None when nothing tells."""
    lines = text.lstrip("\ufeff").splitlines()
    body = "\n".join(line for line in lines if not line.startswith("$ ")).lstrip("\n")
    for shows, guess in _MARKS:
        if shows(body):
            return guess
    return None


def guess_file(file: str) -> Guess | None:
    """What the regular file ``file`` looks like (None for ``-``, a folder, a device, a
    file that cannot be read or is not text: nothing is read twice from a stream)."""
    path = Path(file)
    try:  # (a name too long, a NUL in it: no guess, the refusal stays as it is)
        if file == "-" or not path.is_file():
            return None
        with path.open("rb") as handle:
            head = handle.read(HEAD)
    except (OSError, ValueError):
        return None
    return guess_text(head.decode("utf-8", errors="ignore"))


def _named_guess(file: str | None, message: str) -> Guess | None:
    """What ``file`` looks like, when ``message`` is a refusal of that file: one that names
    it as a word (``dump.txt:3: ...``, ``cannot read dump.txt: ...``), not one about an
    option of the same command line (``FAIRSHARE_NOW: expected epoch seconds ...``), where
    what the file is would be noise."""
    if file is None or not re.search(rf"(?<![^\s'\"(]){re.escape(file)}(?![^\s:;,)'\"])", message):
        return None
    return guess_file(file)


def wrong_file_hint(kind: str, file: str | None, message: str) -> str:
    """``message`` with what ``file`` looks like added, when the message refuses that file,
    the file is not ``kind``'s input and the message does not already say it; else
    ``message`` as it is."""
    guess = _named_guess(file, message)
    if guess is None or kind in guess.kinds:
        return message
    if any(f"fs import {k}" in message for k in guess.kinds):  # (said already)
        return message
    return f"{message}; {guess.hint()}"


@contextmanager
def jobs_file_refusals(file: str | None) -> Iterator[None]:
    """A refusal naming the jobs file ``file`` (``fs submit --file``, ``--jobs-file``,
    ``--workload``) raised inside, with what the file looks like added when that is not a
    jobs file: a usage history, a state or a dump handed over in its place is told where it
    goes, not only that it is not JSON or has an unknown job field ('accountant')."""
    with other_file_refusals(file, JOBS_FILE, InputError):
        yield


@contextmanager
def other_file_refusals(
    file: str | None, own: Guess, errors: type[FairshareError], pool_config: Guess = POOL_CONFIG
) -> Iterator[None]:
    """A refusal (of the class ``errors``) raised inside, as :func:`other_file` words it;
    a pool config told ``pool_config``'s use (a sweep spec names it: no ``--config``)."""
    try:
        yield
    except errors as exc:
        raise other_file(exc, file, own, pool_config=pool_config) from None


def other_file(
    exc: FairshareError,
    file: str | None,
    own: Guess,
    advice: str = "",
    pool_config: Guess = POOL_CONFIG,
) -> FairshareError:
    """The refusal ``exc`` with what ``file`` looks like added, when the refusal names the
    file and it looks like another file than ``own`` (what the option takes); in place of
    ``advice`` where the refusal ends with it (the state's "fix it or move it aside to start
    afresh", which would move a pool config given as --state out of the way). Else ``exc``
    itself."""
    text = str(exc)
    guess = _named_guess(file, text)
    if guess is None or guess is own:
        return exc
    if guess is POOL_CONFIG:
        guess = pool_config
    if advice and text.endswith(f"; {advice}"):
        text = text[: -len(advice) - 2]
    return type(exc)(f"{text}; {guess.hint()}")
