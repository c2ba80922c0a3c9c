"""The client and the command line start light (docs/clients.md): `import maproom.client` loads
none of the server's modules, and the client commands do not load them either."""

from __future__ import annotations

import json
import subprocess
import sys

SERVER_MODULES = ("sqlalchemy", "numpy", "rasterio", "duckdb", "fastapi", "uvicorn", "shapely",
                  "maproom.storage", "maproom.geo", "maproom.runtime", "maproom.app")  # fmt: skip


def loaded_after(code: str) -> list[str]:
    """The server modules a fresh interpreter holds after running `code`."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)  # fmt: skip
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    return [m for m in modules if m.split(".")[0] in SERVER_MODULES or m in SERVER_MODULES
            or any(m.startswith(f"{s}.") for s in SERVER_MODULES)]  # fmt: skip


def test_importing_the_client_loads_no_server_module() -> None:
    assert loaded_after("import maproom.client; from maproom.client import actions") == []


def test_the_command_line_loads_no_server_module_for_help_and_client_commands() -> None:
    code = (
        "import sys\n"
        "from maproom import cli\n"
        "sys.argv = ['maproom', '--help']\n"
        "try:\n"
        "    cli.main()\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert loaded_after(code) == []
