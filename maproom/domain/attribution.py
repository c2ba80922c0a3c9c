"""A layer's attribution: text with at most http(s) links (docs/api-decisions.md, layers).

Tile providers write attributions as HTML (`&copy; <a href="...">OpenStreetMap</a>`), and the
pages show them in the map's corner, so a client could otherwise put markup there that covers
the page, restyles it or changes its base URL. What is kept: the text, with character
references decoded and `&`, `<`, `>` escaped again, and links `<a href="http(s)://...">text</a>`
with no other attribute. Every other tag is dropped (its text kept; a script's or a style's
dropped with it). The result reads as text and is safe to insert as HTML.
"""

from __future__ import annotations

import html
from html.parser import HTMLParser
from urllib.parse import urlsplit

_DROPPED_WITH_TEXT = frozenset({"script", "style", "template", "noscript", "title"})


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.link_open = False
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_WITH_TEXT:
            self.hidden += 1
        elif tag == "a" and not self.link_open:
            href = dict(attrs).get("href") or ""
            if _is_web_link(href):
                self.out.append(f'<a href="{html.escape(href.strip(), quote=True)}">')
                self.link_open = True

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_WITH_TEXT:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "a" and self.link_open:
            self.out.append("</a>")
            self.link_open = False

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(html.escape(data, quote=False))


def _is_web_link(href: str) -> bool:
    try:
        parts = urlsplit(href.strip())
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def clean(text: str) -> str:
    """An attribution as kept and shown (see the module docstring)."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    if reader.link_open:
        reader.out.append("</a>")
    return " ".join("".join(reader.out).split())
