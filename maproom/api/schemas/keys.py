"""API keys, verify and usage (docs/api-decisions.md)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from maproom.domain.common import Omittable


class KeyCreate(BaseModel):
    """Body of `POST /api-keys`; `scopes` defaults to the creating key's own."""

    model_config = ConfigDict(extra="ignore")
    name: Annotated[str, Field(min_length=1, max_length=200, strict=True)]
    scopes: Omittable[list[str]] = None


class KeyRead(BaseModel):
    """A key record: never the plaintext, never the hash."""

    id: str
    name: str
    prefix: str
    scopes: list[str]
    createdAt: str
    lastUsedAt: str | None


class KeyCreated(KeyRead):
    """A new key, with its plaintext shown this once."""

    key: str


class KeyList(BaseModel):
    """The account's active keys."""

    data: list[KeyRead]
    meta: dict[str, int]


class Account(BaseModel):
    """The account behind a key."""

    id: str
    email: str
    name: str


class Verification(BaseModel):
    """Answer of `GET /verify`."""

    valid: bool
    account: Account
    key: KeyRead


class Period(BaseModel):
    """A billing period."""

    start: str
    end: str


class Usage(BaseModel):
    """Answer of `GET /usage`."""

    plan: str
    period: Period
    requests: dict[str, int | None]
    projects: dict[str, int]
    storage: dict[str, int | None]
    rateLimit: dict[str, int]
