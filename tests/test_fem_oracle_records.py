"""Kinds of PDEAgent-Bench record the fem oracle could not run (found by ``benchmarks/fem_import_oracle_sweep.py``),
each solved by the oracle on a small manufactured problem and checked against the exact solution.

- a reaction term that vanishes (``reaction: {type: linear, alpha: 0.0}``, upstream
  ``reaction_diffusion_linear_high_frequency``; likewise a cubic with both coefficients 0): UFL turns ``0 * u * v``
  into its zero, which has no mesh, and the form failed with "This integral is missing an integration domain".
  Steady and transient, since the two build their forms apart.
- Stokes at P3-P2 on a gmsh mesh (the L1 and L2 reference levels of every no-exact Stokes and Navier-Stokes
  record on a gmsh domain): DOLFINx 0.11's subspace collapsed from the mixed P3 element is wrong where edge dofs
  are permuted, so the boundary data and the returned velocity were off by 3% at h = 1/8 (P2-P1 was right).
- a sector of 180 degrees (upstream ``poisson_sector_180_coscos``): sin(pi) = 1.2e-16 tilted its straight side
  below y = 0, so grid points on that side were in no cell and the oracle's field was NaN there; the same arc
  code meshed sectors over 180 degrees as the short arc's sector.
"""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from simcodebench.core.project import cases_root
from simcodebench.suites.fem import grid

pytestmark = pytest.mark.slow

ORACLE = cases_root() / "fem" / "oracle_dolfinx.py"
EXACT = "exp(-t)*sin(pi*x)*sin(pi*y)"
# -eps Lap u + R(u) = f with R = 0: f = eps 2 pi^2 u (steady, t = 0), and u_t = -u adds -u (transient)
STEADY_FORCING = "0.1*2*pi**2*sin(pi*x)*sin(pi*y)"
TRANSIENT_FORCING = "(0.1*2*pi**2 - 1)*exp(-t)*sin(pi*x)*sin(pi*y)"
ZERO_REACTIONS = {
    "linear_alpha_0": {"type": "linear", "alpha": 0.0},
    "cubic_both_0": {"type": "cubic", "alpha": 0, "beta": 0.0},
}
PROBE = """
import json, sys
from mpi4py import MPI  # first: it loads the MPI library that DOLFINx links against
import numpy as np
source = open(sys.argv[1]).read()
namespace = {"__name__": "oracle"}
exec(compile(source, "oracle_dolfinx.py", "exec"), namespace)
namespace["ORACLE_CONFIG"].update(resolution=16, degree=2, dt=0.01)
errors = {}
for name, spec in json.loads(sys.argv[2]).items():
    u = namespace["solve"](spec)["u"]
    x, y = np.meshgrid(np.linspace(0, 1, 11), np.linspace(0, 1, 11))
    t = spec["pde"].get("time", {}).get("t_end", 0.0)
    exact = np.exp(-t) * np.sin(np.pi * x) * np.sin(np.pi * y)
    errors[name] = float(np.linalg.norm(u - exact) / np.linalg.norm(exact))
print(json.dumps(errors))
"""


