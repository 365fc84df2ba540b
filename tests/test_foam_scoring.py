"""foam scoring pieces that need no OpenFOAM: ROUGE-L and structure, field reading, NMSE and sampling, the
solver-log rule, and the mutant edits of dictionary text."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from simcodebench.agents.backends.mutant import MutationContext
from simcodebench.execution.openfoam import judge_run, log_ends_in_end, solver_logs
from simcodebench.execution.runtime import RunResult
from simcodebench.suites.foam.compare import compare_fields, nmse, nmse_score, same_mesh, sample_at
from simcodebench.suites.foam.dictionaries import DictionaryEditError
from simcodebench.suites.foam.fields import FieldReadError, cell_centres, read_fields, read_internal, time_dirs
from simcodebench.suites.foam.mutants import drop_patch, set_entry, set_patch_value, swap_solver
from simcodebench.suites.foam.similarity import clean, lcs_length, rouge_l, similarity, tokens

HEADER = "FoamFile\n{\n    version 2.0;\n    format ascii;\n    class %s;\n    object %s;\n}\n"


# ----------------------------------------------------------------------------- ROUGE-L and structure


def test_lcs_and_rouge_l_on_hand_values():
    assert lcs_length(list("abcbdab"), list("bdcaba")) == 4
    assert lcs_length([], ["a"]) == 0
    # reference a b c d, candidate a c d e: LCS 3, P = R = 3/4
    assert rouge_l("{ a b c d", "{ a c d e") == pytest.approx(0.75)
    # reference 4 tokens, candidate 2 of them: P = 1, R = 1/2, F1 = 2/3
    assert rouge_l("{ a b c d", "{ b d") == pytest.approx(2 / 3)
    assert rouge_l("{ x", "{ y") == 0.0
    assert rouge_l("FoamFile { a }", "FoamFile { b }") == pytest.approx(0.5)


def test_cleaning_drops_comments_and_banner_as_upstream():
    text = "/*---*\\\n| banner |\n\\*---*/\n// comment\n  * star line\nstart\nFoamFile\n{\n  a 1; // kept\n}\n"
    assert clean(text) == "FoamFile\n{\n  a 1; // kept\n}\n"
    assert tokens("Gauss linearUpwind grad(U);") == ["gauss", "linearupwind", "grad", "u"]
    assert rouge_l("/* one */\nFoamFile { a }", "// other\nFoamFile { a }") == 1.0


def test_structure_and_file_scores_average_over_folders():
    reference = {
        "0/U": "{ u 1 }",
        "0/p": "{ p 0 }",
        "constant/transportProperties": "{ nu 1 }",
        "system/controlDict": "{ application icoFoam }",
        "system/fvSchemes": "{ default Euler }",
        "system/log.x": "ignored",
        "constant/polyMesh/points": "ignored",
        "Allrun": "not in a compared folder",
    }
    candidate = {
        "0/U": "{ u 1 }",
        "0/p": "{ p 0 }",
        "constant/transportProperties": "{ nu 2 }",
        "system/controlDict": "{ application icoFoam }",
        "extra/file": "{ }",
    }
    scores = similarity(reference, candidate)
    assert scores["struct"] == pytest.approx((1 + 1 + 0.5) / 3)
    assert scores["file"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert similarity(reference, {}) == {"struct": 0.0, "file": 0.0}


# ----------------------------------------------------------------------------- field files


def _field(path, cls, internal):
    path.parent.mkdir(parents=True, exist_ok=True)
    text = HEADER % (cls, path.name) + f"dimensions [0 1 -1 0 0 0 0];\ninternalField {internal};\nboundaryField {{}}\n"
    path.write_text(text)


def test_reads_uniform_and_nonuniform_fields_and_gz(tmp_path):
    _field(tmp_path / "0" / "p", "volScalarField", "uniform 2.5")
    _field(tmp_path / "0" / "U", "volVectorField", "uniform (1 0 0)")
    _field(tmp_path / "0.5" / "p", "volScalarField", "nonuniform List<scalar> 3 (1 2 3)")
    _field(tmp_path / "0.5" / "C", "volVectorField", "nonuniform List<vector> 3 ((0 0 0) (1 0 0) (2 0 0))")
    with gzip.open(tmp_path / "0.5" / "U.gz", "wt") as handle:
        handle.write(
            HEADER % ("volVectorField", "U") + "internalField nonuniform List<vector> 3 ((1 0 0) (2 0 0) (3 0 1));\n"
        )
    (tmp_path / "constant").mkdir()
    assert list(time_dirs(tmp_path)) == [0.0, 0.5]
    assert read_internal(tmp_path / "0" / "p", 3).tolist() == [2.5, 2.5, 2.5]
    assert read_internal(tmp_path / "0" / "U", 3).shape == (3, 3)
    assert cell_centres(tmp_path)[:, 0].tolist() == [0.0, 1.0, 2.0]
    fields = read_fields(tmp_path / "0.5", 3)
    assert sorted(fields) == ["U", "p"] and fields["U"][2].tolist() == [3.0, 0.0, 1.0]
    with pytest.raises(FieldReadError, match="3 values for 4 cells"):
        read_internal(tmp_path / "0.5" / "p", 4)
    (tmp_path / "0.5" / "T").write_text("not a field {")
    with pytest.raises(FieldReadError):
        read_internal(tmp_path / "0.5" / "T", 3)


# ----------------------------------------------------------------------------- NMSE and sampling


def test_nmse_and_score_bands():
    y = np.array([1.0, 2.0, 3.0])
    assert nmse(y, y) == 0.0
    assert nmse(y, 1.1 * y) == pytest.approx(0.01)
    assert nmse(np.zeros(3), np.zeros(3)) == 0.0 and nmse(np.zeros(3), y) == float("inf")
    assert [nmse_score(v) for v in (0.0, 0.1, 0.1001, 0.3, 0.31)] == [1.0, 1.0, 0.5, 0.5, 0.0]


def test_sampling_a_finer_mesh_at_reference_centres_is_exact_for_linear_fields():
    gx, gy = np.meshgrid(np.linspace(0.05, 0.95, 10), np.linspace(0.05, 0.95, 10))
    ref = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, 0.005)])
    fx, fy = np.meshgrid(np.linspace(0.025, 0.975, 20), np.linspace(0.025, 0.975, 20))
    fine = np.column_stack([fx.ravel(), fy.ravel(), np.full(fx.size, 0.05)])  # other depth: ignored (flat axis)
    linear = lambda p: 2 * p[:, 0] - p[:, 1] + 1  # noqa: E731
    vector = lambda p: np.column_stack([p[:, 0], p[:, 1], np.zeros(len(p))])  # noqa: E731
    assert np.allclose(sample_at(fine, linear(fine), ref), linear(ref))
    assert np.allclose(sample_at(fine, vector(fine), ref), vector(ref))
    outside = np.array([[2.0, 0.025, 0.0]])  # beyond the hull: the nearest cell, (0.975, 0.025)
    assert sample_at(fine, linear(fine), np.vstack([ref[:3], outside]))[-1] == pytest.approx(linear(fine[[19]])[0])
    errors, interpolated = compare_fields(ref, {"p": linear(ref)}, fine, {"p": linear(fine), "T": linear(fine)})
    assert interpolated and list(errors) == ["p"] and errors["p"] == pytest.approx(0.0, abs=1e-20)
    assert same_mesh(ref, ref.copy()) and not same_mesh(ref, fine)


def test_one_dimensional_sampling():
    ref = np.column_stack([np.linspace(0, 1, 5), np.zeros(5), np.zeros(5)])
    sample = np.column_stack([np.linspace(0, 1, 9)[::-1], np.zeros(9), np.zeros(9)])
    assert np.allclose(sample_at(sample, 3 * sample[:, 0], ref), 3 * ref[:, 0])


# ----------------------------------------------------------------------------- solver log rule


def _result(rc=0, status="ok"):
    return RunResult(status=status, rc=rc, wall_s=1.0, peak_rss_mb=None, runtime="local")


def test_the_solver_log_decides_execution(tmp_path):
    (tmp_path / "system").mkdir()
    (tmp_path / "system" / "controlDict").write_text("application     icoFoam;\n")
    (tmp_path / "log.blockMesh").write_text("...\nEnd\n\n")
    (tmp_path / "log.icoFoam").write_text("Time = 0.5\n\nFOAM FATAL ERROR\n")
    judged = judge_run(_result(rc=0), tmp_path)
    assert judged.status == "error" and "log.icoFoam" in judged.message
    (tmp_path / "log.icoFoam").write_text("Time = 0.5\nExecutionTime = 1 s\n\nEnd\n\n")
    assert judge_run(_result(rc=1), tmp_path).status == "ok"
    assert judge_run(_result(rc=None, status="timeout"), tmp_path).status == "timeout"
    parallel = tmp_path / "log.parallel"
    parallel.write_text("End\n\nFinalising parallel run\n")
    assert log_ends_in_end(parallel)
    (tmp_path / "system" / "controlDict").write_text("startTime 0;\n")  # no application: any log.*Foam
    assert [p.name for p in solver_logs(tmp_path)] == ["log.icoFoam"]
    assert judge_run(_result(rc=97), tmp_path).status == "infra"


# ----------------------------------------------------------------------------- mutant edits

U_FILE = (
    HEADER % ("volVectorField", "U")
    + """internalField   uniform (0 0 0);

