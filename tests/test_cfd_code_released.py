"""cfd-code@legacy against CFDCodeBench's released arrays (the config's ``references`` key): the folder checks,
reading the arrays, scoring against them and the provenance that keeps such runs apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cfd_code_support import REPO, UPSTREAM, reference

from simcodebench.core.cases import get_case
from simcodebench.core.errors import InputError
from simcodebench.core.references import load_reference
from simcodebench.core.versions import case_version, judged_version
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.reference import make_reference
from simcodebench.suites.cfd_code import released, scorer

FIELD = "references.cfd-code@legacy"


def legacy(case_id: str):
    """A case of the legacy variant."""
    return get_case("cfd-code@legacy", case_id, root=REPO / "cases")


def shock_tube_folder(folder: Path, shapes: dict[str, tuple[int, ...]]) -> Path:
    """A released folder with the shock tube's arrays of the given shapes (ones)."""
    folder.mkdir(exist_ok=True)
    for name, shape in shapes.items():
        np.save(folder / f"{name}_1D_Euler_Shock_Tube.npy", np.ones(shape))
    return folder


def config(folder: Path | str, suite: str = "cfd-code@legacy") -> dict:
    """A run of one legacy case with its references read from ``folder``."""
    return {
        "suites": [suite],
        "cases": {suite: ["1D_Euler_Shock_Tube"]},
        "references": {suite: str(folder)},
        "agents": {"oracle": {"backend": "oracle"}},
    }


def test_a_folder_without_one_of_the_arrays_is_one_line_naming_file_field_and_fix(tmp_path: Path) -> None:
    folder = shock_tube_folder(tmp_path / "solution", {"rho": (81,), "u": (81,)})
    with pytest.raises(InputError) as raised:
        released.check_folder(legacy("1D_Euler_Shock_Tube"), folder, FIELD)
    message = str(raised.value)
    assert "\n" not in message
    assert str(folder / "E_1D_Euler_Shock_Tube.npy") in message and FIELD in message
    assert "is missing" in message and "results/solution" in message and "shape [81]" in message


def test_an_array_of_the_wrong_shape_is_one_line_naming_file_field_and_fix(tmp_path: Path) -> None:
    folder = shock_tube_folder(tmp_path / "solution", {"E": (81,), "rho": (80,), "u": (81,)})
    wrong = r"rho_1D_Euler_Shock_Tube\.npy.*references\.cfd-code@legacy.*has shape \[80\], not \[81\]"
    with pytest.raises(InputError, match=wrong):
        released.check_folder(legacy("1D_Euler_Shock_Tube"), folder, FIELD)
    (folder / "rho_1D_Euler_Shock_Tube.npy").write_text("not an array")
    with pytest.raises(InputError, match=r"rho_1D_Euler_Shock_Tube\.npy.*is not a NumPy array file"):
        released.check_folder(legacy("1D_Euler_Shock_Tube"), folder, FIELD)


def test_the_plan_checks_the_key_before_anything_runs(tmp_path: Path) -> None:
    folder = shock_tube_folder(tmp_path / "solution", {"E": (81,), "rho": (81,), "u": (81,)})
    plan = Plan.from_config(config(folder))
    assert plan.released_files("cfd-code@legacy", "1D_Euler_Shock_Tube") == [
        str(folder / f"{name}_1D_Euler_Shock_Tube.npy") for name in ("E", "rho", "u")
    ]
    with pytest.raises(InputError, match=r"references\.cfd-code@legacy.*is not a folder"):
        Plan.from_config(config(tmp_path / "absent"))
    with pytest.raises(InputError, match=r"references\.cfd-code@legacy.*not in suites.*add cfd-code@legacy"):
        Plan.from_config({**config(folder, "cfd-code"), "references": {"cfd-code@legacy": str(folder)}})
    # the default suite compares in physical coordinates: the released arrays carry no grid
    with pytest.raises(InputError, match=r"references\.cfd-code.*no grid.*cfd-code@legacy"):
        Plan.from_config(config(folder, "cfd-code"))
    (folder / "u_1D_Euler_Shock_Tube.npy").unlink()
    with pytest.raises(InputError, match=r"u_1D_Euler_Shock_Tube\.npy.*is missing"):
        Plan.from_config(config(folder))


