"""What the harness puts next to a fem submission, and the oracle it submits for the oracle agent.

The sandbox gets ``case_spec.json`` (the case's agent-visible ``spec.case_spec``, nothing hidden) and, for a
Python track, the runner (:mod:`.sandbox_runner`, under the suite's entrypoint name), for the C++ track
(deal.II) the ``CMakeLists.txt`` that builds ``solver.cc`` against deal.II and nlohmann/json. Under a released
variant the sandbox gets the released ``case_spec`` and runner instead (:mod:`.released_spec`,
:mod:`.released_runner`), and the oracle a ``solve`` in front that hands it our ``case_spec``. The oracle is the
suite's shared solver file named by ``hidden.oracle`` with the discretisation of
``hidden.reference.params.oracle``: ``ORACLE_CONFIG = {...}`` appended (Python) or ``ORACLE_CONFIG_JSON``
defined first (C++).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.suites.fem.released_spec import is_released, released_case_spec

RUNNER = Path(__file__).with_name("sandbox_runner.py")
RELEASED_RUNNER = Path(__file__).with_name("released_runner.py")
CASE_SPEC = "case_spec.json"


def case_spec(case: Case) -> dict[str, Any]:
    """The agent-visible case spec (App. J ``case_spec``)."""
    return case.visible.spec["case_spec"]


CMAKE = """cmake_minimum_required(VERSION 3.13)
find_package(deal.II 9.4 REQUIRED)
deal_ii_initialize_cached_variables()
project(solver CXX)
find_package(nlohmann_json 3 REQUIRED)
add_executable(solver solver.cc)
deal_ii_setup_target(solver)
target_link_libraries(solver nlohmann_json::nlohmann_json)
"""


def compiled(case: Case) -> bool:
    """Whether the suite's submissions are C++ programs (the deal.II track)."""
    return case.suite.data["language"] == "cpp"


def prepare_run(case: Case, run_dir: Path) -> None:
    """Write ``case_spec.json`` and the runner (or the CMake project) into ``run_dir``: the released ones under a
    released variant."""
    released = is_released(case)
    spec = released_case_spec(case) if released else case_spec(case)
    Path(run_dir, CASE_SPEC).write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    if compiled(case):
        Path(run_dir, "CMakeLists.txt").write_text(CMAKE, encoding="utf-8")
    else:
        runner = RELEASED_RUNNER if released else RUNNER
        Path(run_dir, case.suite.entrypoint).write_text(runner.read_text(encoding="utf-8"), encoding="utf-8")


RELEASED_ADAPTER = """

# --- the released contract: solve() gets the released case_spec; the oracle solves the case's own ---
NATIVE_CASE_SPEC = {spec!r}
_native_solve = solve


def solve(case_spec):
    return _native_solve(NATIVE_CASE_SPEC)
"""


def released_adapted(case: Case, source: str) -> str:
    """A Python solution written to our ``case_spec``, under a released variant given a ``solve`` in front that
    ignores the released ``case_spec`` and solves the case's own (the oracle's and the second solution's way)."""
    if compiled(case) or not is_released(case):
        return source
    return source + RELEASED_ADAPTER.format(spec=case_spec(case))


def configured_oracle(case: Case, config: dict[str, Any]) -> str:
    """The oracle's source with its configuration ``config`` (adapted to a released variant by
    :func:`released_adapted`)."""
    source = (case.folder / case.hidden.oracle).read_text(encoding="utf-8")
    if compiled(case):
        return f'#define ORACLE_CONFIG_JSON R"json({json.dumps(config)})json"\n{source}'
    return released_adapted(case, f"{source.rstrip()}\n\n\nORACLE_CONFIG = {config!r}\n")


def oracle_source(case: Case) -> str:
    """The oracle in its calibration configuration: what the oracle agent submits and calibration times."""
    return configured_oracle(case, case.hidden.reference["params"]["oracle"])
