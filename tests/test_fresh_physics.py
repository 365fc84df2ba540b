"""Fresh physics scenes: draws are seeded, in range and new; the checks follow the drawn numbers by their closed
forms; the parameter-level verification reads the oracle's scene back and drops a scene whose oracle or checks
do not match the draw, or whose motion outlasts the smoke video. No Genesis run here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import out_of_range
from simcodebench.suites.physics import fresh, fresh_verify


def _draw(family: str, seed: int = 11):
    draw = fresh.fresh_draw(get_case("physics", family), np.random.default_rng(seed))
    assert draw is not None
    return draw


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_a_draw_is_seeded_in_range_and_new(family: str) -> None:
    published = get_case("physics", family)
    one, two, other = _draw(family), _draw(family), _draw(family, 12)
    assert one == two and one.params != other.params
    assert out_of_range(one.params, one.ranges) == []
    assert fresh.MATERIALS[one.params["material"]] == one.params["density"]
    assert one.case["visible"]["problem"] != published.visible.problem
    assert one.params["material"] in one.case["visible"]["problem"]
    assert one.files["oracle.py"] != (published.folder / "oracle.py").read_text()


def test_the_published_scenes_read_back_as_their_own_numbers() -> None:
    # the oracle reader on the published oracles, against the numbers of their problem texts
    ball = fresh_verify.oracle_scene((get_case("physics", "ball_drop").folder / "oracle.py").read_text())
    assert ball["Sphere"] == {"radius": 0.1, "pos": (0.0, 0.0, 1.0)} and ball["rho"] == 7850.0
    block = fresh_verify.oracle_scene((get_case("physics", "block_slide").folder / "oracle.py").read_text())
    assert block["Box"]["size"] == (0.2, 0.2, 0.2) and block["friction"] == 0.3
    assert block["velocity"] == [2.0, 0.0, 0.0, 0.0, 0.0, 0.0] and block["rho"] == 500.0


def test_the_sliding_block_checks_follow_the_draw(tmp_path: Path) -> None:
    draw = _draw("block_slide")
    d = draw.params
    checks = {c["check"]: c for c in draw.case["hidden"]["scoring"]["checks"]}
    # v0^2 / (2 mu g) by hand for the drawn numbers
    assert checks["sliding_distance"]["distance"] == pytest.approx(d["v0"] ** 2 / (2 * d["mu"] * 9.81), abs=1e-4)
    assert checks["resting_height"]["z"] == pytest.approx(d["side"] / 2)
    assert checks["no_penetration"]["object"] == {"kind": "box", "size": [d["side"]] * 3}
    # the case's own api-misuse mutant quotes the fresh oracle's line
    assert draw.case["hidden"]["mutants"]["api-misuse"]["old"] in draw.files["oracle.py"]
    case = write_case(tmp_path, "physics", "block_slide-fresh0", draw.case, draw.files)
    check = fresh_verify.verify(case, tmp_path)
    assert check.ok, check.detail
    assert check.detail["settle_s"] == pytest.approx(d["v0"] / (d["mu"] * 9.81))


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_verification_keeps_each_family(family: str, tmp_path: Path) -> None:
    draw = _draw(family)
    check = fresh_verify.verify(write_case(tmp_path, "physics", f"{family}-fresh0", draw.case, draw.files), tmp_path)
    assert check.ok, check.detail


def test_verification_drops_a_stale_oracle_wrong_checks_and_a_slow_scene(tmp_path: Path) -> None:
    published = get_case("physics", "ball_drop")
    draw = _draw("ball_drop")
    stale = {"oracle.py": (published.folder / "oracle.py").read_text()}
    check = fresh_verify.verify(write_case(tmp_path, "physics", "ball_drop-fresh0", draw.case, stale), tmp_path)
    assert not check.ok and "the oracle's Sphere" in check.detail["reason"]
    wrong = draw.case | {"hidden": {**draw.case["hidden"], "scoring": dict(draw.case["hidden"]["scoring"])}}
    wrong["hidden"]["scoring"]["checks"] = published.hidden.scoring["checks"]
    check = fresh_verify.verify(write_case(tmp_path, "physics", "ball_drop-fresh1", wrong, draw.files), tmp_path)
    assert not check.ok and "resting_height" in check.detail["reason"]
    block = _draw("block_slide")
    slow = block.case | {"hidden": {**block.case["hidden"], "reference": dict(block.case["hidden"]["reference"])}}
    slow["hidden"]["reference"]["params"] = {**block.case["hidden"]["reference"]["params"], "mu": 0.05}
    check = fresh_verify.verify(write_case(tmp_path, "physics", "block_slide-fresh2", slow, block.files), tmp_path)
    assert not check.ok and "the motion takes" in check.detail["reason"]


def test_other_scenes_have_no_generator() -> None:
    for name in ("dam_break", "domino_chain", "jelly_drop"):
        assert fresh.fresh_draw(get_case("physics", name), np.random.default_rng(1)) is None
