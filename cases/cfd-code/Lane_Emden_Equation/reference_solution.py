"""Lane-Emden equation lap f + f^3 = 0 on the unit ball, f(1) = 0 (oracle for cfd-code/Lane_Emden_Equation).

Radial form f'' + 2 f' / r + f^3 = 0, f'(0) = 0, f(1) = 0, solved by shooting on f(0): the scaling
f(r) = s theta(s r) maps the classical Lane-Emden function theta (theta(0) = 1) to the ball, with s its first
zero; theta is integrated by an adaptive Runge-Kutta method and f is written on NR nodes of [0, 1].
Writes f, r to solution.npz.
"""

import numpy as np
from scipy.integrate import solve_ivp

NR = 200

N_INDEX = 3.0


def main():
    start = 1e-6

    def rhs(xi, y):
        return [y[1], -max(y[0], 0.0) ** N_INDEX - 2 * y[1] / xi]

    def surface(xi, y):
        return y[0]

    surface.terminal, surface.direction = True, -1
    sol = solve_ivp(rhs, (start, 20.0), [1 - start**2 / 6, -start / 3], rtol=1e-12, atol=1e-14,
                    events=surface, dense_output=True)
    xi1 = sol.t_events[0][0]
    r = np.linspace(0.0, 1.0, NR)
    theta = np.where(xi1 * r > start, sol.sol(np.maximum(xi1 * r, start))[0], 1.0)
    f = xi1 ** (2 / (N_INDEX - 1)) * theta
    f[-1] = 0.0
    np.savez("solution.npz", f=f, r=r)


if __name__ == "__main__":
    main()
