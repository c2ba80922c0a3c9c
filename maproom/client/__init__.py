"""The Python client of a maproom service: `Client` (synchronous) and `AsyncClient`.

    from maproom.client import Client

    with Client("http://127.0.0.1:8000", "mr_...") as mr:
        project = mr.create_project(title="Rivers")
        mr.upload(project.id, "rivers.geojson", progress=print)
        mr.dispatch(project.id, [{"type": "fly_to", "center": [2.35, 48.86], "zoom": 9}])
        for event in mr.events(project.id):
            print(event.type, event.data)

Answers are the service's own Pydantic models (`maproom.api.schemas`); actions may be given as
the service's typed action models (`maproom.client.actions`, the union `POST .../map/actions`
takes) or as dicts. docs/clients.md walks through it.
"""

from maproom.client.aio import AsyncClient
from maproom.client.core import ApiError, ServiceUnreachable
from maproom.client.events import ChatEvent, LiveEvent
from maproom.client.sync import Client
from maproom.domain.actions import models as actions

__all__ = [
    "ApiError",
    "AsyncClient",
    "ChatEvent",
    "Client",
    "LiveEvent",
    "ServiceUnreachable",
    "actions",
]
