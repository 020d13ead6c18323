"""Read a job queue from a JSON file (``--jobs-file``)."""

from __future__ import annotations

import json
from pathlib import Path

from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.errors import InputError


def load_jobs_file(path: str) -> list[Job]:
    """Jobs from a JSON file holding a list of job objects (DESIGN §4).

    Raises:
        InputError: the file is missing, not JSON, not a list, or a job is malformed.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"jobs file {path}: cannot read it ({exc.strerror})") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"jobs file {path}: not valid JSON (line {exc.lineno}: {exc.msg})"
        ) from None
    if not isinstance(raw, list):
        raise InputError(f"jobs file {path}: expected a JSON list of job objects")
    return parse_jobs(raw, f"jobs file {path}")
