"""The cfd-code fresh families' edits: the substitutions of a draw in each published case's texts and oracle, and
the oracle constants derived from a draw where the published numbers tied them (step counts at a Courant number
or stability limit, grid sizes, source nodes).

Each edit function takes the drawn values as the prompt writes them (strings, see
:func:`~simcodebench.core.fresh_edits.number`) and returns the substitutions ``(text, oracle)``; a substitution
whose text is not found raises, so a published case that changes makes its family fail loudly rather than keep
an old number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from simcodebench.core.fresh_edits import Edits, number


def diffusion_1d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [(r"\nu = 0.3 \)", rf"\nu = {v['nu']} \)"), ("0.0333", v["t_end"])]
    oracle = [("NU = 0.3\n", f"NU = {v['nu']}\n"), ("0.0333", v["t_end"])]
    return text, oracle


def diffusion_2d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [(r"\nu = 0.05 \)", rf"\nu = {v['nu']} \)"), ("0.3777", v["t_end"])]
    oracle = [("NU = 0.05\n", f"NU = {v['nu']}\n"), ("0.3777", v["t_end"])]
    return text, oracle


def burgers_1d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"\nu = 0.07 \)", rf"\nu = {v['nu']} \)"),
        (r"0.14\pi", rf"{v['t_pi']}\pi"),
        ("0.14 pi", f"{v['t_pi']} pi"),
    ]
    oracle = [
        ("NU = 0.07\n", f"NU = {v['nu']}\n"),
        ("0.14 * np.pi", f"{v['t_pi']} * np.pi"),
        ("0.14 pi", f"{v['t_pi']} pi"),
    ]
    return text, oracle


def linear_convection_1d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"c = 1 \)", rf"c = {v['c']} \)"),
        ("5e-4 for damped", f"{v['eps']} for damped"),
        ("[0, 10]", f"[0, {v['t_end']}]"),
        ("t = 10", f"t = {v['t_end']}"),
    ]
    oracle = [
        ("C = 1.0\n", f"C = {v['c']}\n"),
        ("EPS = 5e-4\n", f"EPS = {v['eps']}\n"),
        ("eps = 5e-4", f"eps = {v['eps']}"),
        ("u_t + u_x", f"u_t + {v['c']} u_x"),
        ("T_END = 10.0\n", f"T_END = {v['t_end']}\n"),
        ("to t = 10", f"to t = {v['t_end']}"),
    ]
    return text, oracle


def unsteady_heat_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"\alpha = 1 \)", rf"\alpha = {v['alpha']} \)"),
        ("Q_0 = 200°C/s", f"Q_0 = {v['q0']}°C/s"),
        (r"200 \cdot", rf"{v['q0']} \cdot"),
        (r"\sigma = 0.1 \)", rf"\sigma = {v['sigma']} \)"),
        ("0.1^2", f"{v['sigma']}^2"),
        ("[0, 3]", f"[0, {v['t_end']}]"),
        ("t = 3", f"t = {v['t_end']}"),
    ]
    oracle = [
        ("The problem does not state alpha; alpha = 1 (the upstream setup). ", ""),
        ("ALPHA = 1.0\n", f"ALPHA = {v['alpha']}\n"),
        ("Q0 = 200.0\n", f"Q0 = {v['q0']}\n"),
        ("SIGMA = 0.1\n", f"SIGMA = {v['sigma']}\n"),
        ("T_END = 3.0\n", f"T_END = {v['t_end']}\n"),
        ("t = 3 (oracle", f"t = {v['t_end']} (oracle"),
    ]
    return text, oracle


def steady_heat_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    sides = {"x = 0": v["left"], "x = 5": v["right"], "y = 4": v["top"], "y = 0": v["bottom"]}
    published = {"x = 0": "10", "x = 5": "40", "y = 4": "0", "y = 0": "20"}
    text = [
        (rf"at {s}): \( T = {published[s]}^\circ C", rf"at {s}): \( T = {value}^\circ C") for s, value in sides.items()
    ]
    values = ", ".join(f"{float(v[k])!r}" for k in ("bottom", "top", "left", "right"))
    oracle = [
        ("T = 10, 40, 0, 20 on the left", f"T = {v['left']}, {v['right']}, {v['top']}, {v['bottom']} on the left"),
        ("= 20.0, 0.0, 10.0, 40.0\n", f"= {values}\n"),
    ]
    return text, oracle


def poisson_nodes(v: dict[str, str], points: int = 50) -> dict[str, int]:
    """The grid nodes nearest the drawn source points (the published problem's 50 x 50 nodes): ``i`` along x,
    ``j`` along y (a fraction ``f`` of the side lands on node ``round(f (points - 1))``)."""
    return {name: round(float(v[f"f{name}"]) * (points - 1)) for name in ("x1", "y1", "x2", "y2")}


def poisson_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    n = poisson_nodes(v)
    text = [
        (
            r"\( b = 100 \) at \( x = \frac{1}{4}L_x, y = \frac{1}{4}L_y \)",
            rf"\( b = {v['q1']} \) at \( x = {v['fx1']} L_x, y = {v['fy1']} L_y \)",
        ),
        (
            r"\( b = -100 \) at \( x = \frac{3}{4}L_x, y = \frac{3}{4}L_y \)",
            rf"\( b = -{v['q2']} \) at \( x = {v['fx2']} L_x, y = {v['fy2']} L_y \)",
        ),
        (r"(i, j) = (12, 12) \) and \( (37, 37)", rf"(i, j) = ({n['x1']}, {n['y1']}) \) and \( ({n['x2']}, {n['y2']})"),
    ]
    oracle = [
        ("b = +100 at the grid node nearest", f"b = +{v['q1']} at the grid node nearest"),
        (
            "(Lx/4, Ly/4) and -100 at the node nearest (3Lx/4, 3Ly/4)",
            f"({v['fx1']} Lx, {v['fy1']} Ly) and -{v['q2']} at the node nearest ({v['fx2']} Lx, {v['fy2']} Ly)",
        ),
        (
            "nodes (NY // 4, NX // 4) and (3 NY // 4, 3 NX // 4)",
            f"nodes ({n['y1']}, {n['x1']}) and ({n['y2']}, {n['x2']})",
        ),
        ("b[int(NY / 4), int(NX / 4)] = 100.0", f"b[{n['y1']}, {n['x1']}] = {float(v['q1'])!r}"),
        ("b[int(3 * NY / 4), int(3 * NX / 4)] = -100.0", f"b[{n['y2']}, {n['x2']}] = -{float(v['q2'])!r}"),
    ]
    return text, oracle


def poisson_reference(d: dict[str, float]) -> dict[str, Any]:
    n = poisson_nodes({k: number(value) for k, value in d.items()})
    return {
        "strength": d["q1"],
        "sink": d["q2"],
        "source_node": [n["y1"], n["x1"]],
        "sink_node": [n["y2"], n["x2"]],
    }


def laplace_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    boundary = f"{v['c0']} + {v['c1']} y"
    text = [
        (
            r"Right boundary \( (x = 2) \): \( p = y \)",
            rf"Right boundary \( (x = {v['length']}) \): \( p = {boundary} \)",
        ),
        (r"x \in [0, 2], y", rf"x \in [0, {v['length']}], y"),
        ("covering [0, 2]", f"covering [0, {v['length']}]"),
    ]
    oracle = [
        (
            "on [0, 2] x [0, 1]: p = 0 at x = 0, p = y at x = 2",
            f"on [0, {v['length']}] x [0, 1]: p = 0 at x = 0, p = {boundary} at x = {v['length']}",
        ),
        ("NY = 41\n", f"NY = 41\n\nLENGTH = {v['length']}\nC0 = {v['c0']}\nC1 = {v['c1']}\n"),
        ("np.linspace(0.0, 2.0, NX)", "np.linspace(0.0, LENGTH, NX)"),
        ("0.0 if i == 0 else y[j]", "0.0 if i == 0 else C0 + C1 * y[j]"),
    ]
    return text, oracle


def lane_emden_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [("n = 3, on", f"n = {v['index']}, on"), (r"n = 3.0 \)", rf"n = {v['index']} \)")]
    oracle = [
        ("lap f + f^3 = 0", f"lap f + f^{v['index']} = 0"),
        ("f'' + 2 f' / r + f^3 = 0", f"f'' + 2 f' / r + f^{v['index']} = 0"),
        ("N_INDEX = 3.0\n", f"N_INDEX = {v['index']}\n"),
    ]
    return text, oracle


LINEAR_CONVECTION_CELLS = 400
"""The fresh oracle's cells per side (the published 200 halved in size): dx = 0.005 divides both the box's
displacement ``c t`` (two decimals) and the reference's node spacing (0.025), so at Courant number 1 the box's
edges sit on nodes of both grids, as in the published case (``c t = 0.5``)."""


def linear_convection_steps(v: dict[str, str]) -> int:
    """The oracle's steps at Courant number 1 on its cells: the box moves ``c t`` = NT dx."""
    steps = float(v["c"]) * float(v["t_end"]) / (2.0 / LINEAR_CONVECTION_CELLS)
    if abs(steps - round(steps)) > 1e-9:
        raise ValueError(f"c t = {v['c']} x {v['t_end']} is not a whole number of the oracle's cells")
    return round(steps)


def linear_convection_2d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    cells = LINEAR_CONVECTION_CELLS
    text = [
        (r"c = 1\)", rf"c = {v['c']}\)"),
        ("t = 0.5", f"t = {v['t_end']}"),
        ("[0, 0.50]", f"[0, {v['t_end']}]"),
    ]
    oracle = [
        ("u_t + u_x + u_y = 0", f"u_t + {v['c']} u_x + {v['c']} u_y = 0"),
        ("to t = 0.5", f"to t = {v['t_end']}"),
        ("NX = 200\nNY = 200\nNT = 50\n", f"NX = {cells}\nNY = {cells}\nNT = {linear_convection_steps(v)}\n"),
        ("C = 1.0\n", f"C = {v['c']}\n"),
        ("T_END = 0.5\n", f"T_END = {v['t_end']}\n"),
    ]
    return text, oracle


def box_steps(published_steps: int, published_t: float, v: dict[str, str]) -> int:
    """The box oracle's steps: the published time step, scaled down by the drawn height (the fastest speed; the
    published one is 2), so the upwind scheme's Courant number stays the published one or lower."""
    return int(np.ceil(published_steps * float(v["t_end"]) / published_t * float(v["height"]) / 2.0 - 1e-9))


def box_edits(published_t: str, published_steps: int) -> Callable[[dict[str, str]], tuple[Edits, Edits]]:
    def edits(v: dict[str, str]) -> tuple[Edits, Edits]:
        text = [
            (f"t = {published_t}", f"t = {v['t_end']}"),
            (f"[0, {published_t}]", f"[0, {v['t_end']}]"),
            ("u = v = 2", f"u = v = {v['height']}"),
        ]
        steps = box_steps(published_steps, float(published_t), v)
        oracle = [
            (
                f"with a box of u = v = 2, to t = {published_t}",
                f"with a box of u = v = {v['height']}, to t = {v['t_end']}",
            ),
            (f"NT = {published_steps}\n", f"NT = {steps}\n"),
            (f"T_END = {published_t}\n", f"T_END = {v['t_end']}\nHEIGHT = {v['height']}\n"),
            ("u = 1.0 + np.outer(", "u = 1.0 + (HEIGHT - 1.0) * np.outer("),
            ("if 2.0 * dt * (1 / hx + 1 / hy)", "if HEIGHT * dt * (1 / hx + 1 / hy)"),
        ]
        return text, oracle

    return edits


def nonlinear_convection_steps(v: dict[str, str]) -> int:
    """The oracle's steps: the published Courant number (4000 steps to t = 5 with speeds up to about 1.4) kept
    for the drawn final time and amplitudes (speeds up to ``a + b``)."""
    return int(np.ceil(4000 * float(v["t_end"]) / 5.0 * (float(v["a"]) + float(v["b"])) / 1.5 - 1e-9))


def nonlinear_convection_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    initial = rf"{v['a']} \sin(x) + {v['b']} \sin(0.5x)"
    text = [
        (r"\sin(x) + 0.5 \sin(0.5x)", initial),
        ("t = 5", f"t = {v['t_end']}"),
        ("[0, 5])", f"[0, {v['t_end']}])"),
    ]
    oracle = [
        ("to t = 5\n", f"to t = {v['t_end']}, u(x, 0) = {v['a']} sin(x) + {v['b']} sin(x / 2)\n"),
        ("NT = 4000\n", f"NT = {nonlinear_convection_steps(v)}\n"),
        ("T_END = 5.0\n", f"T_END = {v['t_end']}\nA = {v['a']}\nB = {v['b']}\n"),
        ("# cell averages of sin(x) + 0.5 sin(x / 2)", "# cell averages of A sin(x) + B sin(x / 2)"),
        ("-np.cos(edges) - np.cos(0.5 * edges)", "-A * np.cos(edges) - 2 * B * np.cos(0.5 * edges)"),
    ]
    return text, oracle


def kdv_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"a = 1 \times 10^{-4}", rf"a = {v['a_e4']} \times 10^{{-4}}"),
        (r"b = 2 \times 10^{-4}", rf"b = {v['b_e4']} \times 10^{{-4}}"),
        (r"t \in [0, 10]", rf"t \in [0, {v['t_end']}]"),
        ("], t = 10", f"], t = {v['t_end']}"),
        ("at t = 10", f"at t = {v['t_end']}"),
    ]
    oracle = [
        ("to t = 10\n", f"to t = {v['t_end']}\n"),
        ("NT = 5000\n", f"NT = {kdv_steps(v)}\n"),
        ("A = 1e-4\n", f"A = {v['a_e4']}e-4\n"),
        ("B = 2e-4\n", f"B = {v['b_e4']}e-4\n"),
        ("T_END = 10.0\n", f"T_END = {v['t_end']}\n"),
    ]
    return text, oracle


