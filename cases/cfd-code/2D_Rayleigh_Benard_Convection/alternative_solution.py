"""Second solution of cfd-code/2D_Rayleigh_Benard_Convection, written apart from the reference and the oracle:
streamfunction-vorticity-buoyancy with Fourier differentiation in the periodic x (2/3 dealiasing) and
second-order finite differences on uniform nodes in z (both walls among them), the third-order
strong-stability-preserving Runge-Kutta method (SSP-RK3) with an adaptive step (advective CFL 0.4 and the
explicit diffusion limit), Thom's condition for the wall vorticity, and advection in skew-symmetric form (the
mean of the advective and conservative forms). The pressure at t = 50 solves the pressure Poisson equation of
the final state (Neumann data from the wall-normal momentum balance, zero mean)."""

import numpy as np

NX = 128
NZ = 65
LX, LZ = 4.0, 1.0
RA, PR = 2.0e6, 1.0
NU = (RA / PR) ** -0.5
KAPPA = (RA * PR) ** -0.5
T_END = 50.0
CFL = 0.4

x = np.arange(NX) * LX / NX
z = np.linspace(0.0, LZ, NZ)
dz = z[1] - z[0]
k = 2.0 * np.pi * np.fft.rfftfreq(NX, d=LX / NX)
keep = (np.abs(k) < (2.0 / 3.0) * k.max()).astype(float)[:, None]  # 2/3 rule on products
m = NZ - 2  # interior nodes

# second difference on the interior nodes (Dirichlet zero at both walls)
d2 = (np.diag(-2.0 * np.ones(m)) + np.diag(np.ones(m - 1), 1) + np.diag(np.ones(m - 1), -1)) / dz**2
psi_solvers = np.linalg.inv(d2[None, :, :] - (k**2)[:, None, None] * np.eye(m)[None, :, :])


def ddx(f: np.ndarray) -> np.ndarray:
    return np.fft.irfft(1j * k[:, None] * np.fft.rfft(f, axis=0), n=NX, axis=0)


def d2dx2(f: np.ndarray) -> np.ndarray:
    return np.fft.irfft(-(k**2)[:, None] * np.fft.rfft(f, axis=0), n=NX, axis=0)


def ddz(f: np.ndarray) -> np.ndarray:
    """Central differences inside, one-sided second order at the walls."""
    out = np.empty_like(f)
    out[:, 1:-1] = (f[:, 2:] - f[:, :-2]) / (2 * dz)
    out[:, 0] = (-3 * f[:, 0] + 4 * f[:, 1] - f[:, 2]) / (2 * dz)
    out[:, -1] = (3 * f[:, -1] - 4 * f[:, -2] + f[:, -3]) / (2 * dz)
    return out


def d2dz2_interior(f: np.ndarray) -> np.ndarray:
    return (f[:, 2:] - 2 * f[:, 1:-1] + f[:, :-2]) / dz**2


def dealias(f: np.ndarray) -> np.ndarray:
    return np.fft.irfft(keep * np.fft.rfft(f, axis=0), n=NX, axis=0)


def streamfunction(omega: np.ndarray) -> np.ndarray:
    """psi with -lap(psi) = omega inside and psi = 0 on both walls."""
    rhs = -np.fft.rfft(omega[:, 1:-1], axis=0)
    psi_hat = np.einsum("kij,kj->ki", psi_solvers, rhs)
    psi = np.zeros((NX, NZ))
    psi[:, 1:-1] = np.fft.irfft(psi_hat, n=NX, axis=0)
    return psi


