"""Linear stability of Hagen-Poiseuille pipe flow: the least-damped eigenvalue, by Chebyshev collocation.

Base flow ``W(r) = 1 - r^2`` along ``z`` in the unit pipe (velocity scaled by the centreline value, lengths by
the radius). Perturbations ``(u_r, u_theta, u_z, p)(r) exp(lambda t + i m theta + i k z)`` of the linearised
incompressible Navier-Stokes equations::

    lambda u_r     = -i k W u_r - p'        + (L u_r - u_r / r^2 - 2 i m u_theta / r^2) / Re
    lambda u_theta = -i k W u_theta - i m p / r + (L u_theta - u_theta / r^2 + 2 i m u_r / r^2) / Re
    lambda u_z     = -i k W u_z - W' u_r - i k p + L u_z / Re
    0              = u_r' + u_r / r + i m u_theta / r + i k u_z

with ``L f = f'' + f' / r - (m^2 / r^2 + k^2) f``, no slip at ``r = 1``. The unknowns live on the positive
half of an odd-sized Chebyshev grid on ``[-1, 1]`` (no node at the axis), each extended to ``r < 0`` with its
parity (``(-1)^m`` for ``u_z`` and ``p``, ``(-1)^(m+1)`` for ``u_r`` and ``u_theta``), which is what regularity
at the axis requires (Trefethen, *Spectral Methods in MATLAB*, ch. 11). The wall rows of the momentum
equations are replaced by the no-slip conditions; the generalized problem ``A q = lambda B q`` is solved densely
and the finite eigenvalues kept. The result is the eigenvalue with the largest real part among those present at
``points`` and ``points + 16`` nodes alike (to 1e-6), so under-resolved spurious modes cannot win.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from simcodebench.suites.cfd_code.references.solution import Solution


def chebyshev(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Chebyshev-Gauss-Lobatto nodes ``x_j = cos(pi j / n)`` and the differentiation matrix (Trefethen's cheb)."""
    x = np.cos(np.pi * np.arange(n + 1) / n)
    c = np.hstack([2.0, np.ones(n - 1), 2.0]) * (-1.0) ** np.arange(n + 1)
    dx = x[:, None] - x[None, :]
    d = np.outer(c, 1.0 / c) / (dx + np.eye(n + 1))
    return x, d - np.diag(d.sum(axis=1))


def _folded(matrix: np.ndarray, half: int, parity: int) -> np.ndarray:
    """``matrix`` acting on a function of the given parity, known on the first ``half`` (positive) nodes."""
    return matrix[:half, :half] + parity * matrix[:half, -1 : -half - 1 : -1]


def spectrum(reynolds: float, m: int, k: float, points: int) -> np.ndarray:
    """Finite eigenvalues of the discretised problem on ``points`` radial nodes in ``(0, 1]``."""
    n = 2 * points - 1  # odd: the nodes come in +- pairs, none at r = 0
    x, d = chebyshev(n)
    d2 = d @ d
    r = x[:points]
    even, odd = (-1) ** m, (-1) ** (m + 1)
    dr = {s: _folded(d, points, s) for s in (even, odd)}
    drr = {s: _folded(d2, points, s) for s in (even, odd)}
    eye = np.eye(points)
    inv_r, inv_r2 = np.diag(1.0 / r), np.diag(1.0 / r**2)
    w, dw = np.diag(1.0 - r**2), np.diag(-2.0 * r)

    def laplacian(s: int) -> np.ndarray:
        return drr[s] + inv_r @ dr[s] - (m**2 * inv_r2 + k**2 * eye)

    advect = -1j * k * w
    zero = np.zeros((points, points))
    a = np.block(
        [
            [advect + (laplacian(odd) - inv_r2) / reynolds, -2j * m * inv_r2 / reynolds, zero, -dr[even]],
            [2j * m * inv_r2 / reynolds, advect + (laplacian(odd) - inv_r2) / reynolds, zero, -1j * m * inv_r],
            [-dw, zero, advect + laplacian(even) / reynolds, -1j * k * eye],
            [dr[odd] + inv_r, 1j * m * inv_r, 1j * k * eye, zero],
        ]
    ).astype(complex)
    b = np.block([[eye, zero, zero, zero], [zero, eye, zero, zero], [zero, zero, eye, zero], [zero] * 4]).astype(
        complex
    )
    for block in range(3):  # no slip: the wall node (r = 1, the first) of each velocity component
        row = block * points
        a[row, :] = 0.0
        b[row, :] = 0.0
        a[row, row] = 1.0
    values = scipy.linalg.eigvals(a, b)
    return values[np.isfinite(values) & (np.abs(values) < 1e6)]


def least_damped(reynolds: float, m: int, k: float, points: int, check: int = 16) -> complex:
    """The eigenvalue with the largest real part that ``points`` and ``points + check`` nodes agree on."""
    coarse = spectrum(reynolds, m, k, points)
    fine = spectrum(reynolds, m, k, points + check)
    for value in coarse[np.argsort(-coarse.real)]:
        if np.min(np.abs(fine - value)) < 1e-6 * max(1.0, abs(value)):
            return complex(fine[np.argmin(np.abs(fine - value))])
    raise ArithmeticError(f"no eigenvalue converged between {points} and {points + check} nodes")


def pipe_evp(reynolds: float = 1.0e4, m: int = 1, k: float = 1.0, points: int = 80) -> Solution:
    """The least-damped eigenvalue as the scalars ``growth_rate`` (real part) and ``frequency`` (imaginary)."""
    value = least_damped(reynolds, m, k, points)
    return Solution(
        coords={},
        fields={"growth_rate": np.array(value.real), "frequency": np.array(value.imag)},
        method=f"Chebyshev collocation, {points} and {points + 16} radial nodes, parity at the axis",
    )