def kdv_steps(v: dict[str, str]) -> int:
    """The oracle's steps at the published time step (0.002)."""
    return round(float(v["t_end"]) / 0.002)


def shock_tube_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        ("Sod's shock tube on [-1, 1]", "Shock tube on [-1, 1]"),
        (r"\rho_L = 1.0 \)", rf"\rho_L = {v['rho_l']} \)"),
        (r"p_L = 1.0 \)", rf"p_L = {v['p_l']} \)"),
        (r"\rho_R = 0.125 \)", rf"\rho_R = {v['rho_r']} \)"),
        (r"p_R = 0.1 \)", rf"p_R = {v['p_r']} \)"),
        ("t = 0.25", f"t = {v['t_end']}"),
        ("[0, 0.25]", f"[0, {v['t_end']}]"),
    ]
    oracle = [
        (
            "Sod's shock tube on [-1, 1], reflective ends, to t = 0.25",
            f"A shock tube on [-1, 1], reflective ends, to t = {v['t_end']}",
        ),
        ("NT = 1000\n", f"NT = {shock_tube_steps(v)}\n"),
        ("T_END = 0.25\n", f"T_END = {v['t_end']}\n"),
        ("np.where(x < 0, 1.0, 0.125)", f"np.where(x < 0, {v['rho_l']}, {v['rho_r']})"),
        ("np.where(x < 0, 1.0, 0.1)", f"np.where(x < 0, {v['p_l']}, {v['p_r']})"),
    ]
    return text, oracle


