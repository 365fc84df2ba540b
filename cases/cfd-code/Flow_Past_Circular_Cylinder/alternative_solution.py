"""Flow past a circular cylinder, r in [0.5, 10], nu = 0.005, v_inf = 1, to t = 10.05 from rest: a second
solution written from the prompt apart from the reference and its oracle.

What it varies: the radial nodes are tanh-stretched in the physical radius (r = 0.5 + 9.5 (1 - tanh(b (1 - s)) /
tanh(b)), s uniform, b = 2; the reference is log-polar), the angles are cell centres (theta_j = (j + 1/2) 2 pi /
NTHETA), the equations are differenced in r with the mapping's metric (psi_rr + psi_r / r + psi_thth / r^2) and
solved by one sparse LU, convection is second-order upwind in the non-conservative form u . grad(omega)
(reference: Arakawa's Jacobian), time is classical RK4 (reference: SSP-RK3), and the wall vorticity is Jensen's
second-order formula omega_0 = -psi_rr(0) = (7 psi_0 - 8 psi_1 + psi_2) / (2 ds^2 r'(0)^2) (reference: Thom's).
NT steps at least; more where the RK4 stability limit needs them.
"""

import numpy as np
from scipy.sparse import csc_matrix, diags, identity, kron
from scipy.sparse.linalg import splu

NR = 48
NTHETA = 96
NT = 400

NU = 0.005
V_INF = 1.0
R_IN, R_OUT = 0.5, 10.0
PSI_WALL = 20.0
T_END = 10.05
BETA = 2.0


def grid():
    """Stretched radii with the mapping's first and second derivatives, and the cell-centred angles."""
    s = np.linspace(0.0, 1.0, NR)
    x = BETA * (1 - s)
    length = R_OUT - R_IN
    r = R_IN + length * (1 - np.tanh(x) / np.tanh(BETA))
    dr_ds = length * BETA / np.tanh(BETA) / np.cosh(x) ** 2
    d2r_ds2 = 2 * BETA * np.tanh(x) * dr_ds
    theta = (np.arange(NTHETA) + 0.5) * 2 * np.pi / NTHETA
    return s[1] - s[0], r, dr_ds, d2r_ds2, theta


def main():
    ds, r, r1, r2, theta = grid()
    dth = 2 * np.pi / NTHETA
    a = 1 / r1**2  # coefficient of f_ss in f_rr + f_r / r
    b = -r2 / r1**3 + 1 / (r * r1)  # coefficient of f_s
    c = 1 / r**2  # coefficient of f_thth
    ri = slice(1, NR - 1)
    ai, bi, ci = a[ri, None], b[ri, None], c[ri, None]

    # interior operator on nodes i = 1..NR-2 (rows) x all angles (periodic)
    n_in = NR - 2
    lower = ai[1:, 0] / ds**2 - bi[1:, 0] / (2 * ds)
    upper = ai[:-1, 0] / ds**2 + bi[:-1, 0] / (2 * ds)
    radial = diags([lower, -2 * ai[:, 0] / ds**2, upper], [-1, 0, 1])
    ring = diags([np.ones(NTHETA - 1), -2 * np.ones(NTHETA), np.ones(NTHETA - 1)], [-1, 0, 1]).tolil()
    ring[0, -1] = ring[-1, 0] = 1.0
    op = kron(radial, identity(NTHETA)) + kron(diags(ci[:, 0]), ring / dth**2)
    lu = splu(csc_matrix(op))
    wall_row, outer_row = PSI_WALL * np.ones(NTHETA), PSI_WALL + V_INF * R_OUT * np.sin(theta)
    west0 = ai[0, 0] / ds**2 - bi[0, 0] / (2 * ds)
    east_n = ai[-1, 0] / ds**2 + bi[-1, 0] / (2 * ds)

    def solve_psi(w):
        rhs = -w[ri].copy()
        rhs[0] -= west0 * wall_row
        rhs[-1] -= east_n * outer_row
        psi = np.empty((NR, NTHETA))
        psi[0], psi[-1] = wall_row, outer_row
        psi[ri] = lu.solve(rhs.ravel()).reshape(n_in, NTHETA)
        return psi

    def d_theta(f):
        return (np.roll(f, -1, 1) - np.roll(f, 1, 1)) / (2 * dth)

    def upwind_theta(f, vel):
        fwd = (-np.roll(f, -2, 1) + 4 * np.roll(f, -1, 1) - 3 * f) / (2 * dth)
        bwd = (3 * f - 4 * np.roll(f, 1, 1) + np.roll(f, 2, 1)) / (2 * dth)
        return np.where(vel > 0, bwd, fwd)

    def upwind_s(f, vel):
        out = (f[2:] - f[:-2]) / (2 * ds)  # central next to the boundaries (i = 1, NR - 2)
        bwd = (3 * f[2:-2] - 4 * f[1:-3] + f[:-4]) / (2 * ds)  # i = 2..NR-3
        fwd = (-f[4:] + 4 * f[3:-1] - 3 * f[2:-2]) / (2 * ds)
        out[1:-1] = np.where(vel[1:-1] > 0, bwd, fwd)
        return out

    def rhs(w):
        psi = solve_psi(w)
        w[0] = (7 * psi[0] - 8 * psi[1] + psi[2]) / (2 * ds**2 * r1[0] ** 2)
        w[-1] = 0.0
        u_r = d_theta(psi[ri]) / r[ri, None]
        u_t = -(psi[2:] - psi[:-2]) / (2 * ds) / r1[ri, None]
        adv = u_r * upwind_s(w, u_r) / r1[ri, None] + u_t / r[ri, None] * upwind_theta(w[ri], u_t)
        wi = w[ri]
        lap = (
            ai * (w[2:] - 2 * wi + w[:-2]) / ds**2
            + bi * (w[2:] - w[:-2]) / (2 * ds)
            + ci * (np.roll(wi, -1, 1) - 2 * wi + np.roll(wi, 1, 1)) / dth**2
        )
        return NU * lap - adv

    h_min = min(r1[0] * ds, R_IN * dth)
    dt_stable = 0.6 / (8 * NU / h_min**2 / 2.78 + 2 * 2.5 / h_min / 2.0)
    steps = max(NT, int(np.ceil(T_END / dt_stable)))
    dt = T_END / steps
    w = np.zeros((NR, NTHETA))
    for _ in range(steps):
        k1 = rhs(w)
        w2 = w.copy()
        w2[ri] += 0.5 * dt * k1
        k2 = rhs(w2)
        w3 = w.copy()
        w3[ri] += 0.5 * dt * k2
        k3 = rhs(w3)
        w4 = w.copy()
        w4[ri] += dt * k3
        k4 = rhs(w4)
        w[ri] += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    psi = solve_psi(w)
    w[0] = (7 * psi[0] - 8 * psi[1] + psi[2]) / (2 * ds**2 * r1[0] ** 2)
    w[-1] = 0.0
    np.savez("solution.npz", psi=psi, omega=w, r=r, theta=theta)


if __name__ == "__main__":
    main()
