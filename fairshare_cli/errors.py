"""Errors that the command line turns into one clear line and an exit code."""

from __future__ import annotations


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


class RuntimeFailure(FairshareError):
    """Something went wrong while running (not the user's input)."""

    exit_code = 1