def shock_tube_steps(v: dict[str, str]) -> int:
    """The oracle's steps at the published time step (0.25 / 1000): the drawn states' fastest waves (at most about
    3.2, twice Sod's) keep its Courant number below 0.35 (MUSCL with SSP-RK2 is stable to 1)."""
    return int(np.ceil(4000 * float(v["t_end"]) - 1e-9))


def channel_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"\nu = 0.1 \)", rf"\nu = {v['nu']} \)"),
        (r"F = 1 \)", rf"F = {v['force']} \)"),
        ("[0, 5.0]", f"[0, {v['t_end']}]"),
        ("t = 5", f"t = {v['t_end']}"),
    ]
    oracle = [
        ("driven by F = 1,", f"driven by F = {v['force']},"),
        ("from rest to t = 5\n", f"from rest to t = {v['t_end']}, nu = {v['nu']}\n"),
        ("NU = 0.1\n", f"NU = {v['nu']}\n"),
        ("F = 1.0\n", f"F = {v['force']}\n"),
        ("T_END = 5.0\n", f"T_END = {v['t_end']}\n"),
    ]
    return text, oracle


def turbulent_channel_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        ("Re_tau = 395", f"Re_tau = {v['re_tau']}"),
        (r"Re_\tau = 395 \)", rf"Re_\tau = {v['re_tau']} \)"),
        (r"\kappa = 0.42 \)", rf"\kappa = {v['kappa']} \)"),
        (r"A = 25.4 \)", rf"A = {v['damping']} \)"),
    ]
    oracle = [
        ("RE_TAU = 395.0\n", f"RE_TAU = {v['re_tau']}\n"),
        ("KAPPA = 0.42\n", f"KAPPA = {v['kappa']}\n"),
        ("A = 25.4\n", f"A = {v['damping']}\n"),
    ]
    return text, oracle


