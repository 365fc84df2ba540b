"""Second solution of cfd-code/2D_Poisson_Equation, written apart from the reference: the same discrete problem
(the five-point Laplacian on the stated 50 x 50 node grid, p = 0 on the boundary, the two node sources) solved
by diagonalising the operator with discrete sine transforms (type I) instead of a sparse factorisation."""

import numpy as np
from scipy.fft import dstn, idstn

NX = 50
NY = 50

LX, LY, STRENGTH = 2.0, 1.0, 100.0

x = np.linspace(0.0, LX, NX)
y = np.linspace(0.0, LY, NY)
dx, dy = x[1] - x[0], y[1] - y[0]
b = np.zeros((NY, NX))
b[round(0.25 * LY / dy), round(0.25 * LX / dx)] = STRENGTH
b[round(0.75 * LY / dy), round(0.75 * LX / dx)] = -STRENGTH

inner = b[1:-1, 1:-1]
ny, nx = inner.shape
lam_x = (2 * np.cos(np.pi * np.arange(1, nx + 1) / (nx + 1)) - 2) / dx**2
lam_y = (2 * np.cos(np.pi * np.arange(1, ny + 1) / (ny + 1)) - 2) / dy**2
coefficients = dstn(inner, type=1) / (lam_y[:, None] + lam_x[None, :])
p = np.zeros((NY, NX))
p[1:-1, 1:-1] = idstn(coefficients, type=1)
np.savez("solution.npz", p=p, x=x, y=y)
