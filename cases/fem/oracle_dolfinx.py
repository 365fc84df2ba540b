"""Reference solver of the fem suite: a well-configured DOLFINx 0.11 solver for the 11 PDEAgent-Bench families.

It follows the App. J contract like any submission, ``solve(case_spec) -> {"u": grid, "solver_info": {...}}``,
and reads only the agent-visible ``case_spec``; its discretisation (mesh, degree, time step) comes from
``ORACLE_CONFIG``, which the harness appends per case (the calibration configuration, or a finer one when it
makes a reference). Data (forcing, coefficients, boundary and initial values) are sympy expressions interpolated
into finite element functions, so the compiled forms depend only on the family and the discretisation.

Families: poisson, helmholtz, biharmonic (two Poisson solves, u and Laplacian u given on the boundary),
linear_elasticity (plane strain in 2D), heat (Crank-Nicolson), convection_diffusion (SUPG; steady or transient),
reaction_diffusion (Newton; steady or transient), stokes (Taylor-Hood), navier_stokes (Taylor-Hood, Newton from
a Stokes guess), burgers (u_t + u (u_x + u_y) - nu Lap u = f, Crank-Nicolson with Newton), wave (Newmark,
average acceleration). Runs in parallel under mpiexec; every rank returns the whole grid.
"""

import math

import basix.ufl
import numpy as np
import sympy as sp
import ufl
from dolfinx import fem, geometry, mesh
from dolfinx.fem.petsc import NonlinearProblem, apply_lifting, assemble_matrix, assemble_vector, set_bc
from mpi4py import MPI
from petsc4py import PETSc

ORACLE_CONFIG = {}
DEFAULTS = {"resolution": 64, "degree": 2, "cell_type": None, "char_length": None, "dt": None, "supg": True}
LU = {"ksp_type": "preonly", "pc_type": "lu", "pc_factor_mat_solver_type": "mumps"}
NEWTON = {
    "snes_type": "newtonls",
    "snes_linesearch_type": "basic",
    "snes_rtol": 1e-10,
    "snes_atol": 1e-12,
    "snes_max_it": 50,
    **LU,
}
SYMBOLS = sp.symbols("x y z t")
UFL_FUNCTIONS = {
    "sin": ufl.sin,
    "cos": ufl.cos,
    "tan": ufl.tan,
    "exp": ufl.exp,
    "log": ufl.ln,
    "sqrt": ufl.sqrt,
    "sinh": ufl.sinh,
    "cosh": ufl.cosh,
    "tanh": ufl.tanh,
    "atan": ufl.atan,
    "atan2": ufl.atan2,
    "Max": ufl.max_value,
    "Min": ufl.min_value,
    "sign": ufl.sign,
    "pi": math.pi,
    "E": math.e,
}
COMM = MPI.COMM_WORLD


# ----------------------------------------------------------------------------------------------- expressions
def parse(text):
    """A sympy expression in x, y, z, t (``^`` read as a power)."""
    names = dict(zip(("x", "y", "z", "t"), SYMBOLS, strict=True))
    return sp.sympify(str(text).replace("^", "**"), locals=names)


def numeric(expr):
    """A numpy callable ``f(X, t)`` of a sympy expression, broadcast over the points ``X`` (3 x N)."""
    function = sp.lambdify(SYMBOLS, expr, "numpy")
    return lambda X, time=0.0: np.broadcast_to(
        np.asarray(function(X[0], X[1], X[2], time), dtype=float), X.shape[1:]
    ).copy()


def components(value, size):
    """A list of ``size`` sympy expressions from a string, number or list (a scalar fills every component)."""
    items = value if isinstance(value, (list, tuple)) else [value] * size
    return [parse(item) for item in items]


class Data:
    """A finite element function that holds a (possibly time-dependent) expression."""

    def __init__(self, space, exprs):
        self.function = fem.Function(space)
        self.parts = [numeric(e) for e in exprs]
        self.steady = not any(e.has(SYMBOLS[3]) for e in exprs)
        self.update(0.0)

    def update(self, time):
        """Interpolate the expression at ``time``."""
        if len(self.parts) == 1:
            self.function.interpolate(lambda X: self.parts[0](X, time))
        else:
            self.function.interpolate(lambda X: np.vstack([part(X, time) for part in self.parts]))
        self.function.x.scatter_forward()


def scalar(value):
    """A number from a case_spec parameter (a number or a constant expression)."""
    return float(parse(value)) if isinstance(value, str) else float(value)


