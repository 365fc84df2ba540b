"""Fresh foam geometry: the wedge's angle, the forward step's height and the dam break's obstacle are drawn, and
the problem text states the very vertices and cell counts the oracle's ``blockMeshDict`` builds; the wedge's
domain follows from the shock relations (checked against textbook values and the cubic form of theta-beta-M);
the blockMeshDict edits keep the two planes and each block's cells in z."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import FreshDraw
from simcodebench.suites.foam import block_mesh, fresh
from simcodebench.suites.foam import gas_dynamics as gas
from simcodebench.suites.foam import supersonic_geometry as geometry
from simcodebench.suites.foam.fresh_dambreak import CELL_X, CELL_Y

MESH = "oracle/system/blockMeshDict"


def _draw(case_id: str, seed: int = 11) -> FreshDraw:
    draw = fresh.fresh_draw(get_case("foam", case_id), np.random.default_rng(seed))
    assert draw is not None
    return draw


def _weak_angle_by_cubic(mach: float, theta: float, gamma: float = 1.4) -> float:
    """The weak shock angle from the cubic in sin^2(beta) of the theta-beta-M relation: its middle root."""
    m2, s2 = mach**2, math.sin(theta) ** 2
    b = -(m2 + 2.0) / m2 - gamma * s2
    c = (2.0 * m2 + 1.0) / m2**2 + ((gamma + 1.0) ** 2 / 4.0 + (gamma - 1.0) / m2) * s2
    d = -(math.cos(theta) ** 2) / m2**2
    roots = np.sort(np.roots([1.0, b, c, d]).real)
    return math.asin(math.sqrt(roots[1]))


def test_the_wedge_shock_angle_matches_textbook_values_and_the_cubic() -> None:
    # Anderson, Modern Compressible Flow, the theta-beta-M chart: Mach 3 turned 20 degrees, beta 37.8 (weak).
    assert math.degrees(gas.shock_angle(3.0, math.radians(20.0))) == pytest.approx(37.8, abs=0.05)
    # The largest attached turns (NACA 1135): 34.07 degrees at Mach 3, 38.77 at Mach 4, 41.12 at Mach 5.
    for mach, largest in ((3.0, 34.07), (4.0, 38.77), (5.0, 41.12)):
        assert math.degrees(gas.max_deflection(mach)[0]) == pytest.approx(largest, abs=0.01)
    for mach in (4.0, 5.0, 6.0):
        for theta_deg in (10.0, 15.0, 20.0):
            theta = math.radians(theta_deg)
            assert gas.shock_angle(mach, theta) == pytest.approx(_weak_angle_by_cubic(mach, theta), abs=1e-9)


def test_the_wedge_domain_by_hand() -> None:
    # 15 degrees: ramp end 0.3048 tan 15 = 0.08167 m; Mach 4's shock at 27.06 degrees leaves x = 0.3048 m at
    # 0.3048 tan 27.06 = 0.1557 m; 5% above, rounded up to a millimetre: 0.164 m; cells 0.164 / 0.00762 = 21.5: 22.
    assert geometry.wedge_geometry(15.0) == geometry.WedgeGeometry(15.0, 0.08167, 0.164, 22)
    # 10 and 20 degrees (beta 22.23 and 32.46 at Mach 4): 0.1246 and 0.1939 m at the outlet.
    assert geometry.wedge_geometry(10.0) == geometry.WedgeGeometry(10.0, 0.05374, 0.131, 17)
    assert geometry.wedge_geometry(20.0) == geometry.WedgeGeometry(20.0, 0.11094, 0.204, 27)
    with pytest.raises(ValueError, match="detaches the shock at Mach 4"):
        geometry.wedge_geometry(39.0)


def test_every_drawn_wedge_keeps_its_shock_attached_and_below_the_top() -> None:
    for seed in range(30):
        draw = _draw("wedge-2", seed)
        mesh = draw.files[MESH]
        theta, top = geometry.ramp_angle(mesh), block_mesh.vertices(mesh)[:, 1].max()
        mach = draw.params["inlet_speed"]  # at 1 K
        assert theta < gas.max_deflection(mach)[0]
        assert geometry.WEDGE_LENGTH * math.tan(gas.shock_angle(mach, theta)) < top / geometry.TOP_MARGIN
        assert math.degrees(theta) == pytest.approx(draw.params["wedge_deg"], abs=1e-3)


def test_the_wedge_prompt_states_the_oracle_mesh() -> None:
    draw = _draw("wedge-1")
    mesh = draw.files[MESH]
    points, cells = block_mesh.vertices(mesh), block_mesh.cells(mesh)
    ramp, top = points[2, 1], points[3, 1]
    assert (points[2, 0], points[0, 0]) == (0.3048, -0.15242) and np.allclose(points[:6, :2], points[6:, :2])
    assert cells[0][1] == cells[1][1] and (cells[0][0], cells[1][0], cells[0][2]) == (20, 40, 1)
    problem, theta = draw.case["visible"]["problem"], f"{draw.params['wedge_deg']:g}"
    assert f"y from 0 to {top:g} m; the wedge's surface rises at {theta} degrees" in problem
    assert f"from (0, 0) to (0.3048, {ramp:g}) m) with its two blocks of 20 x {cells[0][1]} and 40 x {cells[0][1]}" in (
        problem
    )
    assert f"over a wedge of {theta} degrees" in problem and draw.case["title"].startswith(f"Wedge ({theta} degrees)")
    assert theta != "15" and "15 degrees" not in problem and "0.1524 m" not in problem  # the published shape is gone
    # the cells keep the tutorial's size (0.1524 / 20 m tall at the inlet)
    assert top / cells[0][1] == pytest.approx(0.1524 / 20, rel=0.05)


def test_the_step_prompt_states_the_oracle_mesh() -> None:
    draw = _draw("forwardStep-2")
    mesh = draw.files[MESH]
    points, cells = block_mesh.vertices(mesh), block_mesh.cells(mesh)
    h = draw.params["step_height"]
    assert geometry.step_height(mesh) == h and points[1, 0] == points[3, 0] == 0.6
    low, high = cells[0][1], cells[1][1]
    assert [c[:2] for c in cells] == [(12, low), (12, high), (48, high)] and [low, high] == draw.params["cells_y"]
    assert h / low == pytest.approx(0.05, rel=0.25) and (1 - h) / high == pytest.approx(0.05, rel=0.05)
    blocks = f"three blocks of 12 x {low}, 12 x {high} and 48 x {high}"
    assert f"a step of height {h:g} m starting at x = 0.6 m) with its {blocks}" in draw.case["visible"]["problem"]


def test_the_step_cells_by_hand() -> None:
    assert geometry.step_cells(0.2) == (4, 16)  # the tutorial's
    assert geometry.step_cells(0.13) == (3, 17) and geometry.step_cells(0.1) == (2, 18)


def test_the_obstacle_prompt_states_the_oracle_mesh() -> None:
    draw = _draw("damBreak-3")
    mesh = draw.files[MESH]
    points = block_mesh.scale(mesh) * block_mesh.vertices(mesh)
    x0, x1, height = points[1, 0], points[2, 0], points[4, 1]
    p = draw.params
    assert (x0, x1 - x0, height) == pytest.approx(
        (p["obstacle_x"], p["obstacle_width"], p["obstacle_height"]),
        abs=1.5e-6,  # vertices: m / 0.146 to 5 decimals
    )
    assert points[3, 0] == pytest.approx(0.584) and points[8, 1] == pytest.approx(0.584)
    cells = [c[:2] for c in block_mesh.cells(mesh)]
    assert [list(c) for c in cells] == p["cells"]
    listed = ", ".join(f"{a} x {b}" for a, b in cells[:4]) + f" and {cells[4][0]} x {cells[4][1]} cells"
    problem = draw.case["visible"]["problem"]
    ends = f"from x = {p['obstacle_x']:g} to {p['obstacle_x'] + p['obstacle_width']:.6g} m"
    assert f"an obstacle of {p['obstacle_width']:g} m x {p['obstacle_height']:g} m on the bottom, {ends}" in problem
    assert f"; five blocks of {listed}" in problem and "bottom centre" not in problem
    sizes = [
        (x0 / cells[0][0], height / cells[0][1]),
        ((x1 - x0) / cells[3][0], None),
        ((0.584 - x1) / cells[1][0], None),
    ]
    assert [s[0] for s in sizes] == pytest.approx([CELL_X[0], CELL_X[1], CELL_X[2]], rel=0.35)
    assert sizes[0][1] == pytest.approx(CELL_Y[0], rel=0.35)
    assert p["width"] < p["obstacle_x"]  # the water column stands left of the obstacle


def test_mesh_edits_keep_both_planes_and_refuse_another_layout() -> None:
    published = (get_case("foam", "forwardStep-1").folder / MESH).read_text()
    moved = block_mesh.set_plane(published, [(0, 0), (1, 0), (0, 2), (1, 2), (3, 2), (0, 4), (1, 4), (3, 4)])
    points = block_mesh.vertices(moved)
    assert points[9].tolist() == [1.0, 0.0, 0.05] and points[1].tolist() == [1.0, 0.0, -0.05]
    assert block_mesh.cells(block_mesh.set_cells(moved, [(1, 2), (3, 4), (5, 6)])) == [(1, 2, 1), (3, 4, 1), (5, 6, 1)]
    with pytest.raises(ValueError, match="two planes of 3 matching vertices"):
        block_mesh.set_plane(published, [(0, 0), (1, 0), (0, 1)])
    with pytest.raises(ValueError, match="expected 2 hex blocks, found 3"):
        block_mesh.set_cells(published, [(1, 1), (2, 2)])
