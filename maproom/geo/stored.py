"""Documents (.txt, .md, .docx, .doc, .pdf): stored as uploaded, no layer, nothing to convert."""

from __future__ import annotations

from pathlib import Path

from maproom.geo.base import STORED, Conversion, Limits


def convert(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """Nothing to do: the file is kept as uploaded (api-decisions.md), so no output and no layer."""
    del source, workdir, limits
    return STORED