# ------------------------------------------------------------------------------------------------- geometry
def _gmsh_mesh(build, h, gdim=2):
    import gmsh
    from dolfinx.io import gmsh as gmshio

    if not gmsh.isInitialized():
        gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.add("domain")
    if COMM.rank == 0:
        surface = build(gmsh.model.occ)
        gmsh.model.occ.synchronize()
        gmsh.model.addPhysicalGroup(gdim, [surface] if isinstance(surface, int) else surface, 1)
        gmsh.option.setNumber("Mesh.CharacteristicLengthMin", h)
        gmsh.option.setNumber("Mesh.CharacteristicLengthMax", h)
        gmsh.model.mesh.generate(gdim)
    data = gmshio.model_to_mesh(gmsh.model, COMM, 0, gdim=gdim)
    gmsh.model.remove()
    return data.mesh


def _polygon(occ, points):
    tags = [occ.addPoint(px, py, 0.0) for px, py in points]
    lines = [occ.addLine(tags[i], tags[(i + 1) % len(tags)]) for i in range(len(tags))]
    return occ.addPlaneSurface([occ.addCurveLoop(lines)])


def _cut(occ, outer, holes):
    if not holes:
        return outer
    result, _ = occ.cut([(2, outer)], [(2, hole) for hole in holes])
    return [tag for dim, tag in result if dim == 2]


def _union(occ, parts):
    result, _ = occ.fuse([(2, parts[0])], [(2, part) for part in parts[1:]])
    return [tag for dim, tag in result if dim == 2]


def star_points(g):
    cx, cy = g.get("center", [0.0, 0.0])
    n = int(g["points"])
    radii = [g["outer_r"], g["inner_r"]]
    return [
        (
            cx + radii[k % 2] * math.cos(math.pi / 2 + k * math.pi / n),
            cy + radii[k % 2] * math.sin(math.pi / 2 + k * math.pi / n),
        )
        for k in range(2 * n)
    ]


def gear_points(g):
    cx, cy = g.get("center", [0.0, 0.0])
    teeth, base, height = int(g["teeth"]), float(g["base_r"]), float(g["tooth_h"])
    points = []
    for k in range(teeth):
        start = 2 * math.pi * k / teeth
        for fraction, radius in ((0.0, base), (0.25, base), (0.25, base + height), (0.75, base + height), (0.75, base)):
            angle = start + fraction * 2 * math.pi / teeth
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _holes(occ, g):
    hole = g.get("inner_hole")
    if hole is None:
        return [occ.addDisk(*item["c"], 0.0, item["r"], item["r"]) for item in g.get("holes", [])]
    if hole["type"] == "circle":
        return [occ.addDisk(*hole["center"], 0.0, hole["radius"], hole["radius"])]
    if hole["type"] == "rect":
        a, b, c, d = hole["bbox"]
        return [occ.addRectangle(a, c, 0.0, b - a, d - c)]
    return [_polygon(occ, hole["vertices"])]


def build_mesh(domain, cfg):
    """The mesh of a domain template with the configured resolution."""
    kind = domain["type"]
    g = domain.get("geometry_params", {})
    n = int(cfg["resolution"])
    if kind in ("unit_square", "rectangle", "periodic_square"):
        x0, x1, y0, y1 = g.get("bounds", [0.0, 1.0, 0.0, 1.0])
        cell = mesh.CellType.quadrilateral if cfg["cell_type"] == "quadrilateral" else mesh.CellType.triangle
        ny = max(2, round(n * (y1 - y0) / (x1 - x0)))
        return mesh.create_rectangle(COMM, [np.array([x0, y0]), np.array([x1, y1])], [n, ny], cell_type=cell)
    if kind in ("unit_cube", "box"):
        x0, x1, y0, y1, z0, z1 = g.get("bounds", [0.0, 1.0, 0.0, 1.0, 0.0, 1.0])
        cell = mesh.CellType.hexahedron if cfg["cell_type"] == "hexahedron" else mesh.CellType.tetrahedron
        return mesh.create_box(COMM, [np.array([x0, y0, z0]), np.array([x1, y1, z1])], [n, n, n], cell_type=cell)
    h = float(cfg["char_length"] or 1.0 / n)
    if kind == "l_shape":
        return _gmsh_mesh(lambda occ: _polygon(occ, g["vertices"]), h)
    if kind == "circle":
        return _gmsh_mesh(lambda occ: occ.addDisk(*g["center"], 0.0, g["radius"], g["radius"]), h)
    if kind == "annulus":
        c = g["center"]
        return _gmsh_mesh(
            lambda occ: _cut(
                occ,
                occ.addDisk(*c, 0.0, g["outer_r"], g["outer_r"]),
                [occ.addDisk(*c, 0.0, g["inner_r"], g["inner_r"])],
            ),
            h,
        )
    if kind == "eccentric_annulus":
        o, i = g["outer_circle"], g["inner_circle"]
        return _gmsh_mesh(
            lambda occ: _cut(
                occ, occ.addDisk(*o["c"], 0.0, o["r"], o["r"]), [occ.addDisk(*i["c"], 0.0, i["r"], i["r"])]
            ),
            h,
        )
    if kind in ("square_with_hole", "multi_hole"):
        x0, x1, y0, y1 = g["outer"]
        return _gmsh_mesh(lambda occ: _cut(occ, occ.addRectangle(x0, y0, 0.0, x1 - x0, y1 - y0), _holes(occ, g)), h)
    if kind == "sector":
        cx, cy = g.get("center", [0.0, 0.0])
        radius, angle = float(g["radius"]), math.radians(float(g["angle"]))
        return _gmsh_mesh(lambda occ: _sector(occ, (cx, cy), radius, angle), h)
    if kind == "star":
        return _gmsh_mesh(lambda occ: _polygon(occ, star_points(g)), h)
    if kind == "gear":
        return _gmsh_mesh(lambda occ: _polygon(occ, gear_points(g)), h)
    if kind == "t_junction":
        a, b = g["horizontal_rect"], g["vertical_rect"]
        return _gmsh_mesh(
            lambda occ: _union(
                occ,
                [
                    occ.addRectangle(a[0], a[2], 0.0, a[1] - a[0], a[3] - a[2]),
                    occ.addRectangle(b[0], b[2], 0.0, b[1] - b[0], b[3] - b[2]),
                ],
            ),
            h,
        )
    if kind == "dumbbell":
        left, right, bridge = g["left_circle"], g["right_circle"], g["bridge"]
        return _gmsh_mesh(
            lambda occ: _union(
                occ,
                [
                    occ.addDisk(*left["c"], 0.0, left["r"], left["r"]),
                    occ.addDisk(*right["c"], 0.0, right["r"], right["r"]),
                    occ.addRectangle(
                        bridge["x_min"],
                        bridge["y_min"],
                        0.0,
                        bridge["x_max"] - bridge["x_min"],
                        bridge["y_max"] - bridge["y_min"],
                    ),
                ],
            ),
            h,
        )
    raise NotImplementedError(f"domain type '{kind}'")


