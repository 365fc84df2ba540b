"""Viscous Burgers ``u_t + u u_x = nu u_xx`` on [-1, 1] with ``u(x, 0) = -sin(pi x)``, ``u(+-1, t) = 0``.

The Cole-Hopf transform turns the problem into the heat equation; with ``eta = sqrt(4 nu t) z`` its solution
is (Basdevant et al., Computers & Fluids 14, 1986)::

    u(x, t) = -int sin(pi y) f(y) exp(-z^2) dz / int f(y) exp(-z^2) dz,   y = x - sqrt(4 nu t) z,
    f(y) = exp(-cos(pi y) / (2 pi nu)).

The initial data are odd and 2-periodic, so this whole-line solution vanishes at ``x = +-1`` for all t. Both
integrals are evaluated by Gauss-Hermite quadrature (scipy's rule: numpy's ``hermgauss`` overflows beyond
about 360 nodes); ``f`` spans ``exp(+-1 / (2 pi nu))`` (``e^+-50`` for ``nu = 0.01 / pi``), so the weights are
combined in log space, shifted by their maximum at each ``x``. With 300 nodes the result agrees to 1e-14
with a fine trapezoidal rule for nu >= 3e-4 and t <= 3; smaller viscosities need more nodes.
"""

from __future__ import annotations

from functools import cache

import numpy as np


@cache
def _hermite_log_rule(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Hermite nodes and the logarithms of their weights (underflowed weights give ``-inf``)."""
    from scipy.special import roots_hermite  # here: scipy.special costs seconds in a fresh process

    z, w = roots_hermite(nodes)
    with np.errstate(divide="ignore"):
        return z, np.log(w)


def burgers_cole_hopf(x: np.ndarray, t: float, nu: float, nodes: int = 300) -> np.ndarray:
    """The exact solution ``u(x, t)`` at points ``x`` for viscosity ``nu`` (``nodes``: quadrature nodes)."""
    x = np.asarray(x, dtype=float)
    if t <= 0.0:
        return -np.sin(np.pi * x)
    z, log_w = _hermite_log_rule(nodes)
    y = x.reshape(-1, 1) - np.sqrt(4.0 * nu * t) * z
    log_terms = log_w - np.cos(np.pi * y) / (2.0 * np.pi * nu)
    weights = np.exp(log_terms - log_terms.max(axis=1, keepdims=True))
    u = -(weights * np.sin(np.pi * y)).sum(axis=1) / weights.sum(axis=1)
    return u.reshape(x.shape)
