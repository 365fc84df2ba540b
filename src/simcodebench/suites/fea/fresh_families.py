"""The fea families with a fresh-variant generator: what a draw changes and how its reference is checked.

Each family is a published case. A :class:`Parameter` is a drawn quantity: its range, the phrases of the
published text that state it, and the constants it sets in the case's ``reference.py`` and in its independent
solver. A :class:`Family` checks its reference against a closed form of the drawn data (computed here) or
against a second solver written apart from ``reference.py`` (``twin``): a DOLFINx script of :mod:`.twins`, or
the case's own second solution (``hidden.alternative``, :data:`ALTERNATIVE`) with its constants rewritten.
:mod:`.fresh` draws and verifies.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scipy.optimize import brentq
from scipy.special import jvp, yvp

from simcodebench.suites.fea import fresh_lorenz

STEFAN_BOLTZMANN = 5.670374419e-8
MU0 = 1.25663706212e-6
C0 = 299792458.0
HBAR_EV_S = 6.582119569e-16
ELECTRON_MASS_EV = 9.1093837015e-31 / 1.602176634e-19  # eV s^2 / m^2
ALTERNATIVE = "alternative"
"""``Family.twin`` naming the case's own second solution (``hidden.alternative``) as its independent solver."""


def number(value: float) -> str:
    """Three significant digits as the text writes them (no exponent, no trailing zeros)."""
    return f"{float(f'{value:.3g}'):g}" if 1e-3 <= abs(value) < 1e6 else f"{value:.3g}"


@dataclass(frozen=True)
class Parameter:
    """A drawn quantity: its published value and range (in the units the text states it), how the text writes
    it (``text``: the published phrases, each with ``{}`` where the value stands; ``shown``: the published
    value as written, when not ``{:g}``), the ``reference.py`` constant it sets (``constant``, in SI units after
    ``scale``; None: it enters only through ``Family.derived``) and the same constant's name in the twin
    (``twin_constant``, default ``constant``)."""

    published: float
    low: float
    high: float
    text: tuple[str, ...]
    constant: str | None
    scale: float = 1.0
    twin_constant: str | None = None
    shown: str | None = None


def _none(_: dict[str, float]) -> dict[str, Any]:
    return {}


def _no_phrases(_: dict[str, float]) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True)
class Family:
    """A family with a generator: its parameters, and either the formula of its target (``closed_form``, SI
    values by parameter name) or ``twin``, the independent solver its ``reference.py`` must agree with (a file
    of :mod:`.twins`, or :data:`ALTERNATIVE`; ``twin_levels``: whether it takes ``--level``). ``derived``:
    constants of ``reference.py`` that follow from the drawn SI values (a probe point on a drawn edge, a
    coefficient built from two parameters);
    ``twin_derived``: the same for the twin (default ``derived``); ``phrases``: published phrases restated from
    the drawn values in text units (a hint of the answer's size, a value the text derives); ``screen``: why drawn
    values (text units) fall outside the regime the text describes, or None (such values are drawn again)."""

    parameters: dict[str, Parameter]
    closed_form: Callable[[dict[str, float]], float] | None = None
    twin: str | None = None
    derived: Callable[[dict[str, float]], dict[str, Any]] = _none
    twin_derived: Callable[[dict[str, float]], dict[str, Any]] | None = None
    phrases: Callable[[dict[str, float]], list[tuple[str, str]]] = _no_phrases
    screen: Callable[[dict[str, float]], str | None] | None = None
    twin_levels: bool = True
    """Whether the twin takes ``--level N`` (False: a second solution with fixed sizes, run without it)."""


def _torque(p: dict[str, float]) -> float:
    return math.pi / 2 * p["shear_modulus"] * p["twist_rate"] * p["radius"] ** 4


def _radiating_end(p: dict[str, float]) -> float:
    def balance(t: float) -> float:
        flux = p["emissivity"] * STEFAN_BOLTZMANN * (t**4 - 300.0**4)
        return p["conductivity"] * (p["t_left"] - t) / p["length"] - flux

    return float(brentq(balance, 300.0, p["t_left"], xtol=1e-12, rtol=1e-14))


