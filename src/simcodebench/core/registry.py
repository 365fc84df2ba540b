"""Suite plugins found by name: the suites shipped here, installed packages' entry points, and folders a config
names.

Three sources:

- the suites shipped in this package: the ``plugin`` module of every package under :mod:`simcodebench.suites`
  (found by listing that folder, so nothing here names a particular suite, and no installed metadata can be stale);
- the entry point group :data:`GROUP` of every installed distribution (another package's ``pyproject.toml``:
  ``[project.entry-points."simcodebench.suites"] my-suite = "my_package.plugin:MySuite"``);
- the folders named by a config's ``plugins`` key (:func:`use_folders`).

In a plugin module or a folder's module (``*.py``) or package (a sub-folder with ``__init__.py``), each
:class:`SuitePlugin` subclass it defines is registered under its ``name``. A name given twice is an error, never a
silent override.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import sys
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from simcodebench.core.errors import InputError
from simcodebench.core.plugin import SuitePlugin

if TYPE_CHECKING:
    from simcodebench.core.cases import Case

GROUP = "simcodebench.suites"
"""The entry point group of suite plugins."""

_folders: list[Path] = []


def use_folders(folders: list[str | Path], source: str | Path = "config") -> None:
    """Also look for plugins in ``folders`` (a config's ``plugins``; ``source`` names it in errors)."""
    for folder in map(Path, folders):
        if not folder.is_dir():
            raise InputError(source, "plugins", f"'{folder}' is not a folder", "name folders of plugin modules")
        if folder.resolve() not in _folders:
            _folders.append(folder.resolve())
            plugins.cache_clear()


SHIPPED = "simcodebench.suites"
"""The package whose sub-packages are the suites shipped here."""


def _shipped_plugins() -> dict[str, type[SuitePlugin]]:
    found: dict[str, type[SuitePlugin]] = {}
    package = importlib.import_module(SHIPPED)
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg and importlib.util.find_spec(f"{SHIPPED}.{info.name}.plugin") is not None:
            found |= _defined(importlib.import_module(f"{SHIPPED}.{info.name}.plugin"), f"{SHIPPED}.{info.name}")
    return found


def _entry_point_plugins() -> dict[str, type[SuitePlugin]]:
    found: dict[str, type[SuitePlugin]] = {}
    for point in entry_points(group=GROUP):
        cls = point.load()
        _check(cls, f"entry point {point.value}")
        found[point.name] = cls
    return found


def _import_file(path: Path) -> ModuleType:
    """Import a plugin module or package from its path, under a name of its own (never a package's name)."""
    init = path / "__init__.py" if path.is_dir() else path
    name = f"simcodebench_plugin_{abs(hash(str(path))):x}_{path.stem}"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(path)] if path.is_dir() else None
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _defined(module: ModuleType, where: str | Path) -> dict[str, type[SuitePlugin]]:
    """The plugin classes ``module`` defines (not those it imports), by name."""
    found: dict[str, type[SuitePlugin]] = {}
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, SuitePlugin) and cls.__module__ == module.__name__ and not inspect.isabstract(cls):
            _check(cls, str(where))
            if cls.name in found:
                raise InputError(where, "name", f"plugin '{cls.name}' is defined twice", "rename one of them")
            found[cls.name] = cls
    return found


def _folder_plugins(folder: Path) -> dict[str, type[SuitePlugin]]:
    found: dict[str, type[SuitePlugin]] = {}
    for path in sorted(folder.iterdir()):
        is_module = path.suffix == ".py" and not path.name.startswith("_")
        if is_module or (path / "__init__.py").is_file():
            for name, cls in _defined(_import_file(path), path).items():
                if name in found:
                    raise InputError(path, "name", f"plugin '{name}' is defined twice", "rename one of them")
                found[name] = cls
    return found


def _check(cls: object, where: str) -> None:
    if not (isinstance(cls, type) and issubclass(cls, SuitePlugin)):
        raise InputError(
            where, "(plugin)", "is not a SuitePlugin subclass", "subclass simcodebench.core.plugin.SuitePlugin"
        )
    if not getattr(cls, "name", None):
        raise InputError(where, "name", "is not set", "give the plugin class a name = '...'")


@cache
def plugins() -> dict[str, SuitePlugin]:
    """Every plugin found, by name, one instance each."""
    found = _shipped_plugins()
    sources = [(f"entry point group {GROUP}", _entry_point_plugins)]
    sources += [(str(folder), lambda folder=folder: _folder_plugins(folder)) for folder in _folders]
    for where, load in sources:
        for name, cls in load().items():
            if found.get(name, cls) is not cls:
                raise InputError(where, "name", f"plugin '{name}' is already found elsewhere", "rename it")
            found[name] = cls
    return {name: cls() for name, cls in found.items()}


def plugin_of(case: Case) -> SuitePlugin:
    """The plugin of the case's suite (``suite.yaml``'s ``plugin``)."""
    return plugin(case.suite.data["plugin"])


def plugin(name: str) -> SuitePlugin:
    """The plugin registered under ``name``."""
    found = plugins()
    if name not in found:
        raise KeyError(
            f"no suite plugin named '{name}'; known: {sorted(found)} (install its package, or name its folder "
            "in the config's plugins)"
        )
    return found[name]
