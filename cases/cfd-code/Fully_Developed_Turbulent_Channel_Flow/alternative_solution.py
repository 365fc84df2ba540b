"""Second solution of cfd-code/Fully_Developed_Turbulent_Channel_Flow, written apart from the reference: the
momentum equation d/dy (mu_eff du/dy) = -1 integrated once in closed form (the shear stress is 1 - y by the
symmetry of the channel about y = 1), so u(y) = int_0^y (1 - s) / mu_eff(s) ds, evaluated by composite Simpson
quadrature on NY nodes clustered at the walls (y = 1 - cos(pi j / (NY - 1))), each interval split in SUB."""

import numpy as np

NY = 80

RE_TAU, KAPPA, A = 395.0, 0.42, 25.4
SUB = 8  # Simpson sub-intervals per output interval (even)
MU = 1.0 / RE_TAU


def mu_eff(y: np.ndarray) -> np.ndarray:
    y_plus = RE_TAU * np.minimum(y, 2.0 - y)
    damping = (1.0 - np.exp(-y_plus / A)) ** 2
    ratio = 0.5 * np.sqrt(
        1.0 + KAPPA**2 * RE_TAU**2 / 9.0 * (2 * y - y**2) ** 2 * (3 - 4 * y + 2 * y**2) ** 2 * damping
    )
    return MU * (1.0 + ratio - 0.5)


y = 1.0 - np.cos(np.pi * np.arange(NY) / (NY - 1))
u = np.zeros(NY)
weights = np.ones(SUB + 1)
weights[1:-1:2], weights[2:-1:2] = 4.0, 2.0
for j in range(1, NY):
    s = np.linspace(y[j - 1], y[j], SUB + 1)
    h = (y[j] - y[j - 1]) / SUB
    u[j] = u[j - 1] + h / 3 * np.sum(weights * (1.0 - s) / mu_eff(s))

np.savez("solution.npz", u=u, y=y)
