"""Periodic shear flow with a passive tracer at t = 20 (oracle for cfd-code/2D_Shear_Flow_With_Tracer).

Vorticity-streamfunction form, Fourier pseudo-spectral on NX x NZ points with the 2/3 dealiasing rule; classical
RK4 with an integrating factor for the viscous and diffusive terms; time step from a CFL number of 1. The
pressure solves lap p = -d_i d_j (u_i u_j) with zero mean. Writes s, u, w, p (x along the first axis), x, z to
solution.npz.
"""

import numpy as np
from scipy import fft

NX = 64
NZ = 128

RE, SC, T_END, CFL = 5.0e4, 1.0, 20.0, 1.0
LX, LZ = 1.0, 2.0


def main():
    x = np.arange(NX) * LX / NX
    z = -1.0 + np.arange(NZ) * LZ / NZ
    X, Z = np.meshgrid(x, z, indexing="ij")
    kx = 2 * np.pi * fft.fftfreq(NX, LX / NX)[:, None]
    kz = 2 * np.pi * fft.rfftfreq(NZ, LZ / NZ)[None, :]
    k2 = kx**2 + kz**2
    ik2 = np.divide(1.0, k2, out=np.zeros_like(k2), where=k2 > 0)
    keep = (np.abs(kx) < 2 / 3 * np.pi * NX / LX) & (np.abs(kz) < 2 / 3 * np.pi * NZ / LZ)

    def grid(c):
        return fft.irfft2(c, s=(NX, NZ))

    def vel(om):
        psi = -om * ik2
        return grid(1j * kz * psi), grid(-1j * kx * psi)

    def rhs(om, tr):
        u, w = vel(om)
        return (
            -fft.rfft2(u * grid(1j * kx * om) + w * grid(1j * kz * om)) * keep,
            -fft.rfft2(u * grid(1j * kx * tr) + w * grid(1j * kz * tr)) * keep,
        )

    u0 = 0.5 + 0.5 * (np.tanh((Z - 0.5) / 0.1) - np.tanh((Z + 0.5) / 0.1))
    w0 = 0.1 * np.sin(2 * np.pi * X) * (np.exp(-(Z - 0.5) ** 2 / 0.01) + np.exp(-(Z + 0.5) ** 2 / 0.01))
    om = (1j * kz * fft.rfft2(u0) - 1j * kx * fft.rfft2(w0)) * keep
    tr = fft.rfft2(u0) * keep
    nu = 1.0 / RE
    t = 0.0
    while t < T_END - 1e-12:
        u, w = vel(om)
        dt = min(CFL * min(LX / NX, LZ / NZ) / np.max(np.abs(u) + np.abs(w)), T_END - t)
        eo, es = np.exp(-nu * k2 * dt / 2), np.exp(-nu / SC * k2 * dt / 2)
        a1, b1 = rhs(om, tr)
        a2, b2 = rhs(eo * (om + dt / 2 * a1), es * (tr + dt / 2 * b1))
        a3, b3 = rhs(eo * om + dt / 2 * a2, es * tr + dt / 2 * b2)
        a4, b4 = rhs(eo**2 * om + dt * eo * a3, es**2 * tr + dt * es * b3)
        om = eo**2 * om + dt / 6 * (eo**2 * a1 + 2 * eo * (a2 + a3) + a4)
        tr = es**2 * tr + dt / 6 * (es**2 * b1 + 2 * es * (b2 + b3) + b4)
        t += dt
    u, w = vel(om)
    uu, uw, ww = (fft.rfft2(a * b) * keep for a, b in ((u, u), (u, w), (w, w)))
    p = grid(-(kx**2 * uu + 2 * kx * kz * uw + kz**2 * ww) * ik2)
    np.savez("solution.npz", s=grid(tr), u=u, w=w, p=p, x=x, z=z)


if __name__ == "__main__":
    main()
