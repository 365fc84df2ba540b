"""Flow past a circular cylinder: streamfunction-vorticity in polar coordinates, r in [0.5, 10], to t = 10.05
(oracle for cfd-code/Flow_Past_Circular_Cylinder).

NR x NTHETA nodes (theta in [0, 2 pi] with the end node repeating the first), NT explicit steps of 0.05 from rest:
each step solves r lap(psi) = -r omega exactly (sparse LU; psi = 20 on the cylinder, v_inf y + 20 outside),
then advances omega with first-order upwind convection and central diffusion, Thom's wall vorticity
2 (psi_0 - psi_1) / dr^2 and omega = 0 outside. Writes psi, omega (rows along r), r, theta to solution.npz.
"""

import numpy as np
from scipy.sparse import csc_matrix, lil_matrix
from scipy.sparse.linalg import splu

NR = 119
NTHETA = 79
NT = 402

NU = 0.005
V_INF = 1.0
DT = 10.05 / NT
PSI_WALL = 20.0


def main():
    r, theta = np.linspace(0.5, 10.0, NR), np.linspace(0.0, 2 * np.pi, NTHETA)
    dr, dth = r[1] - r[0], theta[1] - theta[0]
    m = NTHETA - 1
    a = lil_matrix(((NR - 2) * m, (NR - 2) * m))
    for i in range(1, NR - 1):
        east, west, ang = (r[i + 1] + r[i]) / (2 * dr**2), (r[i - 1] + r[i]) / (2 * dr**2), 1 / (r[i] * dth**2)
        for j in range(m):
            k = (i - 1) * m + j
            a[k, k] = -(east + west + 2 * ang)
            if i < NR - 2:
                a[k, i * m + j] = east
            if i > 1:
                a[k, (i - 2) * m + j] = west
            a[k, (i - 1) * m + (j + 1) % m] += ang
            a[k, (i - 1) * m + (j - 1) % m] += ang
    lu = splu(csc_matrix(a))
    psi, omega = np.zeros((NR, NTHETA)), np.zeros((NR, NTHETA))
    psi[0], psi[-1] = PSI_WALL, V_INF * r[-1] * np.sin(theta) + PSI_WALL
    rr = r[:, None]
    for _ in range(NT):
        b = -(rr[1:-1] * omega[1:-1, :m])
        b[0] -= (r[0] + r[1]) / (2 * dr**2) * psi[0, :m]
        b[-1] -= (r[-1] + r[-2]) / (2 * dr**2) * psi[-1, :m]
        psi[1:-1, :m] = lu.solve(b.ravel()).reshape(NR - 2, m)
        psi[:, -1] = psi[:, 0]
        ur = np.empty_like(psi)
        ur[:, 1:-1] = (psi[:, 2:] - psi[:, :-2]) / (2 * dth) / rr
        ur[:, 0], ur[:, -1] = (psi[:, 1] - psi[:, 0]) / dth / r, (psi[:, -1] - psi[:, -2]) / dth / r
        ut = np.empty_like(psi)
        ut[1:-1] = -(psi[2:] - psi[:-2]) / (2 * dr)
        ut[0], ut[-1] = -(psi[1] - psi[0]) / dr, -(psi[-1] - psi[-2]) / dr
        w = omega[:, :m]
        wp, wm = np.roll(w, -1, axis=1), np.roll(w, 1, axis=1)
        ri, vr, vt = rr[1:-1], ur[1:-1, :m], ut[1:-1, :m]
        conv = (
            np.maximum(vr, 0) * (w[1:-1] - w[:-2]) / dr + np.minimum(vr, 0) * (w[2:] - w[1:-1]) / dr
            + np.maximum(vt, 0) / ri * (w[1:-1] - wm[1:-1]) / dth + np.minimum(vt, 0) / ri * (wp[1:-1] - w[1:-1]) / dth
        )
        diff = NU * ((w[2:] - 2 * w[1:-1] + w[:-2]) / dr**2 + (w[2:] - w[:-2]) / (2 * ri * dr)
                     + (wp[1:-1] - 2 * w[1:-1] + wm[1:-1]) / (ri**2 * dth**2))
        omega[1:-1, :m] = w[1:-1] + DT * (diff - conv)
        omega[:, -1] = omega[:, 0]
        omega[0] = 2 * (psi[0] - psi[1]) / dr**2
        omega[-1] = 0.0
    np.savez("solution.npz", psi=psi, omega=omega, r=r, theta=theta)


if __name__ == "__main__":
    main()