boundaryField
{
    inlet
    {
        type            fixedValue;
        value           uniform (10 0 0);
    }
    "(?i).*walls"
    {
        type            noSlip;
    }
}
"""
)
CASE = {
    "0/U": U_FILE,
    "system/controlDict": "application     pisoFoam;\n\ndeltaT          0.005;\nadjustTimeStep  yes;\n",
    "Allrun": "#!/bin/sh\nblockMesh > log.blockMesh 2>&1\npisoFoam > log.pisoFoam 2>&1\n",
}


def _ctx(**args):
    return MutationContext(case=None, tau_time=None, args=args)  # type: ignore[arg-type]


def test_mutant_edits():
    dropped = drop_patch(CASE, _ctx(file="0/U", patch="inlet"))["0/U"]
    assert "inlet" not in dropped and '"(?i).*walls"' in dropped and dropped.count("{") == dropped.count("}")
    swapped = swap_solver(CASE, _ctx(solver="rhoPimpleFoam"))
    assert "application     rhoPimpleFoam;" in swapped["system/controlDict"]
    assert "rhoPimpleFoam > log.rhoPimpleFoam" in swapped["Allrun"] and swapped["0/U"] == U_FILE
    stepped = set_entry(CASE, _ctx(file="system/controlDict", entries={"deltaT": 0.5, "adjustTimeStep": "no"}))
    assert (
        "deltaT          0.5;" in stepped["system/controlDict"]
        and "adjustTimeStep  no;" in stepped["system/controlDict"]
    )
    inlet = set_patch_value(CASE, _ctx(file="0/U", patch="inlet", value="uniform (20 0 0)"))["0/U"]
    assert "value           uniform (20 0 0);" in inlet and "internalField   uniform (0 0 0);" in inlet
    assert CASE["0/U"] == U_FILE  # the oracle itself is untouched


@pytest.mark.parametrize(
    ("op", "args"),
    [
        (drop_patch, {"file": "0/U", "patch": "outlet"}),
        (drop_patch, {"file": "0/p", "patch": "inlet"}),
        (set_entry, {"file": "system/controlDict", "entries": {"maxCo": 5}}),
        (set_patch_value, {"file": "0/U", "patch": "inlet", "key": "gradient", "value": "uniform 0"}),
    ],
)
def test_mutant_edits_that_do_not_apply_fail_loudly(op, args):
    with pytest.raises(DictionaryEditError):
        op(CASE, _ctx(**args))
