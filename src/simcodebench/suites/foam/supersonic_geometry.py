"""Drawn geometries of the supersonic foam families: the wedge's angle and the forward step's height.

Each function turns the drawn numbers into the published ``blockMeshDict`` with new vertices and cell counts,
keeping the tutorial's block layout and its cells' size (so the oracle's time step and Courant limit stay
stable), and returns the numbers the problem text states.

- Wedge (wedge15Ma5's two blocks: x from -0.15242 to 0 m in front of the wedge, then the ramp to x = 0.3048 m):
  the ramp rises at the drawn angle theta. The ramp's oblique shock must stay attached and leave through the
  outlet, below the top (a symmetry plane that would reflect it): theta must lie below the largest turn an
  attached shock gives at the slowest inflow of the family (:data:`WEDGE_MACH_FLOOR`, the detachment angle),
  and the top is set :data:`TOP_MARGIN` above the height at which that slowest inflow's shock (the steepest of
  the family: the weak shock's angle falls as the Mach number rises) reaches the outlet, rounded up to a
  millimetre. The cells in y keep the tutorial's height, 0.1524 / 20 m, at the inlet.
- Forward step (the tutorial's three blocks, the step's face at x = 0.6 m in a 3 m x 1 m channel): the step
  has the drawn height; the cells keep the tutorial's 0.05 m in y below and above the step's top (rounded to
  whole cells, at least two under the step).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simcodebench.suites.foam import block_mesh
from simcodebench.suites.foam import gas_dynamics as gas

WEDGE_INLET_X, WEDGE_LENGTH = -0.15242, 0.3048
"""The wedge domain's inlet and the ramp's length, m (the tutorial's; the ramp starts at x = 0)."""
WEDGE_CELL = 0.1524 / 20
WEDGE_MACH_FLOOR = 4.0
"""The slowest inflow (Mach number) of the wedge family: its shock is the steepest one."""
TOP_MARGIN = 1.05
WEDGE_X_CELLS = (20, 40)
STEP_X, STEP_LENGTH, STEP_CELL = 0.6, 3.0, 0.05
STEP_X_CELLS = (12, 12, 48)


@dataclass(frozen=True)
class WedgeGeometry:
    """The wedge's ramp end height, the domain's top and the cells in y (m; heights at the ramp's end)."""

    theta_deg: float
    ramp_y: float
    top_y: float
    ny: int


def wedge_geometry(theta_deg: float) -> WedgeGeometry:
    """The domain for a ramp at ``theta_deg``: its end height, the top above the steepest shock, the cells in y.

    Raises ValueError when the ramp would detach the shock of the family's slowest inflow.
    """
    theta = math.radians(theta_deg)
    detach = gas.max_deflection(WEDGE_MACH_FLOOR)[0]
    if not 0.0 < theta < detach:
        raise ValueError(
            f"a {theta_deg:g}-degree wedge detaches the shock at Mach {WEDGE_MACH_FLOOR:g} "
            f"(largest attached turn {math.degrees(detach):.2f} degrees)"
        )
    shock_exit = WEDGE_LENGTH * math.tan(gas.shock_angle(WEDGE_MACH_FLOOR, theta))
    top = math.ceil(TOP_MARGIN * shock_exit * 1000.0) / 1000.0
    return WedgeGeometry(theta_deg, round(WEDGE_LENGTH * math.tan(theta), 5), top, round(top / WEDGE_CELL))


def wedge_mesh(published: str, geometry: WedgeGeometry) -> str:
    """The published wedge ``blockMeshDict`` with the ramp, the top and the cells of ``geometry``."""
    x0, x1, top = WEDGE_INLET_X, WEDGE_LENGTH, geometry.top_y
    plane = [(x0, 0.0), (0.0, 0.0), (x1, geometry.ramp_y), (x0, top), (0.0, top), (x1, top)]
    mesh = block_mesh.set_plane(published, plane)
    return block_mesh.set_cells(mesh, [(nx, geometry.ny) for nx in WEDGE_X_CELLS])


def ramp_angle(mesh: str) -> float:
    """The wedge's angle (radians) as a ``blockMeshDict`` builds it: the ramp from vertex 1 to vertex 2."""
    points = block_mesh.vertices(mesh)
    (xa, ya), (xb, yb) = points[1, :2], points[2, :2]
    return math.atan2(yb - ya, xb - xa)


def step_cells(height: float) -> tuple[int, int]:
    """The cells in y below and above the step's top, each about :data:`STEP_CELL` tall."""
    return max(2, round(height / STEP_CELL)), round((1.0 - height) / STEP_CELL)


def step_mesh(published: str, height: float) -> str:
    """The published forwardStep ``blockMeshDict`` with a step of ``height`` m and cells to match."""
    x0, x1, top = 0.0, STEP_X, 1.0
    plane = [(x0, 0.0), (x1, 0.0), (x0, height), (x1, height), (STEP_LENGTH, height), (x0, top), (x1, top)]
    plane.append((STEP_LENGTH, top))
    low, high = step_cells(height)
    mesh = block_mesh.set_plane(published, plane)
    return block_mesh.set_cells(mesh, [(STEP_X_CELLS[0], low), (STEP_X_CELLS[1], high), (STEP_X_CELLS[2], high)])


def step_height(mesh: str) -> float:
    """The step's height (m) as a forwardStep ``blockMeshDict`` builds it: vertex 3, the face's top."""
    return float(block_mesh.vertices(mesh)[3, 1] * block_mesh.scale(mesh))
