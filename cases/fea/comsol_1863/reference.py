"""Reference for comsol_1863: S21 (dB) of a coaxial-to-rectangular-waveguide adapter at 6 GHz.

A copper waveguide 100 mm x 35 mm x 17.5 mm (x, y, z) is fed from below by a coaxial line (outer radius 5 mm,
inner radius 1 mm, relative permittivity 2, 20 mm long) whose axis is x = y = 17.5 mm; the inner conductor
continues 8.75 mm into the guide as a probe. The wall x = 0 is a short; the coax end z = -20 mm (TEM) and the
guide end x = 100 mm (TE10) are matched ports. Copper walls are modelled by the Leontovich impedance condition.

Method: time-harmonic E-field (exp(+j w t)), curl curl E - k0^2 eps_r E = 0, second-degree Nedelec (N1curl)
elements on a curved (quadratic) gmsh tetrahedral mesh with DOLFINx. The PETSc build here is real, so E = Er + j Ei
is solved as a 2 x 2 real block system with MUMPS. Half model: the plane y = 17.5 mm is a magnetic symmetry
plane (natural condition). Each port carries the first-order absorbing condition of its mode,
n x curl E = j beta E_t - 2 j beta E_inc,t, exact for that mode; S-parameters are mode overlaps normalised to
equal power. Walls: n x curl E = (j w mu0 / Zs) E_t with Zs = (1 + j) sqrt(w mu0 / (2 sigma)).

Usage: python reference.py [--level N] writes result.json (S21 in dB; level 1 is the default; each level divides
the element sizes by about sqrt(2)). python reference.py --check runs the port checks (straight coax and straight
guide sections, where S21 = exp(-j beta length), and the power balance of the lossless adapter).
"""

# mpi4py first: it loads the MPI library that DOLFINx links to (the import order is deliberate)
import argparse  # noqa: I001
import json
import math
import time

from mpi4py import MPI

import basix.ufl
import dolfinx.fem.petsc
import dolfinx.io.gmsh
import gmsh
import numpy as np
import ufl

C0 = 299_792_458.0
MU0 = 4e-7 * math.pi
FREQ = 6e9
H = 17.5e-3  # guide height (z) and the probe axis position (x = y = H)
LENGTH = 100e-3  # guide length (x)
DEPTH = 2 * H  # guide broad side (y)
L_COAX = 20e-3  # coax length below the guide floor
R_OUT, R_IN = 5e-3, 1e-3
EPS_COAX = 2.0
SIGMA_CU = 5.998e7
K0 = 2 * math.pi * FREQ / C0
ETA0 = MU0 * C0
BETA_TEM = K0 * math.sqrt(EPS_COAX)
BETA_TE10 = math.sqrt(K0**2 - (math.pi / DEPTH) ** 2)
# element sizes (m) per level: far field, and next to the probe and inner conductor
SIZES = {0: (8e-3, 1.4e-3), 1: (5.7e-3, 1.0e-3), 2: (4e-3, 0.7e-3), 3: (2.8e-3, 0.5e-3)}
EDGE_FACTOR, EDGE_DIST = 0.4, 4.0  # re-entrant rims: size EDGE_FACTOR * near size, graded over EDGE_DIST sizes
TAGS = {"air": 1, "dielectric": 2, "port1": 11, "port2": 12, "metal": 13}


