"""Steady potential problems: Laplace (mixed Dirichlet/Neumann), the steady heat plate, and Poisson with point
sources.

Laplace and the heat plate are solved exactly by separation of variables; Poisson's sources are single grid
values, so the problem only exists as a discrete one: it is solved exactly (sparse direct) on the grid.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import diags, identity, kron
from scipy.sparse.linalg import spsolve

from simcodebench.suites.cfd_code.references.solution import Solution


def _sinh_ratio(k: np.ndarray, s: np.ndarray, total: float) -> np.ndarray:
    """``sinh(k s) / sinh(k total)`` for ``0 <= s <= total``, computed without overflow."""
    ks, kt = np.multiply.outer(s, k), k * total
    return np.exp(ks - kt) * (-np.expm1(-2.0 * ks)) / (-np.expm1(-2.0 * kt))


def laplace_mixed(
    nx: int = 31, ny: int = 31, modes: int = 2001, length: float = 2.0, offset: float = 0.0, slope: float = 1.0
) -> Solution:
    """``p_xx + p_yy = 0`` on [0, L] x [0, 1]; ``p(0, y) = 0``, ``p(L, y) = offset + slope y``, ``p_y = 0`` at
    y = 0 and 1 (the published case: L = 2, ``p(2, y) = y``).

    ``p = (offset + slope / 2) x / L - slope sum_{n odd} 4 / (n pi)^2 cos(n pi y) sinh(n pi x) / sinh(n pi L)``.
    """
    x, y = np.linspace(0.0, length, nx), np.linspace(0.0, 1.0, ny)
    n = np.arange(1, modes + 1, 2)
    k = n * np.pi
    series = (np.cos(np.outer(y, k)) * (-4.0 / k**2)) @ _sinh_ratio(k, x, length).T
    p = (offset + slope / 2.0) * x[None, :] / length + slope * series
    p[:, 0], p[:, -1] = 0.0, offset + slope * y
    return Solution(coords={"y": y, "x": x}, fields={"p": p}, method="exact Fourier (cosine) series")


def _dirichlet_side(x: np.ndarray, y: np.ndarray, width: float, height: float, value: float, modes: int):
    """Harmonic function on [0, width] x [0, height] equal to ``value`` on the side ``y = 0`` and 0 on the others."""
    n = np.arange(1, modes + 1, 2)
    k = n * np.pi / width
    return (_sinh_ratio(k, height - y, height) * (4.0 * value / (n * np.pi))) @ np.sin(np.outer(k, x))


def steady_heat_plate(
    nx: int = 101,
    ny: int = 81,
    width: float = 5.0,
    height: float = 4.0,
    modes: int = 8001,
    left: float = 10.0,
    right: float = 40.0,
    top: float = 0.0,
    bottom: float = 20.0,
) -> Solution:
    """``T_xx + T_yy = 0`` on [0, 5] x [0, 4]: T = ``left`` (x = 0), ``right`` (x = 5), ``top`` (y = 4),
    ``bottom`` (y = 0); the published case has 10, 40, 0 and 20.

    The sum of four single-side series. Boundary nodes take the boundary values; at the corners, where the
    data jump, they take the values of the upstream setup (the left and right values at the bottom corners, the
    top value at the top ones). The field is returned with rows along y (``T[j, i] = T(x_i, y_j)``).
    """
    x, y = np.linspace(0.0, width, nx), np.linspace(0.0, height, ny)
    temperature = (
        _dirichlet_side(x, y, width, height, bottom, modes)
        + _dirichlet_side(x, height - y, width, height, top, modes)
        + _dirichlet_side(y, x, height, width, left, modes).T
        + _dirichlet_side(y, width - x, height, width, right, modes).T
    )
    temperature[0, :], temperature[-1, :] = bottom, top
    temperature[:, 0], temperature[:, -1] = left, right
    temperature[-1, [0, -1]] = top
    return Solution(
        coords={"y": y, "x": x}, fields={"T": temperature}, method="exact Fourier series (four single-side terms)"
    )


def poisson_point_sources(
    nx: int = 50,
    ny: int = 50,
    strength: float = 100.0,
    sink: float | None = None,
    source_node: tuple[int, int] | None = None,
    sink_node: tuple[int, int] | None = None,
) -> Solution:
    """``p_xx + p_yy = b`` on [0, 2] x [0, 1], p = 0 on the boundary, ``b = +strength`` at node ``source_node``
    and ``-sink`` (default ``-strength``) at ``sink_node``, each given as ``(j, i)`` (row along y, column along
    x; defaults ``(ny // 4, nx // 4)`` and ``(3 ny // 4, 3 nx // 4)``): the 5-point system solved exactly."""
    x, y = np.linspace(0.0, 2.0, nx), np.linspace(0.0, 1.0, ny)
    dx, dy = x[1] - x[0], y[1] - y[0]
    b = np.zeros((ny, nx))
    b[tuple(source_node or (int(ny / 4), int(nx / 4)))] = strength
    b[tuple(sink_node or (int(3 * ny / 4), int(3 * nx / 4)))] = -(strength if sink is None else sink)

    def second_difference(n: int, h: float):
        return diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(n, n)) / h**2

    mx, my = nx - 2, ny - 2
    laplacian = kron(identity(my), second_difference(mx, dx)) + kron(second_difference(my, dy), identity(mx))
    p = np.zeros((ny, nx))
    p[1:-1, 1:-1] = spsolve(laplacian.tocsc(), b[1:-1, 1:-1].ravel()).reshape(my, mx)
    return Solution(
        coords={"y": y, "x": x},
        fields={"p": p},
        method="5-point finite differences on the stated grid, solved exactly (sparse LU)",
    )
