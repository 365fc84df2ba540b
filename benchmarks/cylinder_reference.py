"""The cylinder reference's refinement study and its independent checks (cfd-code/Flow_Past_Circular_Cylinder).

Runs ``cylinder_logpolar`` (the case's reference generator) at the given levels (``refine`` k: 39 k azimuthal
cells), each saved as ``<cache>/k<k>.npz`` and read back when present, and prints:

- the omega and psi NMSE of every level against the finest (the reference is one of the levels);
- the released first-order scheme (``cylinder_flow``, 1x, 2x, 4x) against the finest level;
- the mode-1 wall vorticity of the early impulsive start against linear unsteady Stokes theory (the wall value
  ``-2 A q K1(q a) / (s K0(q a))`` in Laplace space, inverted numerically), where the difference left is the
  nonlinear part, of order ``t^2`` for this mode.

    nice -n 5 python benchmarks/cylinder_reference.py --levels 4 6 8 12 --cache /tmp/cylinder-levels
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import mpmath
import numpy as np

from simcodebench.suites.cfd_code.nmse import nmse
from simcodebench.suites.cfd_code.references.cylinder import cylinder_flow
from simcodebench.suites.cfd_code.references.cylinder_logpolar import LogPolarFlow, cylinder_logpolar

NU, A_IN, R_OUT = 0.005, 0.5, 10.0
LIFT = R_OUT / (R_OUT - A_IN**2 / R_OUT)  # potential flow's amplitude in the bounded annulus


def level(k: int, cache: Path) -> dict[str, np.ndarray]:
    """The reference generator at ``refine = k`` (cached as an npz)."""
    path = cache / f"k{k}.npz"
    if not path.is_file():
        start = time.perf_counter()
        solution = cylinder_logpolar(refine=k)
        np.savez(path, **solution.fields)
        print(f"k = {k}: {solution.method}, {time.perf_counter() - start:.0f} s", flush=True)
    return dict(np.load(path))


def stokes_wall_mode1(t: float) -> float:
    """Mode-1 (``sin theta``) wall vorticity of the impulsively started cylinder in linear unsteady Stokes flow."""

    def transform(s):
        q = mpmath.sqrt(s / NU)
        return -2 * LIFT * q * mpmath.besselk(1, q * A_IN) / (s * mpmath.besselk(0, q * A_IN))

    return float(mpmath.invertlaplace(transform, t, method="talbot"))


def wall_mode1(k: int, t: float) -> float:
    """The generator's mode-1 wall vorticity at ``t`` on the ``refine = k`` grid."""
    flow = LogPolarFlow(39 * k, A_IN, R_OUT, NU, 1.0, 20.0)
    _, omega = flow.run(t, int(np.ceil(t / flow.stable_step())))
    return float((omega[0] * np.sin(flow.theta)).sum() * flow.h / np.pi)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[4, 6, 8, 12])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/cylinder-levels"))
    parser.add_argument("--times", type=float, nargs="+", default=[0.1, 0.2, 0.4, 0.8])
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    levels = {k: level(k, args.cache) for k in sorted(args.levels)}
    finest = max(levels)
    print(f"\nagainst k = {finest}: level, omega NMSE, psi NMSE")
    for k, fields in levels.items():
        print(
            k,
            f"{nmse(levels[finest]['omega'], fields['omega']):.2e}",
            f"{nmse(levels[finest]['psi'], fields['psi']):.2e}",
        )
    print("\nreleased first-order scheme against it: refine, omega NMSE")
    for k in (1, 2, 4):
        old = cylinder_flow(nr=60, nth=40, nu=NU, v_inf=1.0, dt=0.05, steps=201, refine=k)
        print(k, f"{nmse(levels[finest]['omega'], old.fields['omega']):.3f}")
    print("\nmode-1 wall vorticity: t, Stokes, then each level's value and its relative difference")
    for t in args.times:
        exact = stokes_wall_mode1(t)
        cells = [f"k={k}: {(v := wall_mode1(k, t)):.3f} ({v / exact - 1:+.4f})" for k in sorted(args.levels)]
        print(t, f"{exact:.3f}", *cells, flush=True)


if __name__ == "__main__":
    main()
