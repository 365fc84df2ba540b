"""Second solution of cfd-code/2D_Navier_Stokes_Cavity, written apart from the reference: primitive variables on a
staggered (MAC) grid with Chorin's projection (intermediate velocity, a pressure Poisson equation with the
divergence of u* / dt and homogeneous Neumann conditions, correction), so the velocity stays divergence-free and
the pressure is the incompressible flow's; conservative central differences, forward Euler in time, the
pressure constant fixed by zero mean. Fields are interpolated from the faces and cell centres to the NX x NY
nodes of [0, 2]^2."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

NX = 41  # nodes along x (NX - 1 cells)
NY = 41
NT = 1000  # minimum number of time steps; more where the explicit diffusion limit needs them

RHO, NU, LENGTH, T_END, LID = 1.0, 0.1, 2.0, 10.0, 1.0

n, m = NX - 1, NY - 1  # cells
dx, dy = LENGTH / n, LENGTH / m
steps = max(NT, int(np.ceil(T_END / (0.2 / (NU * (1 / dx**2 + 1 / dy**2))))))
dt = T_END / steps

u = np.zeros((m, n + 1))  # x-faces: (x_i, y_{j+1/2})
v = np.zeros((m + 1, n))  # y-faces: (x_{i+1/2}, y_j)


def neumann_second_difference(k: int, h: float) -> sp.csr_matrix:
    main = -2 * np.ones(k)
    main[[0, -1]] = -1
    return sp.diags([np.ones(k - 1), main, np.ones(k - 1)], [-1, 0, 1]) / h**2


poisson = (
    sp.kron(sp.eye(m), neumann_second_difference(n, dx)) + sp.kron(neumann_second_difference(m, dy), sp.eye(n))
).tolil()
poisson[0, :] = 0
poisson[0, 0] = 1.0  # removes the constant null space; the mean is removed afterwards
poisson_lu = spla.splu(poisson.tocsc())


def padded(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """u with ghost rows below and above (no slip, the lid), v with ghost columns left and right."""
    U = np.vstack([-u[:1], u, 2 * LID - u[-1:]])
    V = np.hstack([-v[:, :1], v, -v[:, -1:]])
    return U, V


def corner_values(U: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """u and v at the cell corners (the grid nodes), from the padded arrays."""
    return 0.5 * (U[:-1] + U[1:]), 0.5 * (V[:, :-1] + V[:, 1:])


p = np.zeros((m, n))
for _ in range(steps):
    U, V = padded(u, v)
    uc, vc = corner_values(U, V)
    uv = uc * vc
    uu = (0.5 * (u[:, :-1] + u[:, 1:])) ** 2
    vv = (0.5 * (v[:-1, :] + v[1:, :])) ** 2
    adv_u = (uu[:, 1:] - uu[:, :-1]) / dx + (uv[1:, 1:-1] - uv[:-1, 1:-1]) / dy
    adv_v = (uv[1:-1, 1:] - uv[1:-1, :-1]) / dx + (vv[1:, :] - vv[:-1, :]) / dy
    lap_u = (U[1:-1, 2:] - 2 * U[1:-1, 1:-1] + U[1:-1, :-2]) / dx**2 + (
        U[2:, 1:-1] - 2 * U[1:-1, 1:-1] + U[:-2, 1:-1]
    ) / dy**2
    lap_v = (V[1:-1, 2:] - 2 * V[1:-1, 1:-1] + V[1:-1, :-2]) / dx**2 + (
        V[2:, 1:-1] - 2 * V[1:-1, 1:-1] + V[:-2, 1:-1]
    ) / dy**2
    u_star, v_star = u.copy(), v.copy()
    u_star[:, 1:-1] += dt * (-adv_u + NU * lap_u)
    v_star[1:-1, :] += dt * (-adv_v + NU * lap_v)
    divergence = (u_star[:, 1:] - u_star[:, :-1]) / dx + (v_star[1:, :] - v_star[:-1, :]) / dy
    rhs = (RHO / dt) * divergence.ravel()
    rhs[0] = 0.0
    p = poisson_lu.solve(rhs).reshape(m, n)
    p -= p.mean()
    u = u_star.copy()
    v = v_star.copy()
    u[:, 1:-1] -= dt / RHO * (p[:, 1:] - p[:, :-1]) / dx
    v[1:-1, :] -= dt / RHO * (p[1:, :] - p[:-1, :]) / dy

U, V = padded(u, v)
u_nodes, v_nodes = corner_values(U, V)
p_padded = np.pad(p, 1, mode="edge")
p_nodes = 0.25 * (p_padded[:-1, :-1] + p_padded[1:, :-1] + p_padded[:-1, 1:] + p_padded[1:, 1:])
x = np.linspace(0.0, LENGTH, NX)
y = np.linspace(0.0, LENGTH, NY)
np.savez("solution.npz", u=u_nodes, v=v_nodes, p=p_nodes, x=x, y=y)
