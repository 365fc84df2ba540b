"""The fea suite's runner, copied next to the solution as ``fea_runner.py`` and run in the ``fea`` environment.

It runs ``solution.py`` the way FEABench measures executability: each top-level statement is compiled and
executed on its own, in order, in one namespace, and the run continues after a statement fails. It then looks
up, in the same environment, every library name the script uses (``skfem.MeshTri``, ``dolfinx.fem.petsc``...)
found by static analysis. Both go to ``fea_report.json``; every failure is printed on stderr with its line. The
exit status is 1 when the script does not parse or any statement failed (the run gate's F-Exec), else 0; a
statement that exits with status 0 ends the script as written (the statements after it count as not run).

Standard library only: the harness imports the same functions for its static checks.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import json
import sys
import traceback
from pathlib import Path

SOLUTION = "solution.py"
REPORT = "fea_report.json"
LIBRARIES = frozenset({"skfem", "dolfinx", "ufl", "basix", "gmsh", "scipy", "petsc4py", "mpi4py", "ngsolve"})
"""Packages whose names count for API factuality (numpy and sympy are general-purpose and left out)."""


def import_aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> the dotted library name it stands for, from the script's imports."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    aliases[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name != "*":
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _dotted(node: ast.Attribute) -> list[str] | None:
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    parts.append(current.id)
    return parts[::-1]


def library_names(source: str) -> list[str]:
    """Every dotted name of a :data:`LIBRARIES` package the script imports or reaches through an imported
    name (longest attribute chains only), sorted; raise SyntaxError when the script does not parse."""
    tree = ast.parse(source)
    aliases = import_aliases(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update(f"{node.module}.{a.name}" if a.name != "*" else node.module for a in node.names)
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            parts = _dotted(node)
            if parts and parts[0] in aliases:
                names.add(".".join([aliases[parts[0]], *parts[1:]]))
    return sorted(n for n in names if n.split(".")[0] in LIBRARIES)


def resolves(name: str) -> bool:
    """Whether the dotted ``name`` exists in this environment: the longest importable module prefix, then
    attribute look-ups for the rest."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except Exception:
            continue
        for attr in parts[cut:]:
            try:
                obj = getattr(obj, attr)
            except Exception:
                return False
        return True
    return False


def api_report(names: list[str]) -> dict[str, list[str]]:
    """The names split into those that exist here and those that do not (MPI is loaded first: the DOLFINx
    wheel finds its MPI library only once mpi4py has loaded it)."""
    with contextlib.suppress(Exception):
        importlib.import_module("mpi4py.MPI")
    known = [n for n in names if resolves(n)]
    return {"names": names, "unknown": [n for n in names if n not in known]}


def run_statements(source: str, filename: str) -> dict[str, object]:
    """Execute the script statement by statement, continuing after errors; the executability record."""
    tree = ast.parse(source, filename)
    namespace: dict[str, object] = {"__name__": "__main__", "__file__": filename, "__builtins__": builtins}
    ok, errors = 0, []
    for statement in tree.body:
        code = compile(ast.Module(body=[statement], type_ignores=[]), filename, "exec")
        try:
            exec(code, namespace)
        except SystemExit as exc:
            if exc.code in (0, None):
                ok += 1
                break
            errors.append({"line": statement.lineno, "error": f"SystemExit({exc.code!r})"})
        except Exception as exc:
            errors.append({"line": statement.lineno, "error": f"{type(exc).__name__}: {exc}"[:500]})
            print(f"[fea_runner] statement at line {statement.lineno} failed:", file=sys.stderr)
            traceback.print_exc()
        else:
            ok += 1
        sys.stdout.flush()
        sys.stderr.flush()
    return {"parsed": True, "statements": len(tree.body), "ok": ok, "errors": errors}


def main() -> int:
    """Run ``solution.py`` here, write ``fea_report.json``; 1 when anything failed."""
    path, report_path = Path(SOLUTION).resolve(), Path(REPORT).resolve()
    source = path.read_text(encoding="utf-8")
    sys.argv = [str(path), *sys.argv[1:]]
    sys.path.insert(0, str(path.parent))
    try:
        names = library_names(source)
    except SyntaxError as exc:
        report = {"parsed": False, "statements": 0, "ok": 0, "errors": [{"line": exc.lineno, "error": str(exc)}]}
        report_path.write_text(json.dumps(report))
        print(f"[fea_runner] {SOLUTION} does not parse: {exc}", file=sys.stderr)
        return 1
    report = run_statements(source, str(path))
    report["api"] = api_report(names)
    report_path.write_text(json.dumps(report))
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
