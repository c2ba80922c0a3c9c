"""Scratch space: this process's folder for files on their way in or out (uploads being
received, conversions, tile indexes being built), apart from the blob store.

Each process works in `<root>/<pid>`; the root is `<data dir>/tmp` (set once at start by
`use`), on the same filesystem as the embedded blob store so finished files are renamed into
place rather than copied. `sweep` removes what processes that no longer run left behind (a
crash mid-upload) and is called at start.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

_root = Path(tempfile.gettempdir()) / "maproom"


def use(root: Path) -> None:
    """Where this process's scratch folders go (call once, at start)."""
    global _root
    _root = root.resolve()


def folder() -> Path:
    """This process's scratch folder (created when missing)."""
    mine = _root / str(os.getpid())
    mine.mkdir(parents=True, exist_ok=True)
    return mine


def sweep() -> int:
    """Remove what processes that no longer run left under the root; returns how many entries
    went. The folders of processes that run (this one, other workers) are kept."""
    if not _root.is_dir():
        return 0
    swept = 0
    for entry in _root.iterdir():
        if entry.name.isdigit() and process_alive(int(entry.name)):
            continue
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        swept += 1
    return swept


def process_alive(pid: int) -> bool:
    """Whether a process of this id runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True