def _classify_and_mesh(vol_eps: dict[int, float], port_tests, level: int, refine_near, edges=()) -> None:
    """Name the volumes and faces of the current OCC model (ports by a test on the face centre, the
    y = DEPTH/2 plane left free, every other outer face metal) and mesh it with quadratic tetrahedra."""
    occ = gmsh.model.occ
    occ.synchronize()
    for name, eps in (("air", 1.0), ("dielectric", EPS_COAX)):
        vols = [v for v, e in vol_eps.items() if e == eps]
        if vols:
            gmsh.model.addPhysicalGroup(3, vols, TAGS[name])
    faces: dict[int, int] = {}
    for v in vol_eps:
        for _, s in gmsh.model.getBoundary([(3, v)], oriented=False):
            faces[s] = faces.get(s, 0) + 1
    groups: dict[str, list[int]] = {"port1": [], "port2": [], "metal": []}
    for s, count in faces.items():
        if count > 1:
            continue  # interface between two volumes
        c = occ.getCenterOfMass(2, s)
        if port_tests["port1"](c):
            groups["port1"].append(s)
        elif port_tests["port2"](c):
            groups["port2"].append(s)
        elif abs(c[1] - DEPTH / 2) > 1e-9:
            groups["metal"].append(s)
    for name, surfs in groups.items():
        gmsh.model.addPhysicalGroup(2, surfs, TAGS[name])
    h_far, h_near = SIZES[level]
    field = gmsh.model.mesh.field
    dist = field.add("Distance")
    field.setNumbers(dist, "SurfacesList", refine_near)
    thr = field.add("Threshold")
    field.setNumber(thr, "InField", dist)
    field.setNumber(thr, "SizeMin", h_near)
    field.setNumber(thr, "SizeMax", h_far)
    field.setNumber(thr, "DistMin", 0.0)
    field.setNumber(thr, "DistMax", 8 * (h_far - h_near))
    fields = [thr]
    if edges:
        edge_dist = field.add("Distance")
        field.setNumbers(edge_dist, "CurvesList", list(edges))
        edge_thr = field.add("Threshold")
        field.setNumber(edge_thr, "InField", edge_dist)
        field.setNumber(edge_thr, "SizeMin", h_near * EDGE_FACTOR)
        field.setNumber(edge_thr, "SizeMax", h_far)
        field.setNumber(edge_thr, "DistMin", 0.0)
        field.setNumber(edge_thr, "DistMax", EDGE_DIST * h_near)
        fields.append(edge_thr)
    smallest = field.add("Min")
    field.setNumbers(smallest, "FieldsList", fields)
    field.setAsBackgroundMesh(smallest)
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.model.mesh.generate(3)
    gmsh.model.mesh.setOrder(2)


def build_adapter(level: int) -> None:
    """Half adapter (y <= DEPTH/2): guide block and coax dielectric, probe cut out."""
    occ = gmsh.model.occ
    half = (-1.0, DEPTH / 2, -1.0, 3.0, 1.0, 3.0)  # the box y >= DEPTH/2 to cut away
    guide = occ.addBox(0, 0, 0, LENGTH, DEPTH, H)
    coax = occ.addCylinder(H, H, -L_COAX, 0, 0, L_COAX, R_OUT)
    pin = occ.addCylinder(H, H, -L_COAX, 0, 0, L_COAX + H / 2, R_IN)
    cut = occ.addBox(*half)
    occ.cut([(3, guide), (3, coax)], [(3, pin), (3, cut)])
    occ.removeAllDuplicates()
    occ.synchronize()
    vols = [t for _, t in gmsh.model.getEntities(3)]
    vol_eps = {v: (EPS_COAX if occ.getCenterOfMass(3, v)[2] < 0 else 1.0) for v in vols}
    near = [
        s
        for s in (t for _, t in gmsh.model.getEntities(2))
        if math.hypot(*(np.array(occ.getCenterOfMass(2, s)[:2]) - H)) < R_OUT + 1e-6
        and occ.getCenterOfMass(2, s)[2] < H / 2 + 1e-6
    ]
    tests = {
        "port1": lambda c: abs(c[2] + L_COAX) < 1e-9,
        "port2": lambda c: abs(c[0] - LENGTH) < 1e-9,
    }
    edges = []  # the rim of the aperture (z = 0) and of the probe tip (z = H/2): singular fields
    for _, t in gmsh.model.getEntities(1):
        x0, _, z0, x1, _, z1 = gmsh.model.getBoundingBox(1, t)
        flat = abs(z1 - z0) < 1e-6
        aperture = flat and abs(z0) < 1e-6 and abs(x1 - x0 - 2 * R_OUT) < 1e-5
        tip = flat and abs(z0 - H / 2) < 1e-6 and abs(x1 - x0 - 2 * R_IN) < 1e-5
        if aperture or tip:
            edges.append(t)
    _classify_and_mesh(vol_eps, tests, level, near, edges)


