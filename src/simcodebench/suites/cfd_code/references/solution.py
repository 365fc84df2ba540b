"""The value every reference generator returns: final-time fields on a grid, with the grid and the method."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Solution:
    """Final-time fields of one problem.

    ``coords`` holds the 1-D grid arrays in axis order (for a 2-D field ``f``, ``f[i, j]`` is the value at
    ``(coords[axes[0]][i], coords[axes[1]][j])``); ``fields`` the named arrays; ``method`` one line on how they
    were computed.
    """

    coords: dict[str, np.ndarray]
    fields: dict[str, np.ndarray]
    method: str
    meta: dict[str, float] = field(default_factory=dict)
