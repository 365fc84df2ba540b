"""cfd-code NMSE: the metric, the score, zero-norm references, legacy (index) and coords (physical) resampling."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.suites.cfd_code import nmse as metric


def test_nmse_by_hand() -> None:
    # sum((y - y_hat)^2) / sum(y^2) = (0 + 1) / (1 + 4)
    assert metric.nmse([1.0, 2.0], [1.0, 1.0]) == pytest.approx(0.2, rel=1e-15)
    assert metric.nmse([[3.0, 4.0]], [[3.0, 4.0]]) == 0.0
    assert metric.nmse([2.0], [0.0]) == 1.0
    with pytest.raises(ValueError, match="shapes"):
        metric.nmse([1.0, 2.0], [1.0])


def test_zero_norm_reference_needs_a_scale() -> None:
    with pytest.raises(ValueError, match="zero everywhere"):
        metric.nmse([0.0, 0.0], [1.0, 1.0])
    # with scale 2: (1 + 1) / max(0, 2 * 2^2) = 0.25
    assert metric.nmse([0.0, 0.0], [1.0, 1.0], scale=2.0) == pytest.approx(0.25)
    # a reference larger than its scale keeps the paper's NMSE: (1 + 0) / (9 + 16)
    assert metric.nmse([3.0, 4.0], [2.0, 4.0], scale=0.1) == pytest.approx(1 / 25)


@pytest.mark.parametrize(
    ("value", "paper", "released"),
    [(0.0, 1.0, 1.0), (0.1, 1.0, 0.5), (0.100001, 0.5, 0.5), (0.3, 0.5, 0.0), (0.31, 0.0, 0.0), (np.nan, 0, 0)],
)
def test_score_thresholds(value: float, paper: float, released: float) -> None:
    assert metric.nmse_score(value) == paper
    assert metric.nmse_score(value, strict=True) == released
    assert metric.nmse_score(float("inf")) == 0.0


@pytest.mark.parametrize(
    ("value", "released"), [(0.0994, 1.0), (0.0996, 0.5), (0.1, 0.5), (0.2994, 0.5), (0.2996, 0.0), (np.nan, 0.0)]
)
def test_released_bins_read_the_nmse_as_the_log_prints_it(value: float, released: float) -> None:
    """0.0996 is logged "NMSE=0.100", which the strict < 0.1 does not pass."""
    assert metric.released_score(value) == released


def test_legacy_resampling_is_by_index() -> None:
    assert np.allclose(metric.legacy_resample(np.array([0.0, 1.0]), (3,)), [0.0, 0.5, 1.0])
    same = np.arange(6.0).reshape(2, 3)
    assert np.array_equal(metric.legacy_resample(same, (2, 3)), same)
    assert metric.legacy_resample(np.ones((2, 2)), (4, 3)).shape == (4, 3)
    # as upstream, 1-D arrays are columns first: a 1-D sample meets a 2-D reference as a column zoomed across it
    # ([0, 1, 2, 3] -> rows at index 0 and 3), a 2-D sample a 1-D reference through its first column
    assert np.array_equal(metric.legacy_resample(np.arange(4.0), (2, 2)), [[0.0, 0.0], [3.0, 3.0]])
    assert np.array_equal(metric.legacy_resample(np.array([[1.0, 5.0], [2.0, 6.0], [3.0, 7.0]]), (3,)), [1, 2, 3])
    for other_rank in (np.ones((2, 2, 2)), np.float64(3.0)):  # a 3-D history, a scalar: not comparable upstream
        with pytest.raises(metric.GridError):
            metric.legacy_resample(other_rank, (2, 2))
    # mean((y - y_hat)^2) / mean(y^2): y = [1, 1, 1], y_hat = zoom([1, 3]) = [1, 2, 3] -> (0 + 1 + 4) / 3 / 1
    assert metric.legacy_nmse(np.ones(3), np.array([1.0, 3.0])) == pytest.approx(5 / 3)
    # a transposed 2-D field of the right size passes through unnoticed: legacy mode cannot see it
    field = np.outer(np.arange(1.0, 4.0), np.ones(3))
    assert metric.legacy_nmse(field, field.T) > 0.1
    assert metric.legacy_nmse(np.ones(3), np.array([1.0, np.nan, 1.0])) == float("inf")
    assert metric.legacy_nmse(np.zeros(3), np.zeros(3)) == float("inf")  # the released 0/0 on zero-norm arrays


def test_coords_interpolation_is_exact_for_linear_fields() -> None:
    xs, ys = np.linspace(0.0, 2.0, 7), np.linspace(0.0, 1.0, 5)
    sample = 2.0 * xs[None, :] + 3.0 * ys[:, None]
    xr, yr = np.linspace(0.0, 2.0, 13), np.linspace(0.0, 1.0, 9)
    on_ref = metric.sample_on_grid(sample, [ys, xs], [yr, xr], ["y", "x"])
    assert np.allclose(on_ref, 2.0 * xr[None, :] + 3.0 * yr[:, None])
    flipped = metric.sample_on_grid(sample[::-1, ::-1], [ys[::-1], xs[::-1]], [yr, xr], ["y", "x"])
    assert np.allclose(flipped, on_ref)  # decreasing axes are accepted
    assert np.allclose(metric.sample_on_grid(3 * xs, [xs], [xr], ["x"]), 3 * xr)


def test_coords_cell_centres_and_periodic_wrap() -> None:
    centres = (np.arange(10) + 0.5) / 10
    held = metric.sample_on_grid(2 * centres, [centres], [np.array([0.0, 1.0])], ["x"])
    assert np.allclose(held, [0.1, 1.9])  # held constant beyond the ends
    x = 2 * np.pi * np.arange(8) / 8  # the periodic end 2 pi left out
    wrapped = metric.sample_on_grid(
        np.cos(x), [x], [np.array([2 * np.pi - np.pi / 8, 2 * np.pi])], ["x"], {"x": 2 * np.pi}
    )
    assert np.allclose(wrapped, [0.5 * (np.cos(x[-1]) + 1.0), 1.0])
    both_ends = np.linspace(0, 2 * np.pi, 9)
    again = metric.sample_on_grid(np.cos(both_ends), [both_ends], [both_ends], ["x"], {"x": 2 * np.pi})
    assert np.allclose(again, np.cos(both_ends))


@pytest.mark.parametrize(
    ("axis", "reason"),
    [
        (np.array([0.0, 0.5, 0.5, 1.0]), "monotonic"),
        (np.array([0.0, 0.25, 0.5]), "domain"),
        (np.array([0.0, 1.0]), "points along it"),
        (np.zeros((2, 2)), "points along it"),
    ],
)
def test_coords_rejects_bad_grids(axis: np.ndarray, reason: str) -> None:
    field = np.ones(axis.shape[0]) if axis.ndim == 1 and axis.size != 2 else np.ones(4)
    with pytest.raises(metric.GridError, match=reason):
        metric.sample_on_grid(field, [axis], [np.linspace(0.0, 1.0, 11)], ["x"])


def test_field_nmse_gauge_and_interior() -> None:
    assert metric.field_nmse([1.0, 2.0, 3.0], [11.0, 12.0, 13.0], gauge="mean") == 0.0
    reference = np.zeros((3, 3))
    reference[1, 1] = 2.0
    sample = np.full((3, 3), 9.0)
    sample[1, 1] = 1.0
    assert metric.field_nmse(reference, sample, interior=True) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="gauge"):
        metric.field_nmse([1.0], [1.0], gauge="median")
