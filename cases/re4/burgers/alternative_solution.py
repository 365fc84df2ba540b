"""Second solution of re4/burgers, written apart from the reference: a graded mesh (sinh mapping, nodes packed
around x = 0 where the front steepens to a width of about nu) with second-order conservative differences on the
nonuniform grid, u = 0 at both ends, integrated by scipy's implicit Radau method with a banded Jacobian
sparsity. Writes x and u(x, t = 1) and a figure."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402
from scipy.sparse import diags  # noqa: E402

N = 801  # nodes
STRETCH = 6.0
NU, T_END = 0.01 / np.pi, 1.0

s = np.linspace(-1.0, 1.0, N)
x = np.sinh(STRETCH * s) / np.sinh(STRETCH)
h = np.diff(x)
mid = 0.5 * (x[:-1] + x[1:])
width = 0.5 * (h[:-1] + h[1:])  # control volume of each interior node


def rhs(t: float, inner: np.ndarray) -> np.ndarray:
    u = np.concatenate([[0.0], inner, [0.0]])
    face_u = 0.5 * (u[:-1] + u[1:])
    convective = 0.5 * face_u**2  # flux u^2 / 2 at the midpoints
    gradient = np.diff(u) / h
    total = convective - NU * gradient
    return -(total[1:] - total[:-1]) / width


u0 = -np.sin(np.pi * x[1:-1])
pattern = diags([1, 1, 1], [-1, 0, 1], shape=(N - 2, N - 2))
solution = solve_ivp(
    rhs, (0.0, T_END), u0, method="Radau", jac_sparsity=pattern, rtol=1e-7, atol=1e-9, t_eval=np.linspace(0, T_END, 11)
)
u = np.concatenate([[0.0], solution.y[:, -1], [0.0]])
np.savez("solution.npz", x=x, u=u)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.contourf(x, solution.t, np.abs(np.pad(solution.y, ((1, 1), (0, 0))).T), 30)
left.set_xlabel("x")
left.set_ylabel("t")
right.plot(x, u)
right.set_title("u(x, 1)")
fig.tight_layout()
fig.savefig("burgers.png", dpi=80)