def run_probe(dolfinx_env, tmp_path, source: str, *args: str) -> str:
    """Run ``source`` with the oracle's path (and ``args``) under the dolfinx environment; its stdout."""
    (tmp_path / "probe.py").write_text(source)
    result = subprocess.run(
        [str(dolfinx_env.python), "probe.py", str(ORACLE), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def spec(reaction: dict, transient: bool) -> dict:
    """A reaction-diffusion case_spec on the unit square with the exact solution :data:`EXACT`."""
    pde = {
        "type": "reaction_diffusion",
        "params": {"epsilon": 0.1, "reaction": reaction},
        "forcing": {"type": "expression", "value": TRANSIENT_FORCING if transient else STEADY_FORCING},
    }
    if transient:
        pde["time"] = {"t0": 0.0, "t_end": 0.1}
    return {
        "pde": pde,
        "domain": {"type": "unit_square"},
        "bc": {"dirichlet": {"on": "all", "value": EXACT}},
        "ic": {"u0": EXACT},
        "eval_grid": {"type": "cartesian", "nx": 11, "ny": 11, "bbox": [0, 1, 0, 1]},
        "output": {"format": "npz", "field": "scalar"},
    }


def test_vanishing_reaction_steady_and_transient(dolfinx_env, tmp_path):
    specs = {
        f"{name}_{mode}": spec(reaction, mode == "transient")
        for name, reaction in ZERO_REACTIONS.items()
        for mode in ("steady", "transient")
    }
    errors = json.loads(run_probe(dolfinx_env, tmp_path, PROBE, json.dumps(specs)).splitlines()[-1])
    assert set(errors) == set(specs)
    assert all(error < 1e-3 for error in errors.values()), errors


STOKES_PROBE = """
import sys
from mpi4py import MPI  # first: it loads the MPI library that DOLFINx links against
import numpy as np
namespace = {"__name__": "oracle"}
exec(compile(open(sys.argv[1]).read(), "oracle_dolfinx.py", "exec"), namespace)
u = ["pi*sin(pi*x)*cos(pi*y)", "-pi*sin(pi*y)*cos(pi*x)"]  # divergence free; p = 0, nu = 1: f = -Lap u = 2 pi^2 u
corners = [[0, 0], [1, 0], [1, 0.5], [0.5, 0.5], [0.5, 1], [0, 1]]
spec = {
    "pde": {"type": "stokes", "params": {"nu": 1.0}, "forcing": {"value": [f"2*pi**2*({c})" for c in u]}},
    "domain": {"type": "l_shape", "geometry_params": {"vertices": corners}},
    "bc": {"dirichlet": {"on": "all", "value": u}},
    "eval_grid": {"nx": 21, "ny": 21, "bbox": [0, 1, 0, 1]},
    "output": {"field": "u_mag"},
}
namespace["ORACLE_CONFIG"].update(resolution=8, degree=3, degree_p=2)
field = namespace["solve"](spec)["u"]
x, y = np.meshgrid(np.linspace(0, 1, 21), np.linspace(0, 1, 21))
exact = np.pi * np.hypot(np.sin(np.pi * x) * np.cos(np.pi * y), np.sin(np.pi * y) * np.cos(np.pi * x))
inside = np.isfinite(field)
print(inside.mean(), np.linalg.norm(field[inside] - exact[inside]) / np.linalg.norm(exact[inside]))
"""


def test_stokes_p3_on_a_gmsh_mesh(dolfinx_env, tmp_path):
    inside, error = map(float, run_probe(dolfinx_env, tmp_path, STOKES_PROBE).split()[-2:])
    assert inside > 0.7  # the L-shape holds three quarters of the grid
    assert error < 1e-4, error  # P3 at h = 1/8 (3e-2 with the collapsed subspace; P2-P1 gets 3e-4)


SECTOR_PROBE = """
import json, sys
from mpi4py import MPI  # first: it loads the MPI library that DOLFINx links against
import numpy as np
namespace = {"__name__": "oracle"}
exec(compile(open(sys.argv[1]).read(), "oracle_dolfinx.py", "exec"), namespace)
namespace["ORACLE_CONFIG"].update(resolution=80, degree=2)
print(json.dumps({name: namespace["solve"](spec)["u"].tolist() for name, spec in json.loads(sys.argv[2]).items()}))
"""


def sector_spec(angle: float) -> dict:
    """Poisson with the exact solution cos(pi x) cos(pi y) on the unit-radius sector of ``angle`` degrees; its grid
    has a row on y = 0, as upstream ``poisson_sector_180_coscos`` has."""
    exact = "cos(pi*x)*cos(pi*y)"
    return {
        "pde": {"type": "poisson", "params": {}, "forcing": {"type": "expression", "value": f"2*pi**2*{exact}"}},
        "domain": {"type": "sector", "geometry_params": {"center": [0, 0], "radius": 1.0, "angle": angle}},
        "bc": {"dirichlet": {"on": "boundary", "value": exact}},
        "eval_grid": {"type": "cartesian", "nx": 80, "ny": 81, "bbox": [-1.0, 1.0, -1.0, 1.0]},
        "output": {"format": "npz", "field": "u"},
    }


def test_sectors_of_180_degrees_and_more(dolfinx_env, tmp_path):
    """The 180-degree side lay 1e-16 below y = 0 (sin(pi) is not 0), so grid points on it were in no cell and
    the record failed as non-finite; a 270-degree sector was meshed as a quarter disk (gmsh's arc goes the short
    way). Every scored point (the harness's own mask) must be finite and match the exact solution."""
    specs = {str(angle): sector_spec(angle) for angle in (180, 270)}
    fields = json.loads(run_probe(dolfinx_env, tmp_path, SECTOR_PROBE, json.dumps(specs)).splitlines()[-1])
    x, y = np.meshgrid(np.linspace(-1, 1, 80), np.linspace(-1, 1, 81))
    exact = np.cos(np.pi * x) * np.cos(np.pi * y)
    for name, spec in specs.items():
        u, scored = np.asarray(fields[name], dtype=float), grid.domain_mask(spec)
        assert np.isfinite(u[scored]).all(), f"{name} degrees: {np.count_nonzero(~np.isfinite(u[scored]))} NaN"
        error = np.linalg.norm((u - exact)[scored]) / np.linalg.norm(exact[scored])
        assert error < 1e-5, (name, error)