def _coax(p: dict[str, float]) -> float:
    return MU0 * C0 * math.log(p["r_outer"] / p["r_inner"]) / (2 * math.pi * math.sqrt(p["eps_r"]))


def _cowper(nu: float) -> float:
    """Cowper's shear correction factor of a rectangular section."""
    return 10 * (1 + nu) / (12 + 11 * nu)


def _timoshenko(p: dict[str, float]) -> float:
    """Lowest flexural frequency (Hz) of the simply supported square beam, 10 m long, 2 m side: the smaller root
    in omega^2 of the Timoshenko determinant for the mode sin(pi x / L)."""
    length, side = 10.0, 2.0
    area, inertia = side**2, side**4 / 12
    shear = _cowper(p["poisson"]) * p["young"] / (2 * (1 + p["poisson"])) * area
    k = math.pi / length
    rho = p["density"]
    # (shear k^2 - rho A w2)(E I k^2 + shear - rho I w2) - (shear k)^2 = 0, a quadratic in w2
    a = rho * area * rho * inertia
    b = -(shear * k**2 * rho * inertia + rho * area * (p["young"] * inertia * k**2 + shear))
    c = shear * k**2 * (p["young"] * inertia * k**2 + shear) - (shear * k) ** 2
    w2 = (-b - math.sqrt(b * b - 4 * a * c)) / (2 * a)
    return math.sqrt(w2) / (2 * math.pi)


def _bragg(p: dict[str, float]) -> float:
    """Reflectance (percent) of the quarter-wave stack H (L H)^5 between air and the substrate: the stack turns
    the substrate's admittance into Y = n_H^12 / (n_L^10 n_S), and R = ((1 - Y) / (1 + Y))^2."""
    y = p["n_high"] ** 12 / (p["n_low"] ** 10 * p["n_substrate"])
    return 100 * ((1 - y) / (1 + y)) ** 2


def _beam_phrases(v: dict[str, float]) -> list[tuple[str, str]]:
    # the published hint "near 40 Hz" is the frequency (42.6 Hz) rounded to 10 Hz
    hint = 10 * round(_timoshenko({"young": v["young"] * 1e9, "poisson": v["poisson"], "density": v["density"]}) / 10)
    return [("0.8497", f"{_cowper(v['poisson']):.4f}"), ("near 40 Hz", f"near {hint} Hz")]


def _slit_phrases(v: dict[str, float]) -> list[tuple[str, str]]:
    rho0, sound, mu = 1.20493, 343.116, 1.8132e-5
    layer = math.sqrt(2 * mu / (rho0 * 2 * math.pi * v["frequency"])) * 1e3  # viscous layer thickness, mm
    return [
        ("(about 0.69 m)", f"(about {sound / v['frequency']:.2g} m)"),
        ("~0.1 mm", f"~{layer:.1g} mm"),
        ("x = L/2 = 2.5 mm", f"x = L/2 = {number(v['length'] / 2)} mm"),
    ]


def _dot_coefficient(mass: float) -> float:
    """hbar^2 / (2 m*) in eV nm^2 for m* = ``mass`` m_e."""
    return HBAR_EV_S**2 / (2 * mass * ELECTRON_MASS_EV) * 1e18


def _dot_constants(si: dict[str, float]) -> dict[str, Any]:
    return {"C_INAS": _dot_coefficient(si["mass_inas"]), "C_GAAS": _dot_coefficient(si["mass_gaas"])}


def _dot_phrases(v: dict[str, float]) -> list[tuple[str, str]]:
    inas, gaas = _dot_coefficient(v["mass_inas"]), _dot_coefficient(v["mass_gaas"])
    return [
        (
            "c = 1.6565e-18 eV m^2 (1.6565 eV nm^2) in InAs and 5.6865e-19 eV m^2 in GaAs",
            f"c = {inas * 1e-18:.5g} eV m^2 ({inas:.5g} eV nm^2) in InAs and {gaas * 1e-18:.5g} eV m^2 in GaAs",
        ),
        # 9e-6 eV for the published data, up to 2.3e-5 eV at the corner of the ranges (u = 0 on every far edge)
        ("by less than 1e-5 eV", "by less than 1e-4 eV"),
    ]


