"""Second solution of cfd-code/1D_Diffusion, written apart from the reference: finite volumes on NX cells of
[0, 2] (values at the cell centres, the box [0.5, 1] taken as exact cell averages), Crank-Nicolson in time
(unconditionally stable) with NT steps, u = 1 at both ends through ghost cells."""

import numpy as np
from scipy.linalg import solve_banded

NX = 80
NT = 40

NU, LENGTH, T_END = 0.3, 2.0, 0.0333

dx = LENGTH / NX
dt = T_END / NT
faces = np.linspace(0.0, LENGTH, NX + 1)
x = 0.5 * (faces[:-1] + faces[1:])
# the cell average of the initial box: 1 plus the part of the cell inside [0.5, 1]
inside = np.clip(np.minimum(faces[1:], 1.0) - np.maximum(faces[:-1], 0.5), 0.0, None) / dx
u = 1.0 + inside

r = NU * dt / dx**2
# second difference with Dirichlet u = 1 at the walls: ghost value 2 - u_0 (and 2 - u_{N-1})
main = np.full(NX, -2.0)
main[[0, -1]] = -3.0
wall = np.zeros(NX)
wall[[0, -1]] = 2.0
lhs = np.zeros((3, NX))
lhs[0, 1:] = -0.5 * r
lhs[1] = 1 - 0.5 * r * main
lhs[2, :-1] = -0.5 * r
for _ in range(NT):
    second = main * u + wall
    second[1:] += u[:-1]
    second[:-1] += u[1:]
    rhs = u + 0.5 * r * second + 0.5 * r * wall
    u = solve_banded((1, 1), lhs, rhs)

np.savez("solution.npz", u=u, x=x)