def _on_circle(occ, center, radius, angle):
    """A point at ``angle`` on the circle; cos and sin rounded to 15 digits, so that a side at 90 or 180 degrees
    lies exactly on its axis (sin(pi) = 1.2e-16 tilted the 180-degree side below y = 0, and grid points on it fell
    outside every cell)."""
    cx, cy = center
    return occ.addPoint(cx + radius * round(math.cos(angle), 15), cy + radius * round(math.sin(angle), 15), 0.0)


def _sector(occ, center, radius, angle):
    """The sector from the x axis to ``angle``. gmsh's circle arc takes the shorter way round, which turned a
    270-degree sector into a quarter disk and leaves a half disk's side ambiguous, so from 180 degrees on the arc
    is drawn as two halves through its middle."""
    c = occ.addPoint(*center, 0.0)
    at = (0.0, angle / 2, angle) if angle >= math.pi - 1e-12 else (0.0, angle)
    ends = [_on_circle(occ, center, radius, where) for where in at]
    arcs = [occ.addCircleArc(start, c, end) for start, end in zip(ends[:-1], ends[1:], strict=True)]
    return occ.addPlaneSurface([occ.addCurveLoop([occ.addLine(c, ends[0]), *arcs, occ.addLine(ends[-1], c)])])


# ------------------------------------------------------------------------------------------------ boundaries
def boundary_facets(msh, where):
    """Exterior facets selected by ``where``: ``all``/``boundary``, or ``x0``/``x1``/``y0``/... (a bbox side)."""
    fdim = msh.topology.dim - 1
    msh.topology.create_connectivity(fdim, msh.topology.dim)
    facets = mesh.exterior_facet_indices(msh.topology)
    if where in (None, "all", "boundary"):
        return facets
    axis, side = "xyz".index(where[0]), where[1]
    coords = msh.geometry.x[:, axis]
    target = COMM.allreduce(coords.min(), op=MPI.MIN) if side == "0" else COMM.allreduce(coords.max(), op=MPI.MAX)
    located = mesh.locate_entities_boundary(msh, fdim, lambda X: np.isclose(X[axis], target, atol=1e-10))
    return np.intersect1d(facets, located)


def listed(block):
    """A boundary-condition block (one dict, a list of them, or nothing) as a list."""
    if not block:
        return []
    return block if isinstance(block, list) else [block]


def dirichlet_entries(bc_spec):
    """``(where, value)`` pairs of a ``dirichlet`` block."""
    return [(item.get("on", "all"), item["value"]) for item in listed(bc_spec.get("dirichlet"))]