def velocity(psi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u = ddz(psi)
    u[:, 0] = u[:, -1] = 0.0
    return u, -ddx(psi)


def advection(u: np.ndarray, w: np.ndarray, f: np.ndarray) -> np.ndarray:
    """(u . grad) f in skew-symmetric form, on the interior nodes."""
    advective = u * ddx(f) + w * ddz(f)
    conservative = ddx(u * f) + ddz(w * f)
    return dealias(0.5 * (advective + conservative))[:, 1:-1]


def tendencies(omega: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Interior time derivatives of omega and b (omega's wall values set in place by Thom's condition) and the
    largest stable step."""
    psi = streamfunction(omega)
    omega[:, 0] = -2.0 * psi[:, 1] / dz**2
    omega[:, -1] = -2.0 * psi[:, -2] / dz**2
    u, w = velocity(psi)
    d_omega = -advection(u, w, omega) + NU * (d2dx2(omega)[:, 1:-1] + d2dz2_interior(omega)) + ddx(b)[:, 1:-1]
    d_b = -advection(u, w, b) + KAPPA * (d2dx2(b)[:, 1:-1] + d2dz2_interior(b))
    speed = max(np.abs(u).max() / (LX / NX), np.abs(w).max() / dz, 1e-12)
    dt = min(CFL / speed, 0.2 * dz**2 / max(NU, KAPPA), 0.05)
    return d_omega, d_b, dt


def pressure(omega: np.ndarray, b: np.ndarray) -> np.ndarray:
    """p (zero mean) from lap(p) = -(u_x^2 + 2 w_x u_z + w_z^2) + b_z, dp/dz = b + nu w_zz at the walls."""
    psi = streamfunction(omega)
    u, w = velocity(psi)
    ux, uz, wx, wz = ddx(u), ddz(u), ddx(w), ddz(w)
    source = -(ux**2 + 2 * wx * uz + wz**2) + ddz(b)
    w_zz_bottom = (2 * w[:, 0] - 5 * w[:, 1] + 4 * w[:, 2] - w[:, 3]) / dz**2
    w_zz_top = (2 * w[:, -1] - 5 * w[:, -2] + 4 * w[:, -3] - w[:, -4]) / dz**2
    flux_bottom = np.fft.rfft(b[:, 0] + NU * w_zz_bottom)
    flux_top = np.fft.rfft(b[:, -1] + NU * w_zz_top)
    rhs = np.fft.rfft(source, axis=0)
    p_hat = np.zeros((k.size, NZ), dtype=complex)
    for i, kk in enumerate(k):
        a = np.zeros((NZ, NZ))
        a[1:-1, :-2] += np.eye(m) / dz**2
        a[1:-1, 1:-1] += np.eye(m) * (-2.0 / dz**2 - kk**2)
        a[1:-1, 2:] += np.eye(m) / dz**2
        a[0, :3] = np.array([-3.0, 4.0, -1.0]) / (2 * dz)
        a[-1, -3:] = np.array([1.0, -4.0, 3.0]) / (2 * dz)
        r = rhs[i].copy()
        r[0], r[-1] = flux_bottom[i], flux_top[i]
        if i == 0:  # defined up to a constant: least squares, the mean removed below
            p_hat[i] = np.linalg.lstsq(a, r, rcond=None)[0]
        else:
            p_hat[i] = np.linalg.solve(a, r)
    p = np.fft.irfft(p_hat, n=NX, axis=0)
    weights = np.full(NZ, dz)
    weights[[0, -1]] = dz / 2
    return p - (p @ weights).mean() / LZ


rng = np.random.default_rng(2026)
b = LZ - z[None, :] + 1e-3 * rng.standard_normal((NX, NZ)) * z[None, :] * (LZ - z[None, :])
omega = np.zeros((NX, NZ))
t = 0.0
while t < T_END - 1e-12:
    f_omega, f_b, dt = tendencies(omega, b)
    dt = min(dt, T_END - t)
    o1, b1 = omega.copy(), b.copy()
    o1[:, 1:-1] += dt * f_omega
    b1[:, 1:-1] += dt * f_b
    g_omega, g_b, _ = tendencies(o1, b1)
    o2, b2 = o1.copy(), b1.copy()
    o2[:, 1:-1] = 0.75 * omega[:, 1:-1] + 0.25 * (o1[:, 1:-1] + dt * g_omega)
    b2[:, 1:-1] = 0.75 * b[:, 1:-1] + 0.25 * (b1[:, 1:-1] + dt * g_b)
    h_omega, h_b, _ = tendencies(o2, b2)
    omega[:, 1:-1] = omega[:, 1:-1] / 3.0 + 2.0 / 3.0 * (o2[:, 1:-1] + dt * h_omega)
    b[:, 1:-1] = b[:, 1:-1] / 3.0 + 2.0 / 3.0 * (b2[:, 1:-1] + dt * h_b)
    t += dt

psi = streamfunction(omega)
u, w = velocity(psi)
p = pressure(omega, b)
np.savez("solution.npz", x=x, z=z, b=b, u=u, w=w, p=p)
