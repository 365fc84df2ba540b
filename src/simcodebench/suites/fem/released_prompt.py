"""The body of PDEAgent-Bench's released prompt (DOLFINx track), built from the released ``case_spec``.

The released prompt builder writes, in this order: a one-clause-a-line summary (PDE, domain, coefficients,
boundary conditions), the equation's title, statement and advice, the case id and math type, the source term,
initial and boundary conditions, coefficients, the family's parameters (with its advice: SUPG above Peclet 10,
a second-order scheme for the wave equation, the semi-implicit Burgers linearisation), the time block with the
suggested ``dt`` and scheme, the domain, the output requirements (grid shape, the NaN sampling note on a
non-rectangular domain), the ``solve(case_spec)`` template with the ``solver_info`` fields it requires, and the
agent-selectable parameters (knobs) without their range hints. The suite's ``user_released.md.j2`` adds the
pass/fail thresholds, the closing line and the guide. The wording is upstream's; the code is ours.
"""

from __future__ import annotations

from typing import Any

TRANSIENT_HEAT = (
    "∂u/∂t - ∇·(κ ∇u) = f   in Ω × (0, T]\n  u = g                    on ∂Ω\n  u(x,0) = u₀(x)           in Ω"
)
EQUATIONS: dict[str, tuple[str, str, str]] = {
    "poisson": (
        "Poisson Equation",
        "-∇·(κ ∇u) = f   in Ω\n  u = g           on ∂Ω",
        "Elliptic boundary value problem.",
    ),
    "heat": ("Heat Equation (Transient)", TRANSIENT_HEAT, "Parabolic evolution problem requiring time-stepping."),
    "convection_diffusion": (
        "Convection-Diffusion Equation",
        "-ε ∇²u + β·∇u = f   in Ω\n  u = g                on ∂Ω",
        "May require stabilization (SUPG) for high Péclet numbers.",
    ),
    "convection_diffusion_transient": (
        "Convection-Diffusion Equation (Transient)",
        "∂u/∂t - ε ∇²u + β·∇u = f   in Ω × (0, T]\n  u = g                    on ∂Ω\n  u(x,0) = u₀(x)           in Ω",
        "Time-dependent convection-diffusion requiring time-stepping; stabilization may be needed at high Péclet "
        "numbers.",
    ),
    "stokes": (
        "Stokes Flow (Incompressible)",
        "-ν ∇²u + ∇p = f   in Ω\n  ∇·u = 0             in Ω\n  u = g               on ∂Ω",
        "Steady incompressible flow; use Taylor-Hood mixed elements.",
    ),
    "navier_stokes": (
        "Navier-Stokes (Incompressible, Steady)",
        "u·∇u - ν ∇²u + ∇p = f   in Ω\n  ∇·u = 0               in Ω\n  u = g                 on ∂Ω",
        "Nonlinear steady incompressible flow; Newton/Picard is acceptable.",
    ),
    "reaction_diffusion": (
        "Reaction-Diffusion Equation (Steady or Transient)",
        "Steady:\n  -ε ∇²u + R(u) = f    in Ω\n  u = g              on ∂Ω\n\nTransient (if time params provided):\n"
        "  ∂u/∂t - ε ∇²u + R(u) = f   in Ω × (0,T]\n  u = g                    on ∂Ω\n  u(x,0) = u₀(x)           in Ω",
        "Scalar diffusion with (possibly nonlinear) reaction term. Newton/Picard/time-stepping are acceptable "
        "depending on R(u) and whether time dependence is present.",
    ),
    "helmholtz": (
        "Helmholtz Equation",
        "-∇²u - k² u = f   in Ω\n  u = g          on ∂Ω",
        "Indefinite elliptic problem (can be challenging at large k); GMRES+ILU or a direct solver is acceptable.",
    ),
    "biharmonic": (
        "Biharmonic Equation",
        "Δ²u = f   in Ω\n  u = g   on ∂Ω",
        "Fourth-order elliptic problem; a mixed formulation (two Poisson solves) is acceptable.",
    ),
    "linear_elasticity": (
        "Linear Elasticity (2D, Small Strain)",
        "-∇·σ(u) = f   in Ω\n  u = g        on ∂Ω\n  σ(u) = 2μ ε(u) + λ tr(ε(u)) I,   ε(u)=sym(∇u)",
        "Vector-valued elliptic system; use a conforming vector FE space. CG+AMG or GMRES+AMG/direct is acceptable "
        "depending on conditioning.",
    ),
    "wave": (
        "Wave Equation (2D, Transient)",
        "∂²u/∂t² - c² Δu = f   in Ω × (0,T]\n  u = g                  on ∂Ω × (0,T]\n  u(x,0)      = u₀(x)   in Ω\n"
        "  ∂u/∂t(x,0) = v₀(x)   in Ω",
        "Second-order hyperbolic equation; use a second-order-in-time scheme such as Newmark-β (β=1/4, γ=1/2) or "
        "leap-frog. The Newmark average-acceleration scheme (θ=1/4) is unconditionally stable.",
    ),
    "burgers": (
        "Burgers' Equation (2D, Transient, Nonlinear)",
        "∂u/∂t + u·∇u - ν Δu = f   in Ω × (0,T]\n  u = g                      on ∂Ω × (0,T]\n"
        "  u(x,0) = u₀(x)             in Ω",
        "Nonlinear parabolic equation; semi-implicit linearization (treat the convection term u_n·∇u explicitly, "
        "diffusion implicitly) is recommended. Small ν may require stabilization.",
    ),
}
PDE_NAMES = {
    "poisson": "Poisson equation",
    "heat": "heat equation",
    "convection_diffusion": "convection-diffusion equation",
    "stokes": "Stokes flow problem",
    "navier_stokes": "Navier-Stokes flow problem",
    "helmholtz": "Helmholtz equation",
    "biharmonic": "biharmonic equation",
    "linear_elasticity": "linear elasticity problem",
    "reaction_diffusion": "reaction-diffusion equation",
    "wave": "wave equation",
    "burgers": "Burgers' equation",
}
STEADY = ("poisson", "stokes", "navier_stokes", "helmholtz", "biharmonic", "linear_elasticity")
DOMAIN_WORDS = {
    "unit_square": "a unit square domain",
    "unit_cube": "a 3D unit cube domain",
    "l_shape": "an L-shaped domain",
    "circle": "a circular domain",
    "annulus": "an annular (ring) domain",
    "square_with_hole": "a square domain with a hole",
    "multi_hole": "a square domain with multiple holes",
    "t_junction": "a T-junction domain",
    "sector": "a circular sector domain",
    "star": "a star-shaped domain",
    "star_shape": "a star-shaped domain",
    "gear": "a gear-shaped domain",
    "eccentric_annulus": "an eccentric annular domain",
    "dumbbell": "a dumbbell-shaped domain",
    "periodic_square": "a periodic square domain",
}
SOLVER_INFO_DOC = "\n".join(
    (
        '    - "solver_info": dict with fields organized by PDE type:',
        "    ",
        "      ALWAYS REQUIRED (all PDEs):",
        "        - mesh_resolution (int): spatial mesh resolution (e.g., 64, 128)",
        "        - element_degree (int): polynomial degree (1, 2, 3, ...)",
        "        - ksp_type (str): linear solver type (e.g., 'cg', 'gmres')",
        "        - pc_type (str): preconditioner type (e.g., 'jacobi', 'ilu', 'hypre')",
        "        - rtol (float): relative tolerance for linear solver",
        "      ",
        "      REQUIRED if you perform LINEAR solves (record actual solver behavior):",
        "        - iterations (int): total linear solver iterations across all solves",
        "      ",
        "      REQUIRED if PDE contains TIME (check case_spec['pde']['time']):",
        "        - dt (float): time step size you used (e.g., 0.01)",
        "        - n_steps (int): number of time steps you actually computed (e.g., 50)",
        "        - time_scheme (str): time integrator you used ('backward_euler', 'crank_nicolson', or 'bdf2')",
        "        ",
        "        Example for transient PDE:",
        '          "solver_info": {{',
        '            "mesh_resolution": 120, "element_degree": 1,',
        '            "ksp_type": "gmres", "pc_type": "ilu", "rtol": 1e-8,',
        '            "iterations": 450,  # sum of all linear iterations',
        '            "dt": 0.01, "n_steps": 50, "time_scheme": "backward_euler"',
        "          }}",
        "      ",
        "      REQUIRED if PDE is NONLINEAR (e.g., reaction terms like u^3 or u(1-u)):",
        "        - nonlinear_iterations (list of int): Newton iterations per time step",
        "          (for steady: single value in list; for transient: one per time step)",
        "        ",
        "        Example for nonlinear transient:",
        '          "nonlinear_iterations": [5, 4, 4, 3, ...]  # one per time step',
        "    ",
        "    ADDITIONALLY for time-dependent PDEs (highly recommended for analysis):",
        '    - "u_initial": initial condition array, same shape as u (enables front propagation tracking)',
        '    """',
        "```",
        "",
    )
)
"""The released template's account of ``solver_info`` (its doubled braces included: upstream writes them in a
plain string, so the prompt shows them doubled)."""