def pipe_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    m = str(int(float(v["m"])))
    text = [
        ("Re = 1e4, k_z = 1, m = 1", f"Re = {v['reynolds']}, k_z = {v['k']}, m = {m}"),
        (r"\( Re = 10^4 \)", rf"\( Re = {v['reynolds']} \)"),
        (r"\( k_z = 1 \)", rf"\( k_z = {v['k']} \)"),
        (r"\( m = 1 \)", rf"\( m = {m} \)"),
    ]
    oracle = [
        ("at Re = 1e4, k = 1, m = 1", f"at Re = {v['reynolds']}, k = {v['k']}, m = {m}"),
        ("RE, M, K = 1.0e4, 1, 1.0", f"RE, M, K = {float(v['reynolds'])!r}, {m}, {float(v['k'])!r}"),
    ]
    return text, oracle


def cylinder_derived(v: dict[str, str]) -> dict[str, str]:
    """The numbers the cylinder's prompt derives from a drawn ``nu`` (v_inf = d = 1): Re = 1 / nu to the nearest
    whole number, and the boundary layer's thickness d / sqrt(Re) to two significant digits."""
    reynolds = 1.0 / float(v["nu"])
    return {"re": f"{reynolds:.0f}", "layer": f"{1.0 / np.sqrt(reynolds):.2g}"}


