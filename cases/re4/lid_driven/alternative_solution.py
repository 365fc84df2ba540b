"""Second solution of re4/lid_driven, written apart from the reference: primitive variables on a staggered (MAC)
grid of N x N cells over Omega = [0, 1]^2, marched to the steady state by an incremental pressure-correction
method (advection explicit in conservative central form, diffusion implicit through one sparse LU per velocity
component, the old pressure gradient in the predictor and a Neumann Poisson equation for the increment, so that
the steady state solves the discrete steady equations exactly) until the velocity stops changing; the lid
u = alpha x (1 - x), alpha = 2, enters through ghost values. u and v are interpolated to the (N + 1)^2 cell
corners and saved with a speed contour plot."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as spla  # noqa: E402

N = 96
RE, ALPHA = 100.0, 2.0
NU = 1.0 / RE
TOL = 1e-7  # steady when max |du| / dt falls below it

h = 1.0 / N
x_faces = np.linspace(0.0, 1.0, N + 1)
x_centres = 0.5 * (x_faces[:-1] + x_faces[1:])
lid = ALPHA * x_faces * (1 - x_faces)  # u on the lid at the x-faces
dt = 0.4 * h / (0.25 * ALPHA)  # the advective limit of the largest velocity (the lid's peak, alpha / 4)


def second_difference(n: int, ends: float) -> sp.csr_matrix:
    """1-D second difference; ``ends`` is the diagonal at both ends (-3 for a wall through ghost values, -1 for
    zero flux)."""
    main = -2.0 * np.ones(n)
    main[[0, -1]] = ends
    return sp.diags([np.ones(n - 1), main, np.ones(n - 1)], [-1, 0, 1]) / h**2


# u on x-faces, interior columns 1..N-1, rows 0..N-1 (ghosts below and above); v on y-faces transposed alike
lap_u = sp.kron(second_difference(N, -3.0), sp.eye(N - 1)) + sp.kron(sp.eye(N), second_difference(N - 1, -2.0))
lap_v = sp.kron(second_difference(N - 1, -2.0), sp.eye(N)) + sp.kron(sp.eye(N - 1), second_difference(N, -3.0))
solve_u = spla.splu((sp.eye(lap_u.shape[0]) - dt * NU * lap_u).tocsc())
solve_v = spla.splu((sp.eye(lap_v.shape[0]) - dt * NU * lap_v).tocsc())
lid_source = np.zeros((N, N - 1))
lid_source[-1] = 2 * lid[1:-1] / h**2  # the ghost above the lid row: 2 lid - u
poisson = (sp.kron(sp.eye(N), second_difference(N, -1.0)) + sp.kron(second_difference(N, -1.0), sp.eye(N))).tolil()
poisson[0, :] = 0
poisson[0, 0] = 1.0
solve_p = spla.splu(poisson.tocsc())

u = np.zeros((N, N + 1))  # u[j, i] at (x_i, y_{j+1/2})
v = np.zeros((N + 1, N))  # v[j, i] at (x_{i+1/2}, y_j)
p = np.zeros((N, N))  # cell centres


def padded(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.vstack([-u[:1], u, 2 * lid - u[-1:]]), np.hstack([-v[:, :1], v, -v[:, -1:]])


steps, change = 0, np.inf
while change >= TOL:
    steps += 1
    U, V = padded(u, v)
    uc, vc = 0.5 * (U[:-1] + U[1:]), 0.5 * (V[:, :-1] + V[:, 1:])
    uv = uc * vc
    uu = (0.5 * (u[:, :-1] + u[:, 1:])) ** 2
    vv = (0.5 * (v[:-1] + v[1:])) ** 2
    adv_u = (uu[:, 1:] - uu[:, :-1]) / h + (uv[1:, 1:-1] - uv[:-1, 1:-1]) / h
    adv_v = (uv[1:-1, 1:] - uv[1:-1, :-1]) / h + (vv[1:] - vv[:-1]) / h
    star_u, star_v = u.copy(), v.copy()
    grad_x, grad_y = (p[:, 1:] - p[:, :-1]) / h, (p[1:] - p[:-1]) / h
    star_u[:, 1:-1] = solve_u.solve((u[:, 1:-1] - dt * (adv_u + grad_x) + dt * NU * lid_source).ravel()).reshape(
        N, N - 1
    )
    star_v[1:-1] = solve_v.solve((v[1:-1] - dt * (adv_v + grad_y)).ravel()).reshape(N - 1, N)
    rhs = ((star_u[:, 1:] - star_u[:, :-1]) + (star_v[1:] - star_v[:-1])).ravel() / (h * dt)
    rhs[0] = 0.0
    phi = solve_p.solve(rhs).reshape(N, N)
    p += phi
    new_u, new_v = star_u.copy(), star_v.copy()
    new_u[:, 1:-1] -= dt * (phi[:, 1:] - phi[:, :-1]) / h
    new_v[1:-1] -= dt * (phi[1:] - phi[:-1]) / h
    change = max(np.abs(new_u - u).max(), np.abs(new_v - v).max()) / dt
    u, v = new_u, new_v
print(f"steady after {steps} steps (t = {steps * dt:.1f}), last change {change:.1e}")

U, V = padded(u, v)
u_nodes, v_nodes = 0.5 * (U[:-1] + U[1:]), 0.5 * (V[:, :-1] + V[:, 1:])
X, Y = np.meshgrid(x_faces, x_faces)
np.savez("solution.npz", x=X, y=Y, u=u_nodes, v=v_nodes)
fig, ax = plt.subplots(figsize=(5, 5))
ax.contourf(X, Y, np.hypot(u_nodes, v_nodes), 30)
ax.streamplot(x_faces, x_faces, u_nodes, v_nodes, color="k", density=1.0)
fig.savefig("lid_driven.png", dpi=80)
