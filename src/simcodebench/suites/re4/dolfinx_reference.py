"""DOLFINx solves behind the references of Re^4's 2-D PDE cases (runs in the ``dolfinx`` environment only).

Run as ``python dolfinx_reference.py job.json out.npz``; nothing in the package imports it. ``job.json`` names
the ``problem`` (``poisson_holes``, ``helmholtz_holes``, ``lid_driven`` or ``unsteady_ns``), its parameters
(``params``: the case's ``hidden.reference.params``), the discretisation (``h``: mesh size, ``degree``: the
velocity / scalar degree, ``dt`` for the transient case) and ``points``, a ``.npy`` file of the evaluation points
(N x 2). The output holds
each field at the points (NaN where no cell holds a point) and solver details.

- Scalar problems: Lagrange P``degree`` on a gmsh mesh of the box minus the disks, LU (MUMPS).
- ``lid_driven``: Taylor-Hood P``degree``-P``degree-1`` on the unit square, Newton from a Stokes guess; the
  pressure is pinned at (0, 0) and reported with p(0, 0) = 0.
- ``unsteady_ns``: Taylor-Hood on [0, 2] x [0, 1], BDF2 in time (BDF1 for the first step) with the convecting
  velocity extrapolated from the last two steps (one linear solve per step); the outlet takes the do-nothing
  condition (1/Re) du/dn - p n = 0. ``inlet_amplitude`` and ``forcing_amplitude`` (1 when absent: the published
  case) scale the inlet profile and the forcing.
"""

import json
import sys
import time

from mpi4py import MPI  # first: it loads the MPI library that DOLFINx's extension modules link against

# isort: split
import basix.ufl
import gmsh
import numpy as np
import ufl
from dolfinx import fem, geometry, mesh
from dolfinx.fem.petsc import LinearProblem, NonlinearProblem
from dolfinx.io import gmsh as gmshio

COMM = MPI.COMM_WORLD
LU = {"ksp_type": "preonly", "pc_type": "lu", "pc_factor_mat_solver_type": "mumps"}
NEWTON = {
    "snes_type": "newtonls",
    "snes_linesearch_type": "basic",
    "snes_rtol": 1e-11,
    "snes_atol": 1e-12,
    "snes_max_it": 30,
    **LU,
}


def holed_box(box, disks, h):
    """A gmsh mesh of the rectangle ``box`` = (x0, x1, y0, y1) minus ``disks`` [(cx, cy, r)], size ``h``
    (refined to h / 3 along the circles) and second-order (curved) cells."""
    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.add("domain")
    occ = gmsh.model.occ
    x0, x1, y0, y1 = box
    outer = occ.addRectangle(x0, y0, 0.0, x1 - x0, y1 - y0)
    holes = [occ.addDisk(cx, cy, 0.0, r, r) for cx, cy, r in disks]
    cut, _ = occ.cut([(2, outer)], [(2, tag) for tag in holes])
    occ.synchronize()
    gmsh.model.addPhysicalGroup(2, [tag for dim, tag in cut if dim == 2], 1)
    gmsh.option.setNumber("Mesh.CharacteristicLengthMin", h / 3)
    gmsh.option.setNumber("Mesh.CharacteristicLengthMax", h)
    circles = [tag for dim, tag in gmsh.model.getBoundary(cut, oriented=False) if dim == 1]
    circles = [c for c in circles if gmsh.model.getType(1, c) == "Circle"]
    field = gmsh.model.mesh.field
    distance = field.add("Distance")
    field.setNumbers(distance, "CurvesList", circles)
    threshold = field.add("Threshold")
    field.setNumber(threshold, "InField", distance)
    field.setNumber(threshold, "SizeMin", h / 3)
    field.setNumber(threshold, "SizeMax", h)
    field.setNumber(threshold, "DistMin", 0.02)
    field.setNumber(threshold, "DistMax", 0.15)
    field.setAsBackgroundMesh(threshold)
    gmsh.model.mesh.generate(2)
    gmsh.model.mesh.setOrder(2)
    msh = gmshio.model_to_mesh(gmsh.model, COMM, 0, gdim=2).mesh
    gmsh.finalize()
    return msh


def on_box(box):
    """Marker of the rectangle's sides."""
    x0, x1, y0, y1 = box
    return lambda X: np.isclose(X[0], x0) | np.isclose(X[0], x1) | np.isclose(X[1], y0) | np.isclose(X[1], y1)