def cylinder_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    derived = cylinder_derived(v)
    text = [
        (r"\nu = 0.005 \)", rf"\nu = {v['nu']} \)"),
        (r"v_\infty d / \nu = 200 \)", rf"v_\infty d / \nu \approx {derived['re']} \)"),
        (r"\approx 0.07 \) thick", rf"\approx {derived['layer']} \) thick"),
        (
            r"t \in [0, 10.05] \) (added: the released problem gives no final time; 10.05 is the released script's "
            "201 steps of 0.05)",
            rf"t \in [0, {v['t_end']}] \)",
        ),
    ]
    oracle = [
        ("Re = 200, to t = 10.05 from rest", f"Re = 1 / {v['nu']}, to t = {v['t_end']} from rest"),
        ("NU = 0.005\n", f"NU = {v['nu']}\n"),
        ("T_END = 10.05\n", f"T_END = {v['t_end']}\n"),
    ]
    return text, oracle


def cavity_oracle_edits(v: dict[str, str]) -> Edits:
    """The edits both cavity oracles share: nu and the lid speed (a constant
    ``LID`` in Thom's lid vorticity and in the lid's velocity)."""
    return [
        ("NU = 0.1\n", f"NU = {v['nu']}\n"),
        ("RHO = 1.0\n", f"RHO = 1.0\nLID = {v['lid']}\n"),
        ("w[-1, :] = -2 * s[-2, :] / h**2 - 2 / h\n", "w[-1, :] = -2 * s[-2, :] / h**2 - 2 * LID / h\n"),
        (
            "u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0, 0, 0, 1\n",
            "u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0, 0, 0, LID\n",
        ),
    ]


