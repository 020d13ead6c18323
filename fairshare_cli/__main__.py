"""Allow ``python -m fairshare_cli``."""

from __future__ import annotations

if __name__ == "__main__":
    from fairshare_cli.cli.entry import main

    main()
