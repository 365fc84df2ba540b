"""Second solution for comsol_265: the cooled plate with biquadratic quadrilaterals (Q2, scikit-fem).

Weak form: int k grad T . grad v + int_(top, right) h T v = int_(top, right) h T_inf v, T = 100 degC on the
bottom edge, the left edge insulated (natural). A 60 x 100 structured grid of Q2 elements puts P = (0.6, 0.2)
on a node; the answer is read there. Temperatures in degC (the equation is linear, T_inf = 0 degC).
"""

import json

import numpy as np
import skfem
from skfem.helpers import dot, grad

K, H, T_INF, T_BOTTOM = 52.0, 750.0, 0.0, 100.0

mesh = skfem.MeshQuad.init_tensor(np.linspace(0.0, 0.6, 61), np.linspace(0.0, 1.0, 101))
element = skfem.ElementQuad2()
basis = skfem.Basis(mesh, element)
cooled = skfem.FacetBasis(
    mesh, element, facets=mesh.facets_satisfying(lambda x: np.isclose(x[0], 0.6) | np.isclose(x[1], 1.0))
)


@skfem.BilinearForm
def conduction(u, v, _):
    return K * dot(grad(u), grad(v))


@skfem.BilinearForm
def film(u, v, _):
    return H * u * v


@skfem.LinearForm
def ambient(v, _):
    return H * T_INF * v


matrix = conduction.assemble(basis) + film.assemble(cooled)
bottom = basis.get_dofs(lambda x: np.isclose(x[1], 0.0)).all()
temperature = np.zeros(basis.N)
temperature[bottom] = T_BOTTOM
temperature = skfem.solve(*skfem.condense(matrix, ambient.assemble(cooled), x=temperature, D=bottom))
value = float((basis.probes(np.array([[0.6], [0.2]])) @ temperature)[0])
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "degC"}, handle)
print(value)
