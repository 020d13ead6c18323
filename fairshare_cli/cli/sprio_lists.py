"""sprio's ``-j``, ``-u`` and ``-p`` lists, read as sprio's ``src/sprio/opts.c`` reads them.

Each list is cut at commas with ``strtok_r``, which skips empty items (``2,,3`` is ``2,3``;
``''`` is a list of none). A list given is a filter even when it names nothing
(``filter.c``'s ``_filter_job``; 22.05's slurmctld alike): ``-p ''`` lists no row. A bad
job id ends sprio (``Invalid job id: x``, exit 1); a user the system does not know is
named (``Invalid user: x``) and left out of the list; partition names are not checked.
"""

from __future__ import annotations

import re

from fairshare_cli.core.names import escaped, shown
from fairshare_cli.errors import InputError

#: C's ``LONG_MAX`` (``strtol``'s range on a 64-bit system).
_LONG_MAX = 2**63 - 1
#: ``MAX_FED_JOB_ID`` (``NO_VAL - 1``): the first job id ``unfmt_job_id_string`` refuses.
_MAX_FED_JOB_ID = 0xFFFFFFFD
#: ``SLURM_MAX_NORMAL_STEP_ID``: the first step number it refuses.
_MAX_STEP_ID = 0xFFFFFFF0
#: ``MAX_HET_JOB_COMPONENTS``.
_MAX_HET = 128
#: The step names ``_unfmt_step_id_str`` takes for a number (a prefix, any case).
_STEP_NAMES = ("tbd", "extern", "batch", "interactive")
#: ``cb32map``: the letters of a SLUID (``str2sluid``), with ``O``, ``I``, ``L`` aliases.
_SLUID_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWXYZOIL"
_STRTOL = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)")


def items(text: str) -> list[str]:
    """The items of a comma-separated list as ``strtok_r(str, ",")`` gives them."""
    return [item for item in text.split(",") if item]


def _strtol(text: str) -> tuple[int, str] | None:
    """C's ``strtol(text, &end, 10)``: the value (clamped to ``long``) and the text after
    it; None when no digit is read (``end == text``)."""
    match = _STRTOL.match(text)
    if match is None:
        return None
    digits = match.group(2).lstrip("0") or "0"
    # (more than 19 digits is beyond long, clamped as strtol does, without reading them)
    magnitude = int(digits) if len(digits) <= 19 else _LONG_MAX + 1
    value = magnitude * (-1 if match.group(1) == "-" else 1)
    return max(-_LONG_MAX - 1, min(_LONG_MAX, value)), text[match.end() :]


class _Invalid(Exception):
    """A job id ``unfmt_job_id_string`` (or 22.05's ``slurm_xlate_job_id``) refuses."""


def _step(text: str) -> tuple[int | None, str]:
    """``_unfmt_step_id_str``: the step number (None for a step name) and what follows."""
    read = _strtol(text)
    if read is None:
        name = next((n for n in _STEP_NAMES if text[: len(n)].lower() == n), None)
        if name is None:
            raise _Invalid
        return None, text[len(name) :]
    step, rest = read
    if not 0 <= step < _MAX_STEP_ID:
        raise _Invalid
    return step, rest


def _suffix(rest: str, limit_low: int, limit_high: int) -> tuple[int, str]:
    """A number after ``_`` or ``+`` within [low, high], and what follows it."""
    read = _strtol(rest)
    if read is None or not limit_low <= read[0] <= limit_high:
        raise _Invalid
    return read


def _sluid_valid(token: str) -> bool:
    """Whether ``unfmt_job_id_string`` takes ``token`` (``s`` first) as a SLUID."""
    head, dot, step = token[:14], token[14:15], token[15:]
    if (dot and dot != ".") or len(head) != 14:
        return False
    letters = head[1:].upper()
    if not letters.isascii() or any(c not in _SLUID_LETTERS for c in letters):
        return False  # (a letter outside the map)
    if not _sluid(token):
        return False  # (the SLUID 0: all 0, or a first letter whose 5th bit is lost)
    if dot:
        _number, after = _step(step) if step else (None, "x")
        return after == ""
    return True


def _current_key(token: str) -> str | int:
    """The job ``token`` names as ``unfmt_job_id_string`` reads it (Slurm 23.02 on): its
    job id (plus a ``+N`` component's offset; ``N_M`` is job ``N``, as the filter compares
    job ids alone), ``N.M`` for a numbered step (fs's ids of a cluster's jobs); for a SLUID
    (``s...``, its step ignored as ``_list_find_job_id`` ignores it), its value
    (``str2sluid``: ``s805m8hp6bjp00`` and ``s805M8HP6BJPOO`` are ``s805M8HP6BJP00``).

    Raises:
        _Invalid: a token it refuses.
    """
    if token.startswith("s"):
        if _sluid_valid(token):
            return _sluid(token)
        raise _Invalid
    read = _strtol(token)
    if read is None or not 0 < read[0] < _MAX_FED_JOB_ID:
        raise _Invalid
    job, rest = read
    array = het = None
    if rest.startswith("_"):
        array, rest = _suffix(rest[1:], 0, _LONG_MAX - 1)
    if rest.startswith("+"):
        if array is not None or rest == "+":
            raise _Invalid
        het, rest = _suffix(rest[1:], 0, _MAX_HET)
        if rest.startswith("_"):
            raise _Invalid
    key = str(job + (het or 0))
    if rest == "":
        return key
    if not rest.startswith(".") or rest == ".":
        raise _Invalid
    step, rest = _step(rest[1:])
    if rest and (rest[0] != "+" or het is not None):
        raise _Invalid
    if rest not in ("", "+") and _suffix(rest[1:], 1, _MAX_HET - 1)[1]:
        raise _Invalid  # (a step's component: 1 to 127, then nothing)
    plain = step is None or array is not None or het is not None
    return key if plain else f"{key}.{step}"


