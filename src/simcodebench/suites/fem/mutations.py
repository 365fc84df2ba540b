"""Mutant operations on an App. J submission: they wrap ``solve`` and spoil the field it returns.

``poison_result`` puts one NaN deep inside the domain (F-Exec under the paper's rule: a non-finite value inside
the domain fails the run); ``transpose_result`` returns ``u[i, j]`` instead of ``u[j, i]`` (x and y swapped,
points outside the domain set to 0), a wrong grid orientation that stays finite and well shaped on a square
grid (F-Acc wherever the solution is not symmetric in x and y); ``sleep_past_time_gate_cpp`` makes a C++
program outlast the time gate (a static object that sleeps at exit) and ``perturb_grid_cpp`` rewrites its grid
with a wrong answer (a static object that rewrites ``solution_grid.bin`` at exit): both act on any program,
the oracle or a second solution.
"""

from __future__ import annotations

from simcodebench.agents.backends.mutant import MutationContext, outlast_target

_WRAP = """

# --- mutant: spoil the field that solve() returns ---
import numpy as _mnp

_mutant_inner_solve = solve


def _mutant_deep_inside(u, depth=3):
    inner = _mnp.isfinite(u)
    core = (slice(1, -1),) * u.ndim
    for _ in range(depth):
        padded = _mnp.pad(inner, 1, constant_values=False)
        shrunk = padded[core].copy()
        for axis in range(u.ndim):
            for shift in (-1, 1):
                shrunk &= _mnp.roll(padded, shift, axis)[core]
        inner = shrunk
    return inner


def solve(case_spec):
    result = _mutant_inner_solve(case_spec)
    u = _mnp.array(result["u"], dtype=float)
{body}
    result["u"] = u
    return result
"""


def poison_result(source: str, ctx: MutationContext) -> str:
    """One NaN at a grid point at least three points away from the domain's edge."""
    body = "    deep = _mnp.flatnonzero(_mutant_deep_inside(u))\n    u.flat[deep[len(deep) // 2]] = _mnp.nan"
    return source + _WRAP.format(body=body)


def transpose_result(source: str, ctx: MutationContext) -> str:
    """x and y swapped (the last two axes), NaN outside the domain replaced by 0."""
    return source + _WRAP.format(body="    u = _mnp.nan_to_num(_mnp.swapaxes(u, -1, -2), nan=0.0)")


def sleep_past_time_gate_cpp(source: str, ctx: MutationContext) -> str:
    """At exit, sleep until the program has run past the time gate (the C++ form of ``sleep_past_time_gate``)."""
    milliseconds = round(1000 * outlast_target(ctx))
    return (
        "#include <chrono>\n#include <thread>\n"
        "namespace {  // mutant: outlast the time gate\n"
        "struct MutantOutlast {\n"
        "  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();\n"
        f"  ~MutantOutlast() {{ std::this_thread::sleep_until(start + std::chrono::milliseconds({milliseconds})); }}\n"
        "} mutant_outlast;\n}\n" + source
    )


def perturb_grid_cpp(source: str, ctx: MutationContext) -> str:
    """At exit, rewrite every value ``v`` of ``solution_grid.bin`` (in the working directory, the harness's
    ``OUTDIR``) as ``1.5 v + 0.5``: finite where the program's values are, well shaped and wrong (F-Acc)."""
    return (
        "#include <fstream>\n#include <vector>\n"
        "namespace {  // mutant: a wrong answer written over the right one\n"
        "struct MutantPerturb {\n"
        "  ~MutantPerturb() {\n"
        "    std::vector<double> values;\n"
        "    double value;\n"
        '    std::ifstream in("solution_grid.bin", std::ios::binary);\n'
        "    while (in.read(reinterpret_cast<char *>(&value), sizeof value)) values.push_back(1.5 * value + 0.5);\n"
        "    in.close();\n"
        '    std::ofstream("solution_grid.bin", std::ios::binary)\n'
        "        .write(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));\n"
        "  }\n"
        "} mutant_perturb;\n}\n" + source
    )


MUTANT_OPERATIONS = {
    "poison_result": poison_result,
    "transpose_result": transpose_result,
    "sleep_past_time_gate_cpp": sleep_past_time_gate_cpp,
    "perturb_grid_cpp": perturb_grid_cpp,
}