def scalar_holes(problem, params, h, degree):
    """Poisson (Laplace) or Helmholtz with Dirichlet data on the box and on the circles."""
    box, disks = params["box"], params["disks"]
    msh = holed_box(box, disks, h)
    V = fem.functionspace(msh, ("Lagrange", degree))
    fdim = msh.topology.dim - 1
    msh.topology.create_connectivity(fdim, msh.topology.dim)
    boundary = mesh.exterior_facet_indices(msh.topology)
    outer = mesh.locate_entities_boundary(msh, fdim, on_box(box))
    inner = np.setdiff1d(boundary, outer)
    bcs = []
    for facets, value in ((outer, params["u_box"]), (inner, params["u_circles"])):
        dofs = fem.locate_dofs_topological(V, fdim, facets)
        bcs.append(fem.dirichletbc(fem.Constant(msh, float(value)), dofs, V))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    if problem == "helmholtz_holes":
        x = ufl.SpatialCoordinate(msh)
        (m1, m2), k, amp = params["mu"], params["k"], params["A"]
        f = amp * (m1**2 + m2**2 + x[0] ** 2 + x[1] ** 2) * ufl.sin(m1 * np.pi * x[0]) * ufl.sin(m2 * np.pi * x[1])
        a += k**2 * u * v * ufl.dx
        L = f * v * ufl.dx
    else:
        L = fem.Constant(msh, 0.0) * v * ufl.dx
    uh = LinearProblem(a, L, bcs=bcs, petsc_options=LU, petsc_options_prefix=f"{problem}_").solve()
    if isinstance(uh, tuple):
        uh = uh[0]
    return {"u": uh}, {"dofs": V.dofmap.index_map.size_global, "cells": msh.topology.index_map(2).size_global}


def taylor_hood(msh, degree):
    """The mixed P``degree``-P``degree-1`` space."""
    cell = msh.basix_cell()
    P2 = basix.ufl.element("Lagrange", cell, degree, shape=(2,))
    P1 = basix.ufl.element("Lagrange", cell, degree - 1)
    return fem.functionspace(msh, basix.ufl.mixed_element([P2, P1]))


def velocity_bc(W, msh, where, values):
    """A Dirichlet condition on the velocity where ``where(X)`` holds, values from ``values(X)`` (2 x N)."""
    V, _ = W.sub(0).collapse()
    g = fem.Function(V)
    g.interpolate(values)
    facets = mesh.locate_entities_boundary(msh, 1, where)
    dofs = fem.locate_dofs_topological((W.sub(0), V), 1, facets)
    return fem.dirichletbc(g, dofs, W.sub(0)), g


def lid_driven(params, h, degree):
    """Steady Navier-Stokes in the unit square driven by the lid (alpha x (1 - x), 0)."""
    n = int(round(1.0 / h))
    msh = mesh.create_unit_square(COMM, n, n, mesh.CellType.triangle, diagonal=mesh.DiagonalType.crossed)
    W = taylor_hood(msh, degree)
    alpha, reynolds = float(params["alpha"]), float(params["Re"])
    lid, _ = velocity_bc(
        W, msh, lambda X: np.isclose(X[1], 1.0), lambda X: np.vstack([alpha * X[0] * (1 - X[0]), 0 * X[0]])
    )
    walls, _ = velocity_bc(
        W, msh, lambda X: np.isclose(X[0], 0.0) | np.isclose(X[0], 1.0) | np.isclose(X[1], 0.0), lambda X: 0 * X[:2]
    )
    Q, _ = W.sub(1).collapse()
    corner = fem.locate_dofs_geometrical((W.sub(1), Q), lambda X: np.isclose(X[0], 0.0) & np.isclose(X[1], 0.0))
    zero = fem.Function(Q)
    pin = fem.dirichletbc(zero, corner, W.sub(1))
    bcs = [walls, lid, pin]
    w = fem.Function(W)
    u, p = ufl.split(w)
    v, q = ufl.TestFunctions(W)
    nu = fem.Constant(msh, 1.0 / reynolds)
    convect = fem.Constant(msh, 0.0)
    F = (
        nu * ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
        + convect * ufl.inner(ufl.grad(u) * u, v) * ufl.dx
        - p * ufl.div(v) * ufl.dx
        - q * ufl.div(u) * ufl.dx
    )
    iterations = []
    for weight in (0.0, 1.0):  # Stokes first, then Navier-Stokes from it
        convect.value = weight
        problem = NonlinearProblem(F, w, bcs=bcs, petsc_options=NEWTON, petsc_options_prefix=f"lid{int(weight)}_")
        problem.solve()
        if problem.solver.getConvergedReason() <= 0:
            raise RuntimeError(f"Newton did not converge (reason {problem.solver.getConvergedReason()})")
        iterations.append(problem.solver.getIterationNumber())
    return split_flow(w), {"dofs": mixed_dofs(W), "newton_iterations": iterations[-1]}


def mixed_dofs(W):
    """The number of unknowns of a mixed space."""
    return W.dofmap.index_map.size_global * W.dofmap.index_map_bs


def split_flow(w):
    """The velocity components and the pressure of a Taylor-Hood function, each in its own space."""
    uh, ph = w.sub(0).collapse(), w.sub(1).collapse()
    return {"u": uh.sub(0).collapse(), "v": uh.sub(1).collapse(), "p": ph}