def _point(p: list[Any]) -> str:
    return f"({p[0]},{p[1]})"


def _box(b: list[Any]) -> str:
    return f"[{b[0]},{b[1]}]×[{b[2]},{b[3]}]"


def _circle(entry: Any, fallback_r: Any) -> tuple[list[Any], Any]:
    """A dumbbell end as (center, radius), from ``{"c": .., "r": ..}`` or a bare center."""
    if isinstance(entry, dict) and "c" in entry:
        return entry["c"], entry.get("r", 0.25)
    return entry, fallback_r


def domain_text(domain: dict[str, Any]) -> str:
    """The domain in words and numbers, as the released prompt states it."""
    kind, g = domain.get("type", "unit_square"), domain.get("geometry_params", {})
    if kind == "unit_square":
        return "[0,1] × [0,1] (unit square)"
    if kind == "unit_cube":
        return "[0,1] × [0,1] × [0,1] (unit cube)"
    if kind == "l_shape":
        if g.get("vertices"):
            return "L-shaped polygon, vertices: [" + ", ".join(_point(v) for v in g["vertices"]) + "]"
        ob, cb = domain.get("outer_bbox", [0, 1, 0, 1]), domain.get("cutout_bbox", [0.5, 1, 0.5, 1])
        return f"L-shaped domain: outer {_box(ob)}, top-right cutout {_box(cb)}"
    if kind == "circle":
        return f"Circular domain: center={_point(g.get('center', [0.5, 0.5]))}, radius={g.get('radius', 0.5)}"
    if kind == "annulus":
        c = _point(g.get("center", [0, 0]))
        return f"Annular (ring) domain: center={c}, inner_r={g.get('inner_r', 0.5)}, outer_r={g.get('outer_r', 1.0)}"
    if kind == "square_with_hole":
        outer, hole = _box(g.get("outer", [0, 1, 0, 1])), g.get("inner_hole", {})
        shape = hole.get("type", "circle")
        if shape == "circle":
            c = _point(hole.get("center", [0.5, 0.5]))
            return f"Square {outer} with circular hole: center={c}, radius={hole.get('radius', 0.2)}"
        if shape == "rect":
            return f"Square {outer} with rectangular hole: {_box(hole.get('bbox', [0.4, 0.6, 0.4, 0.6]))}"
        return f"Square {outer} with polygonal hole: [" + ", ".join(_point(v) for v in hole.get("vertices", [])) + "]"
    if kind == "multi_hole":
        holes = g.get("holes", [])
        listed = "; ".join(f"center={_point(h['c'])}, r={h['r']}" for h in holes)
        return f"Square {_box(g.get('outer', [0, 1, 0, 1]))} with {len(holes)} circular hole(s): [{listed}]"
    if kind == "t_junction":
        h, v = g.get("horizontal_rect", [0.0, 1.0, 0.4, 0.6]), g.get("vertical_rect", [0.4, 0.6, 0.0, 0.5])
        return f"T-junction domain: horizontal {_box(h)}, vertical {_box(v)}"
    if kind == "sector":
        c = _point(g.get("center", [0, 0]))
        return f"Circular sector: center={c}, radius={g.get('radius', 1.0)}, angle={g.get('angle', 90)}°"
    if kind in ("star", "star_shape"):
        c = _point(g.get("center", [0, 0]))
        return (
            f"{g.get('points', 5)}-point star domain: center={c}, inner_r={g.get('inner_r', 0.3)}, "
            f"outer_r={g.get('outer_r', 0.7)}"
        )
    if kind == "gear":
        c = _point(g.get("center", [0, 0]))
        return (
            f"Gear domain: center={c}, {g.get('teeth', 8)} teeth, base_r={g.get('base_r', 0.5)}, "
            f"tooth_h={g.get('tooth_h', 0.2)}"
        )
    if kind == "eccentric_annulus":
        oc = g.get("outer_circle", {"c": [0, 0], "r": 1.0})
        ic = g.get("inner_circle", {"c": [0.2, 0], "r": 0.4})
        return (
            f"Eccentric annulus: outer circle center={_point(oc['c'])}, r={oc['r']}; "
            f"inner circle center={_point(ic['c'])}, r={ic['r']}"
        )
    if kind == "dumbbell":
        left = g.get("left_circle", g.get("left_center", {"c": [0.25, 0.5], "r": 0.25}))
        right = g.get("right_circle", g.get("right_center", {"c": [0.75, 0.5], "r": 0.25}))
        (lc, lr), (rc, rr) = _circle(left, g.get("radius", 0.2)), _circle(right, g.get("radius", 0.2))
        bridge = g.get("bridge", {})
        bar = (
            f"bridge x=[{bridge.get('x_min', lc[0])},{bridge.get('x_max', rc[0])}], "
            f"y=[{bridge.get('y_min', 0.4)},{bridge.get('y_max', 0.6)}]"
            if bridge
            else f"bar_width={g.get('bar_width', 0.2)}"
        )
        return (
            f"Dumbbell domain: left circle center={_point(lc)}, r={lr}; right circle center={_point(rc)}, r={rr}; {bar}"
        )
    if kind == "periodic_square":
        b = g.get("bounds", g.get("extents", [0, 1, 0, 1]))
        return f"Periodic square: {_box(b)} (periodic BCs on all sides)"
    return f"{kind} domain (see oracle_config.domain for geometry parameters)"