def dirichlet(space, sub, msh, bc_spec, size, key="dirichlet"):
    """Dirichlet conditions (with their time-dependent data) on ``space`` (``sub``: the subspace of a mixed one)."""
    fdim = msh.topology.dim - 1
    conditions, data = [], []
    neumann = [item.get("on", "all") for item in listed(bc_spec.get("neumann"))]
    for where, value in dirichlet_entries({"dirichlet": bc_spec.get(key)}):
        facets = boundary_facets(msh, where)
        for piece in neumann:  # a Neumann piece replaces the Dirichlet condition there
            facets = np.setdiff1d(facets, boundary_facets(msh, piece))
        item = Data(space, components(value, size))
        target = (sub, space) if sub is not None else space
        dofs = fem.locate_dofs_topological(target, fdim, facets)
        conditions.append(
            fem.dirichletbc(item.function, dofs, sub) if sub is not None else fem.dirichletbc(item.function, dofs)
        )
        data.append(item)
    return conditions, data


# ---------------------------------------------------------------------------------------------- solver pieces
class Linear:
    """A linear problem whose matrix is assembled and factorised once; ``solve`` reassembles the right side."""

    def __init__(self, a, L, bcs, target):
        self.a, self.L, self.bcs, self.target = fem.form(a), fem.form(L), bcs, target
        self.A = assemble_matrix(self.a, bcs=bcs)
        self.A.assemble()
        self.ksp = PETSc.KSP().create(COMM)
        self.ksp.setOperators(self.A)
        self.ksp.setType("preonly")
        pc = self.ksp.getPC()
        pc.setType("lu")
        pc.setFactorSolverType("mumps")
        self.ksp.setFromOptions()

    def solve(self):
        b = assemble_vector(self.L)
        apply_lifting(b, [self.a], bcs=[self.bcs])
        b.ghostUpdate(PETSc.InsertMode.ADD, PETSc.ScatterMode.REVERSE)
        set_bc(b, self.bcs)
        self.ksp.solve(b, self.target.x.petsc_vec)
        if self.ksp.getConvergedReason() <= 0:  # a failed factorisation (out of memory) leaves NaN, no error
            factor = self.ksp.getPC().getFactorMatrix()
            raise RuntimeError(
                f"the LU solve failed: KSP reason {self.ksp.getConvergedReason()}, MUMPS INFOG(1) "
                f"{factor.getMumpsInfog(1)}, INFOG(2) {factor.getMumpsInfog(2)}"
            )
        self.target.x.scatter_forward()
        b.destroy()
        return self.target


def newton(F, u, bcs, prefix):
    """A SNES Newton solve of ``F(u) = 0``; raises when it does not converge."""
    problem = NonlinearProblem(F, u, bcs=bcs, petsc_options=NEWTON, petsc_options_prefix=prefix)
    problem.solve()
    reason = problem.solver.getConvergedReason()
    if reason <= 0:
        raise RuntimeError(f"Newton did not converge (SNES reason {reason})")
    return problem.solver.getIterationNumber()


def time_grid(spec, cfg):
    """``(t0, dt, steps)``: the configured time step, shortened to land on t_end."""
    time = spec["pde"]["time"]
    t0, t_end = float(time.get("t0", 0.0)), float(time["t_end"])
    dt = float(cfg["dt"] or (t_end - t0) / 50)
    steps = max(1, math.ceil((t_end - t0) / dt - 1e-9))
    return t0, (t_end - t0) / steps, steps


def forcing(space, spec, size=1):
    f = spec["pde"].get("forcing", {"value": "0"})
    return Data(space, components(f.get("value", "0") if isinstance(f, dict) else f, size))


def param(spec, name, default=None):
    value = spec["pde"].get("params", {}).get(name, default)
    if value is None:
        raise KeyError(f"pde.params.{name} is missing")
    return value


def kappa(space, spec):
    return Data(space, components(param(spec, "kappa", 1.0), 1)).function


# ------------------------------------------------------------------------------------------------- families
def elliptic(msh, spec, cfg, family):
    """Poisson, Helmholtz and steady reaction-free scalar problems, plus optional Neumann data."""
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"]))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    k = kappa(C, spec) if family == "poisson" else fem.Constant(msh, 1.0)
    a = ufl.inner(k * ufl.grad(u), ufl.grad(v)) * ufl.dx
    if family == "helmholtz":
        a -= fem.Constant(msh, scalar(param(spec, "k")) ** 2) * u * v * ufl.dx
    L = forcing(C, spec).function * v * ufl.dx + neumann_term(msh, C, spec, v)
    bcs, _ = dirichlet(V, None, msh, spec["bc"], 1)
    uh = fem.Function(V)
    Linear(a, L, bcs, uh).solve()
    return uh, {"num_dofs": V.dofmap.index_map.size_global}


