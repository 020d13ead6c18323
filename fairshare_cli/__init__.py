"""fairshare-cli: fair-share scheduling for HTCondor, Slurm and DIRAC, explained."""

from __future__ import annotations

__version__ = "0.1.0"