def _variable(coefficients: dict[str, Any]) -> bool:
    return any(isinstance(v, dict) and v.get("type", "constant") != "constant" for v in coefficients.values())


def _peclet(params: dict[str, Any]) -> float:
    eps, beta = params.get("epsilon", 0.01), params.get("beta", [1.0, 1.0])
    norm = (beta[0] ** 2 + beta[1] ** 2) ** 0.5 if isinstance(beta, list) else float(beta)
    return norm / eps if eps > 0 else float("inf")


def summary(spec: dict[str, Any]) -> str:
    """The opening lines: ``Solve <PDE>`` / ``on <domain>`` / ``with <coefficients>`` / ``and <conditions>.``"""
    pde, bc = spec["pde"], spec.get("bc", {})
    family = pde.get("type", "poisson")
    name = PDE_NAMES.get(family, f"{family.replace('_', '-')} equation")
    full = (
        f"the steady-state {name}" if family in STEADY else f"the transient {name}" if "time" in pde else f"the {name}"
    )
    kind = spec.get("domain", {}).get("type", "unit_square")
    where = DOMAIN_WORDS.get(kind, f"a {kind.replace('_', '-')} domain")
    coefficients, params = pde.get("coefficients", {}), pde.get("pde_params", {})
    words = ""
    if coefficients:
        varying = _variable(coefficients)
        if family == "linear_elasticity":
            words = "heterogeneous material properties" if varying else "homogeneous material properties"
        elif family in ("stokes", "navier_stokes"):
            words = "variable viscosity" if varying else "constant viscosity"
        else:
            words = "heterogeneous conductivity" if varying else "homogeneous conductivity"
    if family == "helmholtz":
        k = params.get("k", params.get("wave_number"))
        words = f"wave number k={k}" if k is not None else "prescribed wave number"
    if family == "convection_diffusion":
        pe = _peclet(params)
        words = f"high-Péclet convection (Pe≈{pe:.0f})" if pe > 10 else f"low-Péclet diffusion (Pe≈{pe:.1f})"
    dirichlet, neumann = bool(bc.get("dirichlet")), bool(bc.get("neumann"))
    conditions = "mixed (Dirichlet + Neumann)" if dirichlet and neumann else "Neumann" if neumann else "Dirichlet"
    lines = [f"Solve {full}", f"on {where}"]
    if words:
        lines += [f"with {words}", f"and {conditions} boundary conditions."]
    else:
        lines.append(f"with {conditions} boundary conditions.")
    return "\n".join(lines)


