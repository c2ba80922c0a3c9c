"""How long to wait before retrying a remote call: one rule for the chat agent's model calls
and for the Python client's requests."""

from __future__ import annotations

from collections.abc import Mapping

MAX_RETRY_AFTER_S = 30.0
MAX_BACKOFF_S = 8.0


def backoff_seconds(headers: Mapping[str, str] | None, attempt: int) -> float:
    """`Retry-After` (seconds, at most 30) when the answer gave it, else 0.5 s doubling with
    each attempt (1, 2, ...), at most 8."""
    retry_after = (headers or {}).get("retry-after", "")
    try:
        return max(0.0, min(float(retry_after), MAX_RETRY_AFTER_S))
    except ValueError:
        return float(min(0.5 * 2 ** (attempt - 1), MAX_BACKOFF_S))
