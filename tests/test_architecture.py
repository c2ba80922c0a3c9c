"""The layering of docs/architecture.md, read from the code: every `import` of every module
(those inside functions too) is checked against what its package may import. A new import
that points the wrong way fails here, naming the module and what it imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "maproom"
BASE = {"maproom", "errors", "limits", "logs", "retry"}  # maproom's own base, usable by all
SERVER = {"settings", "runtime", "app", "cli", "api", "web", "mcp", "client", "adapters"}
MAY_NOT_IMPORT = {
    "geo": SERVER | {"domain", "storage", "events"},
    "storage": SERVER | {"domain", "geo", "events"},
    "events": SERVER | {"domain", "storage", "geo"},
    "domain": SERVER | {"events"},
    "adapters": SERVER - {"adapters"},
    "api": {"adapters", "app", "cli", "client", "mcp", "storage.db", "storage.models"},
    "runtime": {"api", "app", "cli", "client", "mcp", "web"},
    "client": {
        "adapters",
        "app",
        "cli",
        "runtime",
        "settings",
        "storage",
        "geo",
        "events",
        "web",
        "api.routes",
        "api.deps",
        "api.middleware",
    },
    "mcp": {"adapters", "app", "cli", "runtime", "storage", "geo", "events", "web"},
}
# Exceptions, each with its reason:
ALLOWED = {
    # A data migration runs the rule of its day (it cleaned stored attributions as the domain
    # does); migrations never change once released.
    ("maproom.storage.migrations.versions.0009_attribution_text", "domain"),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str) -> set[str]:
    """Every maproom module the file of module `name` imports, relative imports resolved."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {m for m in found if m == "maproom" or m.startswith("maproom.")}


def within(module: str, target: str) -> bool:
    """Whether `module` (dotted, under maproom) lies in the package or module `target`."""
    short = module.removeprefix("maproom.")
    return short == target or short.startswith(f"{target}.")


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "maproom"


FILES = sorted(ROOT.rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: module_name(p))
def test_imports_follow_the_layers(path: Path) -> None:
    name = module_name(path)
    forbidden = MAY_NOT_IMPORT.get(package_of(name), set())
    wrong = sorted(
        target
        for target in imported(path, name)
        for rule in forbidden
        if within(target, rule)
        and not within(name, rule)
        and (name, package_of(target)) not in ALLOWED
    )
    assert wrong == [], f"{name} imports {wrong}, against docs/architecture.md"


def test_the_rules_catch_an_import_that_points_up(tmp_path: Path) -> None:
    """The check itself: a storage module importing the domain is caught."""
    wrong = tmp_path / "bad.py"
    wrong.write_text("def f():\n    from maproom.domain import layers\n")
    found = imported(wrong, "maproom.storage.bad")
    assert found == {"maproom.domain", "maproom.domain.layers"}
    assert any(within(m, "domain") for m in found)
    assert "domain" in MAY_NOT_IMPORT["storage"]