def _joined(value: Any) -> str:
    return f"[{', '.join(str(v) for v in value)}]" if isinstance(value, list) else str(value)


def _entries(block: Any) -> list[dict[str, Any]]:
    return block if isinstance(block, list) else [block]


def _coefficient(c: dict[str, Any]) -> str:
    kind = c.get("type", "constant")
    if kind == "constant":
        return str(c["value"])
    if kind == "piecewise_x":
        return f"{c['left']} (x < {c.get('x_split', 0.5)}), {c['right']} otherwise"
    return str(c)


def problem_data(spec: dict[str, Any]) -> str:
    """Forcing, initial and boundary conditions, coefficients, the family's parameters and the time block."""
    pde, bc = spec["pde"], spec.get("bc", {})
    family, params = pde.get("type", "poisson"), pde.get("pde_params", {})
    text = ""
    source = pde.get("source_term")
    if isinstance(source, list):
        text += "".join(f"\n**Source Term f_{'xyz'[i] if i < 3 else i}:** {c}\n" for i, c in enumerate(source))
    elif source:
        text += f"\n**Source Term:** f = {source}\n"
    if pde.get("initial_condition"):
        text += f"**Initial Condition:** u₀ = {pde['initial_condition']}\n"
    for key, title, symbol, default_on in (
        ("dirichlet", "Dirichlet", "u", "all"),
        ("neumann", "Neumann", "∂u/∂n", "part"),
    ):
        if bc.get(key):
            text += f"\n**Boundary Conditions ({title}):**\n"
            text += "".join(
                f"- {symbol} = {_joined(e.get('value', '0.0'))}   on {e.get('on', default_on)}\n"
                for e in _entries(bc[key])
            )
    if pde.get("coefficients"):
        text += "\n**Coefficients:**\n" + "".join(f"- κ = {_coefficient(c)}\n" for c in pde["coefficients"].values())
    text += _family_parameters(family, params, pde)
    if "time" in pde:
        t = pde["time"]
        scheme = t.get("scheme", "backward_euler" if family != "wave" else "newmark_beta")
        text += (
            f"\n**Time Parameters:**\n- t0 = {t.get('t0', 0.0)}\n- t_end = {t.get('t_end', 1.0)}\n"
            f"- dt (suggested) = {t.get('dt', 0.01)}\n- scheme: {scheme}\n"
        )
    return text