def build_straight_coax(level: int) -> None:
    """Half coax section z in [-L_COAX, 0], ports at both ends (check)."""
    occ = gmsh.model.occ
    coax = occ.addCylinder(H, H, -L_COAX, 0, 0, L_COAX, R_OUT)
    pin = occ.addCylinder(H, H, -L_COAX, 0, 0, L_COAX, R_IN)
    cut = occ.addBox(-1.0, DEPTH / 2, -1.0, 3.0, 1.0, 3.0)
    (vol,), _ = occ.cut([(3, coax)], [(3, pin), (3, cut)])
    occ.synchronize()
    near = [t for _, t in gmsh.model.getEntities(2)]
    tests = {"port1": lambda c: abs(c[2] + L_COAX) < 1e-9, "port2": lambda c: abs(c[2]) < 1e-9}
    _classify_and_mesh({vol[1]: EPS_COAX}, tests, level, near)


def build_straight_guide(level: int) -> None:
    """Half empty guide x in [0, LENGTH], TE10 ports at both ends (check)."""
    occ = gmsh.model.occ
    box = occ.addBox(0, 0, 0, LENGTH, DEPTH / 2, H)
    occ.synchronize()
    tests = {"port1": lambda c: abs(c[0]) < 1e-9, "port2": lambda c: abs(c[0] - LENGTH) < 1e-9}
    _classify_and_mesh({box: 1.0}, tests, level, [])


def coax_mode(x):
    """TEM field of the coax (radial, 1/rho), centred on x = y = H."""
    rho = ufl.as_vector((x[0] - H, x[1] - H, 0.0))
    return rho / ufl.dot(rho, rho)


def te10_mode(x):
    """TE10 field of the guide (along z, half sine across y)."""
    return ufl.as_vector((0.0, 0.0, ufl.sin(math.pi * x[1] / DEPTH)))


PORTS = {  # mode field, propagation constant, wave impedance
    "coax": (coax_mode, BETA_TEM, ETA0 / math.sqrt(EPS_COAX)),
    "guide": (te10_mode, BETA_TE10, 2 * math.pi * FREQ * MU0 / BETA_TE10),
}


def solve(build, level: int, port_kinds: tuple[str, str], walls: str) -> tuple[complex, complex, int]:
    """Mesh with `build`, excite port 1 with its unit mode and return (S11, S21, real dofs).

    walls: "copper" (impedance condition) or "pec" (tangential E = 0)."""
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.add("adapter")
    build(level)
    data = dolfinx.io.gmsh.model_to_mesh(gmsh.model, MPI.COMM_WORLD, 0, gdim=3)
    gmsh.finalize()
    mesh, cells, facets = data.mesh, data.cell_tags, data.facet_tags
    dx = ufl.Measure("dx", domain=mesh, subdomain_data=cells)
    ds = ufl.Measure("ds", domain=mesh, subdomain_data=facets)
    eps_r = dolfinx.fem.Function(dolfinx.fem.functionspace(mesh, ("DG", 0)))
    eps_r.x.array[:] = 1.0
    eps_r.x.array[cells.find(TAGS["dielectric"])] = EPS_COAX

    nedelec = basix.ufl.element("N1curl", mesh.basix_cell(), 2)
    space = dolfinx.fem.functionspace(mesh, basix.ufl.mixed_element([nedelec, nedelec]))
    er, ei = ufl.TrialFunctions(space)
    vr, vi = ufl.TestFunctions(space)
    n = ufl.FacetNormal(mesh)
    x = ufl.SpatialCoordinate(mesh)

    def tangential(u, v, measure):
        return ufl.inner(ufl.cross(n, u), ufl.cross(n, v)) * measure

    def volume(u, v):
        return (ufl.inner(ufl.curl(u), ufl.curl(v)) - K0**2 * eps_r * ufl.inner(u, v)) * dx

    modes = [PORTS[k] for k in port_kinds]
    beta1, beta2 = modes[0][1], modes[1][1]
    omega = 2 * math.pi * FREQ
    gamma = omega * MU0 / (2 * math.sqrt(omega * MU0 / (2 * SIGMA_CU)))  # j w mu0 / Zs = gamma (1 + j)

    def a_re(u, v):  # real part of the complex bilinear form
        form = volume(u, v)
        if walls == "copper":
            form += gamma * tangential(u, v, ds(TAGS["metal"]))
        return form

    def a_im(u, v):  # imaginary part: port absorption and wall loss
        form = beta1 * tangential(u, v, ds(TAGS["port1"])) + beta2 * tangential(u, v, ds(TAGS["port2"]))
        if walls == "copper":
            form += gamma * tangential(u, v, ds(TAGS["metal"]))
        return form

    # rows vr: Re a(E, v) = Re L(v); rows vi: -Im a(E, v) = -Im L(v)  (a symmetric block system)
    a = a_re(er, vr) - a_im(ei, vr) - a_im(er, vi) - a_re(ei, vi)
    e_inc = modes[0][0](x)
    rhs = -2 * beta1 * ufl.inner(ufl.cross(n, e_inc), ufl.cross(n, vi)) * ds(TAGS["port1"])

    bcs = []
    if walls == "pec":
        mesh.topology.create_connectivity(2, 3)
        metal = facets.find(TAGS["metal"])
        for i in range(2):
            sub, _ = space.sub(i).collapse()
            dofs = dolfinx.fem.locate_dofs_topological((space.sub(i), sub), 2, metal)
            zero = dolfinx.fem.Function(sub)
            bcs.append(dolfinx.fem.dirichletbc(zero, dofs, space.sub(i)))
    problem = dolfinx.fem.petsc.LinearProblem(
        a,
        rhs,
        bcs=bcs,
        petsc_options_prefix="adapter_",
        petsc_options={
            "ksp_type": "preonly",
            "pc_type": "cholesky",
            "pc_factor_mat_solver_type": "mumps",
            "mat_mumps_icntl_14": 80,
            "ksp_error_if_not_converged": True,
        },
    )
    sol = problem.solve()
    s_r, s_i = sol.sub(0), sol.sub(1)

    def overlap(k):
        mode = modes[k][0](x)
        tag = ds(TAGS[f"port{k + 1}"])
        norm = dolfinx.fem.assemble_scalar(dolfinx.fem.form(ufl.inner(mode, mode) * tag))
        re = dolfinx.fem.assemble_scalar(dolfinx.fem.form(ufl.inner(s_r, mode) * tag))
        im = dolfinx.fem.assemble_scalar(dolfinx.fem.form(ufl.inner(s_i, mode) * tag))
        return complex(re, im) / norm, norm / modes[k][2]

    (c1, power1), (c2, power2) = overlap(0), overlap(1)
    return c1 - 1.0, c2 * math.sqrt(power2 / power1), space.dofmap.index_map.size_global


