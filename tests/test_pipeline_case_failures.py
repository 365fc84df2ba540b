"""A case whose reference or calibration fails costs only itself: through the real workflow, on the re4 suite
with two copies of ``hilbert`` broken on purpose (a reference parameter that is not a number; an oracle that
exits 1), the run ends 0, the broken cases are scored F-Case with their reason, and the working case is
summarised as usual (see :mod:`simcodebench.core.case_failures`)."""

from __future__ import annotations

import shutil

import pytest
import yaml
from pipeline import make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

BROKEN_REFERENCE = "hilbert_no_reference"
BROKEN_ORACLE = "hilbert_no_calibration"


def _copy_case(suite_dir, new_id: str, edit) -> None:
    shutil.copytree(suite_dir / "hilbert", suite_dir / new_id)
    path = suite_dir / new_id / "case.yaml"
    data = yaml.safe_load(path.read_text())
    data["id"] = new_id
    edit(data, suite_dir / new_id)
    path.write_text(yaml.safe_dump(data))


def _bad_sizes(data, folder) -> None:
    data["hidden"]["reference"]["params"]["sizes"] = ["five"]


def _crashing_oracle(data, folder) -> None:
    (folder / data["hidden"]["oracle"]).write_text("import sys\nsys.exit('the oracle crashed on purpose')\n")


def test_failed_reference_and_calibration_leave_the_summary(tmp_path, python_env):
    cases = ["hilbert", BROKEN_REFERENCE, BROKEN_ORACLE]
    config = {"suites": ["re4"], "cases": {"re4": cases}, "agents": {"oracle": {"backend": "oracle"}}}
    work = make_workdir(tmp_path, config, repeats=1)
    suite_dir = work / "cases" / "re4"
    _copy_case(suite_dir, BROKEN_REFERENCE, _bad_sizes)
    _copy_case(suite_dir, BROKEN_ORACLE, _crashing_oracle)
    snakemake(work)

    frame = scores(work).set_index("case")
    assert sorted(frame.index) == sorted(cases)
    assert frame.loc["hilbert", "failure_class"] == "Pass"
    for case, stage in ((BROKEN_REFERENCE, "reference"), (BROKEN_ORACLE, "calibration")):
        assert frame.loc[case, "failure_class"] == "F-Case" and frame.loc[case, "status"] == "case-failed"
        assert frame.loc[case, "message"].startswith(f"the case's {stage} failed")
        log = work / "results" / "logs" / stage / "re4" / f"{case}.log"
        text = log.read_text().strip()
        reason = frame.loc[case, "message"].split("failed: ", 1)[1]
        assert "reported as F-Case" in text and text.endswith(reason.strip().splitlines()[-1])
    assert "ValueError" in frame.loc[BROKEN_REFERENCE, "message"]
    assert "crashed on purpose" in frame.loc[BROKEN_ORACLE, "message"]

    summary = (work / "results" / "summary" / "summary.md").read_text()
    section = summary.split("## Cases not scored")[1]
    assert BROKEN_REFERENCE in section and BROKEN_ORACLE in section and "hilbert |" not in section
    assert "100.0% (1/1)" in summary.split("## Pass rate by suite")[1].split("#")[0]