def unsteady_ns(params, h, degree, dt):
    """The forced channel on [0, 2] x [0, 1] to ``t_end`` (BDF2, extrapolated convection)."""
    length, reynolds, t_end = 2.0, float(params["Re"]), float(params["t_end"])
    inlet_scale = float(params.get("inlet_amplitude", 1.0))
    force_scale = float(params.get("forcing_amplitude", 1.0))
    msh = mesh.create_rectangle(
        COMM,
        [np.array([0.0, 0.0]), np.array([length, 1.0])],
        [int(round(length / h)), int(round(1.0 / h))],
        mesh.CellType.triangle,
    )
    W = taylor_hood(msh, degree)
    clock = {"t": 0.0}

    def inlet_values(X):
        t = clock["t"]
        s = np.sin(np.pi * t) + np.sin(3 * np.pi * t) + np.sin(5 * np.pi * t)
        return np.vstack([inlet_scale * np.sin(np.pi * X[1]) * s, 0 * X[0]])

    inlet, g_in = velocity_bc(W, msh, lambda X: np.isclose(X[0], 0.0), inlet_values)
    walls, _ = velocity_bc(W, msh, lambda X: np.isclose(X[1], 0.0) | np.isclose(X[1], 1.0), lambda X: 0 * X[:2])
    bcs = [walls, inlet]  # inlet last: it owns the corner dofs, where it is zero anyway
    V, _ = W.sub(0).collapse()
    u1, u2 = fem.Function(V), fem.Function(V)  # u^n, u^{n-1}
    x = ufl.SpatialCoordinate(msh)
    t_new = fem.Constant(msh, 0.0)
    forcing = ufl.as_vector(
        [0.0, -force_scale * ufl.sin(np.pi * x[0]) * ufl.sin(np.pi * x[1]) * ufl.sin(np.pi * t_new)]
    )
    u, p = ufl.TrialFunctions(W)
    v, q = ufl.TestFunctions(W)
    k = fem.Constant(msh, dt)
    bdf2 = fem.Constant(msh, 0.0)  # 0: BDF1 (first step), 1: BDF2
    a0 = 1.0 + 0.5 * bdf2
    history = (1.0 + bdf2) * u1 - 0.5 * bdf2 * u2
    advect = (1.0 + bdf2) * u1 - bdf2 * u2
    nu = 1.0 / reynolds
    a = (
        a0 / k * ufl.inner(u, v) * ufl.dx
        + ufl.inner(ufl.grad(u) * advect, v) * ufl.dx
        + nu * ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
        - p * ufl.div(v) * ufl.dx
        - q * ufl.div(u) * ufl.dx
    )
    L = ufl.inner(history / k + forcing, v) * ufl.dx
    a_form, L_form = fem.form(a), fem.form(L)
    w = fem.Function(W)
    steps = int(round(t_end / dt))
    problem = LinearProblem(a_form, L_form, bcs=bcs, u=w, petsc_options=LU, petsc_options_prefix="ns_")
    for step in range(1, steps + 1):  # each solve reassembles both sides from the updated data
        clock["t"] = step * dt
        t_new.value = step * dt
        bdf2.value = 0.0 if step == 1 else 1.0
        g_in.interpolate(inlet_values)
        problem.solve()
        u2.x.array[:] = u1.x.array
        u1.x.array[:] = w.sub(0).collapse().x.array
    return split_flow(w), {"dofs": mixed_dofs(W), "steps": steps}


def evaluate(functions, points):
    """Each function at ``points`` (N x 2); NaN where no cell holds a point."""
    msh = next(iter(functions.values())).function_space.mesh
    xyz = np.zeros((len(points), 3))
    xyz[:, :2] = points
    tree = geometry.bb_tree(msh, msh.topology.dim)
    colliding = geometry.compute_colliding_cells(msh, geometry.compute_collisions_points(tree, xyz), xyz)
    found = np.flatnonzero(np.diff(colliding.offsets) > 0)
    cells = colliding.array[colliding.offsets[found]]
    values = {}
    for name, function in functions.items():
        column = np.full(len(points), np.nan)
        if len(found):
            column[found] = function.eval(xyz[found], cells).reshape(len(found))
        values[name] = column
    return values


def solve(problem, params, level):
    """The problem's fields (functions) and solver details at one discretisation ``level``."""
    h, degree = float(level["h"]), int(level["degree"])
    if problem in ("poisson_holes", "helmholtz_holes"):
        return scalar_holes(problem, params, h, degree)
    if problem == "lid_driven":
        return lid_driven(params, h, degree)
    if problem == "unsteady_ns":
        return unsteady_ns(params, h, degree, float(level["dt"]))
    raise SystemExit(f"unknown problem {problem!r}")


def main(job_path, out_path):
    """Solve the job at each of its ``levels`` and write field ``<name>_<level index>`` at the points, with
    the solver's details per level (``info``, JSON)."""
    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    points = np.load(job["points"])
    results, details = {}, []
    for index, level in enumerate(job["levels"]):
        start = time.perf_counter()
        functions, info = solve(job["problem"], job["params"], level)
        values = evaluate(functions, points)
        if job["problem"] == "lid_driven":  # p(0, 0) = 0, as the prompt fixes it
            values["p"] = values["p"] - evaluate({"p": functions["p"]}, np.zeros((1, 2)))["p"][0]
        results.update({f"{name}_{index}": column for name, column in values.items()})
        details.append({**level, **info, "seconds": round(time.perf_counter() - start, 2)})
    np.savez(out_path, info=json.dumps(details), **results)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