def neumann_term(msh, space, spec, v):
    """``sum g v ds`` over the Neumann pieces (``bc.neumann``: one dict or a list; g = kappa du/dn)."""
    items = listed(spec["bc"].get("neumann"))
    if not items:
        return 0
    fdim = msh.topology.dim - 1
    facets = [boundary_facets(msh, item.get("on", "all")) for item in items]
    tags = np.concatenate([np.full(len(f), i + 1, dtype=np.int32) for i, f in enumerate(facets)])
    order = np.argsort(np.concatenate(facets))
    marker = mesh.meshtags(msh, fdim, np.concatenate(facets)[order], tags[order])
    ds = ufl.Measure("ds", domain=msh, subdomain_data=marker)
    return sum(Data(space, components(item["value"], 1)).function * v * ds(i + 1) for i, item in enumerate(items))


def biharmonic(msh, spec, cfg):
    """Lap^2 u = f with u and Lap u given on the boundary: -Lap w = f, w = -Lap u; then -Lap u = w."""
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"]))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    lap = spec["bc"].get("laplacian", {"on": "all", "value": "0"})
    negated = [
        {"on": item.get("on", "all"), "value": str(-parse(item["value"]))}
        for item in (lap if isinstance(lap, list) else [lap])
    ]
    w_bcs, _ = dirichlet(V, None, msh, {"dirichlet": negated}, 1)
    w = fem.Function(V)
    Linear(a, forcing(C, spec).function * v * ufl.dx, w_bcs, w).solve()
    u_bcs, _ = dirichlet(V, None, msh, spec["bc"], 1)
    uh = fem.Function(V)
    Linear(a, w * v * ufl.dx, u_bcs, uh).solve()
    return uh, {"num_dofs": 2 * V.dofmap.index_map.size_global}


def elasticity(msh, spec, cfg):
    """-div sigma(u) = f, sigma = lambda tr(eps) I + 2 mu eps (plane strain in 2D)."""
    gdim = msh.geometry.dim
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"], (gdim,)))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1, (gdim,)))
    params = spec["pde"]["params"]
    if "E" in params:
        E, nu = scalar(params["E"]), scalar(params["nu"])
        lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    else:
        lam, mu = scalar(params["lambda"]), scalar(params["mu"])
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)

    def sigma(w):
        eps = ufl.sym(ufl.grad(w))
        return fem.Constant(msh, lam) * ufl.tr(eps) * ufl.Identity(gdim) + 2 * fem.Constant(msh, mu) * eps

    a = ufl.inner(sigma(u), ufl.sym(ufl.grad(v))) * ufl.dx
    L = ufl.inner(forcing(C, spec, gdim).function, v) * ufl.dx
    bcs, _ = dirichlet(V, None, msh, spec["bc"], gdim)
    uh = fem.Function(V)
    Linear(a, L, bcs, uh).solve()
    return uh, {"num_dofs": V.dofmap.index_map.size_global * gdim}


def _supg_tau(msh, beta, eps):
    h = ufl.CellDiameter(msh)
    speed = ufl.sqrt(ufl.dot(beta, beta)) + 1e-12
    peclet = speed * h / (2 * eps)
    return h / (2 * speed) * (1 / ufl.tanh(peclet) - 1 / peclet)


def scalar_transient(msh, spec, cfg, family):
    """Heat, transient convection-diffusion (SUPG) and steady convection-diffusion, all linear."""
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"]))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    gdim = msh.geometry.dim
    if family == "heat":
        k, beta = kappa(C, spec), None
    else:
        k = fem.Constant(msh, scalar(param(spec, "epsilon")))
        beta = Data(
            fem.functionspace(msh, ("Lagrange", cfg["degree"], (gdim,))), components(param(spec, "beta"), gdim)
        ).function
    f = forcing(C, spec)
    transient = "time" in spec["pde"]
    dx = ufl.dx(metadata={"quadrature_degree": 2 * cfg["degree"] + 2})  # SUPG terms would otherwise ask for more

    def operator(w):
        terms = ufl.inner(k * ufl.grad(w), ufl.grad(v)) * dx
        return terms + (ufl.dot(beta, ufl.grad(w)) * v * dx if beta is not None else 0)

    def residual(w):
        strong = -ufl.div(k * ufl.grad(w)) if cfg["degree"] > 1 else 0
        return strong + ufl.dot(beta, ufl.grad(w))

    uh = fem.Function(V)
    bcs, data = dirichlet(V, None, msh, spec["bc"], 1)
    use_supg = beta is not None and cfg.get("supg", True)
    tau = _supg_tau(msh, beta, k) if use_supg else None
    if not transient:
        a = operator(u) + (tau * residual(u) * ufl.dot(beta, ufl.grad(v)) * dx if use_supg else 0)
        L = f.function * v * dx + (tau * f.function * ufl.dot(beta, ufl.grad(v)) * dx if use_supg else 0)
        Linear(a, L, bcs, uh).solve()
        return uh, {"num_dofs": V.dofmap.index_map.size_global}
    t0, dt, steps = time_grid(spec, cfg)
    theta = 1.0 if cfg.get("scheme") == "backward_euler" else 0.5
    u_old, f_old = fem.Function(V), fem.Function(C)
    u_old.interpolate(lambda X: numeric(parse(spec["ic"]["u0"]))(X, t0))
    f.update(t0)
    f_old.x.array[:] = f.function.x.array
    idt, th = fem.Constant(msh, 1.0 / dt), fem.Constant(msh, theta)
    a = idt * u * v * dx + th * operator(u)
    L = idt * u_old * v * dx - (1 - th) * operator(u_old) + (th * f.function + (1 - th) * f_old) * v * dx
    if use_supg:
        res_u = idt * u + th * residual(u)
        res_rhs = idt * u_old - (1 - th) * residual(u_old) + th * f.function + (1 - th) * f_old
        a += tau * res_u * ufl.dot(beta, ufl.grad(v)) * dx
        L += tau * res_rhs * ufl.dot(beta, ufl.grad(v)) * dx
    solver = Linear(a, L, bcs, uh)
    uh.x.array[:] = u_old.x.array
    for step in range(1, steps + 1):
        now = t0 + step * dt
        f.update(now)
        for item in data:
            item.update(now)
        solver.solve()
        u_old.x.array[:] = uh.x.array
        f_old.x.array[:] = f.function.x.array
    return uh, {"num_dofs": V.dofmap.index_map.size_global, "num_time_steps": steps, "dt": dt}


