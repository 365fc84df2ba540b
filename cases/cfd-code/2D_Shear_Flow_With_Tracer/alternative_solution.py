"""Second solution of cfd-code/2D_Shear_Flow_With_Tracer, written apart from the reference: primitive variables
(u, w, s) in Fourier space, the nonlinear terms in divergence form with the 2/3 rule, the velocity's kept
divergence-free by the Leray projection (no streamfunction), SSP-RK3 with an integrating factor for diffusion,
an adaptive step at CFL 0.5 that lands on t = 20, and another grid than the reference's. Pressure from
lap p = -d_i d_j (u_i u_j), zero mean."""

import numpy as np

NX = 80
NZ = 160

LX, LZ, T_END = 1.0, 2.0, 20.0
RE, SC = 5.0e4, 1.0
NU = 1.0 / RE
DIFF = NU / SC
CFL = 0.5

x = np.arange(NX) * LX / NX
z = -1.0 + np.arange(NZ) * LZ / NZ
X, Z = np.meshgrid(x, z, indexing="ij")
kx = 2 * np.pi * np.fft.fftfreq(NX, LX / NX)[:, None]
kz = 2 * np.pi * np.fft.rfftfreq(NZ, LZ / NZ)[None, :]
k2 = kx**2 + kz**2
k2_safe = np.where(k2 == 0, 1.0, k2)
keep = (np.abs(kx) <= (2 / 3) * np.abs(kx).max()) & (np.abs(kz) <= (2 / 3) * kz.max())
decay = np.stack([NU * k2, NU * k2, DIFF * k2])


def forward(f: np.ndarray) -> np.ndarray:
    return np.fft.rfft2(f)


def backward(f: np.ndarray) -> np.ndarray:
    return np.fft.irfft2(f, s=(NX, NZ))


def project(uh: np.ndarray, wh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The divergence-free part of (u, w)."""
    div = (kx * uh + kz * wh) / k2_safe
    return uh - kx * div, wh - kz * div


def tendency(state: np.ndarray) -> np.ndarray:
    """Advection of u, w and s in divergence form, projected, dealiased (Fourier coefficients)."""
    u, w, s = (backward(keep * f) for f in state)
    uu, uw, ww, us, ws = (forward(a) for a in (u * u, u * w, w * w, u * s, w * s))
    nu_ = -1j * (kx * uu + kz * uw)
    nw_ = -1j * (kx * uw + kz * ww)
    ns_ = -1j * (kx * us + kz * ws)
    nu_, nw_ = project(nu_, nw_)
    return keep * np.stack([nu_, nw_, ns_])


u0 = 0.5 + 0.5 * (np.tanh((Z - 0.5) / 0.1) - np.tanh((Z + 0.5) / 0.1))
w0 = 0.1 * np.sin(2 * np.pi * X / LX) * (np.exp(-((Z - 0.5) ** 2) / 0.01) + np.exp(-((Z + 0.5) ** 2) / 0.01))
uh, wh = project(forward(u0), forward(w0))
state = np.stack([uh, wh, forward(u0)])

dmin = min(LX / NX, LZ / NZ)
t = 0.0
while t < T_END - 1e-12:
    u, w = backward(state[0]), backward(state[1])
    dt = min(CFL * dmin / np.max(np.abs(u) + np.abs(w)), T_END - t)
    full, half = np.exp(-decay * dt), np.exp(-decay * dt / 2)
    first = full * (state + dt * tendency(state))
    second = 0.75 * half * state + 0.25 / half * (first + dt * tendency(first))
    state = full * state / 3 + (2 / 3) * half * (second + dt * tendency(second))
    t += dt

u, w, s = (backward(f) for f in state)
uu, uw, ww = forward(u * u), forward(u * w), forward(w * w)
ph = -(kx * kx * uu + 2 * kx * kz * uw + kz * kz * ww) / k2_safe
ph[0, 0] = 0.0
p = backward(ph)
np.savez("solution.npz", s=s, u=u, w=w, p=p, x=x, z=z)