def lid_cavity_steps(v: dict[str, str]) -> int:
    """The unit cavity oracle's steps: the published 1000, more where ``nu t_end`` exceeds the published 0.05, so
    the diffusion number ``nu dt / h^2`` stays the published one (0.16 at the doubled resolution of the
    convergence gate; the oracle stops above 0.3)."""
    return max(1000, int(np.ceil(1000 * float(v["nu"]) * float(v["t_end"]) / 0.05 - 1e-9)))


def lid_cavity_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        ("nu = 0.1, t = 0.5", f"nu = {v['nu']}, lid speed {v['lid']}, t = {v['t_end']}"),
        (r"\nu = 0.1 \)", rf"\nu = {v['nu']} \)"),
        (r"\( u = 1 \), \( v = 0 \) on the **top lid**", rf"\( u = {v['lid']} \), \( v = 0 \) on the **top lid**"),
        (r"t \in [0, 0.5] \)", rf"t \in [0, {v['t_end']}] \)"),
        (r"\( t = 0.5 \)", rf"\( t = {v['t_end']} \)"),
        ("at t = 0.5,", f"at t = {v['t_end']},"),
    ]
    oracle = [
        *cavity_oracle_edits(v),
        ("NT = 1000\n", f"NT = {lid_cavity_steps(v)}\n"),
        ("T_END = 0.5\n", f"T_END = {v['t_end']}\n"),
    ]
    return text, oracle


def ns_cavity_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        ("nu = 0.1, t = 10", f"nu = {v['nu']}, lid speed {v['lid']}, t = {v['t_end']}"),
        (r"\nu = 0.1 \)", rf"\nu = {v['nu']} \)"),
        (r"(lid-driven): \( u = 1, v = 0 \)", rf"(lid-driven): \( u = {v['lid']}, v = 0 \)"),
        ("(t \\in [0, 10.0])", f"(t \\in [0, {v['t_end']}])"),
        ("at t = 10,", f"at t = {v['t_end']},"),
    ]
    oracle = [*cavity_oracle_edits(v), ("T_END = 10.0\n", f"T_END = {v['t_end']}\n")]
    return text, oracle


def burgers_2d_box(v: dict[str, str]) -> dict[str, str]:
    """The drawn box's sides (one decimal: on nodes of the 41-node output grid and every finer one): a lower
    side and a width per axis, the upper side their sum."""
    return {
        "x0": v["x0"],
        "x1": number(round(float(v["x0"]) + float(v["wx"]), 1)),
        "y0": v["y0"],
        "y1": number(round(float(v["y0"]) + float(v["wy"]), 1)),
    }


