// Reference solver of the fem-dealii suite (deal.II 9.4): Poisson, Helmholtz, heat (Crank-Nicolson),
// convection-diffusion (SUPG) and reaction-diffusion with a linear reaction alpha u, with Q_k elements and a
// direct solver on the unit square or cube, the L-shape and the disk; Dirichlet data on the whole boundary. It
// follows the deal.II contract of PDEAgent-Bench App. J: `solver case_spec.json OUTDIR` writes
// OUTDIR/solution_grid.bin (row-major float64 of the grid's shape, NaN outside the domain) and OUTDIR/meta.json.
// Its discretisation comes from ORACLE_CONFIG_JSON, which the harness defines per case above this file.
#include <deal.II/base/function_parser.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/manifold_lib.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparse_direct.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/vector.h>
#include <deal.II/numerics/fe_field_function.h>
#include <deal.II/numerics/vector_tools.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#ifndef ORACLE_CONFIG_JSON
#define ORACLE_CONFIG_JSON "{}"
#endif

using namespace dealii;
using json = nlohmann::json;

// An expression of the case spec (Python syntax) as a muparser function of x, y[, z] and t.
template <int dim>
std::unique_ptr<FunctionParser<dim>> expression(const json &value) {
  std::string text = value.is_string() ? value.get<std::string>() : std::to_string(value.get<double>());
  for (std::size_t at = text.find("**"); at != std::string::npos; at = text.find("**", at)) text.replace(at, 2, "^");
  auto function = std::make_unique<FunctionParser<dim>>(1, 0.0);
  const std::string variables = dim == 2 ? "x,y,t" : "x,y,z,t";
  function->initialize(variables, text, std::map<std::string, double>{{"pi", M_PI}}, true);
  return function;
}

double number(const json &value) { return value.is_string() ? std::stod(value.get<std::string>()) : value.get<double>(); }

// The coefficient c of the zero-order term c u: -k^2 (Helmholtz), alpha of a linear reaction, else 0; a problem
// this oracle does not solve stops it with a message naming what is missing.
double zero_order(const json &pde) {
  const std::string family = pde["type"];
  if (family == "helmholtz") return -std::pow(number(pde["params"]["k"]), 2);
  if (family == "reaction_diffusion") {
    const json reaction = pde["params"].value("reaction", json{{"type", "linear"}, {"alpha", 0.0}});
    if (reaction.value("type", "") != "linear")
      throw std::runtime_error("reaction type " + reaction.value("type", std::string("?")) + " is not supported");
    return number(reaction.value("alpha", json(0.0)));
  }
  if (family == "poisson" || family == "heat" || family == "convection_diffusion") return 0.0;
  throw std::runtime_error("PDE family " + family + " is not supported by this oracle");
}

template <int dim>
class Solver {
 public:
  Solver(const json &spec, const json &cfg)
      : spec(spec), degree(cfg.value("degree", 2)), fe(degree), mapping(degree), dof_handler(triangulation) {
    make_mesh(cfg.value("resolution", 32));
    dof_handler.distribute_dofs(fe);
    DynamicSparsityPattern dsp(dof_handler.n_dofs());
    DoFTools::make_sparsity_pattern(dof_handler, dsp);
    pattern.copy_from(dsp);
    solution.reinit(dof_handler.n_dofs());
  }

  void run(const json &cfg);
  std::vector<double> sample() const;
  std::size_t n_dofs() const { return dof_handler.n_dofs(); }

 private:
  void make_mesh(int resolution);
  void step(double time, double dt, double theta, const Vector<double> &old);

  const json spec;
  const unsigned int degree;
  Triangulation<dim> triangulation;
  FE_Q<dim> fe;
  MappingQ<dim> mapping;
  DoFHandler<dim> dof_handler;
  SparsityPattern pattern;
  Vector<double> solution;
};

