"""Chat requests and answers (docs/chat.md)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

MAX_MESSAGE = 4000
Text = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_MESSAGE)]


class ChatRequest(BaseModel):
    """Body of `POST .../chat`."""

    model_config = ConfigDict(extra="ignore")
    message: Text = Field(examples=["fly to Lisbon and switch to dark mode"])


class AskResponse(BaseModel):
    """Body of `POST .../ask/respond`."""

    model_config = ConfigDict(extra="ignore")
    questionId: Annotated[str, Field(strict=True, min_length=1, max_length=64)]
    answer: Text = Field(description="One of the question's options (any case), or free text")


class ChatQuestion(BaseModel):
    """What the agent asks before it goes on."""

    id: str
    text: str
    options: list[str]


class ChatAnswer(BaseModel):
    """A chat turn's answer (and the `done` event of a streamed turn)."""

    messageId: str = Field(description="The assistant's message, stored on the project")
    reply: str
    actions: list[dict[str, Any]] = Field(description="The map actions applied, in order")
    question: ChatQuestion | None = Field(
        description="When set, the turn waits for `POST .../ask/respond`"
    )