def reaction(spec, u):
    """R(u) of ``pde.params.reaction``: linear, cubic, allen_cahn, logistic, or an expression in u. It may be a
    plain number or UFL's zero (``alpha: 0``), so its integral needs a measure that names the mesh."""
    r = param(spec, "reaction")
    kind = r.get("type")
    if kind == "linear":
        return scalar(r["alpha"]) * u
    if kind == "cubic":
        return scalar(r["alpha"]) * u + scalar(r["beta"]) * u**3
    if kind == "allen_cahn":
        return scalar(r["lambda"]) * (u**3 - u)
    if kind == "logistic":
        return scalar(r["rho"]) * u * (1 - u)
    if kind == "expression":
        symbol = sp.Symbol("u")
        return sp.lambdify(symbol, sp.sympify(r["value"], locals={"u": symbol}), modules=[UFL_FUNCTIONS])(u)
    raise NotImplementedError(f"reaction type '{kind}'")


def nonlinear_scalar(msh, spec, cfg, family):
    """Reaction-diffusion (steady or transient) and Burgers (always transient), Newton at every step."""
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"]))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1))
    v = ufl.TestFunction(V)
    uh = fem.Function(V)
    f = forcing(C, spec)
    bcs, data = dirichlet(V, None, msh, spec["bc"], 1)
    if family == "burgers":
        nu = fem.Constant(msh, scalar(param(spec, "nu")))
        direction = ufl.as_vector([1.0] * msh.geometry.dim)

        def operator(w):
            return nu * ufl.inner(ufl.grad(w), ufl.grad(v)) * ufl.dx + w * ufl.dot(direction, ufl.grad(w)) * v * ufl.dx
    else:
        eps = fem.Constant(msh, scalar(param(spec, "epsilon")))
        dx = ufl.Measure("dx", domain=msh)  # R(w) v may be UFL's zero, which has no mesh of its own

        def operator(w):
            return eps * ufl.inner(ufl.grad(w), ufl.grad(v)) * dx + reaction(spec, w) * v * dx

    info = {"num_dofs": V.dofmap.index_map.size_global}
    if "time" not in spec["pde"]:
        info["newton_iterations"] = newton(operator(uh) - f.function * v * ufl.dx, uh, bcs, "rd_")
        return uh, info
    t0, dt, steps = time_grid(spec, cfg)
    theta = 1.0 if cfg.get("scheme") == "backward_euler" else 0.5
    u_old, f_old = fem.Function(V), fem.Function(C)
    u_old.interpolate(lambda X: numeric(parse(spec["ic"]["u0"]))(X, t0))
    f.update(t0)
    f_old.x.array[:] = f.function.x.array
    uh.x.array[:] = u_old.x.array
    idt, th = fem.Constant(msh, 1.0 / dt), fem.Constant(msh, theta)
    F = (
        idt * (uh - u_old) * v * ufl.dx
        + th * operator(uh)
        + (1 - th) * operator(u_old)
        - (th * f.function + (1 - th) * f_old) * v * ufl.dx
    )
    problem = NonlinearProblem(F, uh, bcs=bcs, petsc_options=NEWTON, petsc_options_prefix=f"{family}_")
    iterations = 0
    for step in range(1, steps + 1):
        now = t0 + step * dt
        f.update(now)
        for item in data:
            item.update(now)
        problem.solve()
        if problem.solver.getConvergedReason() <= 0:
            raise RuntimeError(f"Newton did not converge at step {step}")
        iterations += problem.solver.getIterationNumber()
        u_old.x.array[:] = uh.x.array
        f_old.x.array[:] = f.function.x.array
    info.update(num_time_steps=steps, dt=dt, newton_iterations=iterations)
    return uh, info


