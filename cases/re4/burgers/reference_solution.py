"""Viscous Burgers u_t + u u_x = nu u_xx, nu = 0.01/pi, on [-1, 1] to t = 1 (oracle for re4/burgers).

Method of lines on 2001 nodes: conservative finite differences with the local Lax-Friedrichs (Rusanov) flux
for u^2/2, second-order central diffusion, u = 0 at both ends, integrated by scipy's BDF with a tridiagonal
Jacobian sparsity. Writes x and u(x, t = 1) to solution.npz and a contour/profile figure to burgers.png.
"""

import time

import matplotlib
import numpy as np
from scipy.integrate import solve_ivp
from scipy.sparse import diags

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NU = 0.01 / np.pi
NODES = 2001
T_END = 1.0


def rhs_factory(dx):
    """Right-hand side of the semi-discrete system for the interior nodes."""

    def rhs(t, interior):
        u = np.concatenate([[0.0], interior, [0.0]])
        left, right = u[:-1], u[1:]
        flux = 0.25 * (left**2 + right**2) - 0.5 * np.maximum(np.abs(left), np.abs(right)) * (right - left)
        return -(flux[1:] - flux[:-1]) / dx + NU * (u[2:] - 2.0 * u[1:-1] + u[:-2]) / dx**2

    return rhs


def main():
    start = time.perf_counter()
    x = np.linspace(-1.0, 1.0, NODES)
    dx = x[1] - x[0]
    n = NODES - 2
    sparsity = diags([np.ones(n - 1), np.ones(n), np.ones(n - 1)], [-1, 0, 1])
    times = np.linspace(0.0, T_END, 101)
    sol = solve_ivp(rhs_factory(dx), (0.0, T_END), -np.sin(np.pi * x[1:-1]), method="BDF", t_eval=times,
                    jac_sparsity=sparsity, rtol=1e-6, atol=1e-8)
    if not sol.success:
        raise RuntimeError(sol.message)
    history = np.vstack([np.zeros(times.size), sol.y, np.zeros(times.size)])
    u = history[:, -1]
    print(f"nodes: {NODES}, rhs evaluations: {sol.nfev}, LU decompositions: {sol.nlu}, "
          f"wall time {time.perf_counter() - start:.2f} s")
    print(f"t = {T_END}: max u = {u.max():.5f} at x = {x[u.argmax()]:.4f}, "
          f"slope at x = 0: {np.gradient(u, dx)[NODES // 2]:.2f}")
    np.savez("solution.npz", x=x, u=u)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    contour = left.contourf(times, x, np.abs(history), levels=50, cmap="viridis")
    fig.colorbar(contour, ax=left, label="|u|")
    left.set_xlabel("t")
    left.set_ylabel("x")
    left.set_title("|u(x, t)|")
    for k in (0, 25, 50, 75, 100):
        right.plot(x, history[:, k], label=f"t = {times[k]:.2f}")
    right.set_xlabel("x")
    right.set_ylabel("u")
    right.legend()
    right.set_title("velocity profiles")
    fig.tight_layout()
    fig.savefig("burgers.png", dpi=100)


if __name__ == "__main__":
    main()
