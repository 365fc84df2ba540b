"""cfd-code's Rayleigh-Benard ensemble at the case's size, the claims the tests check on a smaller ensemble
(tests/cfd_code_support.py, ``TEST_ENSEMBLE``): each member's statistics score 1 against the mean of the others
(the spread fits inside the pass mark), upstream's Dedalus snapshot scores 1 against the ensemble mean, and the
test-size ensemble's mean against the case's. Prints Markdown for benchmarks/results/test-suite.md; exits 1 when
a claim fails.

Usage: python benchmarks/rayleigh_benard_ensemble.py  (about 20 minutes of one core; ../shared/upstream optional)
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _common import REPO, machine

from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import convection_statistics
from simcodebench.suites.cfd_code.scorer import generate_reference

sys.path.insert(0, str(REPO / "tests"))
from cfd_code_support import UPSTREAM, case_as_tested  # noqa: E402
from test_cfd_code_references import dedalus_chebyshev_synthesis, real_fourier_synthesis  # noqa: E402

CASE = "2D_Rayleigh_Benard_Convection"
PASS_MARK = 0.10


def timed(make) -> tuple[Reference, float, float]:
    """``make()``, its wall and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = make()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def members(reference: Reference) -> list[dict[str, object]]:
    """The members' statistics as stored in the reference."""
    count = len(reference.fields["nusselt_wall_members"])
    names = ("nusselt_wall", "u_rms", "theta_mean")
    return [{name: reference.fields[f"{name}_members"][i] for name in names} for i in range(count)]


def dedalus_errors(reference: Reference) -> dict[str, float] | None:
    """Upstream's snapshot on our nodes, its statistic errors against ``reference`` (None without the data)."""
    paths = {name: UPSTREAM / f"{name}_{CASE}.npy" for name in ("b", "u")}
    if not all(path.is_file() for path in paths.values()):
        return None
    velocity = np.load(paths["u"])
    x_modes = {"b": np.load(paths["b"]), "u": velocity[0], "w": velocity[1]}
    z = reference.fields["z"]
    fields = {
        name: real_fourier_synthesis(dedalus_chebyshev_synthesis(modes, z, 1.0), (4.0,))
        for name, modes in x_modes.items()
    }
    return convection_statistics.against_reference(fields, reference)[1]


def main() -> int:
    print(f"machine: {machine()}")
    small, small_wall, small_cpu = timed(lambda: generate_reference(case_as_tested(CASE)))
    full, full_wall, full_cpu = timed(lambda: generate_reference(get_case("cfd-code", CASE, root=REPO / "cases")))
    failed = False
    print("| ensemble | members | wall (s) | CPU (s) | Nu wall | u_rms | worst leave-one-out |")
    print("|---|---|---|---|---|---|---|")
    for name, ref, wall, cpu in (("case", full, full_wall, full_cpu), ("tests", small, small_wall, small_cpu)):
        worst = max(convection_statistics.leave_one_out(members(ref)))
        failed |= worst > PASS_MARK
        params = ref.meta["params"]
        print(
            f"| {name} ({params['nx']} x {params['nz']}) | {params['seeds']} | {wall:.0f} | {cpu:.0f} | "
            f"{ref.scalars['nusselt_wall']:.3f} | {ref.scalars['u_rms']:.4f} | {worst:.4f} |"
        )
    ensemble = {name: full.scalars[name] for name in ("nusselt_wall", "u_rms")}
    ensemble["theta_mean"] = full.fields["theta_mean"]
    small_mean = {name: small.scalars[name] for name in ("nusselt_wall", "u_rms")}
    small_mean["theta_mean"] = np.interp(full.fields["z"], small.fields["z"], small.fields["theta_mean"])
    against = convection_statistics.statistic_errors(small_mean, ensemble)
    print(f"\nthe tests' ensemble mean against the case's: {_format(against)}")
    for name, ref in (("case", full), ("tests", small)):
        errors = dedalus_errors(ref)
        if errors is None:
            print(f"upstream's Dedalus snapshot: absent ({UPSTREAM})")
            break
        failed |= max(errors.values()) > PASS_MARK
        print(f"upstream's Dedalus snapshot against the {name}' ensemble: {_format(errors)}")
    return int(failed)


def _format(errors: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.4f}" for name, value in sorted(errors.items()))


if __name__ == "__main__":
    sys.exit(main())