def wave(msh, spec, cfg):
    """u_tt - c^2 Lap u = f by Newmark's average acceleration scheme (second order, unconditionally stable)."""
    V = fem.functionspace(msh, ("Lagrange", cfg["degree"]))
    C = fem.functionspace(msh, ("Lagrange", cfg["degree"] + 1))
    u, w = ufl.TrialFunction(V), ufl.TestFunction(V)
    c2 = fem.Constant(msh, scalar(param(spec, "c")) ** 2)
    t0, dt, steps = time_grid(spec, cfg)
    f = forcing(C, spec)
    u0, v0 = parse(spec["ic"]["u0"]), parse(spec["ic"].get("v0", "0"))
    f_expr = parse(spec["pde"].get("forcing", {}).get("value", "0"))
    x, y, z, _ = SYMBOLS
    a0 = f_expr + float(c2.value) * sum(sp.diff(u0, s, 2) for s in (x, y, z)[: msh.geometry.dim])
    un, vn, an = (fem.Function(V) for _ in range(3))
    for target, expr in ((un, u0), (vn, v0), (an, a0)):
        target.interpolate(lambda X, e=expr: numeric(e)(X, t0))
    beta = fem.Constant(msh, 4.0 / dt**2)
    a = beta * u * w * ufl.dx + c2 * ufl.inner(ufl.grad(u), ufl.grad(w)) * ufl.dx
    L = f.function * w * ufl.dx + (beta * (un + dt * vn) + an) * w * ufl.dx
    bcs, data = dirichlet(V, None, msh, spec["bc"], 1)
    uh = fem.Function(V)
    solver = Linear(a, L, bcs, uh)
    for step in range(1, steps + 1):
        now = t0 + step * dt
        f.update(now)
        for item in data:
            item.update(now)
        solver.solve()
        a_new = 4.0 / dt**2 * (uh.x.array - un.x.array - dt * vn.x.array) - an.x.array
        vn.x.array[:] += 0.5 * dt * (an.x.array + a_new)
        an.x.array[:] = a_new
        un.x.array[:] = uh.x.array
    return uh, {"num_dofs": V.dofmap.index_map.size_global, "num_time_steps": steps, "dt": dt}


def flow(msh, spec, cfg, family):
    """Stokes and steady Navier-Stokes on Taylor-Hood elements; the velocity is returned."""
    gdim = msh.geometry.dim
    k = cfg["degree"]
    cell = msh.basix_cell()
    W = fem.functionspace(
        msh,
        basix.ufl.mixed_element(
            [
                basix.ufl.element("Lagrange", cell, k, shape=(gdim,)),
                basix.ufl.element("Lagrange", cell, cfg.get("degree_p") or k - 1),
            ]
        ),
    )
    C = fem.functionspace(msh, ("Lagrange", k + 1, (gdim,)))
    nu = fem.Constant(msh, scalar(param(spec, "nu")))
    f = forcing(C, spec, gdim).function
    bcs = velocity_dirichlet(W, msh, spec["bc"], gdim)
    penalty = fem.Constant(msh, 1e-10)
    (u, p), (v, q) = ufl.TrialFunctions(W), ufl.TestFunctions(W)
    stokes = (nu * ufl.inner(ufl.grad(u), ufl.grad(v)) - p * ufl.div(v) - q * ufl.div(u) - penalty * p * q) * ufl.dx
    wh = fem.Function(W)
    Linear(stokes, ufl.inner(f, v) * ufl.dx, bcs, wh).solve()
    info = {"num_dofs": W.dofmap.index_map.size_global * W.dofmap.index_map_bs}
    if family == "navier_stokes":
        u_, p_ = ufl.split(wh)
        F = (
            nu * ufl.inner(ufl.grad(u_), ufl.grad(v))
            + ufl.inner(ufl.grad(u_) * u_, v)
            - p_ * ufl.div(v)
            - q * ufl.div(u_)
            - penalty * p_ * q
            - ufl.inner(f, v)
        ) * ufl.dx
        info["newton_iterations"] = newton(F, wh, bcs, "ns_")
    velocity = fem.Function(fem.functionspace(msh, ("Lagrange", k, (gdim,))))
    velocity.interpolate(wh.sub(0))
    return velocity, info