def main() -> None:
    """Parse --level/--check, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="run the port and power checks instead")
    args = parser.parse_args()
    if args.check:
        for name, build, ports, length, beta in (
            ("straight coax", build_straight_coax, ("coax", "coax"), L_COAX, BETA_TEM),
            ("straight guide", build_straight_guide, ("guide", "guide"), LENGTH, BETA_TE10),
        ):
            s11, s21, _ = solve(build, args.level, ports, "pec")
            turns = round((beta * length + np.angle(s21)) / (2 * math.pi))
            beta_fe = (2 * math.pi * turns - np.angle(s21)) / length  # the phase unwrapped near the exact one
            f_cut = C0 / (2 * math.pi) * math.sqrt(max(K0**2 - beta_fe**2, 0.0))
            print(
                f"{name}: |S21| {abs(s21):.6f} ({20 * math.log10(abs(s21)):.2e} dB), |S11| {abs(s11):.2e},"
                f" beta {beta_fe:.4f} vs exact {beta:.4f} 1/m"
                + (
                    f", TE10 cutoff {f_cut / 1e9:.4f} GHz vs c/(2 a) {C0 / (2 * DEPTH) / 1e9:.4f}"
                    if ports[0] == "guide"
                    else ""
                )
            )
        s11, s21, _ = solve(build_adapter, args.level, ("coax", "guide"), "pec")
        balance = abs(s11) ** 2 + abs(s21) ** 2
        print(f"PEC adapter: S21 {20 * math.log10(abs(s21)):.4f} dB, |S11|^2+|S21|^2 = {balance:.6f}")
        return
    start = time.perf_counter()
    s11, s21, dofs = solve(build_adapter, args.level, ("coax", "guide"), "copper")
    value = 20 * math.log10(abs(s21))
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "dB"}, f)
    print(
        f"level {args.level}: {dofs} dofs, S11 {20 * math.log10(abs(s11)):.3f} dB,"
        f" |S11|^2+|S21|^2 {abs(s11) ** 2 + abs(s21) ** 2:.5f}, {time.perf_counter() - start:.1f} s"
    )
    print(value)


if __name__ == "__main__":
    main()
