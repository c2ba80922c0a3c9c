"""(filled in below)"""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.lang.en import shown as _shown

PHRASES: dict[str, str] = {}
REWRITES: list[tuple[re.Pattern[str], str]] = []
REPLIES: dict[str, Any] = {}
YES: frozenset[str] = frozenset()


def shown(value: Any) -> Any:
    """A value as a reply shows it."""
    return _shown(value)
