"""A second solution for every fem case, written from the prompt and the DOLFINx guide alone.

What it varies against the reference solver (cases/fem/README.md, "Second solutions"):

- elements: cubic Lagrange (P3 on gmsh triangles; Q3 on quadrilaterals and hexahedra for rectangles and boxes),
  Taylor-Hood P3-P2 / Q3-Q2 for the flows, on meshes about twice as coarse;
- linear solvers: CG with algebraic multigrid (GAMG) for the symmetric positive problems, GMRES with ILU for
  convection, MUMPS only where the system is indefinite (Helmholtz, elasticity, the flows); a Krylov solve that
  does not converge falls back to LU;
- time: BDF2 started by one Crank-Nicolson step; the wave equation as a first-order system in (u, v) with the
  same scheme (the velocity's boundary data is the time derivative of u's);
- biharmonic: w = Lap u (not -Lap u), then Lap u = w; Stokes and Navier-Stokes: pressure pinned at one vertex
  instead of a penalty; Navier-Stokes: Newton from zero with a backtracking line search;
- SUPG with the Shakib-Codina parameter on h/p; L-shaped (and any re-entrant) corners graded by a gmsh field;
- the grid is sampled through `dolfinx.geometry.determine_point_ownership` (each rank evaluates the points it
  owns, rank 0 gathers), not the bounding-box search of the guide.
"""

import math

import basix.ufl
import numpy as np
import sympy
import ufl
from dolfinx import default_scalar_type, fem, geometry, mesh
from dolfinx.fem import petsc as fem_petsc
from mpi4py import MPI

DEGREE = 3
SYMBOLS = sympy.symbols("x y z t")
UFL_FUNCTIONS = {
    "sin": ufl.sin, "cos": ufl.cos, "tan": ufl.tan, "exp": ufl.exp, "log": ufl.ln, "sqrt": ufl.sqrt,
    "sinh": ufl.sinh, "cosh": ufl.cosh, "tanh": ufl.tanh, "atan": ufl.atan, "Abs": abs, "pi": math.pi,
    "E": math.e,
}  # fmt: skip


# ---------------------------------------------------------------------------------------------------- data


class Data:
    """One expression of the case_spec: as UFL on the mesh (time a Constant) and as numpy for interpolation."""

    def __init__(self, text):
        self.expr = sympy.sympify(
            str(text), locals={"x": SYMBOLS[0], "y": SYMBOLS[1], "z": SYMBOLS[2], "t": SYMBOLS[3]}
        )
        self._ufl = sympy.lambdify(SYMBOLS, self.expr, modules=[UFL_FUNCTIONS])
        self._np = sympy.lambdify(SYMBOLS, self.expr, modules="numpy")

    def ufl(self, x, t):
        z = x[2] if len(x) > 2 else 0.0
        return self._ufl(x[0], x[1], z, t)

    def values(self, p, t):
        return np.broadcast_to(np.asarray(self._np(p[0], p[1], p[2], t), dtype=float), (p.shape[1],)).copy()

    def time_derivative(self):
        d = Data("0")
        d.expr = sympy.diff(self.expr, SYMBOLS[3])
        d._ufl = sympy.lambdify(SYMBOLS, d.expr, modules=[UFL_FUNCTIONS])
        d._np = sympy.lambdify(SYMBOLS, d.expr, modules="numpy")
        return d


def data(value):
    """A scalar or vector (list) expression as Data."""
    return [Data(v) for v in value] if isinstance(value, (list, tuple)) else Data(value)


def as_ufl(item, x, t):
    return ufl.as_vector([d.ufl(x, t) for d in item]) if isinstance(item, list) else item.ufl(x, t)


def coefficient(value, x):
    """A parameter: a number or an expression in x, y, z."""
    return data(value).ufl(x, 0.0) if isinstance(value, str) else float(value)


# ---------------------------------------------------------------------------------------------------- meshes


def domain_extent(domain):
    """The domain's bounding box [x0, x1, y0, y1(, z0, z1)] from the prompt's description."""
    kind, g = domain["type"], domain.get("geometry_params", {})
    if kind == "unit_square":
        return [0, 1, 0, 1]
    if kind == "unit_cube":
        return [0, 1, 0, 1, 0, 1]
    if kind in ("rectangle", "box", "periodic_square"):
        return list(g["bounds"])
    if kind in ("square_with_hole", "multi_hole"):
        return list(g["outer"])
    points = boundary_polygon(domain)
    if points is not None:
        return [points[:, 0].min(), points[:, 0].max(), points[:, 1].min(), points[:, 1].max()]
    if kind == "circle":
        (cx, cy), r = g["center"], g["radius"]
        return [cx - r, cx + r, cy - r, cy + r]
    if kind == "annulus":
        (cx, cy), r = g["center"], g["outer_r"]
        return [cx - r, cx + r, cy - r, cy + r]
    if kind == "eccentric_annulus":
        (cx, cy), r = g["outer_circle"]["c"], g["outer_circle"]["r"]
        return [cx - r, cx + r, cy - r, cy + r]
    if kind == "sector":
        (cx, cy), r, a = g["center"], g["radius"], math.radians(g["angle"])
        angles = np.linspace(0.0, a, 721)
        xs, ys = np.r_[cx, cx + r * np.cos(angles)], np.r_[cy, cy + r * np.sin(angles)]
        return [xs.min(), xs.max(), ys.min(), ys.max()]
    if kind == "t_junction":
        h, v = g["horizontal_rect"], g["vertical_rect"]
        return [min(h[0], v[0]), max(h[1], v[1]), min(h[2], v[2]), max(h[3], v[3])]
    if kind == "dumbbell":
        circles = [g["left_circle"], g["right_circle"]]
        b = g["bridge"]
        return [
            min([c["c"][0] - c["r"] for c in circles] + [b["x_min"]]),
            max([c["c"][0] + c["r"] for c in circles] + [b["x_max"]]),
            min([c["c"][1] - c["r"] for c in circles] + [b["y_min"]]),
            max([c["c"][1] + c["r"] for c in circles] + [b["y_max"]]),
        ]
    raise ValueError(f"domain type {kind!r} is not handled")


