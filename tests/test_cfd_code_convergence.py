"""cfd-code's convergence check (M_conv) and the source rewrites behind it and behind the legacy file naming."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cfd_code_support import case, param_ids, reference

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.agents.rewrites import np_save_by_variable, scale_constants, scale_literals
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.convergence import check_convergence, converged

PASS_MARK = {"thresholds": {"accuracy": 0.10}}


def test_np_save_by_variable_renames_by_the_saved_variable() -> None:
    source = (
        "np.save('/home/me/out/u.npy', u)\n"
        'np.save( "v", v )\n'
        "numpy.save(os.path.join(d, 'x.npy'), velocity)\n"
        "np.save(f'p_{n}.npy', p)\n"
        "np.save('w.npy', w[:, -1])\n"
        "np.savez('all.npz', u=u)\n"
    )
    rewritten, count = np_save_by_variable(source, "1D_Diffusion")
    assert count == 1
    assert rewritten.splitlines() == [
        "np.save('u_1D_Diffusion.npy', u)",
        'np.save( "v", v )',  # the released pattern wants the quote right after the parenthesis
        "numpy.save(os.path.join(d, 'x.npy'), velocity)",  # a computed path keeps its own, as upstream
        "np.save(f'p_{n}.npy', p)",
        "np.save('w.npy', w[:, -1])",  # an expression keeps its own path, as upstream
        "np.savez('all.npz', u=u)",
    ]


def test_scale_constants_touches_only_top_level_assignments_of_the_named_constants() -> None:
    source = "NX = 64  # cells\nNT = 100\nNXX = 5\n    NX = 7\ndef f(NX=3):\n    pass\nNY = 10\n"
    rewritten, changed = scale_constants(source, ["NX", "NT"], 2)
    assert changed == {"NX": (64, 128), "NT": (100, 200)}
    assert rewritten.splitlines()[:4] == ["NX = 128  # cells", "NT = 200", "NXX = 5", "    NX = 7"]
    assert "NY = 10" in rewritten and "def f(NX=3)" in rewritten
    assert scale_constants("nx = 64\n", ["NX"], 2)[1] == {}


def test_scale_literals_reproduces_the_released_regular_expression() -> None:
    # upstream's converged gpt-4o 2D_Convection script reads "nx, ny = 404, 101" after "nx, ny = 101, 101"
    source = "nx, ny = 101, 101\nnt = 80\nrun(nx=41)\nif nx == 5:\n    pass\nNX = 9\n"
    rewritten, changed = scale_literals(source, 4)
    assert rewritten.splitlines()[:3] == ["nx, ny = 404, 101", "nt = 320", "run(nx=164)"]
    assert "if nx == 5:" in rewritten and "NX = 9" in rewritten
    assert changed == {"ny": (101, 404), "nt": (80, 320), "nx": (41, 164)}


@pytest.mark.parametrize(
    ("first", "refined", "floor", "expected"),
    [
        (1e-3, 5e-4, 0.0, True),
        (1e-3, 1e-3, 0.0, False),
        (1e-3, 2e-3, 0.0, False),
        (1e-9, 1e-6, 1e-5, True),
        (1e-9, 2e-5, 1e-5, False),
        (1e-14, 3e-13, 0.0, True),
    ],
)
def test_converged_needs_a_drop_unless_below_the_floor_or_round_off(
    first: float, refined: float, floor: float, expected: bool
) -> None:
    assert converged(first, refined, floor) is expected


def _first_run(case_id: str, source: str, tmp_path: Path) -> tuple[Path, dict]:
    the_case = case(case_id)
    solution = tmp_path / "solution"
    solution.mkdir(parents=True)
    write_solution(extract_files(the_case, f"```python\n{source}\n```"), solution)
    result = execute_solution(the_case, solution, tmp_path / "run", "local")
    return solution, result.to_dict()


def _check(case_id: str, source: str, tmp_path: Path) -> dict:
    solution, run = _first_run(case_id, source, tmp_path)
    return check_convergence(
        case(case_id),
        {"status": "ok"},
        solution,
        run,
        tmp_path / "run",
        reference(case_id),
        PASS_MARK,
        tmp_path / "converge",
        "local",
    )


@pytest.mark.parametrize("case_id", param_ids())
def test_every_oracle_converges(case_id: str, tmp_path: Path) -> None:
    source = oracle_reply(case(case_id)).split("\n", 1)[1].rsplit("```", 1)[0]
    record = _check(case_id, source, tmp_path)
    assert record["converged"] is True, record["message"]
    assert record["status"] in ("checked", "exempt")


def test_a_solution_worse_when_refined_does_not_converge(tmp_path: Path) -> None:
    the_case = case("1D_Diffusion")
    index = mutant_names(the_case).index("degrade-on-refine")
    mutant = build_mutant(the_case, index, None)
    record = _check("1D_Diffusion", mutant.source, tmp_path)
    assert record["converged"] is False and "did not drop" in record["message"]
    assert set(record["refined"]) == set(the_case.visible.spec["resolution"])
    assert all(new == 2 * old for old, new in record["refined"].values())
    assert record["metrics"]["error_refined"] > record["metrics"]["error_first"]


def test_nothing_to_refine_is_not_convergence_and_failing_runs_are_not_checked(tmp_path: Path) -> None:
    source = oracle_reply(case("1D_Diffusion")).split("\n", 1)[1].rsplit("```", 1)[0]
    pinned = re.sub(r"^(NX|NT) = (\d+)", r'\1 = int("\2")', source, flags=re.M)
    record = _check("1D_Diffusion", pinned, tmp_path / "pinned")
    assert record["converged"] is False and "nothing" in record["message"]
    failing = _check("1D_Diffusion", "raise SystemExit(1)", tmp_path / "failing")
    assert failing["status"] == "skipped" and failing["converged"] is None


def test_the_cavity_converges_on_its_velocity_and_the_shear_flow_has_its_reference_floor() -> None:
    from simcodebench.core.cases import get_case
    from simcodebench.core.measurement import Measurement
    from simcodebench.pipeline.convergence import convergence_floor
    from simcodebench.suites.cfd_code.scorer import convergence_error

    cavity = case("Lid_Driven_Cavity")
    measured = Measurement(outcome="ok", error=5.9e-3, metrics={"nmse_u": 1.9e-6, "nmse_v": 3.8e-6, "nmse_p": 5.9e-3})
    assert convergence_error(cavity, measured) == 3.8e-6  # the pressure, singular at the lid corners, left out
    legacy = get_case("cfd-code@legacy", "Lid_Driven_Cavity", root=case("1D_Diffusion").folder.parents[1])
    assert convergence_error(legacy, measured) == 5.9e-3  # the released rule compares the whole error
    assert convergence_error(case("1D_Diffusion"), Measurement(outcome="ok", error=0.02)) == 0.02
    shear = case("2D_Shear_Flow_With_Tracer")
    assert convergence_floor(shear) == 1.0e-4 and convergence_floor(case("1D_Diffusion")) == 1.0e-5
    assert converged(8.188e-8, 3.253e-5, convergence_floor(shear))  # the independent program of 2026-11-27
    assert not converged(8.188e-8, 3.253e-5, convergence_floor(case("1D_Diffusion")))
    shear_legacy = get_case("cfd-code@legacy", "2D_Shear_Flow_With_Tracer", root=case("1D_Diffusion").folder.parents[1])
    assert convergence_floor(shear_legacy) == 0.0
