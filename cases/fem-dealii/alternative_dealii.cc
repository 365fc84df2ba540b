// A second solution for the fem-dealii cases, written from the prompt and the deal.II guide alone.
//
// What it varies against the reference solver (cases/fem-dealii/README.md, "Second solutions"):
// - cubic elements (Q3, with a cubic mapping) on meshes about twice as coarse;
// - the L-shape (any axis-aligned polygon) as a subdivided rectangle with the cells outside removed, the disk as
//   hyper_ball (not hyper_ball_balanced); Dirichlet values eliminated from the assembled system (not constraints);
// - CG with SSOR for the symmetric positive problems (Poisson, heat), UMFPACK for Helmholtz and convection;
// - BDF2 in time, started by one Crank-Nicolson step;
// - SUPG with the Shakib-Codina parameter on h/p;
// - the grid sampled with VectorTools::point_value (NaN where no cell holds the point).
#include <deal.II/base/function_parser.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/precondition.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/sparse_direct.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/vector.h>
#include <deal.II/numerics/matrix_tools.h>
#include <deal.II/numerics/vector_tools.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

using namespace dealii;
using json = nlohmann::json;

namespace {

constexpr unsigned int degree = 3;

std::string muparser(const json &value) {
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  for (std::size_t at = text.find("**"); at != std::string::npos; at = text.find("**"))
    text.replace(at, 2, "^");
  return text;
}

template <int dim>
std::unique_ptr<FunctionParser<dim>> parse(const json &value) {
  auto function = std::make_unique<FunctionParser<dim>>(1);
  std::map<std::string, double> constants{{"pi", M_PI}};
  const std::string variables = dim == 2 ? "x,y,t" : "x,y,z,t";
  function->initialize(variables, muparser(value), constants, true);
  return function;
}

// Is p inside (or on) the polygon? Even-odd rule; points on an edge count as inside.
bool in_polygon(const std::vector<Point<2>> &poly, const Point<2> &p) {
  bool inside = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Point<2> &a = poly[i], &b = poly[j];
    if (((a[1] > p[1]) != (b[1] > p[1])) && (p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]))
      inside = !inside;
  }
  return inside;
}

template <int dim>
void make_mesh(Triangulation<dim> &tria, const json &domain, unsigned int cells_per_unit) {
  const std::string type = domain["type"];
  const json geometry = domain.value("geometry_params", json::object());
  if (type == "unit_square" || type == "unit_cube" || type == "rectangle" || type == "box") {
    std::vector<double> bounds;
    if (geometry.contains("bounds"))
      bounds = geometry["bounds"].get<std::vector<double>>();
    else
      for (int d = 0; d < dim; ++d) bounds.insert(bounds.end(), {0.0, 1.0});
    Point<dim> lo, hi;
    std::vector<unsigned int> cells(dim);
    double longest = 0;
    for (int d = 0; d < dim; ++d) longest = std::max(longest, bounds[2 * d + 1] - bounds[2 * d]);
    for (int d = 0; d < dim; ++d) {
      lo[d] = bounds[2 * d];
      hi[d] = bounds[2 * d + 1];
      cells[d] = std::max(2u, static_cast<unsigned int>(std::lround(cells_per_unit * (hi[d] - lo[d]) / longest)));
    }
    GridGenerator::subdivided_hyper_rectangle(tria, cells, lo, hi);
    return;
  }
  if constexpr (dim == 2) {
    if (type == "l_shape") {  // a rectangle of squares whose corners are the polygon's, the outside cells removed
      std::vector<Point<2>> poly;
      for (const auto &v : geometry["vertices"]) poly.emplace_back(v[0].get<double>(), v[1].get<double>());
      Point<2> lo = poly[0], hi = poly[0];
      for (const auto &v : poly)
        for (int d = 0; d < 2; ++d) lo[d] = std::min(lo[d], v[d]), hi[d] = std::max(hi[d], v[d]);
      unsigned int n = cells_per_unit;
      auto snaps = [&](unsigned int m) {
        for (const auto &v : poly)
          for (int d = 0; d < 2; ++d) {
            const double s = (v[d] - lo[d]) / (hi[d] - lo[d]) * m;
            if (std::abs(s - std::round(s)) > 1e-9) return false;
          }
        return true;
      };
      while (!snaps(n)) ++n;
      Triangulation<2> full;
      GridGenerator::subdivided_hyper_rectangle(full, {n, n}, lo, hi);
      std::set<Triangulation<2>::active_cell_iterator> outside;
      for (const auto &cell : full.active_cell_iterators())
        if (!in_polygon(poly, cell->center())) outside.insert(cell);
      GridGenerator::create_triangulation_with_removed_cells(full, outside, tria);
      return;
    }
    if (type == "circle") {
      const auto c = geometry["center"];
      const double r = geometry["radius"];
      GridGenerator::hyper_ball(tria, Point<2>(c[0].get<double>(), c[1].get<double>()), r);
      unsigned int levels = 0;  // hyper_ball's 5 cells have sides of about r
      while (r / (1u << levels) > 1.0 / cells_per_unit) ++levels;
      tria.refine_global(levels);
      return;
    }
  }
  throw std::runtime_error("domain type " + type + " is not handled");
}

