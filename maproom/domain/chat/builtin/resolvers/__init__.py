"""What each kind of reading resolves to, one module per concern; importing this package
registers them all (`mind.resolves`)."""

from maproom.domain.chat.builtin.resolvers import (
    again,
    analysis,
    basemap,
    camera,
    data,
    history,
    layer_ops,
    places,
    styling,
    talk,
)

__all__ = [
    "again",
    "analysis",
    "basemap",
    "camera",
    "data",
    "history",
    "layer_ops",
    "places",
    "styling",
    "talk",
]
