"""Flow past a circular cylinder: streamfunction-vorticity, r in [0.5, 10], Re = 200, to t = 10.05 from rest
(oracle for cfd-code/Flow_Past_Circular_Cylinder; the reference's method on a coarser grid).

Log-polar nodes r_i = 0.5 exp(i dxi) (NR of them, packed at the wall where the boundary layer is), NTHETA
periodic angles (theta = 2 pi j / NTHETA, the end 2 pi left out). In xi = ln(r / 0.5) the equations read
psi_xixi + psi_thth = -r^2 omega and r^2 omega_t = J(psi, omega) + nu (omega_xixi + omega_thth). Each stage of
an SSP-RK3 step solves the five-point Poisson problem exactly (sine transform in xi, FFT in theta, around the
discrete harmonic field with the boundary values psi = 20 and v_inf y + 20), takes Thom's wall vorticity
2 (psi_0 - psi_1) / dr^2 in the mapped coordinate (dr = 0.5 dxi), omega = 0 outside, and advances the interior with Arakawa's
Jacobian and central diffusion. NT steps at least; more where the stability limit needs them.
"""

import numpy as np
from scipy.fft import dst, idst, irfft, rfft

NR = 38
NTHETA = 78
NT = 600

NU = 0.005
V_INF = 1.0
R_IN, R_OUT = 0.5, 10.0
PSI_WALL = 20.0
T_END = 10.05


def main():
    dxi, h = np.log(R_OUT / R_IN) / (NR - 1), 2 * np.pi / NTHETA
    r, theta = R_IN * np.exp(dxi * np.arange(NR)), h * np.arange(NTHETA)
    r2 = (r**2)[1:-1, None]
    lam_xi = (2 - 2 * np.cos(np.pi * np.arange(1, NR - 1) / (NR - 1))) / dxi**2
    lam_th = (2 - 2 * np.cos(h * np.arange(NTHETA // 2 + 1))) / h**2
    inverse = -1.0 / (lam_xi[:, None] + lam_th[None, :])
    # discrete harmonic lift: 20 + f(xi) sin(theta), f = 0 at the wall, V_INF R_OUT outside
    a = np.diag(np.full(NR - 2, -2 / dxi**2 - lam_th[1])) + np.diag(np.full(NR - 3, 1 / dxi**2), 1)
    a += np.diag(np.full(NR - 3, 1 / dxi**2), -1)
    b = np.zeros(NR - 2)
    b[-1] = -V_INF * R_OUT / dxi**2
    f = np.concatenate([[0.0], np.linalg.solve(a, b), [V_INF * R_OUT]])
    lift = PSI_WALL + f[:, None] * np.sin(theta)

    def solve_psi(w):
        psi = lift.copy()
        hat = dst(rfft(-r2 * w[1:-1], axis=1), type=1, axis=0) * inverse
        psi[1:-1] += irfft(idst(hat, type=1, axis=0), n=NTHETA, axis=1)
        return psi

    def rhs(w):
        p = solve_psi(w)
        w[0] = 2 * (p[0] - p[1]) / (R_IN * dxi) ** 2
        w[-1] = 0.0
        pc, wc, pe, pw, we, ww = p[1:-1], w[1:-1], p[2:], p[:-2], w[2:], w[:-2]

        def n(x):
            return np.roll(x, -1, 1)

        def s(x):
            return np.roll(x, 1, 1)

        j1 = (pe - pw) * (n(wc) - s(wc)) - (n(pc) - s(pc)) * (we - ww)
        j2 = pe * (n(we) - s(we)) - pw * (n(ww) - s(ww)) - n(pc) * (n(we) - n(ww)) + s(pc) * (s(we) - s(ww))
        j3 = n(wc) * (n(pe) - n(pw)) - s(wc) * (s(pe) - s(pw)) - we * (n(pe) - s(pe)) + ww * (n(pw) - s(pw))
        lap = (we - 2 * wc + ww) / dxi**2 + (n(wc) - 2 * wc + s(wc)) / h**2
        return ((j1 + j2 + j3) / (12 * dxi * h) + NU * lap) / r2

    cell = R_IN * min(dxi, h)
    dt_stable = 0.85 / (8 * NU / cell**2 / 2.51 + np.sqrt(2) * 2.2 / cell / 1.73)  # RK3: diffusion, convection
    steps = max(NT, int(np.ceil(T_END / dt_stable)))
    dt = T_END / steps
    w = np.zeros((NR, NTHETA))
    for _ in range(steps):
        w1 = w.copy()
        w1[1:-1] += dt * rhs(w)
        w2 = w1.copy()
        w2[1:-1] = 0.75 * w[1:-1] + 0.25 * (w1[1:-1] + dt * rhs(w1))
        w[1:-1] = w[1:-1] / 3 + 2 / 3 * (w2[1:-1] + dt * rhs(w2))
    psi = solve_psi(w)
    w[0] = 2 * (psi[0] - psi[1]) / (R_IN * dxi) ** 2
    w[-1] = 0.0
    np.savez("solution.npz", psi=psi, omega=w, r=r, theta=theta)


if __name__ == "__main__":
    main()
