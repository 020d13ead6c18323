"""Allow ``python -m fairshare_cli``."""

from __future__ import annotations

from fairshare_cli.cli.main import cli

if __name__ == "__main__":
    cli()
