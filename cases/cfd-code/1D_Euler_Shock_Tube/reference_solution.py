"""Sod's shock tube on [-1, 1], reflective ends, to t = 0.25 (oracle for cfd-code/1D_Euler_Shock_Tube).

Finite volumes on NX cells: HLLC fluxes, MUSCL (minmod) reconstruction of the primitive variables, SSP-RK2, NT
steps; mirror ghost cells at the walls. Writes E (total energy per unit mass), rho, u and the centres x.
"""

import numpy as np

NX = 800
NT = 1000

GAMMA = 1.4
T_END = 0.25


def minmod(a, b):
    return np.where(a * b > 0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def primitive(q):
    rho = q[0]
    u = q[1] / rho
    p = (GAMMA - 1) * (q[2] - 0.5 * rho * u**2)
    return rho, u, p


def hllc(wl, wr):
    (rl, ul, pl), (rr, ur, pr) = wl, wr
    el, er = pl / (GAMMA - 1) + 0.5 * rl * ul**2, pr / (GAMMA - 1) + 0.5 * rr * ur**2
    cl, cr = np.sqrt(GAMMA * pl / rl), np.sqrt(GAMMA * pr / rr)
    sl, sr = np.minimum(ul - cl, ur - cr), np.maximum(ul + cl, ur + cr)
    sm = (pr - pl + rl * ul * (sl - ul) - rr * ur * (sr - ur)) / (rl * (sl - ul) - rr * (sr - ur))
    fl = np.array([rl * ul, rl * ul**2 + pl, ul * (el + pl)])
    fr = np.array([rr * ur, rr * ur**2 + pr, ur * (er + pr)])
    ql, qr = np.array([rl, rl * ul, el]), np.array([rr, rr * ur, er])

    def star(r, u, p, e, s):
        factor = r * (s - u) / (s - sm)
        return np.array([factor, factor * sm, factor * (e / r + (sm - u) * (sm + p / (r * (s - u))))])

    fl_star = fl + sl * (star(rl, ul, pl, el, sl) - ql)
    fr_star = fr + sr * (star(rr, ur, pr, er, sr) - qr)
    return np.where(sl >= 0, fl, np.where(sm >= 0, fl_star, np.where(sr > 0, fr_star, fr)))


def main():
    h = 2.0 / NX
    x = -1.0 + (np.arange(NX) + 0.5) * h
    rho = np.where(x < 0, 1.0, 0.125)
    p = np.where(x < 0, 1.0, 0.1)
    q = np.array([rho, np.zeros(NX), p / (GAMMA - 1)])
    dt = T_END / NT

    def rhs(q):
        w = np.array(primitive(q))
        ghost_l = w[:, :2][:, ::-1] * np.array([[1], [-1], [1]])
        ghost_r = w[:, -2:][:, ::-1] * np.array([[1], [-1], [1]])
        wg = np.concatenate([ghost_l, w, ghost_r], axis=1)
        slope = minmod(wg[:, 1:-1] - wg[:, :-2], wg[:, 2:] - wg[:, 1:-1])
        left = wg[:, 1:-2] + 0.5 * slope[:, :-1]
        right = wg[:, 2:-1] - 0.5 * slope[:, 1:]
        flux = hllc(left, right)
        return -(flux[:, 1:] - flux[:, :-1]) / h

    for _ in range(NT):
        w = q + dt * rhs(q)
        q = 0.5 * (q + w + dt * rhs(w))
    rho, u, p = primitive(q)
    energy = p / ((GAMMA - 1) * rho) + 0.5 * u**2
    np.savez("solution.npz", E=energy, rho=rho, u=u, x=x)


if __name__ == "__main__":
    main()
