"""1-D inviscid Burgers u_t + (u^2/2)_x = 0, periodic on [0, 2 pi), to t = 5
(oracle for cfd-code/1D_Nonlinear_Convection).

Finite volumes on NX cells: Godunov's exact Riemann flux with a MUSCL (minmod) reconstruction and SSP-RK2,
NT steps. Writes the cell-centre values u and centres x to solution.npz.
"""

import numpy as np

NX = 2000
NT = 4000

T_END = 5.0


def godunov_flux(left, right):
    f_l, f_r = 0.5 * left**2, 0.5 * right**2
    flux = np.where(left > right, np.maximum(f_l, f_r), np.minimum(f_l, f_r))  # shock / rarefaction
    return np.where((left < 0) & (right > 0), 0.0, flux)  # transonic rarefaction


def minmod(a, b):
    return np.where(a * b > 0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def main():
    h = 2 * np.pi / NX
    x = (np.arange(NX) + 0.5) * h
    edges = np.arange(NX + 1) * h
    # cell averages of sin(x) + 0.5 sin(x / 2) (exact integrals)
    antiderivative = -np.cos(edges) - np.cos(0.5 * edges)
    u = np.diff(antiderivative) / h
    dt = T_END / NT

    def rhs(w):
        slope = minmod(w - np.roll(w, 1), np.roll(w, -1) - w)
        left = w + 0.5 * slope
        right = np.roll(w - 0.5 * slope, -1)
        flux = godunov_flux(left, right)
        return -(flux - np.roll(flux, 1)) / h

    for _ in range(NT):
        w = u + dt * rhs(u)
        u = 0.5 * (u + w + dt * rhs(w))
    np.savez("solution.npz", u=u, x=x)


if __name__ == "__main__":
    main()
