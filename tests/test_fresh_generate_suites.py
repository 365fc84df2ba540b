"""``simcodebench generate`` through the cfd-code, re4, physics and foam plugins' hooks: a few cheap families,
the same seed writing the same bytes and another seed other cases, the report naming the families without a
generator. (The gates on fresh suites: benchmarks/fresh_variants_cfd_re4_physics.py.)"""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from simcodebench.core.cases import load_suite_cases
from simcodebench.pipeline.generate import generate


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("suite", "families", "count", "without"),
    [
        ("cfd-code", ["1D_Diffusion", "2D_Diffusion"], 2, []),
        ("re4", ["keyhole", "hilbert"], 1, ["keyhole"]),
        ("physics@smoke", None, 3, []),
    ],
)
def test_generate_is_reproducible_and_verified(
    suite: str, families: list[str] | None, count: int, without: list[str], tmp_path: Path
) -> None:
    first = generate(suite, count, 11, families, out=tmp_path / "a")
    again = generate(suite, count, 11, families, out=tmp_path / "b")
    other = generate(suite, count, 12, families, out=tmp_path / "c")
    assert _files(first.folder) == _files(again.folder)
    report = first.report
    assert report["draws"]["kept"] == count and len(report["cases"]) == count
    cases = load_suite_cases(first.folder, "smoke" if suite.endswith("@smoke") else None)
    assert len(cases) == count and all("fresh" in case.id for case in cases)
    for mine, theirs in zip(report["cases"], other.report["cases"], strict=True):
        assert mine["family"] == theirs["family"] and mine["params"] != theirs["params"]
        assert not filecmp.cmp(first.folder / mine["id"] / "case.yaml", other.folder / theirs["id"] / "case.yaml")
    assert report["families_without_generator"] == without  # skipped and reported
    if suite == "physics@smoke":
        assert [c["family"] for c in report["cases"]] == ["ball_drop", "ball_drop_moon", "ball_float"]
    # the published cases' second solutions solve the published numbers: no fresh case keeps one
    assert all(case.hidden.alternative is None for case in cases)
    assert not list(first.folder.glob("*/alternative*"))


def test_a_suite_of_families_without_generators_says_so(tmp_path: Path) -> None:
    from simcodebench.core.errors import InputError

    with pytest.raises(InputError, match="has no generator for keyhole: keyhole has none: the answer is Ke"):
        generate("re4", 1, 11, ["keyhole"], out=tmp_path)
