"""Reference solvers of the CFDCodeBench problems, registered by generator name.

Each generator takes keyword parameters (``hidden.reference.params`` of a case) and returns a
:class:`~.solution.Solution`: the final-time fields on the upstream comparison grid and the grid itself.
"""

from __future__ import annotations

from collections.abc import Callable

from simcodebench.suites.cfd_code.references import (
    burgers1d,
    burgers2d,
    cavity,
    channel,
    convection,
    cylinder,
    cylinder_logpolar,
    euler,
    heat,
    kdv,
    lane_emden,
    pipe_evp,
    potential,
    rayleigh_benard,
    shear_flow,
)
from simcodebench.suites.cfd_code.references.solution import Solution

GENERATORS: dict[str, Callable[..., Solution]] = {
    "burgers_1d": burgers1d.burgers_1d,
    "diffusion_1d": heat.diffusion_1d,
    "shock_tube": euler.shock_tube,
    "linear_convection_1d": convection.linear_convection_1d,
    "nonlinear_convection_1d": convection.nonlinear_convection_1d,
    "viscous_burgers_2d": burgers2d.viscous_burgers_2d,
    "box_convection_2d": convection.box_convection_2d,
    "diffusion_2d": heat.diffusion_2d,
    "laplace_mixed": potential.laplace_mixed,
    "linear_convection_2d": convection.linear_convection_2d,
    "lid_driven_cavity": cavity.lid_driven_cavity,
    "channel_startup": channel.channel_startup,
    "poisson_point_sources": potential.poisson_point_sources,
    "steady_heat_plate": potential.steady_heat_plate,
    "unsteady_heat": heat.unsteady_heat,
    "turbulent_channel": channel.turbulent_channel,
    "kdv_burgers": kdv.kdv_burgers,
    "lane_emden": lane_emden.lane_emden,
    "cylinder_flow": cylinder.cylinder_flow,
    "cylinder_logpolar": cylinder_logpolar.cylinder_logpolar,
    "pipe_evp": pipe_evp.pipe_evp,
    "shear_flow": shear_flow.shear_flow,
    "rayleigh_benard": rayleigh_benard.rayleigh_benard,
}


def generate(name: str, params: dict | None = None) -> Solution:
    """Run the generator registered as ``name`` with ``params``."""
    try:
        generator = GENERATORS[name]
    except KeyError:
        raise KeyError(f"no cfd-code reference generator '{name}'; known: {sorted(GENERATORS)}") from None
    return generator(**(params or {}))


__all__ = ["GENERATORS", "Solution", "generate"]