template <int dim>
struct Problem {
  json spec;
  std::string family;
  Triangulation<dim> tria;
  FE_Q<dim> fe{degree};
  MappingQ<dim> mapping{degree};
  DoFHandler<dim> dofs;
  SparsityPattern pattern;
  double eps = 1, k2 = 0, alpha = 0;
  Tensor<1, dim> beta;
  std::unique_ptr<FunctionParser<dim>> kappa, forcing, boundary;
  std::string solver_used;

  explicit Problem(const json &s) : spec(s), family(s["pde"]["type"]) {
    const json params = spec["pde"].value("params", json::object());
    const bool three_d = spec["domain"]["type"] == "unit_cube" || spec["domain"]["type"] == "box";
    const bool transient = spec["pde"].contains("time");  // many solves: a coarser 3-D mesh
    unsigned int n = three_d ? (transient ? 5 : 8) : (family == "convection_diffusion" ? 24 : 16);
    make_mesh(tria, spec["domain"], n);
    dofs.reinit(tria);
    dofs.distribute_dofs(fe);
    kappa = parse<dim>(params.contains("kappa") ? params["kappa"] : json("1"));
    forcing = parse<dim>(spec["pde"]["forcing"]["value"]);
    boundary = parse<dim>(spec["bc"]["dirichlet"]["value"]);
    if (params.contains("epsilon")) eps = params["epsilon"];
    if (params.contains("k")) k2 = std::pow(params["k"].get<double>(), 2);
    if (params.contains("beta"))
      for (int d = 0; d < dim; ++d) beta[d] = params["beta"][d];
    if (params.contains("reaction")) {
      if (params["reaction"]["type"] != "linear") throw std::runtime_error("only a linear reaction is handled");
      alpha = params["reaction"]["alpha"];
    }
    if (spec["bc"].contains("neumann")) throw std::runtime_error("Neumann pieces are not handled");
    DynamicSparsityPattern dsp(dofs.n_dofs());
    DoFTools::make_sparsity_pattern(dofs, dsp);
    pattern.copy_from(dsp);
  }

  // A step's system is (a0/dt) M + theta A on the left (assembled once per scheme, `assemble_operator`) and the
  // rest of its residual on the right (`assemble_rhs`, every step); a steady problem is a0 = 0, theta = 1.
  // `previous` and `older` are u_n and u_{n-1}.
  struct Step {
    double a0, a1, a2, theta, dt;
  };

