"""Default locations of the config and the state (platformdirs)."""

from __future__ import annotations

from pathlib import Path

APP = "fairshare"


def user_config_file() -> Path:
    """``<user_config_dir>/fairshare/config.toml``."""
    import platformdirs

    return platformdirs.user_config_path(APP, appauthor=False) / "config.toml"


def user_state_file() -> Path:
    """``<user_state_dir>/fairshare/state.json``."""
    import platformdirs

    return platformdirs.user_state_path(APP, appauthor=False) / "state.json"