def _family_parameters(family: str, params: dict[str, Any], pde: dict[str, Any]) -> str:
    """The family's own parameter block and advice."""
    if family == "convection_diffusion":
        eps, beta, pe = params.get("epsilon", 0.01), params.get("beta", [1.0, 1.0]), _peclet(params)
        text = f"\n**Convection-Diffusion Parameters:**\n- ε (diffusion) = {eps}\n- β (velocity) = {beta}\n"
        text += f"- Péclet number ≈ {pe:.1f}\n"
        return text + ("⚠️ High Péclet number - consider SUPG stabilization!\n" if pe > 10 else "")
    if family in ("stokes", "navier_stokes"):
        return f"\n**Viscosity:** ν = {params.get('nu', 1.0)}\n"
    if family == "helmholtz":
        return f"\n**Wavenumber:** k = {params.get('k', params.get('wave_number', 10.0))}\n"
    if family == "linear_elasticity":
        if params.get("E") is not None and params.get("nu") is not None:
            return f"\n**Material Parameters:** E = {params['E']}, ν = {params['nu']}\n"
        if params.get("lambda") is not None and params.get("mu") is not None:
            return f"\n**Material Parameters:** λ = {params['lambda']}, μ = {params['mu']}\n"
        return ""
    if family == "wave":
        text = f"\n**Wave Speed:** c = {params.get('c', 1.0)}\n"
        if pde.get("initial_velocity"):
            text += f"**Initial Velocity v₀:** {pde['initial_velocity']}\n"
        return text + "⚠️ Implement a **second-order** time scheme (e.g. Newmark-β with β=1/4, γ=1/2).\n"
    if family == "burgers":
        nu = params.get("nu", 0.01)
        text = (
            f"\n**Burgers Parameters:**\n- ν (viscosity) = {nu}\n- T_final = {pde.get('t_final', 0.1)}\n"
            f"- dt (suggested) = {pde.get('dt', 0.01)}\n"
        )
        if nu < 0.05:
            text += "⚠️ Low viscosity — consider SUPG stabilization or sufficiently fine mesh.\n"
        return text + "Use **semi-implicit linearization**: treat u_n·∇u explicitly, diffusion implicitly.\n"
    return ""


