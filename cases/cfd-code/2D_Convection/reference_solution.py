"""u_t + u u_x + v u_y = 0, v_t + u v_x + v v_y = 0 on [0, 2]^2 with a box of u = v = 2, to t = 0.32
(oracle for cfd-code/2D_Convection).

u and v start equal and stay equal, and both are at least 1, so each is advected by the same positive velocity.
Conservative first-order upwind finite volumes of u_t + (u^2/2)_x + (u^2/2)_y = 0 (the weak form whose shocks
move at the right speed) on NX x NY cells, u = 1 on the inflow boundaries, NT steps. Writes cell-centre values
u, v and centres x, y (u[j, i] = u(x_i, y_j)) to solution.npz.
"""

import numpy as np

NX = 401
NY = 401
NT = 400

T_END = 0.32


def main():
    hx, hy = 2.0 / NX, 2.0 / NY
    x, y = (np.arange(NX) + 0.5) * hx, (np.arange(NY) + 0.5) * hy

    def overlap(centres, h):  # fraction of each cell inside [0.5, 1]
        lo, hi = centres - h / 2, centres + h / 2
        return np.clip(np.minimum(hi, 1.0) - np.maximum(lo, 0.5), 0.0, None) / h

    u = 1.0 + np.outer(overlap(y, hy), overlap(x, hx))
    dt = T_END / NT
    if 2.0 * dt * (1 / hx + 1 / hy) > 1.0:
        raise SystemExit("unstable: increase NT")
    for _ in range(NT):
        flux = 0.5 * np.pad(u, 1, constant_values=1.0) ** 2  # ghost cells hold u = 1
        u = u - dt / hx * (flux[1:-1, 1:-1] - flux[1:-1, :-2]) - dt / hy * (flux[1:-1, 1:-1] - flux[:-2, 1:-1])
    np.savez("solution.npz", u=u, v=u.copy(), x=x, y=y)


if __name__ == "__main__":
    main()
