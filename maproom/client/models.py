"""The models the client answers with: the service's own response models
(`maproom.api.schemas`), gathered in one place for users of the client."""

from maproom.api.schemas.actions import ActionsDispatched, CreatedLayer
from maproom.api.schemas.chat import ChatAnswer, ChatQuestion
from maproom.api.schemas.data import (
    FieldSummary,
    FileRecord,
    LayerDetail,
    LayerItem,
    LegendItem,
    ReportSaved,
    UploadResult,
)
from maproom.api.schemas.history import Actor, Restored, Share, Version, VersionView
from maproom.api.schemas.keys import Account, KeyRead, Usage, Verification
from maproom.api.schemas.projects import (
    MapState,
    MapView,
    Message,
    ProjectListItem,
    ProjectPatched,
    ProjectRead,
)
from maproom.api.schemas.views import ViewLink
from maproom.client.events import ChatEvent, LiveEvent

__all__ = [
    "Account", "ActionsDispatched", "Actor", "ChatAnswer", "ChatEvent", "ChatQuestion",
    "CreatedLayer", "FieldSummary", "FileRecord", "KeyRead", "LayerDetail", "LayerItem",
    "LegendItem", "LiveEvent", "MapState", "MapView", "Message", "ProjectListItem",
    "ProjectPatched", "ProjectRead", "ReportSaved", "Restored", "Share", "UploadResult", "Usage",
    "Verification", "Version", "VersionView", "ViewLink",
]  # fmt: skip