template <int dim>
void Solver<dim>::make_mesh(int resolution) {
  const std::string type = spec["domain"]["type"];
  if (type == "unit_square" || type == "unit_cube") {
    GridGenerator::subdivided_hyper_cube(triangulation, resolution, 0.0, 1.0);
  } else if (type == "l_shape") {  // [0, 1]^2 without the upper-right quarter, as the case's vertices say
    GridGenerator::hyper_L(triangulation, 0.0, 1.0);
    triangulation.refine_global(std::max(0, int(std::lround(std::log2(resolution / 2.0)))));
  } else if (type == "circle") {
    const json g = spec["domain"]["geometry_params"];
    Point<dim> center;
    for (unsigned int d = 0; d < dim; ++d) center[d] = g["center"][d].get<double>();
    GridGenerator::hyper_ball_balanced(triangulation, center, g["radius"].get<double>());
    triangulation.refine_global(std::max(0, int(std::lround(std::log2(resolution / 4.0)))));
  } else {
    throw std::runtime_error("domain type " + type + " is not supported by this oracle");
  }
}

// One theta-step (a steady solve when dt = 0): (M/dt + theta A) u = theta F(t) + (1 - theta) F(t - dt)
// + (M/dt - (1 - theta) A) u_old, with A the diffusion (kappa, epsilon), Helmholtz (-k^2) and convection terms
// (SUPG-weighted when the element Peclet number exceeds 1), the zero-order term (-k^2 or a linear reaction) and
// u = g(t) on the boundary.
template <int dim>
void Solver<dim>::step(double time, double dt, double theta, const Vector<double> &old) {
  const json params = spec["pde"]["params"];
  const std::string family = spec["pde"]["type"];
  auto kappa = expression<dim>(params.value("kappa", json(1.0)));
  auto source = expression<dim>(spec["pde"]["forcing"]["value"]);
  auto boundary = expression<dim>(spec["bc"]["dirichlet"]["value"]);
  const double diffusion = params.contains("epsilon") ? number(params["epsilon"]) : 1.0;
  const double reaction = zero_order(spec["pde"]);
  const double inverse_dt = dt > 0 ? 1.0 / dt : 0.0;
  Tensor<1, dim> beta;
  if (family == "convection_diffusion")
    for (unsigned int d = 0; d < dim; ++d) beta[d] = number(params["beta"][d]);

  AffineConstraints<double> constraints;
  boundary->set_time(time);
  VectorTools::interpolate_boundary_values(mapping, dof_handler, 0, *boundary, constraints);
  constraints.close();
  SparseMatrix<double> matrix(pattern);
  Vector<double> rhs(dof_handler.n_dofs());

  const QGauss<dim> quadrature(degree + 2);
  FEValues<dim> fe_values(mapping, fe, quadrature, update_values | update_gradients | update_JxW_values |
                                                       update_quadrature_points);
  const unsigned int n = fe.n_dofs_per_cell();
  FullMatrix<double> local(n, n), operator_only(n, n);
  Vector<double> local_rhs(n), local_old(n);
  std::vector<types::global_dof_index> indices(n);
  for (const auto &cell : dof_handler.active_cell_iterators()) {
    fe_values.reinit(cell);
    cell->get_dof_indices(indices);
    local = 0;
    operator_only = 0;
    local_rhs = 0;
    const double h = cell->diameter(), speed = beta.norm();
    const double peclet = speed * h / (2.0 * diffusion * degree);
    const double tau = peclet > 1.0 ? h / (2.0 * speed * degree) * (1.0 - 1.0 / peclet) : 0.0;
    for (unsigned int q = 0; q < quadrature.size(); ++q) {
      const Point<dim> &x = fe_values.quadrature_point(q);
      const double c = kappa->value(x) * diffusion, dx = fe_values.JxW(q);
      source->set_time(time);
      const double f_new = source->value(x);
      source->set_time(time - dt);
      const double f_old = source->value(x);
      for (unsigned int i = 0; i < n; ++i) {
        const double v = fe_values.shape_value(i, q), test = v + tau * (beta * fe_values.shape_grad(i, q));
        for (unsigned int j = 0; j < n; ++j) {
          const double u = fe_values.shape_value(j, q);
          const double a = c * (fe_values.shape_grad(i, q) * fe_values.shape_grad(j, q)) + reaction * u * v +
                           (beta * fe_values.shape_grad(j, q)) * test;
          local(i, j) += (inverse_dt * u * v + theta * a) * dx;
          operator_only(i, j) += (inverse_dt * u * v - (1.0 - theta) * a) * dx;
        }
        local_rhs(i) += (theta * f_new + (1.0 - theta) * f_old) * test * dx;
      }
    }
    if (dt > 0) {
      for (unsigned int j = 0; j < n; ++j) local_old(j) = old(indices[j]);
      operator_only.vmult_add(local_rhs, local_old);
    }
    constraints.distribute_local_to_global(local, local_rhs, indices, matrix, rhs);
  }
  SparseDirectUMFPACK direct;
  direct.initialize(matrix);
  direct.vmult(solution, rhs);
  constraints.distribute(solution);
}

