"""2-D Rayleigh-Benard convection at Ra = 2e6, t = 50 (oracle for cfd-code/2D_Rayleigh_Benard_Convection).

Streamfunction-vorticity form with b = Lz - z + theta. Fourier modes in x (products on a 3/2-padded grid),
Chebyshev-Gauss-Lobatto collocation in z; IMEX SBDF2 (diffusion implicit, advection and buoyancy explicit; a
backward Euler step after each change of step). Per Fourier mode one coupled system for (omega, psi) carries the
four no-slip conditions psi = dpsi/dz = 0. The step halves when the CFL number passes CFL_MAX. The pressure
solves lap p = db/dz - d_i u_j d_j u_i with dp/dz = b + nu d2w/dz2 on the walls and zero mean. Writes b, u, w,
p (x along the first axis), x, z to solution.npz.
"""

import numpy as np
from scipy import fft

NX = 128
NZ = 33

LX, LZ, RA, PR, T_END = 4.0, 1.0, 2.0e6, 1.0, 50.0
DT_MAX, CFL_MAX, NOISE, SEED = 0.0125, 0.4, 1.0e-3, 1


def chebyshev(n_nodes):
    t = np.cos(np.pi * np.arange(n_nodes) / (n_nodes - 1))
    c = np.r_[2.0, np.ones(n_nodes - 2), 2.0] * (-1.0) ** np.arange(n_nodes)
    d = np.outer(c, 1 / c) / (t[:, None] - t[None, :] + np.eye(n_nodes))
    d -= np.diag(d.sum(axis=1))
    return (1 - t) * LZ / 2, -2 / LZ * d


def main():
    nu, kappa = (RA / PR) ** -0.5, (RA * PR) ** -0.5
    x = np.arange(NX) * LX / NX
    z, d1 = chebyshev(NZ)
    d2 = d1 @ d1
    k = 2 * np.pi * fft.rfftfreq(NX, LX / NX)
    npad = 3 * NX // 2
    eye = np.eye(NZ)
    inner = slice(1, NZ - 1)

    def padded(modes):  # modes (z, k) -> values on the padded x grid
        return fft.irfft(modes, n=npad, axis=-1) * (npad / NX)

    def modes_of(values):
        m = fft.rfft(values, axis=-1)[..., : k.size] * (NX / npad)
        m[..., -1] = 0
        return m

    def systems(a):
        flow, heat = [], []
        for kk in k:
            lap = d2 - kk**2 * eye
            m = np.zeros((2 * NZ, 2 * NZ))
            m[:NZ, :NZ] = a * eye - nu * lap
            m[NZ:, :NZ], m[NZ:, NZ:] = -eye, lap
            m[[0, NZ - 1]] = 0
            m[[0, NZ - 1], NZ:] = d1[[0, NZ - 1]]
            m[[NZ, 2 * NZ - 1]] = 0
            m[NZ, NZ] = m[-1, -1] = 1
            h = a * eye - kappa * lap
            h[[0, -1]] = 0
            h[0, 0] = h[-1, -1] = 1
            flow.append(np.linalg.inv(m)[:, inner])
            heat.append(np.linalg.inv(h)[:, inner])
        return np.array(flow), np.array(heat)

    def apply(inv, rhs):
        out = np.matmul(inv, np.stack([rhs.real.T, rhs.imag.T], axis=-1))
        return (out[..., 0] + 1j * out[..., 1]).T

    def rates(om, ps, th):
        u_m, w_m = d1 @ ps, -1j * k * ps
        u, w, omx, omz, thx, thz = padded(np.array([u_m, w_m, 1j * k * om, d1 @ om, 1j * k * th, d1 @ th]))
        adv = modes_of(np.array([u * omx + w * omz, u * thx + w * thz]))
        cfl = max(np.abs(u).max() * NX / LX, (np.abs(w) / np.gradient(z)[:, None]).max())
        return -adv[0] - 1j * k * th, -adv[1] + w_m, cfl

    rng = np.random.default_rng(SEED)
    th = fft.rfft(NOISE * rng.standard_normal((NZ, NX)) * (z * (LZ - z))[:, None], axis=-1)
    th[:, -1] = 0
    om, ps = np.zeros_like(th), np.zeros_like(th)
    dt, prev, cache = DT_MAX, None, {}
    steps, done = round(T_END / DT_MAX), 0  # counted in steps of the current dt
    while done < steps:
        r_om, r_th, cfl = rates(om, ps, th)
        if not np.isfinite(cfl):
            raise ArithmeticError(f"the run blew up at t = {done * dt:.3f}")
        if cfl * dt > CFL_MAX:
            dt, steps, done, prev, cache = dt / 2, 2 * steps, 2 * done, None, {}
            continue
        order = 1 if prev is None else 2
        if order not in cache:
            cache[order] = systems((1.0 if order == 1 else 1.5) / dt)
        flow, heat = cache[order]
        if order == 1:
            rhs_om, rhs_th = om / dt + r_om, th / dt + r_th
        else:
            om0, th0, r_om0, r_th0 = prev
            rhs_om = (4 * om - om0) / (2 * dt) + 2 * r_om - r_om0
            rhs_th = (4 * th - th0) / (2 * dt) + 2 * r_th - r_th0
        prev = (om, th, r_om, r_th)
        sol = apply(flow, rhs_om[inner])
        om, ps, th = sol[:NZ], sol[NZ:], apply(heat, rhs_th[inner])
        done += 1

    # pressure: lap p = db/dz - (ux^2 + 2 uz wx + wz^2), dp/dz = b + nu d2w/dz2 on the walls, zero mean
    u_m, w_m = d1 @ ps, -1j * k * ps
    b_m = th.copy()
    b_m[:, 0] += NX * (LZ - z)
    ux, uz, wx, wz = padded(np.array([1j * k * u_m, d1 @ u_m, 1j * k * w_m, d1 @ w_m]))
    src = d1 @ b_m - modes_of(ux * ux + 2 * uz * wx + wz * wz)
    flux = b_m + nu * (d2 @ w_m)
    n = NZ - 1  # Clenshaw-Curtis weights: the mean over z, exact for the Chebyshev polynomials
    theta = np.pi * np.arange(NZ) / n
    v = 1 - sum((1 if 2 * j == n else 2) * np.cos(2 * j * theta[1:-1]) / (4 * j * j - 1) for j in range(1, n // 2 + 1))
    weights = np.r_[1 / (n * n - (n % 2 == 0)), 2 * v / n, 1 / (n * n - (n % 2 == 0))] / 2
    p_m = np.zeros_like(src)
    for i, kk in enumerate(k):
        m = d2 - kk**2 * eye
        m[[0, -1]] = d1[[0, -1]]
        rhs = src[:, i].copy()
        rhs[[0, -1]] = flux[[0, -1], i]
        if i == 0:
            p_m[:, i] = np.linalg.lstsq(np.vstack([m, weights]), np.r_[rhs, 0], rcond=None)[0]
        else:
            p_m[:, i] = np.linalg.solve(m, rhs)

    def grid(modes):
        return fft.irfft(modes, n=NX, axis=-1).T

    b = grid(th) + (LZ - z)[None, :]
    np.savez("solution.npz", b=b, u=grid(u_m), w=grid(w_m), p=grid(p_m), x=x, z=z)


if __name__ == "__main__":
    main()
