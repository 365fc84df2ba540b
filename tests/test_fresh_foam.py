"""Fresh foam cases: the cavity draws change the lid speed and viscosity everywhere the published case names
them (text, title, oracle files, the wrong-inlet mutant); OpenFOAM's run of a fresh oracle is kept, and one
whose time step blows it up is dropped."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import out_of_range
from simcodebench.suites.foam import fresh


@pytest.mark.parametrize("family", fresh.FAMILIES)
def test_a_cavity_draw_is_seeded_in_range_and_consistent(family: str) -> None:
    published = get_case("foam", family)
    one, two = (fresh.fresh_draw(published, np.random.default_rng(11)) for _ in range(2))
    assert one is not None and one == two
    assert out_of_range(one.params, one.ranges) == []
    u, nu = one.params["lid_speed"], one.params["nu"]
    assert nu == pytest.approx(10 ** one.params["nu_exponent"], rel=0.05)
    assert (
        f"moves at {u:g} m/s" in one.case["visible"]["problem"]
        and f"nu = {nu:.2g} m^2/s" in one.case["title"] + one.case["visible"]["problem"]
    )
    assert re.search(rf"movingWall\s*\{{[^}}]*uniform \({u:g} 0 0\);", one.files[fresh.U_FILE])
    assert re.search(rf"^nu\s+{nu:.2g};", one.files[fresh.NU_FILE], re.M)
    assert one.case["hidden"]["mutants"]["wrong-inlet"]["value"] == f"uniform ({2 * u:g} 0 0)"


def test_other_families_have_no_generator() -> None:
    assert fresh.fresh_draw(get_case("foam", "pitzDaily-1"), np.random.default_rng(1)) is None


def test_the_reference_run_is_kept_and_a_blown_up_one_dropped(tmp_path: Path, openfoam_env) -> None:
    published = get_case("foam", "cavity-1")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    check = fresh.verify(write_case(tmp_path, "foam", "cavity-1-fresh0", draw.case, draw.files, published), tmp_path)
    assert check.ok, check.detail
    assert (
        check.detail["last_time"] == check.detail["end_time"] and check.detail["max_speed"] < draw.params["lid_speed"]
    )
    control = (published.folder / "oracle" / "system" / "controlDict").read_text()
    unstable = {
        **draw.files,
        "oracle/system/controlDict": re.sub(r"^deltaT\s+\S+;", "deltaT 0.1;", control, flags=re.M),
    }
    check = fresh.verify(write_case(tmp_path, "foam", "cavity-1-fresh1", draw.case, unstable, published), tmp_path)
    assert not check.ok and check.detail["reason"].startswith("the reference run failed")