def _key_2205(token: str) -> str:
    """The job ``token`` names as Slurm 22.05's ``slurm_xlate_job_id`` reads it: the number
    as a ``uint32_t``, ``+N`` adding a component's offset, then taken as an ``int`` that
    must be positive (``99999999999`` is job 1215752191); ``N_M`` is job ``N`` (22.05 asked
    slurmctld for the task's own id: not modelled); ``N.M`` is fs's id of a cluster's job.

    Raises:
        _Invalid: a token it refuses.
    """
    read = _strtol(token)
    if read is None:
        raise _Invalid
    value, rest = read
    step = ""
    if rest.startswith("_"):
        _task, rest = _suffix(rest[1:], -_LONG_MAX - 1, _LONG_MAX)
    elif rest.startswith("+"):  # (no digit after it reads as 0)
        comp, rest = _strtol(rest[1:]) or (0, rest[1:])
        value = value % 2**32 + comp % 2**16  # ((uint16_t) strtol(...))
    elif re.fullmatch(r"\.[0-9]+", rest):
        step, rest = rest, ""
    if rest:
        raise _Invalid
    job = value % 2**32
    if job == 0 or job >= 2**31:  # (int) of the uint32_t: <= 0
        raise _Invalid
    return f"{job}{step}"


def job_keys(text: str, compat: str) -> list[str | int]:
    """The jobs ``-j text`` names, each as :func:`selected_rows` matches it (an int: a
    SLUID's value, Slurm 25.11 on; 22.05 takes none).

    Raises:
        InputError: ``Invalid job id: x``, sprio's words for the first it refuses.
    """
    keys: list[str | int] = []
    for token in items(text):
        try:
            keys.append(_key_2205(token) if compat == "22.05" else _current_key(token))
        except _Invalid:
            raise InputError(f"Invalid job id: {escaped(shown(token))}") from None
    return keys


def printed_job_ids(text: str, compat: str) -> list[int]:
    """The numbers ``sprio -vv`` prints for the jobs ``-j text`` names (``_print_options``'
    ``job_list[i] = %u``, of a list :func:`job_keys` has taken): the first ``uint32_t`` of
    each item. Slurm 22.05's items are the ``uint32_t`` job ids ``slurm_xlate_job_id``
    gave (fs's own ``5.1``: its job 5). Today's (Slurm 25.11 on) are ``slurm_step_id_t``
    records whose first field is the 64-bit SLUID: on a little-endian host its low word,
    0 for a job given by number, the SLUID's last 32 bits for one given as ``s...``."""
    numbers: list[int] = []
    for token in items(text):
        if compat == "22.05":
            numbers.append(int(_key_2205(token).partition(".")[0]))
        elif token.startswith("s"):
            numbers.append(_sluid(token) % 2**32)
        else:
            numbers.append(0)
    return numbers


def _sluid(token: str) -> int:
    """``str2sluid`` of a SLUID :func:`_sluid_valid` took: 13 letters of 5 bits, the first
    the highest (its top bit past 64 lost)."""
    value = 0
    for letter in token[1:14].upper():
        digit = _SLUID_LETTERS.index(letter)
        value = (value << 5) | (digit if digit < 32 else (0 if letter == "O" else 1))
    return value % 2**64


def user_names(text: str, known: set[str], compat: str) -> tuple[list[str], list[str]]:
    """The users ``-u text`` names that fs knows (an association or a job of theirs) and
    sprio's words for each other one, as ``_build_user_list`` leaves out a name
    ``uid_from_string`` refuses (``Invalid user: x``): a name it or the host's passwd
    file knows, else a uid
    (:func:`uid_name`) the host's passwd file names, the user of that name; from Slurm
    25.11 on ``nobody`` is refused (``SLURM_AUTH_NOBODY``), whoever it is."""
    users: list[str] = []
    unknown: list[str] = []
    for name in items(text):
        owner = uid_name(name, compat)
        named = name in known or _host_user(name)  # (root: no jobs here, and no warning)
        if compat != "22.05" and name == "nobody":
            owner = None
        elif named:
            owner = name
        if owner is None or (owner == name and not named):
            unknown.append(f"Invalid user: {escaped(shown(name))}")
        else:
            users.append(owner)
    return users, unknown


def _host_user(name: str) -> bool:
    """Whether the host's passwd file has ``name`` (``uid_from_string``'s first try)."""
    try:
        import pwd

        pwd.getpwnam(name)
    except (KeyError, ImportError, ValueError):  # no entry; not POSIX; a NUL in the name
        return False
    return True


def uid_name(name: str, compat: str) -> str | None:
    """Where ``name`` is a uid as ``uid_from_string`` reads one (``strtol`` of it all,
    0 to ``UINT32_MAX``; 22.05: ``INT_MAX``), the host's passwd name of that uid (None
    without one); else ``name`` itself."""
    read = _strtol(name)
    if read is None or read[1] != "":
        return name
    uid = read[0]
    if not 0 <= uid <= (2**31 - 1 if compat == "22.05" else 2**32 - 1):
        return name
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (KeyError, ImportError, OverflowError):  # no entry; not POSIX
        return None
