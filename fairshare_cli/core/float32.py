"""IEEE single-precision rounding, as a C ``float`` or a MySQL ``FLOAT`` column stores it."""

from __future__ import annotations

import math
import struct

#: The largest finite single-precision value.
FLT_MAX = 3.4028234663852886e38
_FLOAT32 = struct.Struct("<f")


def float32(value: float) -> float:
    """``value`` rounded to IEEE single precision and widened back to a Python float.

    HTCondor keeps ranks and ``RemoteUserPrio`` in C ``float`` variables; DIRAC's task
    queue priorities live in MySQL ``FLOAT`` columns. A magnitude above ``FLT_MAX`` becomes
    an infinity of the same sign; NaN stays NaN.
    """
    if abs(value) > FLT_MAX:
        return math.copysign(math.inf, value)
    return float(_FLOAT32.unpack(_FLOAT32.pack(value))[0])