  // The cell loop: the operator's matrix when `matrix` is given, else the right-hand side.
  void assemble(const Step &s, double t_new, double t_old, const Vector<double> &previous,
                const Vector<double> &older, SparseMatrix<double> *matrix, Vector<double> *rhs) {
    const QGauss<dim> quadrature(degree + 1);
    const bool convective = family == "convection_diffusion";
    const bool transient = s.a0 != 0.0;
    UpdateFlags flags = update_values | update_gradients | update_JxW_values | update_quadrature_points;
    if (convective) flags |= update_hessians;
    FEValues<dim> fv(mapping, fe, quadrature, flags);
    const unsigned int n = fe.n_dofs_per_cell(), nq = quadrature.size();
    const double scale = transient ? s.a0 / s.dt : 0.0;
    FullMatrix<double> cell_matrix(n, n);
    Vector<double> cell_rhs(n);
    std::vector<types::global_dof_index> indices(n);
    std::vector<double> u_n(nq), u_nm1(nq);
    std::vector<Tensor<1, dim>> grad_n(nq);
    std::vector<Tensor<2, dim>> hess_n(nq);
    const double b_norm = beta.norm();
    for (const auto &cell : dofs.active_cell_iterators()) {
      fv.reinit(cell);
      cell_matrix = 0;
      cell_rhs = 0;
      if (transient && rhs) {
        fv.get_function_values(previous, u_n);
        fv.get_function_values(older, u_nm1);
        fv.get_function_gradients(previous, grad_n);
        if (convective) fv.get_function_hessians(previous, hess_n);
      }
      const double h = cell->diameter() / degree;
      const double tau =
          convective ? 1.0 / std::sqrt(std::pow(2 * b_norm / h, 2) + 9 * std::pow(4 * eps / (h * h), 2)) : 0.0;
      for (unsigned int q = 0; q < nq; ++q) {
        const Point<dim> &x = fv.quadrature_point(q);
        const double dx = fv.JxW(q);
        const double kap = family == "poisson" || family == "heat" ? kappa->value(x) : eps;
        if (matrix) {
          for (unsigned int i = 0; i < n; ++i) {
            const double vi = fv.shape_value(i, q);
            const Tensor<1, dim> gi = fv.shape_grad(i, q);
            const double streamline = convective ? tau * (beta * gi) : 0.0;
            for (unsigned int j = 0; j < n; ++j) {
              const double uj = fv.shape_value(j, q);
              const Tensor<1, dim> gj = fv.shape_grad(j, q);
              const double operator_j = (alpha - k2) * uj + beta * gj;
              double value = scale * uj * vi + s.theta * (kap * (gi * gj) + operator_j * vi);
              if (convective)
                value += streamline * (scale * uj + s.theta * (-kap * trace(fv.shape_hessian(j, q)) + operator_j));
              cell_matrix(i, j) += value * dx;
            }
          }
          continue;
        }
        forcing->set_time(t_new);
        double f = s.theta * forcing->value(x);
        if (s.theta < 1.0) {
          forcing->set_time(t_old);
          f += (1 - s.theta) * forcing->value(x);
        }
        double old_part = 0, old_strong = 0;  // the known terms of the residual at this point
        Tensor<1, dim> old_flux;
        if (transient) {
          const double reaction_n = beta * grad_n[q] + (alpha - k2) * u_n[q];
          old_part = (s.a1 * u_n[q] + s.a2 * u_nm1[q]) / s.dt + (1 - s.theta) * reaction_n;
          old_flux = (1 - s.theta) * kap * grad_n[q];
          if (convective)
            old_strong = (s.a1 * u_n[q] + s.a2 * u_nm1[q]) / s.dt +
                         (1 - s.theta) * (-kap * trace(hess_n[q]) + reaction_n);
        }
        for (unsigned int i = 0; i < n; ++i) {
          const double vi = fv.shape_value(i, q);
          const Tensor<1, dim> gi = fv.shape_grad(i, q);
          const double streamline = convective ? tau * (beta * gi) : 0.0;
          cell_rhs(i) += (f * vi - old_part * vi - old_flux * gi + streamline * (f - old_strong)) * dx;
        }
      }
      cell->get_dof_indices(indices);
      if (matrix)
        matrix->add(indices, cell_matrix);
      else
        rhs->add(indices, cell_rhs);
    }
  }

  // One step: the operator (copied, as the boundary values are eliminated from it), its right-hand side, the
  // Dirichlet values at t_new eliminated (MatrixTools::apply_boundary_values), then the linear solve.
  void solve_step(Vector<double> &u, const SparseMatrix<double> &op, const Step &s, double t_new, double t_old,
                  const Vector<double> &previous, const Vector<double> &older) {
    SparseMatrix<double> system(pattern);
    system.copy_from(op);
    Vector<double> rhs(dofs.n_dofs());
    assemble(s, t_new, t_old, previous, older, nullptr, &rhs);
    std::map<types::global_dof_index, double> values;
    boundary->set_time(t_new);
    VectorTools::interpolate_boundary_values(mapping, dofs, 0, *boundary, values);
    MatrixTools::apply_boundary_values(values, system, u, rhs, true);
    linear_solve(system, u, rhs);
  }

  void operator_matrix(const Step &s, SparseMatrix<double> &op) {
    op.reinit(pattern);
    Vector<double> none;
    assemble(s, 0.0, 0.0, none, none, &op, nullptr);
  }

  void linear_solve(const SparseMatrix<double> &matrix, Vector<double> &u, const Vector<double> &rhs) {
    SolverControl control(5000, 1e-13 * rhs.l2_norm());
    if (family == "helmholtz" || family == "convection_diffusion") {  // indefinite or nonsymmetric: direct
      SparseDirectUMFPACK direct;
      direct.initialize(matrix);
      direct.vmult(u, rhs);
      solver_used = "UMFPACK";
    } else {
      PreconditionSSOR<SparseMatrix<double>> ssor;
      ssor.initialize(matrix, 1.5);
      SolverCG<Vector<double>> cg(control);
      cg.solve(matrix, u, rhs, ssor);
      solver_used = "CG+SSOR";
    }
  }