def _traction_phrases(v: dict[str, float]) -> list[tuple[str, str]]:
    force = v["edge_force"]  # MN per metre of edge, over a 0.1 m thickness
    return [
        ("traction of 100 MPa", f"traction of {number(force / 0.1)} MPa"),
        ("(100 MPa, 0)", f"({number(force / 0.1)} MPa, 0)"),
        ("(20 MN in total", f"({number(2 * force)} MN in total"),
    ]


ADAPTER_COAX = (1e-3, 5e-3, 20e-3)
"""The adapter's coax: inner and outer radius and length (m), kept at the published values."""
ADAPTER_GUIDE = (35e-3, 17.5e-3)
"""The adapter's guide: broad side and height (m), kept at the published values."""


def guide_cutoffs(broad: float = ADAPTER_GUIDE[0], height: float = ADAPTER_GUIDE[1]) -> tuple[float, float]:
    """(TE10 cut-off, the next mode's cut-off) of an empty rectangular guide in Hz: c / (2 a) and
    min(c / a, c / (2 b)) (TE20 and TE01)."""
    return C0 / (2 * broad), min(C0 / broad, C0 / (2 * height))


def coax_te11_cutoff(eps_r: float, inner: float = ADAPTER_COAX[0], outer: float = ADAPTER_COAX[1]) -> float:
    """Cut-off (Hz) of the coax's first higher mode, TE11: the lowest root x = k_c r_i of
    J1'(x) Y1'(c x) - J1'(c x) Y1'(x) = 0 with c = r_o / r_i, bracketed around the approximation
    k_c = 2 / (r_i + r_o); f_c = c0 k_c / (2 pi sqrt(eps_r))."""
    ratio = outer / inner

    def cross(x: float) -> float:
        return float(jvp(1, x) * yvp(1, ratio * x) - jvp(1, ratio * x) * yvp(1, x))

    guess = 2 / (1 + ratio)
    root = brentq(cross, 0.8 * guess, 1.2 * guess, xtol=1e-14)
    return C0 * root / inner / (2 * math.pi * math.sqrt(eps_r))


def adapter_regime(frequency: float, eps_r: float) -> dict[str, float]:
    """How far the adapter sits inside the single-mode band (frequency in Hz): the guide's TE10 and next
    cut-offs, the coax's TE11 cut-off, and the decay exponent alpha L of the coax's TE11 over the coax's length
    (alpha = sqrt(k_c^2 - eps_r k0^2)): the field a higher mode leaves at the coax port, where the absorbing
    condition is exact only for the TEM mode, is exp(-alpha L) of its size at the aperture."""
    te10, next_mode = guide_cutoffs()
    te11 = coax_te11_cutoff(eps_r)
    k_c = 2 * math.pi * te11 * math.sqrt(eps_r) / C0
    k = 2 * math.pi * frequency * math.sqrt(eps_r) / C0
    decay = math.sqrt(k_c**2 - k**2) * ADAPTER_COAX[2] if k < k_c else 0.0
    return {"guide_te10": te10, "guide_next": next_mode, "coax_te11": te11, "coax_te11_decay": decay}


