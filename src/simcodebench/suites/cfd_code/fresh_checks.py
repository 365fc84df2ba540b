"""The cfd-code fresh families' reference checks: the reference beside two finer levels (or an independent
solution of the same discrete problem), a draw's regime, and case settings that follow the drawn flow."""

from __future__ import annotations

from collections.abc import Callable
from math import lcm
from typing import Any

import numpy as np
from scipy.fft import dstn, idstn

from simcodebench.suites.cfd_code.references import generate
from simcodebench.suites.cfd_code.references.cavity_implicit import lid_driven_cavity_implicit
from simcodebench.suites.re4.sod import sod_exact

Fields = dict[str, np.ndarray]
"""A solution's fields by name."""

Levels = Callable[[str, dict[str, Any]], list[Fields]]
"""A reference check: from the generator's name and the case's parameters, the reference's fields and those of
two finer levels (or of an independent solution), all on the reference's grid."""


def truncation(knob: str, base: int) -> Levels:
    """Levels of a series or image sum: the truncation ``knob`` (published value ``base``) doubled and quadrupled."""

    def levels(generator: str, params: dict[str, Any]) -> list[Fields]:
        value = params.get(knob, base)
        return [generate(generator, {**params, knob: value * 2**k}).fields for k in range(3)]

    return levels


def closed_form(generator: str, params: dict[str, Any]) -> list[Fields]:
    """Levels of a closed-form reference (a translated box, an entropy solution in closed form): it has no
    truncation, so the three levels are the same evaluation; the oracle's run is its only check."""
    fields = generate(generator, params).fields
    return [fields, fields, fields]


