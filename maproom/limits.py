"""Rules every input meets wherever it comes from (a JSON body, a query, a form field, an
uploaded file), defined once (docs/api-decisions.md, hostile input).

- Text holds no C0 control characters other than tab, newline and carriage return: NUL cannot
  be stored in PostgreSQL text, and the others are never meant.
- JSON is nested at most `MAX_JSON_DEPTH` levels: deeper documents cost a parser memory and
  recursion out of proportion to their size, and no map document needs them.
- Zoom levels are 0 to `MAX_ZOOM`; a mask is `MASK_COLOR` unless given one.

This module imports nothing of maproom's, so every layer (`geo` included) may use it.
"""

from __future__ import annotations

import re
from typing import Any

MAX_JSON_DEPTH = 64
MAX_ZOOM = 24
"""The deepest zoom level anything takes (the view, a layer's zooms, a tile, a label's)."""
MASK_COLOR = "#000000"
"""A mask's colour when none is given (the country and custom masks)."""
FEATURES_PAGE_MAX = 1000
"""The most features `GET .../features` answers at once."""
HISTORY_PAGE_MAX = 200
"""The most versions `GET .../history` answers at once."""

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_CONTROL_BYTES = re.compile(b"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# The same characters as orjson writes them inside JSON text: `\u00XX`, or the short `\b` and
# `\f` (`\t`, `\n`, `\r` are allowed), each not itself an escaped backslash.
_CONTROL_IN_JSON = re.compile(rb"(?<!\\)(?:\\\\)*\\(?:u00(?:0[0-8bcefBCEF]|1[0-9a-fA-F])|[bf])")


def control_character(text: str) -> str | None:
    """A message naming the first control character `text` holds, or None when it has none."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    return f"control character U+{ord(found.group()):04X} is not allowed"


def has_control_in_json(encoded: bytes) -> bool:
    """Whether some string of a JSON document (as orjson writes it) holds a control character."""
    if b"\\u00" not in encoded and b"\\b" not in encoded and b"\\f" not in encoded:
        return False  # the common case, without the regular expression
    return _CONTROL_IN_JSON.search(encoded) is not None


def json_text_problem(text: bytes, value: Any) -> tuple[str, str] | None:
    """`json_problem` of a document parsed from `text`, answered from the text itself when it
    plainly has none (no escaped control character, fewer brackets than the depth allowed):
    the common case costs two byte counts and a search, not a walk."""
    shallow = text.count(b"[") + text.count(b"{") <= MAX_JSON_DEPTH
    if shallow and not has_control_in_json(text) and not _CONTROL_BYTES.search(text):
        return None
    return json_problem(value)


def json_problem(value: Any) -> tuple[str, str] | None:
    """`(path, message)` of the first place where a parsed JSON document breaks the rules
    (too deep, or a string or key with a control character), or None. Paths read like
    `actions[2].layer_id`; the document itself is `body`."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            message = control_character(item)
            if message:
                return path or "body", message
        elif isinstance(item, dict | list):
            if depth >= MAX_JSON_DEPTH:
                return path or "body", f"nested deeper than {MAX_JSON_DEPTH} levels"
            if isinstance(item, list):
                children = [(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item)]
            else:
                children = []
                for key, child in item.items():
                    where = f"{path}.{key}" if path else str(key)
                    message = control_character(str(key))
                    if message:
                        return where, f"in the field name: {message}"
                    children.append((child, where, depth + 1))
            stack.extend(reversed(children))  # document order
    return None
