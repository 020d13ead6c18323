"""A sweep's folder (``fs sweep --out DIR``): the manifest and one result file per point.

``DIR/sweep.json`` is the manifest: the spec with its paths made absolute and ``now``
fixed, and every point's overrides; whichever engine runs a point reads it there.
``DIR/points/NNNNNN.json`` is one point's result, written whole (atomically) when the point
is done, so a killed sweep leaves only finished points behind and a rerun skips them.
``DIR/points/NNNNNN.error`` says why a point failed (its one line and exit code), until a
rerun of the point writes its result.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
from pathlib import Path
from typing import Any

from fairshare_cli.core.names import json_shown
from fairshare_cli.errors import InputError

MANIFEST = "sweep.json"
POINTS = "points"


class SweepDir:
    """The files of one sweep under ``path``.

    Raises:
        InputError: a name too long for the file system (or behind a folder this user may
            not search): one short line, exit 2 (it was the last resort's, exit 1).
    """

    def __init__(self, path: str | Path) -> None:
        from fairshare_cli.io.atomic import is_link

        self.path = Path(path)
        is_link(self.path)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def point_path(self, index: int) -> Path:
        """Where point ``index``'s result is written."""
        return self.path / POINTS / f"{index:06d}.json"

    def read_manifest(self) -> dict[str, Any] | None:
        """The manifest, or None when there is none yet.

        Raises:
            InputError: it is there but unreadable or not a sweep's.
        """
        if not self.manifest_path.exists():
            return None
        found = self._read(self.manifest_path, "sweep manifest")
        if not isinstance(found, dict) or "spec" not in found or "points" not in found:
            raise InputError(f"{self.manifest_path}: not an fs sweep manifest")
        problem = _manifest_problem(found)
        if problem:
            raise InputError(f"{self.manifest_path}: not an fs sweep manifest ({problem})")
        return found

    def manifest(self) -> dict[str, Any]:
        """The manifest, which must be there.

        Raises:
            InputError: no manifest (not a sweep folder), or unreadable.
        """
        found = self.read_manifest()
        if found is None:
            raise InputError(
                f"{self.path}: no {MANIFEST}; run 'fs sweep SPEC --out {self.path}' first"
            )
        return found

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Write the manifest whole (atomically)."""
        self._write(self.manifest_path, manifest, "sweep manifest")

    def write_point(self, index: int, result: dict[str, Any]) -> None:
        """Write point ``index``'s result whole (atomically); a failure said before goes."""
        self._write(self.point_path(index), result, "sweep result")
        with contextlib.suppress(OSError):
            self.failure_path(index).unlink()

    def failure_path(self, index: int) -> Path:
        """Where why point ``index`` failed is written."""
        return self.path / POINTS / f"{index:06d}.error"

    def write_failure(self, index: int, point: dict[str, Any], error: str, code: int) -> None:
        """Say why point ``index`` (of keys ``point``) failed: its message and exit code, for
        ``fs sweep collect``; a folder that cannot take it is left as it is (the point's
        own error is the one to tell)."""
        from fairshare_cli.errors import FairshareError

        found = {"index": index, "point": point, "error": error, "exit_code": code}
        with contextlib.suppress(FairshareError):
            self._write(self.failure_path(index), found, "sweep point failure")

    def failures(self, points: list[Any], done: dict[int, Any]) -> dict[int, dict[str, Any]]:
        """Why the manifest's ``points`` without a result in ``done`` failed, by index (a
        record that is not one fs wrote for that point counts as none)."""
        out = {}
        for index, point in enumerate(points):
            path = self.failure_path(index)
            if index in done or not path.exists():
                continue
            with contextlib.suppress(InputError):
                found = self._read(path, "sweep point failure")
                if (
                    isinstance(found, dict)
                    and _same_json(found.get("index"), index)
                    and _same_json(found.get("point"), point)
                    and isinstance(found.get("error"), str)
                    and type(found.get("exit_code")) is int
                    and found["exit_code"] in (1, 2)
                ):
                    out[index] = found
        return out

    def remove_results(self) -> None:
        """Remove every point's result file (``points/NNNNNN.json``) and failure record
        (``.error``), and nothing else: the sweep in the folder starts afresh
        (``fs sweep --restart``).

        Raises:
            RuntimeFailure: a result file cannot be removed (named); the manifest is kept.
        """
        from fairshare_cli.errors import RuntimeFailure

        folder = self.path / POINTS
        if not folder.is_dir():
            return
        found = [*folder.glob("[0-9]" * 6 + ".json"), *folder.glob("[0-9]" * 6 + ".error")]
        for path in sorted(found):
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise RuntimeFailure(f"cannot remove sweep result {path}: {exc.strerror}") from None

    def read_point(self, index: int) -> dict[str, Any] | None:
        """Point ``index``'s result, or None when it is not (validly) there: an unreadable
        file counts as not done, and the point runs again."""
        path = self.point_path(index)
        if not path.exists():
            return None
        try:
            found = self._read(path, "sweep result")
        except InputError:
            return None
        if isinstance(found, dict) and _same_json(found.get("index"), index) and _result_ok(found):
            return found
        return None

    def done(self, points: list[Any]) -> dict[int, dict[str, Any]]:
        """The results already there of the manifest's ``points``, by index (a result of
        another point, another sweep's, is not one)."""
        out = {}
        for index, point in enumerate(points):
            found = self.read_point(index)
            if found is not None and _same_json(found.get("point"), point):
                out[index] = found
        return out

    @staticmethod
    def _write(path: Path, value: Any, what: str) -> None:
        from fairshare_cli.core.jsontext import dumps_indented
        from fairshare_cli.io.atomic import atomic_write_text

        atomic_write_text(path, dumps_indented(value) + "\n", what, mode=0o644)

    @staticmethod
    def _read(path: Path, what: str) -> Any:
        """The JSON document of a file fs wrote there (a named pipe in its place made
        ``fs sweep collect`` wait for ever for a writer).

        Raises:
            InputError: not a regular file, unreadable or not JSON.
        """
        from fairshare_cli.io.inputs import JSONFault, read_json

        with contextlib.suppress(OSError):  # (missing or unreadable: the read names it)
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise InputError(
                    f"{what} {path} is not a regular file (a pipe, a device or a folder); "
                    "move it aside"
                )
        try:
            return read_json(str(path))
        except JSONFault as exc:
            raise InputError(f"{what} {path} is not valid JSON ({exc.reason})") from None


def _manifest_problem(manifest: dict[str, Any]) -> str | None:
    """What makes ``manifest`` no sweep's that ``fs sweep`` wrote, or None."""
    points, spec = manifest["points"], manifest["spec"]
    axes = spec.get("axes") if isinstance(spec, dict) else None
    if not isinstance(points, list) or not all(isinstance(p, dict) for p in points):
        return '"points": expected a list of objects'
    if not isinstance(axes, list) or not all(
        isinstance(a, dict) and isinstance(a.get("key"), str) and isinstance(a.get("values"), list)
        for a in axes
    ):
        return '"spec.axes": expected a list of objects with a "key" and "values"'
    # (one set per axis: a scan of its values for each point took 10 s for 10,000 points)
    values = {a["key"]: set(map(_json_key, a["values"])) for a in axes}
    if not all(k in values and _json_key(v) in values[k] for p in points for k, v in p.items()):
        return '"points": a point sets a key or a value no axis has'
    problem = _spec_problem(spec)
    if problem:
        return problem
    base = manifest.get("base_index")
    if base is not None and (type(base) is not int or not 0 <= base < len(points)):
        return f'"base_index": expected the index of a point, got {base!r}'
    return None


#: What each key of a manifest's spec holds, as ``fs sweep`` writes it
#: (cli/sweep_point.py): the types, and whether None may stand for it.
_SPEC_TYPES: dict[str, tuple[tuple[type, ...], bool, str]] = {
    "config": ((str,), False, "an absolute path"),
    "state": ((str,), False, "an absolute path"),
    "history": ((str,), True, "an absolute path or null"),
    "workload": ((str,), True, "an absolute path or null"),
    "now": ((int, float), False, "a time in seconds"),
    "until": ((str,), False, "a duration string"),
    "cycle": ((str,), True, "a duration string or null"),
    "scheduler": ((str,), False, "htcondor or slurm"),
    "backfill": ((bool,), False, "true or false"),
    "mode": ((str,), False, "product or zip"),
}


def _spec_problem(spec: dict[str, Any]) -> str | None:
    """What makes a manifest's ``spec`` (its axes already checked) not one ``fs sweep``
    wrote, or None: a point run from it read ``until = 0`` or ``now = "x"`` as it was."""
    from fairshare_cli.core.sweep.spec import MODES, SCHEDULERS

    for key, (types, nullable, what) in _SPEC_TYPES.items():
        value = spec.get(key)
        if value is None and nullable:
            continue
        if (
            type(value) not in types
            or (isinstance(value, float) and not math.isfinite(value))
            or ("path" in what and not os.path.isabs(str(value)))  # (fs writes them resolved)
        ):
            return f'"spec.{key}": expected {what}, got {json_shown(value)}'
    for key, allowed in (("scheduler", SCHEDULERS), ("mode", MODES)):
        if spec[key] not in allowed:
            return f'"spec.{key}": expected {" or ".join(allowed)}, got {spec[key]!r}'
    return None


def _same_json(left: Any, right: Any) -> bool:
    """Whether two JSON values are the same value of the same kind (``==`` has
    ``true == 1 == 1.0``, so a result marked ``"index": true`` counted as point 1's)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, list):
        return len(left) == len(right) and all(map(_same_json, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(_same_json(v, right[k]) for k, v in left.items())
    return bool(left == right)


def _json_key(value: Any) -> Any:
    """``value`` as a key that two JSON values share when :func:`_same_json` finds them the
    same: its kind beside it (``true``, ``1`` and ``1.0`` are three)."""
    if isinstance(value, list):
        return list, tuple(map(_json_key, value))
    if isinstance(value, dict):
        return dict, frozenset((k, _json_key(v)) for k, v in value.items())
    return type(value), value


def _result_ok(result: dict[str, Any]) -> bool:
    """Whether a point's result is one ``fs sweep`` wrote (docs/sweep.md): finite numbers,
    whole ones where it counts, a series of one value per time; else the point is not done."""
    from fairshare_cli.core.operations.sweep import METRICS

    series, groups = result.get("series"), result.get("groups")
    if not (isinstance(series, dict) and isinstance(groups, list) and _finite(result)):
        return False
    times, slots = series.get("time"), series.get("slots")
    if not (isinstance(times, list) and isinstance(slots, dict)):
        return False
    if not all(isinstance(v, list) and len(v) == len(times) for v in slots.values()):
        return False
    metrics_ok = all(result.get(m) is None or type(result.get(m)) in (int, float) for m in METRICS)
    counts_ok = type(result.get("jobs_finished", 0)) is int and all(
        isinstance(g, dict) and isinstance(g.get("name"), str)
        and type(g.get("jobs_started", 0)) is int
        for g in groups
    )  # fmt: skip
    return metrics_ok and counts_ok


def _finite(value: Any) -> bool:
    """Whether every number in ``value`` (JSON) is finite and within a float."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int):
        return abs(value) < 2**1023
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True