def poisson_sine_transform(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The Poisson reference (sparse LU) beside the same 5-point system solved by sine transforms (the discrete
    Laplacian's eigenvectors), an independent solution of the same discrete problem."""
    solution = generate(generator, params)
    ny, nx = solution.fields["p"].shape
    dx, dy = 2.0 / (nx - 1), 1.0 / (ny - 1)
    b = np.zeros((ny, nx))
    b[tuple(params["source_node"])] = params["strength"]
    b[tuple(params["sink_node"])] = -params["sink"]
    i, j = np.arange(1, nx - 1), np.arange(1, ny - 1)
    eig = (2.0 * np.cos(np.pi * i / (nx - 1)) - 2.0)[None, :] / dx**2 + (2.0 * np.cos(np.pi * j / (ny - 1)) - 2.0)[
        :, None
    ] / dy**2
    p = np.zeros((ny, nx))
    p[1:-1, 1:-1] = idstn(dstn(b[1:-1, 1:-1], type=1) / eig, type=1)
    return [solution.fields, {"p": p}, {"p": p}]


def lane_emden_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The Lane-Emden reference and two finer integrations: the series start moved 4 and 16 times closer to the
    centre, the tolerance halved and quartered."""
    return [generate(generator, {**params, "start": 1e-6 / 4**k, "rtol": 1e-13 / 2**k}).fields for k in range(3)]


def kdv_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The KdV-Burgers reference and two finer runs: modes and steps doubled and quadrupled, the finer grids
    sampled at the reference's nodes (every second and fourth node)."""
    points, dt = params.get("points", 1024), params.get("dt", 1e-3)
    levels = []
    for k in range(3):
        fields = generate(generator, {**params, "points": points * 2**k, "dt": dt / 2**k}).fields
        levels.append({name: value[:: 2**k] for name, value in fields.items()})
    return levels


def shock_tube_regime(params: dict[str, Any]) -> str | None:
    """Why the drawn tube leaves the regime of the exact solution (a wave reaching a reflective end), or None."""
    edge = np.array([-0.98, 0.98])
    left, right = (params["rho_l"], 0.0, params["p_l"]), (params["rho_r"], 0.0, params["p_r"])
    rho, u, p = sod_exact(edge, params["t_end"], gamma=1.4, x0=0.0, left=left, right=right)
    untouched = np.allclose([rho[0], u[0], p[0], rho[1], u[1], p[1]], [*left, *right], rtol=0.0, atol=1e-12)
    return None if untouched else "a wave reaches the tube's reflective ends before the final time"


def channel_scales(case: dict[str, Any], params: dict[str, Any]) -> None:
    """The channel's zero-norm fields (``v``, and ``p`` up to its mean) are compared relative to the flow's own
    size, as in the published case (3.5, its peak velocity, and 12 ~ rho U^2): the drawn flow's peak velocity
    and its square, to two significant digits."""
    peak = float(np.max(generate("channel_startup", params).fields["u"]))
    fields = case["hidden"]["scoring"]["fields"]
    fields["v"]["scale"] = float(f"{peak:.2g}")
    fields["p"]["scale"] = float(f"{peak**2:.2g}")


def pipe_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The eigenvalue at the reference's collocation nodes and at 1.5 and 2 times as many."""
    points = params.get("points", 80)
    return [generate(generator, {**params, "points": points * (2 + k) // 2}).fields for k in range(3)]


def cylinder_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The cylinder reference (``refine`` times the output grid's angles, 6 published) beside one finer level
    (``refine + 2``: 234 and 312 angles), listed twice: a second finer level (10, 390 angles) would cost about
    40 s more per draw (the cost grows with the cube of the angles), and the study of the published case
    (benchmarks/results/cfd-code-cylinder.md) shows the levels 6 and 8 within 2e-5 of its 468 angles' answer."""
    refine = int(params.get("refine", 6))
    base = generate(generator, params).fields
    finer = generate(generator, {**params, "refine": refine + 2}).fields
    return [base, finer, finer]


CAVITY_DT = 0.01
"""The time step of the cavities' finer levels (SBDF2, :mod:`.references.cavity_implicit`)."""


def cavity_scored(fields: Fields) -> Fields:
    """A cavity's fields as the case scores them: u and v everywhere, the pressure on interior nodes with its
    mean removed (``gauge: mean, interior: true``; the lid corners, where it is singular, are boundary nodes)."""
    p = fields["p"][1:-1, 1:-1]
    return {"u": fields["u"], "v": fields["v"], "p": p - p.mean()}


def cavity_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The cavity reference (explicit SSP-RK3 on a grid ``refine`` times finer than the output grid, 2
    published) beside the same spatial discretisation on grids 2 and 4 times finer than the reference's, time-
    stepped by SBDF2 with implicit viscous terms at :data:`CAVITY_DT` (the explicit diffusion limit would cost
    16 and 256 times the reference's run); all compared as scored (:func:`cavity_scored`)."""
    refine = int(params.get("refine", 2))
    steps = int(np.ceil(float(params["t_end"]) / CAVITY_DT - 1e-9))
    levels = [generate(generator, params).fields]
    for factor in (2, 4):
        finer = {**params, "refine": refine * factor, "steps": steps}
        levels.append(lid_driven_cavity_implicit(**finer).fields)
    return [cavity_scored(fields) for fields in levels]


def fourier_at_nodes(values: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A periodic field's trigonometric interpolant evaluated at the nodes of a coarser periodic grid of ``shape``
    (the same periods; each size divides ``lcm`` of the two): the spectrum padded with zeros to the common
    multiple of the sizes, transformed back, and every ``lcm / size``-th node kept."""
    common = tuple(lcm(a, b) for a, b in zip(values.shape, shape, strict=True))
    spectrum = np.fft.fftshift(np.fft.fftn(values))
    margins = [((c - a) // 2, (c - a) - (c - a) // 2) for a, c in zip(values.shape, common, strict=True)]
    padded = np.pad(spectrum, margins)
    fine = np.fft.ifftn(np.fft.ifftshift(padded)).real * (np.prod(common) / np.prod(values.shape))
    return fine[tuple(slice(None, None, c // s) for c, s in zip(common, shape, strict=True))]


def shear_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The shear-flow reference (pseudo-spectral, ``nx`` by ``2 nx``) and two finer runs (4/3 and 5/3 times the
    points per axis, the same CFL number), each evaluated at the reference's nodes by its Fourier interpolant
    (the finer grids' nodes are not a superset of the reference's)."""
    nx = int(params["nx"])
    base = generate(generator, params).fields
    levels = [base]
    for finer in (nx * 4 // 3, nx * 5 // 3):
        fields = generate(generator, {**params, "nx": finer, "nz": 2 * finer}).fields
        levels.append({name: fourier_at_nodes(value, base[name].shape) for name, value in fields.items()})
    return levels


def burgers_2d_levels(generator: str, params: dict[str, Any]) -> list[Fields]:
    """The 2-D viscous Burgers reference (``refine`` times the output grid's spacing, 8 published) beside two
    finer runs, 1.5 and 2 times finer (12 and 16), all sampled at the output nodes. A 32 times finer level costs
    about 8 times the 16's (explicit steps at the diffusion limit: 9 minutes on a loaded machine); the study
    in benchmarks/results/fresh-variants-cfd-code-burgers-shear.md measures it at the sharpest corner of the
    ranges."""
    refine = int(params.get("refine", 8))
    return [generate(generator, {**params, "refine": refine * k // 2}).fields for k in (2, 3, 4)]
