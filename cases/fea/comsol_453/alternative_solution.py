"""Second solution for comsol_453: the axisymmetric hollow cylinder with biquadratic quadrilaterals (Q2).

Weak form with the weight r: int k r grad T . grad v = int_(heated band) q r v, T = 273.15 K on the outer
surface and both ends, the rest of the bore insulated (natural). A 40 x 70 structured Q2 grid (2 mm cells)
puts the band's ends z = 0.04 and 0.1 m and the point (0.04, 0.04) on nodes; the answer is read there.
"""

import json

import numpy as np
import skfem
from skfem.helpers import dot, grad

K, FLUX, T_FIXED = 52.0, 5e5, 273.15
R_IN, R_OUT, HEIGHT = 0.02, 0.1, 0.14

mesh = skfem.MeshQuad.init_tensor(np.linspace(R_IN, R_OUT, 41), np.linspace(0.0, HEIGHT, 71))
element = skfem.ElementQuad2()
basis = skfem.Basis(mesh, element, intorder=5)
band = mesh.facets_satisfying(lambda x: np.isclose(x[0], R_IN) & (x[1] > 0.04 - 1e-9) & (x[1] < 0.1 + 1e-9))
heated = skfem.FacetBasis(mesh, element, facets=band, intorder=5)


@skfem.BilinearForm
def conduction(u, v, w):
    return K * w.x[0] * dot(grad(u), grad(v))


@skfem.LinearForm
def heating(v, w):
    return FLUX * w.x[0] * v


fixed = basis.get_dofs(lambda x: np.isclose(x[0], R_OUT) | np.isclose(x[1], 0.0) | np.isclose(x[1], HEIGHT)).all()
temperature = np.zeros(basis.N)
temperature[fixed] = T_FIXED
temperature = skfem.solve(*skfem.condense(conduction.assemble(basis), heating.assemble(heated), x=temperature, D=fixed))
value = float((basis.probes(np.array([[0.04], [0.04]])) @ temperature)[0])
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "K"}, handle)
print(value)