def burgers_2d_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    b = burgers_2d_box(v)
    text = [
        (r"\nu = 0.01 \)", rf"\nu = {v['nu']} \)"),
        (
            r"u = v = 2 \quad \text{for } 0.5 \leq x, y \leq 1",
            rf"u = v = {v['height']} \quad \text{{for }} {b['x0']} \leq x \leq {b['x1']}, \; "
            rf"{b['y0']} \leq y \leq {b['y1']}",
        ),
        ("0.027", v["t_end"]),
    ]
    oracle = [
        ("box initial data, to t = 0.027", f"box initial data, to t = {v['t_end']}"),
        ("NU = 0.01\n", f"NU = {v['nu']}\n"),
        (
            "T_END = 0.027\n",
            f"T_END = {v['t_end']}\nHEIGHT = {v['height']}\n"
            f"X0 = {b['x0']}\nX1 = {b['x1']}\nY0 = {b['y0']}\nY1 = {b['y1']}\n",
        ),
        ("def box(s):", "def box(s, lo, hi):"),
        ("(s > 0.5 + 1e-12) & (s < 1.0 - 1e-12)", "(s > lo + 1e-12) & (s < hi - 1e-12)"),
        ("np.isclose(s, 0.5) | np.isclose(s, 1.0)", "np.isclose(s, lo) | np.isclose(s, hi)"),
        ("u = 1.0 + np.outer(box(y), box(x))", "u = 1.0 + (HEIGHT - 1.0) * np.outer(box(y, Y0, Y1), box(x, X0, X1))"),
    ]
    return text, oracle


def burgers_2d_reference(d: dict[str, float]) -> dict[str, Any]:
    b = {k: float(value) for k, value in burgers_2d_box({k: number(value) for k, value in d.items()}).items()}
    return {
        "nu": d["nu"],
        "t_end": d["t_end"],
        "height": d["height"],
        "box_x": [b["x0"], b["x1"]],
        "box_y": [b["y0"], b["y1"]],
    }


def shear_flow_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        ("Re = 5e4, t = 20", f"Re = {v['reynolds']}, t = {v['t_end']}"),
        (r"Re = 5 \times 10^4 \)", rf"Re = {v['reynolds']} \)"),
        (r"Sc = 1 \)", rf"Sc = {v['schmidt']} \)"),
        (r"w(x, z, 0) = 0.1 \sin", rf"w(x, z, 0) = {v['kick']} \sin"),
        (r"t \in [0, 20] \)", rf"t \in [0, {v['t_end']}] \)"),
        ("at t = 20", f"at t = {v['t_end']}"),
    ]
    oracle = [
        ("tracer at t = 20 (oracle", f"tracer at t = {v['t_end']} (oracle"),
        (
            "RE, SC, T_END, CFL = 5.0e4, 1.0, 20.0, 1.0\n",
            f"RE = {v['reynolds']}\nSC = {v['schmidt']}\nT_END = {v['t_end']}\nCFL = 1.0\nKICK = {v['kick']}\n",
        ),
        ("w0 = 0.1 * np.sin", "w0 = KICK * np.sin"),
    ]
    return text, oracle


def rayleigh_benard_edits(v: dict[str, str]) -> tuple[Edits, Edits]:
    """Rayleigh-Benard convection at the drawn Rayleigh number (in units of 1e5) and Prandtl number."""
    ra, prandtl = v["rayleigh_e5"], v["prandtl"]
    text = [
        ("Ra = 2e6, t = 50", f"Ra = {ra}e5, Pr = {prandtl}, t = 50"),
        (r"Ra = 2 \times 10^6 \) and \( Pr = 1 \)", rf"Ra = {ra} \times 10^5 \) and \( Pr = {prandtl} \)"),
    ]
    oracle = [
        ("at Ra = 2e6, t = 50", f"at Ra = {ra}e5, Pr = {prandtl}, t = 50"),
        (
            "LX, LZ, RA, PR, T_END = 4.0, 1.0, 2.0e6, 1.0, 50.0\n",
            f"LX, LZ = 4.0, 1.0\nRA = {ra}e5\nPR = {prandtl}\nT_END = 50.0\n",
        ),
    ]
    return text, oracle
