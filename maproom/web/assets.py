"""Where the pages' third-party files come from: MapLibre GL JS from its PyPI package.

`maplibre` (py-maplibregl, MIT) ships MapLibre GL JS 5 (`maplibre-gl.js`, `maplibre-gl.css`,
BSD-3) inside its wheel under `maplibre/srcjs/`. We locate that folder without importing the
package (its import pulls in Jinja and widget code we do not need) and serve it as is, so
`pip install maproom` gives a working page with no npm step and no third-party JS committed.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

VENDOR_FILES = ("maplibre-gl.js", "maplibre-gl.css")


@functools.cache
def vendor_dir() -> Path:
    """The folder holding `maplibre-gl.js` and `maplibre-gl.css`."""
    spec = importlib.util.find_spec("maplibre")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the 'maplibre' package (MapLibre GL JS) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "srcjs"
    missing = [name for name in VENDOR_FILES if not (folder / name).is_file()]
    if missing:
        raise RuntimeError(f"the 'maplibre' package lacks {', '.join(missing)} in {folder}")
    return folder
