"""Errors that the command line turns into one clear line and an exit code."""

from __future__ import annotations

from collections.abc import Iterable


class FairshareError(Exception):
    """An expected failure; the message says what is wrong and how to fix it.

    ``exit_code`` is 2 for bad usage, config, state or input files, 1 for runtime failures.
    """

    exit_code = 2


class ConfigError(FairshareError):
    """The pool config is missing, unreadable or invalid."""


class StateError(FairshareError):
    """The state file is corrupt, foreign, of a newer schema, or locked."""


class InputError(FairshareError):
    """An input file (jobs, history, dumps) or a value on the command line is invalid."""


class UnreadableInput(InputError):
    """An input file that cannot be read as text at all (a folder, a missing file, a
    device, bytes that are not UTF-8): ``fs import`` adds what its kind reads."""


class EmptyInput(InputError):
    """An input file with nothing in it at all (no line but blank ones): a usage history is
    no records, unless ``--rebuild`` would forget all usage for it."""


class RuntimeFailure(FairshareError):
    """Something went wrong while running (not the user's input)."""

    exit_code = 1


class ClosedStdin(OSError):
    """A read of the standard input that fs was started without (``fs ... - <&-``)."""

    def __init__(self) -> None:
        import errno

        super().__init__(errno.EBADF, "standard input is closed")


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known`` to ``word``, or ``""``.

    The one suggestion every "unknown key/field/name" message appends: a name ``word``
    spells but for case (``QOS`` for ``qos``, ``OWNER`` for ``owner``), else ``difflib``'s
    closest (its default cut-off of 0.6, which case counts against).
    """
    names = list(known)
    same = same_but_case(word, names)
    if same is not None:
        return f" (did you mean '{same}'?)"
    import difflib  # only on the error path

    hint = difflib.get_close_matches(word, names, n=1)
    return f" (did you mean '{hint[0]}'?)" if hint else ""


def same_but_case(word: str, known: Iterable[str]) -> str | None:
    """The first of ``known`` that is ``word`` spelt in other case, or None."""
    folded = word.casefold()
    return next((name for name in known if name.casefold() == folded), None)


def decoder_fault(exc: BaseException, text: str | None = None) -> str:
    """What a JSON or TOML decoder's ``exc`` says is wrong, in our words where Python's
    own speak of its internals: ``nested too deep`` (Python's recursion limit), ``a whole number
    too long`` (more than 4,300 digits, which ``int()`` refuses: Python's message advises
    ``sys.set_int_max_str_digits()``; with the ``text`` decoded, the line of the first),
    else the decoder's own message."""
    if "maximum recursion depth" in str(exc):  # (tomli words its own limit: kept)
        return "nested too deep"
    if "integer string conversion" in str(exc):
        import re  # only on the error path

        found = re.search(r"\d{4301}", text or "")
        return "a whole number too long" + (
            f" at line {text.count(chr(10), 0, found.start()) + 1}" if text and found else ""
        )
    return _toml_twice(str(exc), text)


def _toml_twice(message: str, text: str | None) -> str:
    """tomli's words for a table or key given twice, with what is given twice named as the
    file writes it: ``Cannot declare ('accountant',) twice`` (a Python tuple) is ``the
    table [accountant] is declared twice``, ``Cannot overwrite a value`` names the key of
    its line. Any other message as it is."""
    import ast  # only on the error path
    import re

    declared = re.fullmatch(r"Cannot declare (\(.*\)) twice( \(at line \d+, column \d+\))", message)
    if declared is not None:
        try:
            parts = ast.literal_eval(declared[1])
            name = ".".join(p if re.fullmatch(r"[\w-]+", p, re.A) else f'"{p}"' for p in parts)
        except (ValueError, SyntaxError, TypeError):
            return message
        return f"the table [{name}] is declared twice{declared[2]}; give each table once"
    over = re.fullmatch(r"Cannot overwrite a value( \(at line (\d+), column \d+\))", message)
    if over is None or text is None:
        return message
    lines = text.splitlines()
    number = int(over[2])
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    key = line.split("=", 1)[0].strip() if "=" in line else ""
    if not key:
        return message
    return f"the key {key} is given twice in its table{over[1]}; give each key once"
