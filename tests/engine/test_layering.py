"""The engine knows no game, and the daemon does not load the search (issue 22, point 4):
no module of hipparchusd/engine/ imports a game's folder or the registry (at its top or inside a
function), and a fresh interpreter that imports the whole daemon has loaded neither the search
nor any game's engine module; only a search, in a worker, loads them."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import hipparchusd

PACKAGE = Path(hipparchusd.__file__).parent


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it, as absolute names."""
    package = "hipparchusd." + ".".join(path.relative_to(PACKAGE).parent.parts)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            here = package.rstrip(".").split(".")
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_the_engine_imports_no_game() -> None:
    engine = sorted((PACKAGE / "engine").glob("*.py"))
    assert engine
    for path in engine:
        games = {name for name in _imported(path) if name.startswith("hipparchusd.games")}
        assert not games, (path.name, games)


def test_the_daemon_loads_no_search() -> None:
    code = (
        "import json, sys\n"
        "import hipparchusd.cli, hipparchusd.server, hipparchusd.server.run\n"
        "import hipparchusd.games.registry, hipparchusd.lobby\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = set(json.loads(result.stdout))
    assert "hipparchusd.server.engines" in loaded  # the daemon's side of the engine is there
    assert "hipparchusd.engine.types" in loaded
    search = {
        "hipparchusd.engine.ismcts",
        "hipparchusd.engine.analysis",
        "hipparchusd.engine.worker",
    }
    assert not loaded & search
    game_engines = [
        name
        for name in loaded
        if name.startswith("hipparchusd.games.") and name.rpartition(".")[2].startswith("engine")
    ]
    assert not game_engines