def velocity_dirichlet(W, msh, bc_spec, size):
    """Dirichlet conditions on the velocity of the mixed space ``W``, their data interpolated into ``W`` itself.
    DOLFINx 0.11 gets the subspace collapsed from a mixed P3 element wrong on meshes whose edges need their dofs
    permuted (every gmsh mesh): data interpolated into it, or a field read from it, is off by 10% at h = 1/8."""
    fdim = msh.topology.dim - 1
    conditions = []
    for where, value in dirichlet_entries(bc_spec):
        parts = [numeric(e) for e in components(value, size)]
        data = fem.Function(W)
        data.sub(0).interpolate(lambda X, parts=parts: np.vstack([part(X) for part in parts]))
        dofs = fem.locate_dofs_topological(W.sub(0), fdim, boundary_facets(msh, where))
        conditions.append(fem.dirichletbc(data, dofs))
    return conditions


FAMILIES = {
    "poisson": lambda m, s, c: elliptic(m, s, c, "poisson"),
    "helmholtz": lambda m, s, c: elliptic(m, s, c, "helmholtz"),
    "biharmonic": biharmonic,
    "linear_elasticity": elasticity,
    "heat": lambda m, s, c: scalar_transient(m, s, c, "heat"),
    "convection_diffusion": lambda m, s, c: scalar_transient(m, s, c, "convection_diffusion"),
    "reaction_diffusion": lambda m, s, c: nonlinear_scalar(m, s, c, "reaction_diffusion"),
    "burgers": lambda m, s, c: nonlinear_scalar(m, s, c, "burgers"),
    "wave": wave,
    "stokes": lambda m, s, c: flow(m, s, c, "stokes"),
    "navier_stokes": lambda m, s, c: flow(m, s, c, "navier_stokes"),
}


# ---------------------------------------------------------------------------------------------------- output
def grid_points(eval_grid):
    """The evaluation grid's points (N x 3, x fastest) and its shape ((ny, nx) or (nz, ny, nx))."""
    box = eval_grid["bbox"]
    axes = [
        np.linspace(box[2 * i], box[2 * i + 1], int(eval_grid[n]))
        for i, n in enumerate(("nx", "ny", "nz"))
        if n in eval_grid
    ]
    mesh_axes = np.meshgrid(*reversed(axes), indexing="ij")
    points = np.zeros((mesh_axes[0].size, 3))
    for i, values in enumerate(reversed(mesh_axes)):
        points[:, i] = values.ravel()
    return points, mesh_axes[0].shape


def sample(uh, eval_grid):
    """``uh`` (its magnitude when it is a vector) on the grid; NaN where no cell of the mesh holds the point."""
    msh = uh.function_space.mesh
    points, shape = grid_points(eval_grid)
    tree = geometry.bb_tree(msh, msh.topology.dim)
    colliding = geometry.compute_colliding_cells(msh, geometry.compute_collisions_points(tree, points), points)
    found = np.flatnonzero(np.diff(colliding.offsets) > 0)
    cells = colliding.array[colliding.offsets[found]]
    total, count = np.zeros(len(points)), np.zeros(len(points))
    if len(found):
        values = uh.eval(points[found], cells).reshape(len(found), -1)
        total[found] = np.linalg.norm(values, axis=1) if values.shape[1] > 1 else values[:, 0]
        count[found] = 1.0
    total, count = COMM.allreduce(total, op=MPI.SUM), COMM.allreduce(count, op=MPI.SUM)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan).reshape(shape)


def periodic_as_dirichlet(spec, values):
    """Periodic sides as Dirichlet sides carrying ``values`` (an oracle configured with the periodic manufactured
    solution has the exact data there); the spec unchanged without periodic sides or values."""
    periodic = spec["bc"].get("periodic")
    if not periodic or values is None:
        return spec
    axes = periodic.get("on") or [periodic["direction"]]
    bc = {key: value for key, value in spec["bc"].items() if key != "periodic"}
    bc["dirichlet"] = listed(bc.get("dirichlet")) + [{"on": f"{a}{end}", "value": values} for a in axes for end in "01"]
    return {**spec, "bc": bc}


def solve(case_spec):
    """Solve the case and return the App. J result: the field on the evaluation grid and solver details."""
    cfg = {**DEFAULTS, **ORACLE_CONFIG}
    family = case_spec["pde"]["type"]
    msh = build_mesh(case_spec["domain"], cfg)
    uh, info = FAMILIES[family](msh, periodic_as_dirichlet(case_spec, cfg.get("periodic_values")), cfg)
    u = sample(uh, case_spec["eval_grid"])
    solver_info = {
        "mesh_resolution": cfg["char_length"] or cfg["resolution"],
        "element_degree": cfg["degree"],
        "ksp_type": "preonly",
        "pc_type": "lu",
        "rtol": 1e-10,
        **info,
    }
    return {"u": u, "solver_info": solver_info}
