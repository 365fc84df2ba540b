"""The keyhole case on Re^4's released data set: ``simcodebench import re4-keyhole FOLDER`` on the real file in
../shared/upstream/re4 (skipped when absent), our oracle recovering Ke's exponents on it, and the errors
for a folder without the file or with another file under its name."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simcodebench.cli import main
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.errors import InputError
from simcodebench.execution.sandbox import prepare_run_dir
from simcodebench.suites.re4.released import import_released_keyhole

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream" / "re4"


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """A copy of the re4 suite's protocol and its keyhole case, to import into."""
    folder = tmp_path / "re4"
    folder.mkdir()
    for name in ("suite.yaml", "system.md.j2", "user.md.j2", "user_paper.md.j2"):
        shutil.copy2(REPO / "cases" / "re4" / name, folder / name)
    shutil.copytree(REPO / "cases" / "re4" / "keyhole", folder / "keyhole")
    return folder


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="../shared/upstream is absent")
def test_the_import_links_the_released_file(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "re4-keyhole", str(UPSTREAM), "--out", str(suite / "keyhole_released")]) == 0
    assert "case keyhole_released written" in capsys.readouterr().out
    cases = {case.id: case for case in load_suite_cases(suite)}
    released, synthetic = cases["keyhole_released"], cases["keyhole"]
    data = released.folder / "dataset_keyhole.csv"
    assert data.is_symlink() and data.resolve() == (UPSTREAM / "dataset_keyhole.csv").resolve()  # linked, not copied
    assert data.read_bytes() != (synthetic.folder / "dataset_keyhole.csv").read_bytes()
    assert released.visible.problem == synthetic.visible.problem and released.hidden == synthetic.hidden
    assert not list(suite.glob(".*partial"))


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="../shared/upstream is absent")
def test_the_oracle_recovers_ke_on_the_released_file(suite: Path, tmp_path: Path) -> None:
    out = import_released_keyhole(UPSTREAM, suite / "keyhole_released")
    [case] = [case for case in load_suite_cases(suite) if case.id == out.name]
    solution, run = tmp_path / "solution", tmp_path / "run"
    solution.mkdir()
    shutil.copy2(out / "reference_solution.py", solution / "solution.py")
    prepare_run_dir(case, solution, run)  # as the harness lays out a run: the data file copied, not linked
    data = run / "dataset_keyhole.csv"
    assert not data.is_symlink() and data.read_bytes() == (UPSTREAM / "dataset_keyhole.csv").read_bytes()
    subprocess.run([sys.executable, "solution.py"], cwd=run, check=True, timeout=120)
    exponents = json.loads((run / "solution.json").read_text())
    assert exponents == pytest.approx(
        {"eta_P": -2, "V_s": 1, "r_0": 3, "alpha": 1, "rho": 2, "C_p": 2, "T_l_minus_T_0": 2}
    )


def test_a_folder_without_the_file_is_named(suite: Path, tmp_path: Path) -> None:
    empty = tmp_path / "download"
    empty.mkdir()
    with pytest.raises(InputError, match="field 'dataset_keyhole.csv': is missing from the folder") as error:
        import_released_keyhole(empty, suite / "keyhole_released")
    assert "Re4_Sci_Agent" in str(error.value)
    (empty / "dataset_keyhole.csv").write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not Re\\^4's"):
        import_released_keyhole(empty, suite / "keyhole_released")
    with pytest.raises(InputError, match="is not a folder"):
        import_released_keyhole(tmp_path / "nowhere", suite / "keyhole_released")
    assert not (suite / "keyhole_released").exists() and not list(suite.glob(".*"))