def three_d(spec: dict[str, Any]) -> bool:
    """Whether the output grid is 3D (``nz`` and a 6-number ``bbox``)."""
    grid = spec["output"].get("grid", {})
    return "nz" in grid and len(grid.get("bbox", [])) == 6


def output_requirements(spec: dict[str, Any]) -> str:
    """The domain line, the output requirements and the template of ``solve``."""
    output, domain = spec["output"], spec.get("domain", {"type": "unit_square"})
    field, kind = output.get("field", "scalar"), domain.get("type", "unit_square")
    if three_d(spec):
        shape, keys, box = "`(nz, ny, nx)`", "`nx`, `ny`, `nz`", "`[xmin, xmax, ymin, ymax, zmin, zmax]`"
    else:
        shape, keys, box = "`(ny, nx)`", "`nx`, `ny`", "`[xmin, xmax, ymin, ymax]`"
    note = ""
    if spec.get("pde_classification", {}).get("equation_type") == "linear_elasticity" or "displacement" in field:
        note += (
            "\n- ⚠️  **Vector-valued problem**: your FEM space must be a **vector** Lagrange space `(shape=(gdim,))`. "
            "The evaluated quantity is the **displacement magnitude** `‖u‖ = √(u₁² + u₂²)`, not individual "
            "components. For near-incompressible materials (ν > 0.4), use **P2 or higher** to avoid volumetric "
            "locking."
        )
    if kind not in ("unit_square", "unit_cube"):
        note += NAN_NOTE.format(kind=kind)
    text = (
        f"\n**Domain:** {domain_text(domain)}\n\n**Output Requirements:**\n"
        f'- You must sample your solution onto the uniform grid defined by `case_spec["output"]["grid"]` ({keys} and '
        f"`bbox` = {box}) and return it as a numpy array of shape {shape}.\n"
        "- The output shape MUST match exactly; mismatched shapes will fail evaluation (no interpolation or "
        f"resampling is applied by the evaluator).\n- Output field: {field}{note}\n\n---\n\n"
        "## Implementation Requirements\n\nWrite a Python module using **dolfinx** (FEniCSx) that exposes:\n\n"
        "**Key requirements (read before the code template):**\n"
        "1. You decide mesh resolution, element degree, solver type, etc. — but you MUST sample your final FEM "
        "solution onto the prescribed evaluation grid and return it with the exact required shape.\n"
        f'2. Read the grid specification from `case_spec["output"]["grid"]`: it contains {keys}, `bbox` = {box}. '
        "Build the uniform grid from these, evaluate your FEM solution on every grid point, and return the result "
        f"as a numpy array of shape {shape}.\n"
        "3. Do NOT write any files (no solution.npz / meta.json). The evaluator handles file I/O.\n"
        "4. Report your solver choices in `solver_info` (see template below).\n"
    )
    return text + solve_template(three_d(spec))