def test_the_reference_stage_reads_the_arrays_and_records_their_hashes(tmp_path: Path) -> None:
    folder = shock_tube_folder(tmp_path / "solution", {"E": (81,), "rho": (81,), "u": (81,)})
    the_case = legacy("1D_Euler_Shock_Tube")
    files = released.check_folder(the_case, folder, FIELD)
    out = tmp_path / "reference"
    make_reference(the_case, out.with_suffix(".json"), out.with_suffix(".h5"), files)
    stored = load_reference(out.with_suffix(".json"), out.with_suffix(".h5"))
    assert sorted(stored.fields) == ["E", "rho", "u"] and stored.meta["layout"] == released.LAYOUT
    assert stored.meta["released"]["folder"] == str(folder.resolve())
    assert sorted(stored.meta["released"]["files"]) == [path.name for path in files]
    # the judged version follows the arrays, not where they lie; a made reference keeps the case's version
    version = judged_version(the_case, stored.meta)
    assert version != case_version(the_case) and judged_version(the_case, {}) == case_version(the_case)
    np.save(folder / "u_1D_Euler_Shock_Tube.npy", np.zeros(81))
    make_reference(the_case, out.with_suffix(".json"), out.with_suffix(".h5"), files)
    assert judged_version(the_case, load_reference(out.with_suffix(".json"), out.with_suffix(".h5")).meta) != version


def test_a_sample_meets_each_array_on_its_own_against_the_released_arrays(tmp_path: Path) -> None:
    """Scored as the released comparison: file by file, by index resampling, without our layout or options."""
    the_case = legacy("2D_Steady_Heat_Equation")  # our reference is stored transposed to the upstream layout
    upstream_like = np.arange(101 * 81, dtype=float).reshape(101, 81)
    run = tmp_path / "run"
    run.mkdir()
    np.save(run / "T_2D_Steady_Heat_Equation.npy", upstream_like)
    folder = tmp_path / "solution"
    folder.mkdir()
    np.save(folder / "T_2D_Steady_Heat_Equation.npy", upstream_like)
    ref = released.read(the_case, released.check_folder(the_case, folder, FIELD))
    evaluation = scorer.measure(the_case, run, ref)
    assert evaluation.outcome == "ok" and evaluation.error == 0.0
    np.save(folder / "T_2D_Steady_Heat_Equation.npy", 2 * upstream_like)  # NMSE 1/4 exactly: bin 0.5
    evaluation = scorer.measure(the_case, run, released.read(the_case, [folder / "T_2D_Steady_Heat_Equation.npy"]))
    assert evaluation.metrics["nmse_T"] == pytest.approx(0.25) and evaluation.metrics["score_T"] == 0.5


def test_the_released_arrays_are_read_as_upstream_saved_them(tmp_path: Path) -> None:
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream data absent: {UPSTREAM}")
    shock = legacy("1D_Euler_Shock_Tube")
    ref = released.read(shock, released.check_folder(shock, UPSTREAM, FIELD))
    for name in ("E", "rho", "u"):
        np.testing.assert_array_equal(ref.fields[name], np.load(UPSTREAM / f"{name}_1D_Euler_Shock_Tube.npy"))
    # a statistics case is compared pointwise against the arrays, as upstream did (u a (2, 256, 64) vector)
    convection = legacy("2D_Rayleigh_Benard_Convection")
    ref = released.read(convection, released.check_folder(convection, UPSTREAM, FIELD))
    assert {name: array.shape for name, array in ref.fields.items()} == {
        "b": (256, 64),
        "p": (256, 64),
        "u": (2, 256, 64),
    }


def test_our_exact_linear_convection_scores_its_distance_from_the_released_array(tmp_path: Path) -> None:
    """Our exact reference, saved as a sample, meets the released array at the NMSE that the README's table gives
    (3.5e-2, upstream's damping bug), and itself exactly."""
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream data absent: {UPSTREAM}")
    the_case = legacy("1D_Linear_Convection")
    run = tmp_path / "run"
    run.mkdir()
    np.save(run / "u_1D_Linear_Convection.npy", reference("1D_Linear_Convection").fields["u"])
    against_ours = scorer.measure(the_case, run, reference("1D_Linear_Convection"))
    ref = released.read(the_case, released.check_folder(the_case, UPSTREAM, FIELD))
    against_released = scorer.measure(the_case, run, ref)
    assert against_ours.error < 1e-20
    assert 0.030 < against_released.error < 0.040, against_released
