"""A sweep's folder (``fs sweep --out DIR``): the manifest and one result file per point.

``DIR/sweep.json`` is the manifest: the spec with its paths made absolute and ``now``
fixed, and every point's overrides; whichever engine runs a point reads it there.
``DIR/points/NNNNNN.json`` is one point's result, written whole (atomically) when the point
is done, so a killed sweep leaves only finished points behind and a rerun skips them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairshare_cli.errors import InputError

MANIFEST = "sweep.json"
POINTS = "points"


class SweepDir:
    """The files of one sweep under ``path``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

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
        """Write point ``index``'s result whole (atomically)."""
        self._write(self.point_path(index), result, "sweep result")

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
        if not isinstance(found, dict) or found.get("index") != index:
            return None
        return found

    def done(self, count: int) -> dict[int, dict[str, Any]]:
        """The results already there, by index."""
        out = {}
        for index in range(count):
            found = self.read_point(index)
            if found is not None:
                out[index] = found
        return out

    @staticmethod
    def _write(path: Path, value: Any, what: str) -> None:
        from fairshare_cli.core.jsontext import dumps_indented
        from fairshare_cli.io.atomic import atomic_write_text

        atomic_write_text(path, dumps_indented(value) + "\n", what, mode=0o644)

    @staticmethod
    def _read(path: Path, what: str) -> Any:
        from fairshare_cli.io.inputs import JSONFault, read_json

        try:
            return read_json(str(path))
        except JSONFault as exc:
            raise InputError(f"{what} {path} is not valid JSON ({exc.reason})") from None