NAN_NOTE = """
- ⚠️  **Non-rectangular domain** (`{kind}`): the output grid `bbox` may extend beyond Ω. Build your mesh from \
`case_spec["domain"]` (type + geometry_params). Use dolfinx collision detection so exterior points become `np.nan` \
(the NaN-safe error metric ignores them):
  ```python
  domain = case_spec["domain"]  # type, geometry_params
  from dolfinx import geometry
  bb_tree = geometry.bb_tree(msh, msh.topology.dim)
  cell_candidates = geometry.compute_collisions_points(bb_tree, points)
  colliding_cells = geometry.compute_colliding_cells(msh, cell_candidates, points)
  values = np.full(len(points), np.nan)
  for i, links in enumerate(colliding_cells):
      if len(links) > 0:
          values[i] = float(u_h.eval(points[i:i+1], links[:1]))
  ```"""


def solve_template(is_3d: bool) -> str:
    """The ``solve(case_spec)`` template with its docstring on ``u`` and ``solver_info``."""
    if is_3d:
        shape, count = "(nz, ny, nx)", "nx*ny*nz"
        sizes = (
            '           nx   = case_spec["output"]["grid"]["nx"]\n           ny   = case_spec["output"]["grid"]["ny"]\n'
            '           nz   = case_spec["output"]["grid"]["nz"]\n'
            '           bbox = case_spec["output"]["grid"]["bbox"]  # [xmin, xmax, ymin, ymax, zmin, zmax]\n'
        )
        grid = "uniform 3-D grid"
    else:
        shape, count = "(ny, nx)", "nx*ny"
        sizes = (
            '           nx   = case_spec["output"]["grid"]["nx"]\n           ny   = case_spec["output"]["grid"]["ny"]\n'
            '           bbox = case_spec["output"]["grid"]["bbox"]  # [xmin, xmax, ymin, ymax]\n'
        )
        grid = "uniform 2-D grid"
    return (
        '\n```python\ndef solve(case_spec: dict) -> dict:\n    """\n    Return a dict with:\n'
        f'    - "u": numpy array of shape **{shape}** sampled on the {grid}:\n{sizes}'
        f"         Use your FEM solution's eval() to interpolate onto these {count} points.\n"
        f"         ⚠️  Output shape MUST be exactly {shape}; wrong shape will fail evaluation.\n" + SOLVER_INFO_DOC
    )


def knobs(spec: dict[str, Any]) -> str:
    """The agent-selectable parameters, each description cut before its first parenthesis (no range hints)."""
    listed = spec.get("agent_knobs", [])
    if not listed:
        return ""
    lines = [f"- {k.get('name')}: {(k.get('description') or '').split('(')[0].strip()}" for k in listed]
    return "\n**Agent-Selectable Parameters:**\n" + "\n".join(lines) + "\n"


def released_body(spec: dict[str, Any]) -> str:
    """The released prompt up to the pass/fail criteria, for the released ``case_spec`` ``spec``."""
    pde = spec["pde"]
    family = pde.get("type", "poisson")
    key = "convection_diffusion_transient" if family == "convection_diffusion" and "time" in pde else family
    title, equation, advice = EQUATIONS.get(key, EQUATIONS["poisson"])
    text = f"{summary(spec)}\n\n# Task: Solve {title}\n\n## Problem Description\n\n{equation}\n\n{advice}\n\n"
    text += f"**Case ID:** {spec.get('id', '')}\n"
    math_type = spec.get("pde_classification", {}).get("math_type", [])
    if math_type:
        text += f"\n**Math Type:** {', '.join(math_type)}\n"
    return text + problem_data(spec) + output_requirements(spec) + knobs(spec)
