"""Kinds of PDEAgent-Bench record the fem oracle could not run (found by ``benchmarks/fem_import_oracle_sweep.py``),
each solved by the oracle on a small manufactured problem and checked against the exact solution.

- a reaction term that vanishes (``reaction: {type: linear, alpha: 0.0}``, upstream
  ``reaction_diffusion_linear_high_frequency``; likewise a cubic with both coefficients 0): UFL turns ``0 * u * v``
  into its zero, which has no mesh, and the form failed with "This integral is missing an integration domain".
  Steady and transient, since the two build their forms apart.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from simcodebench.project import cases_root

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
    (tmp_path / "probe.py").write_text(PROBE)
    result = subprocess.run(
        [str(dolfinx_env.python), "probe.py", str(ORACLE), json.dumps(specs)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    errors = json.loads(result.stdout.splitlines()[-1])
    assert set(errors) == set(specs)
    assert all(error < 1e-3 for error in errors.values()), errors
