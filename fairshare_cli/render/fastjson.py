"""What ``render/sprio_json.py`` still takes from the ``--json`` writer by this name.

The writer is :mod:`fairshare_cli.core.jsontext`; this module goes once sprio hands its rows
to :func:`~fairshare_cli.core.jsontext.dumps_rows` like every other view.
"""

from __future__ import annotations

from fairshare_cli.core.jsontext import dumps_indented as dumps_indented
from fairshare_cli.core.jsontext import dumps_ready as dumps_ready
from fairshare_cli.core.jsontext import dumps_rows as dumps_rows
from fairshare_cli.core.jsontext import plain_floats as plain_floats
from fairshare_cli.core.jsontext import prepared as prepared