def boundary_polygon(domain):
    """Vertices of a polygonal domain (L-shape, star), else None."""
    g = domain.get("geometry_params", {})
    if domain["type"] == "l_shape":
        return np.asarray(g["vertices"], dtype=float)
    if domain["type"] == "star":
        n, (cx, cy) = int(g["points"]), g["center"]
        k = np.arange(2 * n)
        radius = np.where(k % 2 == 0, g["outer_r"], g["inner_r"])
        angle = np.pi / 2 + k * np.pi / n
        return np.column_stack([cx + radius * np.cos(angle), cy + radius * np.sin(angle)])
    return None


def reentrant_vertices(poly):
    """Vertices whose interior angle exceeds pi (where the solution is singular)."""
    area = 0.5 * np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    corners = []
    for i in range(len(poly)):
        a, b, c = poly[i - 1], poly[i], poly[(i + 1) % len(poly)]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if cross * area < 0:
            corners.append(b)
    return corners


def gmsh_mesh(comm, domain, h):
    """A triangle mesh of a non-rectangular domain, made on rank 0 with gmsh's OpenCASCADE kernel."""
    import gmsh
    from dolfinx.io import gmsh as gmshio

    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    kind, g = domain["type"], domain.get("geometry_params", {})
    if comm.rank == 0:
        occ = gmsh.model.occ
        poly = boundary_polygon(domain)
        corners = []
        if poly is not None:
            pts = [occ.addPoint(px, py, 0.0) for px, py in poly]
            lines = [occ.addLine(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
            shape = [(2, occ.addPlaneSurface([occ.addCurveLoop(lines)]))]
            corners = reentrant_vertices(poly)
        elif kind == "circle":
            shape = [(2, occ.addDisk(*g["center"], 0.0, g["radius"], g["radius"]))]
        elif kind == "annulus":
            (cx, cy) = g["center"]
            outer = occ.addDisk(cx, cy, 0.0, g["outer_r"], g["outer_r"])
            inner = occ.addDisk(cx, cy, 0.0, g["inner_r"], g["inner_r"])
            shape, _ = occ.cut([(2, outer)], [(2, inner)])
        elif kind == "eccentric_annulus":
            o, i = g["outer_circle"], g["inner_circle"]
            outer = occ.addDisk(*o["c"], 0.0, o["r"], o["r"])
            inner = occ.addDisk(*i["c"], 0.0, i["r"], i["r"])
            shape, _ = occ.cut([(2, outer)], [(2, inner)])
        elif kind in ("square_with_hole", "multi_hole"):
            x0, x1, y0, y1 = g["outer"]
            rect = occ.addRectangle(x0, y0, 0.0, x1 - x0, y1 - y0)
            holes = [g["inner_hole"]] if kind == "square_with_hole" else g["holes"]
            disks = []
            for hole in holes:
                c = hole.get("center", hole.get("c"))
                r = hole.get("radius", hole.get("r"))
                disks.append((2, occ.addDisk(c[0], c[1], 0.0, r, r)))
            shape, _ = occ.cut([(2, rect)], disks)
        elif kind == "sector":
            (cx, cy), r, a = g["center"], g["radius"], math.radians(g["angle"])
            centre = occ.addPoint(cx, cy, 0.0)
            arc = occ.addCircle(cx, cy, 0.0, r, angle1=0.0, angle2=a)
            occ.synchronize()
            ends = gmsh.model.getBoundary([(1, arc)], oriented=False)
            start_pt, end_pt = ends[0][1], ends[1][1]
            loop = occ.addCurveLoop([occ.addLine(centre, start_pt), arc, occ.addLine(end_pt, centre)])
            shape = [(2, occ.addPlaneSurface([loop]))]
            corners = [(cx, cy)] if g["angle"] > 180 else []
        elif kind == "t_junction":
            rects = []
            for key in ("horizontal_rect", "vertical_rect"):
                x0, x1, y0, y1 = g[key]
                rects.append((2, occ.addRectangle(x0, y0, 0.0, x1 - x0, y1 - y0)))
            shape, _ = occ.fuse([rects[0]], [rects[1]])
        elif kind == "dumbbell":
            parts = [(2, occ.addDisk(*c["c"], 0.0, c["r"], c["r"])) for c in (g["left_circle"], g["right_circle"])]
            b = g["bridge"]
            bridge = (
                2,
                occ.addRectangle(b["x_min"], b["y_min"], 0.0, b["x_max"] - b["x_min"], b["y_max"] - b["y_min"]),
            )
            shape, _ = occ.fuse([parts[0]], [parts[1], bridge])
        else:
            raise ValueError(f"domain type {kind!r} is not handled")
        occ.removeAllDuplicates()
        occ.synchronize()
        vertices = {tag: gmsh.model.getValue(0, tag, []) for _, tag in gmsh.model.getEntities(0)}
        corner_points = [
            t for t, p in vertices.items() if any(np.hypot(p[0] - cx, p[1] - cy) < 1e-9 for cx, cy in corners)
        ]
        surfaces = [tag for dim, tag in gmsh.model.getEntities(2)]
        gmsh.option.setNumber("Mesh.CharacteristicLengthMax", h)
        gmsh.option.setNumber("Mesh.CharacteristicLengthMin", h / 10)
        if corner_points:  # grade towards re-entrant corners: h/8 there, h beyond 0.25
            field = gmsh.model.mesh.field
            dist = field.add("Distance")
            field.setNumbers(dist, "PointsList", corner_points)
            thr = field.add("Threshold")
            field.setNumber(thr, "InField", dist)
            field.setNumber(thr, "SizeMin", h / 8)
            field.setNumber(thr, "SizeMax", h)
            field.setNumber(thr, "DistMin", 0.01)
            field.setNumber(thr, "DistMax", 0.25)
            field.setAsBackgroundMesh(thr)
        gmsh.model.addPhysicalGroup(2, surfaces, 1)
        gmsh.model.mesh.generate(2)
    msh = gmshio.model_to_mesh(gmsh.model, comm, 0, gdim=2).mesh
    gmsh.finalize()
    return msh


def make_mesh(comm, domain, n_per_unit):
    """Quadrilaterals or hexahedra for a rectangle or box, gmsh triangles otherwise; the size is 1/n_per_unit of
    the domain's largest side."""
    box = domain_extent(domain)
    sides = [box[2 * i + 1] - box[2 * i] for i in range(len(box) // 2)]
    length = max(sides)
    if domain["type"] in ("unit_square", "rectangle"):
        cells = [max(2, round(n_per_unit * s / length)) for s in sides]
        corners = [np.array([box[0], box[2]]), np.array([box[1], box[3]])]
        return mesh.create_rectangle(comm, corners, cells, cell_type=mesh.CellType.quadrilateral)
    if domain["type"] in ("unit_cube", "box"):
        cells = [max(2, round(n_per_unit * s / length)) for s in sides]
        corners = [np.array(box[0::2]), np.array(box[1::2])]
        return mesh.create_box(comm, corners, cells, cell_type=mesh.CellType.hexahedron)
    return gmsh_mesh(comm, domain, length / n_per_unit)


# ---------------------------------------------------------------------------------------------------- boundary


def boundary_facets(msh, selector):
    """Exterior facets of ``selector``: the whole boundary, or its part on the smallest/largest x, y or z."""
    fdim = msh.topology.dim - 1
    msh.topology.create_connectivity(fdim, msh.topology.dim)
    every = mesh.exterior_facet_indices(msh.topology)
    if selector in ("boundary", "all", None):
        return every
    axis = "xyz".index(selector[0])
    coords = msh.geometry.x[:, axis]
    if selector[1] == "0":
        target = msh.comm.allreduce(coords.min(), op=MPI.MIN)
    else:
        target = msh.comm.allreduce(coords.max(), op=MPI.MAX)
    scale = max(1.0, abs(target))
    chosen = mesh.locate_entities_boundary(msh, fdim, lambda p: np.abs(p[axis] - target) < 1e-9 * scale)
    return np.intersect1d(every, chosen)


def pieces(entry):
    """``bc.dirichlet`` or ``bc.neumann``: one piece or a list of them, as a list."""
    if entry is None:
        return []
    return list(entry) if isinstance(entry, list) else [entry]


def dirichlet_facets(msh, spec):
    """Each Dirichlet piece with its facets; Neumann pieces are taken out of them."""
    bc = spec.get("bc", {})
    neumann = [boundary_facets(msh, p.get("on", "boundary")) for p in pieces(bc.get("neumann"))]
    taken = np.unique(np.concatenate(neumann)) if neumann else np.array([], dtype=np.int32)
    out = []
    for piece in pieces(bc.get("dirichlet")):
        facets = np.setdiff1d(boundary_facets(msh, piece.get("on", "boundary")), taken).astype(np.int32)
        out.append((facets, data(piece["value"])))
    return out


def whole_boundary_is_dirichlet(msh, spec):
    facets = dirichlet_facets(msh, spec)
    every = mesh.exterior_facet_indices(msh.topology)
    covered = np.unique(np.concatenate([f for f, _ in facets])) if facets else np.array([])
    missing = np.setdiff1d(every, covered).size
    return msh.comm.allreduce(missing, op=MPI.SUM) == 0


class BoundaryData:
    """Dirichlet conditions whose values follow the time ``t`` (re-interpolated by ``update``)."""

    def __init__(self, space, msh, spec, sub=None, derivative=False):
        self.items, self.bcs = [], []
        fdim = msh.topology.dim - 1
        target = space if sub is None else space.sub(sub)
        for facets, value in dirichlet_facets(msh, spec):
            if derivative:
                value = [v.time_derivative() for v in value] if isinstance(value, list) else value.time_derivative()
            holder = fem.Function(space)
            dofs = fem.locate_dofs_topological(target, fdim, facets)
            self.items.append((holder, value, sub))
            self.bcs.append(fem.dirichletbc(holder, dofs))

    def update(self, t):
        for holder, value, sub in self.items:
            part = holder if sub is None else holder.sub(sub)
            if isinstance(value, list):
                part.interpolate(lambda p, value=value: np.vstack([v.values(p, t) for v in value]))
            else:
                part.interpolate(lambda p, value=value: value.values(p, t))
            holder.x.scatter_forward()


# ---------------------------------------------------------------------------------------------------- solves


def krylov(kind, comm):
    """PETSc options: CG + GAMG (symmetric positive), GMRES + ILU (nonsymmetric), or MUMPS (indefinite)."""
    if kind == "spd":
        return {"ksp_type": "cg", "pc_type": "gamg", "ksp_rtol": 1e-12, "ksp_atol": 1e-14, "ksp_max_it": 1000}
    if kind == "nonsym":
        pc = (
            {"pc_type": "ilu", "pc_factor_levels": 1}
            if comm.size == 1
            else {"pc_type": "bjacobi", "sub_pc_type": "ilu"}
        )
        return {
            "ksp_type": "gmres",
            "ksp_gmres_restart": 200,
            "ksp_rtol": 1e-12,
            "ksp_atol": 1e-14,
            "ksp_max_it": 2000,
            **pc,
        }
    return {"ksp_type": "preonly", "pc_type": "lu", "pc_factor_mat_solver_type": "mumps"}


class LinearSolve:
    """A linear problem assembled once: ``solve`` reassembles only the right-hand side (time stepping)."""

    counter = 0

    def __init__(self, a, L, bcs, kind, comm):
        from petsc4py import PETSc

        LinearSolve.counter += 1
        self.a, self.L, self.bcs = fem.form(a), fem.form(L), bcs
        self.A = fem_petsc.assemble_matrix(self.a, bcs=bcs)
        self.A.assemble()
        self.A_free = fem_petsc.assemble_matrix(self.a)  # lifting by a product with the unconstrained matrix
        self.A_free.assemble()
        self.lift = self.A_free.createVecRight()
        self.b = fem_petsc.create_vector(self.L.function_spaces)
        self.ksp = PETSc.KSP().create(comm)
        self.ksp.setOperators(self.A)
        self.ksp.setOptionsPrefix(f"alt{LinearSolve.counter}_")
        self.kind = kind
        opts = PETSc.Options()
        for key, value in krylov(kind, comm).items():
            opts[f"alt{LinearSolve.counter}_{key}"] = value
        self.ksp.setFromOptions()
        self.PETSc = PETSc

    def solve(self, uh):
        PETSc = self.PETSc
        with self.b.localForm() as local:
            local.set(0.0)
        fem_petsc.assemble_vector(self.b, self.L)
        self.b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
        self.lift.zeroEntries()
        fem_petsc.set_bc(self.lift, self.bcs)  # the boundary values, zero elsewhere
        self.b.axpy(-1.0, self.A_free * self.lift)
        fem_petsc.set_bc(self.b, self.bcs)
        self.ksp.solve(self.b, uh.x.petsc_vec)
        if self.ksp.getConvergedReason() < 0:  # the Krylov solve failed: factorise instead
            self.ksp.setType("preonly")
            self.ksp.getPC().setType("lu")
            self.ksp.getPC().setFactorSolverType("mumps")
            self.ksp.solve(self.b, uh.x.petsc_vec)
            self.kind = "lu (fallback)"
        uh.x.scatter_forward()
        return uh


def newton(F, uh, bcs, kind, prefix):
    """A Newton solve (SNES, backtracking line search) of F(uh) = 0."""
    options = {"snes_type": "newtonls", "snes_linesearch_type": "bt", "snes_rtol": 1e-11, "snes_atol": 1e-13,
               "snes_max_it": 50, **krylov(kind, uh.function_space.mesh.comm)}  # fmt: skip
    problem = fem_petsc.NonlinearProblem(F, uh, bcs=bcs, petsc_options=options, petsc_options_prefix=prefix)
    problem.solve()
    reason = problem.solver.getConvergedReason()
    if reason <= 0:
        raise RuntimeError(f"Newton did not converge (SNES reason {reason})")
    uh.x.scatter_forward()
    return problem.solver.getIterationNumber()


def zero_rhs(msh, v):
    """A zero term that keeps a right-hand side a form when every source is zero (the guide's warning)."""
    shape = v.ufl_shape
    zero = fem.Constant(msh, np.zeros(shape, dtype=default_scalar_type) if shape else default_scalar_type(0.0))
    return ufl.inner(zero, v) * ufl.dx


# ---------------------------------------------------------------------------------------------------- families


def residual(family, params, msh, spec, u, v, t):
    """The weak form of the steady operator minus the source at time ``t`` (a Constant): ``N(u) - f``."""
    x = ufl.SpatialCoordinate(msh)
    f = as_ufl(data(spec["pde"].get("forcing", {}).get("value", "0")), x, t)
    if family in ("poisson", "heat"):
        kappa = coefficient(params.get("kappa", 1.0), x)
        F = kappa * ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx - f * v * ufl.dx
        for piece in pieces(spec.get("bc", {}).get("neumann")):
            facets = boundary_facets(msh, piece.get("on", "boundary"))
            tags = mesh.meshtags(msh, msh.topology.dim - 1, np.sort(facets), np.ones(len(facets), dtype=np.int32))
            ds = ufl.Measure("ds", domain=msh, subdomain_data=tags)
            F -= data(piece["value"]).ufl(x, t) * v * ds(1)
        return F
    if family == "helmholtz":
        k = float(params.get("k", params.get("wave_number", 1.0)))
        return (ufl.inner(ufl.grad(u), ufl.grad(v)) - k**2 * u * v - f * v) * ufl.dx
    if family == "convection_diffusion":
        eps, beta = float(params["epsilon"]), ufl.as_vector([float(b) for b in params["beta"]])
        return (eps * ufl.inner(ufl.grad(u), ufl.grad(v)) + ufl.dot(beta, ufl.grad(u)) * v - f * v) * ufl.dx
    if family == "reaction_diffusion":
        eps = float(params.get("epsilon", 1.0))
        return (eps * ufl.inner(ufl.grad(u), ufl.grad(v)) + reaction(params["reaction"], u) * v - f * v) * ufl.dx
    if family == "burgers":
        nu = float(params["nu"])
        return ((u * (u.dx(0) + u.dx(1))) * v + nu * ufl.inner(ufl.grad(u), ufl.grad(v)) - f * v) * ufl.dx
    if family == "linear_elasticity":
        E, nu = float(params["E"]), float(params["nu"])
        mu, lam = E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))
        eps_u = ufl.sym(ufl.grad(u))
        sigma = lam * ufl.tr(eps_u) * ufl.Identity(len(u)) + 2 * mu * eps_u
        return ufl.inner(sigma, ufl.sym(ufl.grad(v))) * ufl.dx - ufl.inner(f, v) * ufl.dx
    raise ValueError(f"family {family!r} has no scalar residual")


def reaction(spec, u):
    kind = spec["type"]
    if kind == "linear":
        return float(spec["alpha"]) * u
    if kind == "cubic":
        return float(spec["alpha"]) * u + float(spec["beta"]) * u**3
    if kind == "allen_cahn":
        return float(spec["lambda"]) * (u**3 - u)
    if kind == "logistic":
        return float(spec["rho"]) * u * (1 - u)
    raise ValueError(f"reaction {kind!r} is not handled")


def supg(params, msh, spec, u, v, t, time_part=0):
    """SUPG for convection-diffusion: tau from Shakib and Codina on h/p, the strong residual with -eps Lap u."""
    x = ufl.SpatialCoordinate(msh)
    eps, beta = float(params["epsilon"]), ufl.as_vector([float(b) for b in params["beta"]])
    f = as_ufl(data(spec["pde"].get("forcing", {}).get("value", "0")), x, t)
    h = ufl.CellDiameter(msh) / DEGREE
    norm_b = ufl.sqrt(ufl.dot(beta, beta))
    tau = ((2 * norm_b / h) ** 2 + 9 * (4 * eps / h**2) ** 2) ** -0.5
    strong = time_part - eps * ufl.div(ufl.grad(u)) + ufl.dot(beta, ufl.grad(u)) - f
    return tau * strong * ufl.dot(beta, ufl.grad(v)) * ufl.dx


def steps(spec, target):
    time = spec["pde"]["time"]
    t0, t1 = float(time.get("t0", 0.0)), float(time["t_end"])
    n = max(4, math.ceil((t1 - t0) / target - 1e-9))
    return t0, (t1 - t0) / n, n


def scalar_problem(family, spec, msh):
    """Poisson, Helmholtz, heat, convection-diffusion, reaction-diffusion, Burgers: steady or BDF2 in time."""
    params = spec["pde"].get("params", {})
    V = fem.functionspace(msh, ("Lagrange", DEGREE))
    v, uh = ufl.TestFunction(V), fem.Function(V)
    nonlinear = family == "burgers" or (family == "reaction_diffusion" and params["reaction"]["type"] != "linear")
    kind = {"helmholtz": "lu", "convection_diffusion": "nonsym", "burgers": "nonsym"}.get(family, "spd")
    if family == "reaction_diffusion":
        kind = "lu" if "time" not in spec["pde"] else "nonsym"
    info = {"time_scheme": "steady"}
    bc = BoundaryData(V, msh, spec)
    t_new, t_old = fem.Constant(msh, default_scalar_type(0.0)), fem.Constant(msh, default_scalar_type(0.0))
    if "time" not in spec["pde"]:
        bc.update(0.0)
        u = uh if nonlinear else ufl.TrialFunction(V)
        F = residual(family, params, msh, spec, u, v, t_new)
        if family == "convection_diffusion":
            F += supg(params, msh, spec, u, v, t_new)
        if nonlinear:
            info["newton_iterations"] = newton(F, uh, bc.bcs, kind, "alt_newton_")
        else:
            solver = LinearSolve(ufl.lhs(F), ufl.rhs(F) + zero_rhs(msh, v), bc.bcs, kind, msh.comm)
            solver.solve(uh)
            kind = solver.kind
        return uh, {**info, "ksp_type": kind}
    # time dependent: BDF2, first step Crank-Nicolson; residual a0 u + a1 u_n + a2 u_nm1 over dt + theta N(u) + ...
    t0, dt, n = steps(spec, 0.01 if family == "heat" else 0.005)
    u_n, u_nm1 = fem.Function(V), fem.Function(V)
    u0 = data(spec["ic"]["u0"])
    u_n.interpolate(lambda p: u0.values(p, t0))
    uh.x.array[:] = u_n.x.array
    a0, a1, a2 = (fem.Constant(msh, default_scalar_type(c)) for c in (1.0, -1.0, 0.0))
    theta, dtc = fem.Constant(msh, default_scalar_type(0.5)), fem.Constant(msh, default_scalar_type(dt))
    u = uh if nonlinear else ufl.TrialFunction(V)
    ddt = (a0 * u + a1 * u_n + a2 * u_nm1) / dtc
    F = ddt * v * ufl.dx + theta * residual(family, params, msh, spec, u, v, t_new)
    F += (1 - theta) * residual(family, params, msh, spec, u_n, v, t_old)
    if family == "convection_diffusion":
        F += supg(params, msh, spec, u, v, t_new, time_part=ddt)
    solver = None
    for step in range(n):
        if step == 1:  # BDF2 from the second step on
            a0.value, a1.value, a2.value, theta.value = 1.5, -2.0, 0.5, 1.0
            solver = None
        t_old.value, t_new.value = t0 + step * dt, t0 + (step + 1) * dt
        bc.update(float(t_new.value))
        if nonlinear:
            newton(F, uh, bc.bcs, kind, f"alt_step{min(step, 1)}_")
        else:
            if solver is None:
                solver = LinearSolve(ufl.lhs(F), ufl.rhs(F) + zero_rhs(msh, v), bc.bcs, kind, msh.comm)
            solver.solve(uh)
        u_nm1.x.array[:] = u_n.x.array
        u_n.x.array[:] = uh.x.array
    info.update(time_scheme="BDF2 (first step Crank-Nicolson)", dt=dt, n_steps=n)
    return uh, {**info, "ksp_type": kind if solver is None else solver.kind}


def wave_problem(spec, msh):
    """u_tt = c^2 Lap u + f as u_t = v, v_t = c^2 Lap u + f on P3 x P3, BDF2 after one Crank-Nicolson step."""
    c2 = float(spec["pde"]["params"]["c"]) ** 2
    element = basix.ufl.element("Lagrange", msh.basix_cell(), DEGREE)
    W = fem.functionspace(msh, basix.ufl.mixed_element([element, element]))
    (u, w), (p, q) = ufl.TrialFunctions(W), ufl.TestFunctions(W)
    old, older, wh = fem.Function(W), fem.Function(W), fem.Function(W)
    u_n, w_n = ufl.split(old)
    u_nm1, w_nm1 = ufl.split(older)
    x = ufl.SpatialCoordinate(msh)
    t0, dt, n = steps(spec, 0.0025)
    t_new, t_old = fem.Constant(msh, default_scalar_type(t0)), fem.Constant(msh, default_scalar_type(t0))
    forcing = data(spec["pde"].get("forcing", {}).get("value", "0"))
    f_new, f_old = forcing.ufl(x, t_new), forcing.ufl(x, t_old)
    a0, a1, a2 = (fem.Constant(msh, default_scalar_type(c)) for c in (1.0, -1.0, 0.0))
    theta, dtc = fem.Constant(msh, default_scalar_type(0.5)), fem.Constant(msh, default_scalar_type(dt))
    F = ((a0 * u + a1 * u_n + a2 * u_nm1) / dtc - theta * w - (1 - theta) * w_n) * p * ufl.dx
    F += (a0 * w + a1 * w_n + a2 * w_nm1) / dtc * q * ufl.dx
    F += c2 * ufl.inner(ufl.grad(theta * u + (1 - theta) * u_n), ufl.grad(q)) * ufl.dx
    if forcing.expr != 0:  # a literal zero source would make an empty integral
        F -= (theta * f_new + (1 - theta) * f_old) * q * ufl.dx
    ic = spec["ic"]
    u0, v0 = data(ic["u0"]), data(ic.get("v0", "0"))
    old.sub(0).interpolate(lambda pts: u0.values(pts, t0))
    old.sub(1).interpolate(lambda pts: v0.values(pts, t0))
    old.x.scatter_forward()
    bc_u, bc_v = BoundaryData(W, msh, spec, sub=0), BoundaryData(W, msh, spec, sub=1, derivative=True)
    bcs = bc_u.bcs + bc_v.bcs
    solver = None
    for step in range(n):
        if step == 1:
            a0.value, a1.value, a2.value, theta.value = 1.5, -2.0, 0.5, 1.0
            solver = None
        t_old.value, t_new.value = t0 + step * dt, t0 + (step + 1) * dt
        bc_u.update(float(t_new.value))
        bc_v.update(float(t_new.value))
        if solver is None:
            solver = LinearSolve(ufl.lhs(F), ufl.rhs(F) + zero_rhs(msh, q), bcs, "lu", msh.comm)
        solver.solve(wh)
        older.x.array[:] = old.x.array
        old.x.array[:] = wh.x.array
    V = fem.functionspace(msh, ("Lagrange", DEGREE))
    uh = fem.Function(V)
    uh.interpolate(wh.sub(0))
    return uh, {
        "time_scheme": "BDF2 on (u, u_t) (first step Crank-Nicolson)",
        "dt": dt,
        "n_steps": n,
        "ksp_type": "preonly",
    }


def biharmonic_problem(spec, msh):
    """Lap^2 u = f as two Poisson solves: Lap w = f with w = (Lap u given), then Lap u = w with u given."""
    V = fem.functionspace(msh, ("Lagrange", DEGREE))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    x = ufl.SpatialCoordinate(msh)
    forcing = data(spec["pde"].get("forcing", {}).get("value", "0"))
    source = zero_rhs(msh, v) if forcing.expr == 0 else -forcing.ufl(x, 0.0) * v * ufl.dx
    stiffness = ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    lap = BoundaryData(V, msh, {"bc": {"dirichlet": spec["bc"]["laplacian"]}})
    lap.update(0.0)
    w = fem.Function(V)
    first = LinearSolve(stiffness, source, lap.bcs, "spd", msh.comm)
    first.solve(w)
    bc = BoundaryData(V, msh, spec)
    bc.update(0.0)
    uh = fem.Function(V)
    second = LinearSolve(stiffness, -w * v * ufl.dx + zero_rhs(msh, v), bc.bcs, "spd", msh.comm)
    second.solve(uh)
    return uh, {"formulation": "w = Lap u, two Poisson solves", "ksp_type": f"{first.kind}/{second.kind}"}


def elasticity_problem(spec, msh):
    gdim = msh.geometry.dim
    V = fem.functionspace(msh, ("Lagrange", DEGREE, (gdim,)))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    F = residual("linear_elasticity", spec["pde"]["params"], msh, spec, u, v, 0.0)
    bc = BoundaryData(V, msh, spec)
    bc.update(0.0)
    uh = fem.Function(V)
    LinearSolve(ufl.lhs(F), ufl.rhs(F) + zero_rhs(msh, v), bc.bcs, "lu", msh.comm).solve(uh)
    return uh, {"ksp_type": "preonly", "pc_type": "lu"}


def flow_problem(family, spec, msh):
    """Stokes or steady Navier-Stokes on Taylor-Hood P3-P2, pressure pinned at one vertex."""
    gdim = msh.geometry.dim
    nu = float(spec["pde"]["params"]["nu"])
    cell = msh.basix_cell()
    W = fem.functionspace(
        msh,
        basix.ufl.mixed_element(
            [
                basix.ufl.element("Lagrange", cell, DEGREE, shape=(gdim,)),
                basix.ufl.element("Lagrange", cell, DEGREE - 1),
            ]
        ),
    )
    x = ufl.SpatialCoordinate(msh)
    f = as_ufl(data(spec["pde"].get("forcing", {}).get("value", ["0"] * gdim)), x, 0.0)
    bc = BoundaryData(W, msh, spec, sub=0)
    bc.update(0.0)
    bcs = list(bc.bcs)
    if whole_boundary_is_dirichlet(msh, spec):
        Q, _ = W.sub(1).collapse()
        corner = (
            msh.geometry.x[np.lexsort((msh.geometry.x[:, 1], msh.geometry.x[:, 0]))[0]] if len(msh.geometry.x) else None
        )
        corner = msh.comm.bcast(corner, root=0)
        dofs = fem.locate_dofs_geometrical(
            (W.sub(1), Q), lambda p: np.isclose(p[0], corner[0]) & np.isclose(p[1], corner[1])
        )
        bcs.append(fem.dirichletbc(fem.Function(Q), dofs, W.sub(1)))
    (v, q) = ufl.TestFunctions(W)
    wh = fem.Function(W)
    info = {"element": f"Taylor-Hood P{DEGREE}-P{DEGREE - 1}", "pressure": "pinned at one vertex"}
    if family == "stokes":
        (u, p) = ufl.TrialFunctions(W)
        F = (nu * ufl.inner(ufl.grad(u), ufl.grad(v)) - p * ufl.div(v) - q * ufl.div(u) - ufl.inner(f, v)) * ufl.dx
        LinearSolve(ufl.lhs(F), ufl.rhs(F) + zero_rhs(msh, v), bcs, "lu", msh.comm).solve(wh)
    else:
        u, p = ufl.split(wh)
        F = (
            nu * ufl.inner(ufl.grad(u), ufl.grad(v))
            + ufl.inner(ufl.grad(u) * u, v)
            - p * ufl.div(v)
            - q * ufl.div(u)
            - ufl.inner(f, v)
        ) * ufl.dx
        info["newton_iterations"] = newton(F, wh, bcs, "lu", "alt_ns_")
    V = fem.functionspace(msh, ("Lagrange", DEGREE, (gdim,)))
    uh = fem.Function(V)
    uh.interpolate(wh.sub(0))
    return uh, {**info, "ksp_type": "preonly", "pc_type": "lu"}


# ---------------------------------------------------------------------------------------------------- sampling


def grid_points(grid):
    box = grid["bbox"]
    axes = [
        np.linspace(box[2 * i], box[2 * i + 1], int(grid[f"n{name}"]))
        for i, name in enumerate("xyz")
        if f"n{name}" in grid
    ]
    mesh_axes = np.meshgrid(*axes[::-1], indexing="ij")  # (z,) y, x: the last index runs fastest
    shape = mesh_axes[0].shape
    coords = [m.ravel() for m in mesh_axes[::-1]]
    while len(coords) < 3:
        coords.append(np.zeros_like(coords[0]))
    return np.column_stack(coords), shape


def sample(uh, grid):
    """The field (or its magnitude) on the grid; NaN where no cell holds the point."""
    msh = uh.function_space.mesh
    comm = msh.comm
    points, shape = grid_points(grid)
    mine = points if comm.rank == 0 else np.zeros((0, 3))
    owned = geometry.determine_point_ownership(msh, np.ascontiguousarray(mine), 1e-10)
    dest = np.asarray(owned.dest_points).reshape(-1, 3)
    cells = np.asarray(owned.dest_cells, dtype=np.int32)
    size = int(np.prod(uh.ufl_shape)) if uh.ufl_shape else 1
    values = np.asarray(uh.eval(dest, cells) if len(dest) else np.zeros((0, size))).reshape(len(dest), size)
    field = np.linalg.norm(values, axis=1) if values.shape[1] > 1 else values[:, 0]
    gathered = comm.gather(field, root=0)
    out = None
    if comm.rank == 0:
        owner = np.asarray(owned.src_owner)
        out = np.full(len(points), np.nan)
        for rank, part in enumerate(gathered):
            out[owner == rank] = part
        out = out.reshape(shape)
    return comm.bcast(out, root=0)  # every rank returns the whole grid


# ---------------------------------------------------------------------------------------------------- entry


def solve(case_spec):
    """Solve the case and return the field on its evaluation grid."""
    comm = MPI.COMM_WORLD
    spec = case_spec
    family = spec["pde"]["type"]
    domain = spec["domain"]
    grid = spec.get("eval_grid") or spec["output"]["grid"]
    three_d = domain["type"] in ("unit_cube", "box")
    n_per_unit = 5 if three_d else 20
    if family == "convection_diffusion" and not three_d:
        n_per_unit = 32
    if family in ("stokes", "navier_stokes"):
        n_per_unit = 16
    msh = make_mesh(comm, domain, n_per_unit)
    if family in ("poisson", "helmholtz", "heat", "convection_diffusion", "reaction_diffusion", "burgers"):
        uh, info = scalar_problem(family, spec, msh)
    elif family == "wave":
        uh, info = wave_problem(spec, msh)
    elif family == "biharmonic":
        uh, info = biharmonic_problem(spec, msh)
    elif family == "linear_elasticity":
        uh, info = elasticity_problem(spec, msh)
    elif family in ("stokes", "navier_stokes"):
        uh, info = flow_problem(family, spec, msh)
    else:
        raise ValueError(f"family {family!r} is not handled")
    u_grid = sample(uh, grid)
    names = {"spd": ("cg", "gamg"), "nonsym": ("gmres", "ilu"), "lu": ("preonly", "lu")}
    ksp, pc = names.get(info.get("ksp_type"), (info.get("ksp_type", ""), info.get("pc_type", "")))
    solver_info = {**info, "mesh_resolution": n_per_unit, "element_degree": DEGREE, "ksp_type": ksp, "pc_type": pc,
                   "rtol": 1e-12}  # fmt: skip
    return {"u": u_grid, "solver_info": solver_info}