template <int dim>
void Solver<dim>::run(const json &cfg) {
  if (!spec["pde"].contains("time")) {
    step(0.0, 0.0, 1.0, solution);
    return;
  }
  const double t0 = spec["pde"]["time"].value("t0", 0.0), t_end = spec["pde"]["time"]["t_end"];
  const int steps = std::max(1, int(std::ceil((t_end - t0) / cfg.value("dt", (t_end - t0) / 50) - 1e-9)));
  const double dt = (t_end - t0) / steps;
  auto initial = expression<dim>(spec["ic"]["u0"]);
  initial->set_time(t0);
  VectorTools::interpolate(mapping, dof_handler, *initial, solution);
  for (int k = 1; k <= steps; ++k) {
    const Vector<double> old = solution;
    step(t0 + k * dt, dt, 0.5, old);
  }
}

template <int dim>
std::vector<double> Solver<dim>::sample() const {
  const json grid = spec["eval_grid"];
  const std::vector<std::string> names = dim == 2 ? std::vector<std::string>{"nx", "ny"}
                                                  : std::vector<std::string>{"nx", "ny", "nz"};
  std::vector<std::vector<double>> axes;
  for (unsigned int d = 0; d < dim; ++d) {
    const int n = grid[names[d]];
    const double lo = grid["bbox"][2 * d], hi = grid["bbox"][2 * d + 1];
    std::vector<double> axis(n);
    for (int i = 0; i < n; ++i) axis[i] = lo + (hi - lo) * i / (n - 1);
    axes.push_back(axis);
  }
  Functions::FEFieldFunction<dim> field(dof_handler, solution, mapping);
  std::size_t total = 1;
  for (const auto &axis : axes) total *= axis.size();
  std::vector<double> values(total, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t index = 0; index < total; ++index) {  // x fastest: u[k][j][i] = u(x_i, y_j, z_k)
    Point<dim> p;
    std::size_t rest = index;
    for (unsigned int d = 0; d < dim; ++d) {
      p[d] = axes[d][rest % axes[d].size()];
      rest /= axes[d].size();
    }
    try {
      values[index] = field.value(p);
    } catch (...) {
    }
  }
  return values;
}

template <int dim>
int solve_case(const json &spec, const json &cfg, const std::string &outdir) {
  Solver<dim> solver(spec, cfg);
  solver.run(cfg);
  const std::vector<double> values = solver.sample();
  std::ofstream(outdir + "/solution_grid.bin", std::ios::binary)
      .write(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));
  json meta = {{"status", "ok"},
               {"nx", spec["eval_grid"]["nx"]},
               {"ny", spec["eval_grid"]["ny"]},
               {"solver_info",
                {{"mesh_resolution", cfg.value("resolution", 32)},
                 {"element_degree", cfg.value("degree", 2)},
                 {"num_dofs", solver.n_dofs()},
                 {"ksp_type", "preonly"},
                 {"pc_type", "umfpack"},
                 {"rtol", 0.0}}}};
  std::ofstream(outdir + "/meta.json") << meta.dump(2) << "\n";
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: solver case_spec.json OUTDIR\n";
    return 2;
  }
  const json spec = json::parse(std::ifstream(argv[1]));
  zero_order(spec["pde"]);  // stops here for a problem this oracle does not solve
  const json cfg = json::parse(ORACLE_CONFIG_JSON);
  return spec["eval_grid"].contains("nz") ? solve_case<3>(spec, cfg, argv[2]) : solve_case<2>(spec, cfg, argv[2]);
}