UNNAMED_LAYERS = [("High-index layer (ZnS)", "High-index layer"), ("Low-index layer (MgF2)", "Low-index layer")]
"""The published indices are ZnS's and MgF2's; drawn ones are no longer those materials'."""
YOUNG_GPA = ("E = {} GPa",)
NU = ("nu = {}",)
FAMILIES: dict[str, Family] = {
    "example_torsion": Family(
        {
            "radius": Parameter(20, 10, 40, ("radius {} mm",), "RADIUS", 1e-3),
            "twist_rate": Parameter(0.01, 0.004, 0.03, ("twist of {} rad per metre", "theta = {} rad/m"), "TWIST_RATE"),
        },
        _torque,
    ),
    "comsol_266": Family(
        {
            "length": Parameter(0.1, 0.05, 0.3, ("x <= {} m", "x = {} m", "[0, {}] m"), "LENGTH"),
            "t_left": Parameter(1000, 600, 1400, ("{} K",), "T_LEFT"),
            "conductivity": Parameter(55.563, 15, 120, ("k = {} W/(m K)",), "CONDUCTIVITY"),
            "emissivity": Parameter(0.98, 0.5, 0.98, ("eps = {}",), "EMISSIVITY"),
        },
        _radiating_end,
    ),
    "comsol_265": Family(
        {
            "width": Parameter(
                0.6, 0.4, 0.9, ("x <= {} m", "x = {}", "({} m, 0.2 m)", "[0, {}] x", "({}, 0.2)"), "WIDTH"
            ),
            "conductivity": Parameter(52, 15, 120, ("k = {} W/(m K)",), "K_COND"),
            "h": Parameter(750, 200, 1500, ("h = {} W/(m^2 K)",), "H_CONV"),
            "t_bottom": Parameter(100, 50, 200, ("T = {} degC",), "T_BOTTOM"),
        },
        twin="comsol_265.py",
        derived=lambda si: {"POINT_P": (si["width"], 0.2)},
    ),
    "comsol_12351": Family(
        {
            "r_inner": Parameter(0.5, 0.3, 1.0, ("r_i = {} mm", "{} mm <="), "R_INNER", 1e-3),
            "r_outer": Parameter(3.43, 2.0, 6.0, ("r_o = {} mm", "<= {} mm"), "R_OUTER", 1e-3),
            "eps_r": Parameter(2.4, 1.5, 4.5, ("eps_r = {}",), "EPS_R"),
        },
        _coax,  # the ranges keep r_o >= 2 r_i
    ),
    "comsol_75611": Family(
        {
            "young": Parameter(200, 150, 250, YOUNG_GPA, "E", 1e9),
            "poisson": Parameter(0.3, 0.2, 0.4, NU, "NU"),
            "density": Parameter(8000, 2500, 9000, ("density {} kg/m^3", "rho = {} kg/m^3"), "RHO"),
        },
        _timoshenko,
        phrases=_beam_phrases,
    ),
    "comsol_19275": Family(
        {
            "n_high": Parameter(2.32, 2.0, 2.6, ("n_H = {}", "n = {} (H)"), "N_HIGH"),
            "n_low": Parameter(1.38, 1.3, 1.7, ("n_L = {}", "{} (L)"), "N_LOW"),
            "n_substrate": Parameter(1.5, 1.4, 1.8, ("(refractive index {})", "substrate {}"), "N_SUB"),
        },
        _bragg,
        phrases=lambda v: UNNAMED_LAYERS,
    ),
    "comsol_10275": Family(
        {
            "frequency": Parameter(500, 300, 800, ("f = {} Hz", "at {} Hz"), "FREQUENCY", twin_constant="F"),
            "gap": Parameter(1, 0.6, 1.5, ("H = {} mm",), "GAP", 1e-3, twin_constant="H"),
            "length": Parameter(5, 2, 10, ("L = {} mm",), "LENGTH", 1e-3, twin_constant="L"),
        },
        twin=ALTERNATIVE,
        phrases=_slit_phrases,
    ),
    "comsol_12677": Family(
        {
            "a": Parameter(0.25, 0.1, 0.4, ("a = {}",), "A"),
            "b": Parameter(0.05, 0.03, 0.1, ("b = {}",), "B"),
            "c": Parameter(0.015, 0.012, 0.03, ("c = {}",), "C"),
        },
        twin=ALTERNATIVE,
    ),
    "comsol_12681_force": Family(
        {
            "young": Parameter(210, 150, 250, YOUNG_GPA, "YOUNG", 1e9, twin_constant="E"),
            "poisson": Parameter(0.3, 0.2, 0.4, NU, "POISSON", twin_constant="NU"),
            "edge_force": Parameter(10, 2, 30, ("{} MN per metre", "({} MN/m divided"), "TRACTION", 1e7),
        },
        twin=ALTERNATIVE,
        phrases=_traction_phrases,
    ),
    "comsol_12681_gravity": Family(
        {
            "young": Parameter(210, 150, 250, YOUNG_GPA, "YOUNG", 1e9, twin_constant="E"),
            "poisson": Parameter(0.3, 0.2, 0.4, NU, "POISSON", twin_constant="NU"),
            "density": Parameter(7000, 2000, 9000, ("rho = {} kg/m^3",), "DENSITY", twin_constant="RHO"),
        },
        twin=ALTERNATIVE,
    ),
    "comsol_267": Family(
        {
            "conductivity": Parameter(52, 40, 65, ("k = {} W/(m K)",), "K"),
            "density": Parameter(7850, 7000, 8900, ("rho = {} kg/m^3",), "RHO"),
            "heat_capacity": Parameter(460, 400, 520, ("c_p = {} J/(kg K)",), "CP"),
            "t_wall": Parameter(1000, 500, 1500, ("{} degC",), "T_WALL", twin_constant="T_SURFACE"),
        },
        twin=ALTERNATIVE,
    ),
    "comsol_453": Family(
        {
            "conductivity": Parameter(52, 15, 120, ("k = {} W/(m K)",), "K_COND", twin_constant="K"),
            "flux": Parameter(5e5, 1e5, 9e5, ("{} W/m^2",), "Q_IN", twin_constant="FLUX", shown="5e5"),
            "t_fixed": Parameter(273.15, 250, 350, ("{} K",), "T_FIXED"),
        },
        twin=ALTERNATIVE,
    ),
    "comsol_82": Family(
        {
            "rate": Parameter(0.12, 0.03, 0.15, ("r = {}",), "RATE", twin_constant="R"),
            "volatility": Parameter(0.3, 0.15, 0.5, ("sigma = {}",), "SIGMA"),
        },
        twin=ALTERNATIVE,
    ),
    "comsol_1863": Family(
        {
            # 5-7 GHz: the guide carries TE10 alone (cut-offs 4.28 and 8.57 GHz); with eps_r <= 3 the coax's TE11
            # cuts off above 9.39 GHz and decays by exp(-4.5) or more over the coax (adapter_regime)
            "frequency": Parameter(6, 5.0, 7.0, ("f = {} GHz", "at {} GHz"), "FREQ", 1e9),
            "eps_r": Parameter(
                2,
                1.5,
                3.0,
                ("Dielectric: relative permittivity {}", "eps_r = {} in", "sqrt({})"),
                "EPS_COAX",
                twin_constant="EPS_D",
            ),
        },
        twin=ALTERNATIVE,
        twin_levels=False,
    ),
    "comsol_723": Family(
        {
            "mass_inas": Parameter(0.023, 0.021, 0.027, ("{} m_e",), None),
            "mass_gaas": Parameter(0.067, 0.06, 0.075, ("{} m_e",), None),
            "potential": Parameter(0.697, 0.62, 0.8, ("{} eV",), "V_GAAS"),
        },
        twin=ALTERNATIVE,
        derived=_dot_constants,
        phrases=_dot_phrases,
    ),
    "comsol_16635": Family(
        {
            "sigma": Parameter(10, 9, 11, ("a = {}",), "SIGMA"),
            "beta": Parameter(8 / 3, 2.4, 2.9, ("b = {}",), "BETA", shown="8/3"),
            # c above the Hopf point a (a + b + 3) / (a - b - 1), at most 26.3 over these a and b
            "rho": Parameter(28, 27, 32, ("c = {}",), "RHO"),
            "perturbation": Parameter(1e-11, 5e-12, 5e-11, ("{}",), "PERTURBATION", shown="1e-11"),
            "t_end": Parameter(15, 12, 18, ("t = {}", "to {} from", "({})"), "T_EVAL"),
        },
        twin=ALTERNATIVE,
        phrases=fresh_lorenz.phrases,
        screen=fresh_lorenz.screen,
    ),
}
"""The families with a generator, by published case id."""
FIXED_IN_SOURCE = {"example_torsion": {"shear_modulus": 80e9}}
"""Quantities a family keeps at the published value, in SI units, that its closed form needs."""
