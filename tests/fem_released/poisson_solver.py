"""A solution written to PDEAgent-Bench's released contract (test material, not a case): the steady Poisson
problem -div(kappa grad u) = f with u = g on the whole boundary of the unit square, read from the released
``case_spec`` (``pde.coefficients.kappa`` constant or expression, ``pde.source_term``, ``bc.dirichlet.value``,
the grid under ``output.grid``), P2 on a 24 x 24 mesh, returned as ``{"u": (ny, nx), "solver_info": {...}}``."""

import numpy as np
import ufl
from dolfinx import fem, geometry, mesh
from dolfinx.fem.petsc import LinearProblem
from mpi4py import MPI

CELLS, DEGREE = 24, 2


def expression(text, x):
    """A sympy-syntax expression in x and y as a UFL expression."""
    names = {"x": x[0], "y": x[1], "pi": ufl.pi, "sin": ufl.sin, "cos": ufl.cos, "exp": ufl.exp, "sqrt": ufl.sqrt}
    return eval(str(text).replace("^", "**"), {"__builtins__": {}}, names)


def conductivity(pde, x):
    kappa = (pde.get("coefficients") or {}).get("kappa", {"type": "constant", "value": 1.0})
    return kappa["value"] if kappa["type"] == "constant" else expression(kappa["expr"], x)


def on_grid(uh, grid):
    nx, ny, box = grid["nx"], grid["ny"], grid["bbox"]
    xs, ys = np.linspace(box[0], box[1], nx), np.linspace(box[2], box[3], ny)
    px, py = np.meshgrid(xs, ys)
    points = np.column_stack([px.ravel(), py.ravel(), np.zeros(px.size)])
    msh = uh.function_space.mesh
    tree = geometry.bb_tree(msh, msh.topology.dim)
    hits = geometry.compute_colliding_cells(msh, geometry.compute_collisions_points(tree, points), points)
    found = [i for i in range(len(points)) if len(hits.links(i)) > 0]
    values = np.full(len(points), np.nan)
    values[found] = uh.eval(points[found], [hits.links(i)[0] for i in found])[:, 0]
    return values.reshape(ny, nx)


def solve(case_spec):
    pde = case_spec["pde"]
    msh = mesh.create_unit_square(MPI.COMM_WORLD, CELLS, CELLS)
    V = fem.functionspace(msh, ("Lagrange", DEGREE))
    x = ufl.SpatialCoordinate(msh)
    msh.topology.create_connectivity(1, 2)
    dofs = fem.locate_dofs_topological(V, 1, mesh.exterior_facet_indices(msh.topology))
    g = fem.Function(V)
    g.interpolate(fem.Expression(expression(case_spec["bc"]["dirichlet"]["value"], x), V.element.interpolation_points))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = conductivity(pde, x) * ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    problem = LinearProblem(
        a,
        expression(pde["source_term"], x) * v * ufl.dx,
        bcs=[fem.dirichletbc(g, dofs)],
        petsc_options_prefix="released_poisson_",
        petsc_options={"ksp_type": "preonly", "pc_type": "lu"},
    )
    uh = problem.solve()
    info = {"mesh_resolution": CELLS, "element_degree": DEGREE, "ksp_type": "preonly", "pc_type": "lu", "rtol": 0.0}
    return {"u": on_grid(uh, case_spec["output"]["grid"]), "solver_info": info}