  Vector<double> run(json &info) {
    Vector<double> u(dofs.n_dofs()), none(dofs.n_dofs());
    if (!spec["pde"].contains("time")) {
      const Step steady{0.0, 0.0, 0.0, 1.0, 1.0};
      SparseMatrix<double> op;
      operator_matrix(steady, op);
      solve_step(u, op, steady, 0.0, 0.0, none, none);
      info["time_scheme"] = "steady";
      return u;
    }
    const double t0 = spec["pde"]["time"].value("t0", 0.0), t1 = spec["pde"]["time"]["t_end"];
    const double target = family == "heat" ? 0.01 : 0.005;
    const int steps = std::max(4, static_cast<int>(std::ceil((t1 - t0) / target - 1e-9)));
    const double dt = (t1 - t0) / steps;
    auto initial = parse<dim>(spec["ic"]["u0"]);
    initial->set_time(t0);
    Vector<double> u_n(dofs.n_dofs()), u_nm1(dofs.n_dofs());
    VectorTools::interpolate(mapping, dofs, *initial, u_n);
    const Step start{1.0, -1.0, 0.0, 0.5, dt}, bdf2{1.5, -2.0, 0.5, 1.0, dt};  // Crank-Nicolson, then BDF2
    SparseMatrix<double> start_op, bdf2_op;
    operator_matrix(start, start_op);
    operator_matrix(bdf2, bdf2_op);
    for (int i = 0; i < steps; ++i) {
      u = u_n;  // the previous step as the iterative solver's first guess
      solve_step(u, i == 0 ? start_op : bdf2_op, i == 0 ? start : bdf2, t0 + (i + 1) * dt, t0 + i * dt, u_n, u_nm1);
      u_nm1 = u_n;
      u_n = u;
    }
    info["time_scheme"] = "BDF2 (first step Crank-Nicolson)";
    info["dt"] = dt;
    info["n_steps"] = steps;
    return u;
  }

  std::vector<double> sample(const Vector<double> &u, const json &grid, std::vector<unsigned int> &shape) {
    const auto box = grid["bbox"].get<std::vector<double>>();
    const char *names[3] = {"nx", "ny", "nz"};
    std::vector<std::vector<double>> axes(dim);
    for (int d = 0; d < dim; ++d) {
      const unsigned int count = grid[names[d]];
      shape.push_back(count);
      for (unsigned int i = 0; i < count; ++i)
        axes[d].push_back(count == 1 ? box[2 * d] : box[2 * d] + (box[2 * d + 1] - box[2 * d]) * i / (count - 1.0));
    }
    std::vector<double> values;
    const unsigned int nz = dim == 3 ? shape[2] : 1;
    for (unsigned int k = 0; k < nz; ++k)
      for (unsigned int j = 0; j < shape[1]; ++j)
        for (unsigned int i = 0; i < shape[0]; ++i) {
          Point<dim> p;
          p[0] = axes[0][i];
          p[1] = axes[1][j];
          if constexpr (dim == 3) p[2] = axes[2][k];
          double value = std::numeric_limits<double>::quiet_NaN();
          try {
            value = VectorTools::point_value(mapping, dofs, u, p);
          } catch (...) {
          }
          values.push_back(value);
        }
    return values;
  }
};

template <int dim>
int run(const json &spec, const std::string &outdir) {
  Problem<dim> problem(spec);
  json info;
  const Vector<double> u = problem.run(info);
  std::vector<unsigned int> shape;
  const json grid = spec.contains("eval_grid") ? spec["eval_grid"] : spec["output"]["grid"];
  const std::vector<double> values = problem.sample(u, grid, shape);
  std::ofstream(outdir + "/solution_grid.bin", std::ios::binary)
      .write(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));
  json meta;
  meta["nx"] = shape[0];
  meta["ny"] = shape[1];
  if (dim == 3) meta["nz"] = shape[2];
  info["element_degree"] = degree;
  info["mesh_cells"] = problem.tria.n_active_cells();
  info["n_dofs"] = problem.dofs.n_dofs();
  info["linear_solver"] = problem.solver_used;
  meta["solver_info"] = info;
  std::ofstream(outdir + "/meta.json") << meta.dump(2) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: solver case_spec.json OUTDIR\n";
    return 2;
  }
  std::ifstream file(argv[1]);
  const json spec = json::parse(file);
  const std::string type = spec["domain"]["type"];
  if (type == "unit_cube" || type == "box") return run<3>(spec, argv[2]);
  return run<2>(spec, argv[2]);
}
