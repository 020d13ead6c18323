"""``fs sprio --helpformat`` under ``priority.output_compat = "22.05"``: refused, as Slurm
22.05's sprio has no such option.

Before, it printed today's letters (``%n``, ``%o`` and ``%s`` among them) whatever the
config said. Slurm 22.05's ``src/sprio/opts.c`` lists no ``helpformat`` in its
``long_options`` (``OPT_LONG_HELPFORMAT`` and ``_help_format`` came in 23.02), so
getopt_long says ``unrecognized option '--helpformat'`` and sprio exits 1; fs says so in
one line, exit 2. Today's sprio prints the list as it reads the option (``_help_format``),
before looking at anything else, so fs needs no config for it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import CONFIG, common, refused, write_pool

LETTERS = (
    "%a    %A    %b    %B    %c    %f    %F    %i    \n"
    "%j    %J    %n    %N    %o    %p    %P    %r    \n"
    "%S    %q    %Q    %s    %u    %y    %Y    %t    \n"
    "%T    \n"
)


def test_sprio_helpformat_is_refused_under_22_05(tmp_path: Path, run: Callable[..., Any]) -> None:
    env = write_pool(tmp_path, CONFIG + '[priority]\noutput_compat = "22.05"\n')
    before = env["state"].read_bytes()
    result = run("sprio", "--helpformat", *common(env))
    refused(result, "No such option '--helpformat': Slurm 22.05's sprio has none")
    assert str(env["config"]) in result.stderr
    assert result.stdout == ""
    assert env["state"].read_bytes() == before


def test_sprio_helpformat_lists_todays_letters_with_todays_config(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """The default profile: the list, even beside ``-l -o``, which sprio would refuse
    after its options are read (``--helpformat`` ends it first)."""
    result = run("sprio", "-l", "-o", "%i", "--helpformat", *common(env))
    assert (result.exit_code, result.stdout, result.stderr) == (0, LETTERS, "")
