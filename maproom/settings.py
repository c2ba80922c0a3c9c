"""Settings read once from the environment (and an optional `.env`), validated, then passed down."""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

MB = 1_048_576


class Settings(BaseSettings):
    """Every knob of the service; names as the README's settings table lists them."""

    # `validate_by_name`: code (tests, embedders) sets fields by name even where the environment
    # variable is an alias (`UPLOAD_MAX_SIZE_MB`); without it such a keyword is silently ignored.
    model_config = SettingsConfigDict(
        env_prefix="MAPROOM_", env_file=".env", extra="ignore", frozen=True, validate_by_name=True
    )

    data_dir: Path = Path(".maproom")
    database_url: str | None = None
    storage_url: str | None = None
    redis_url: str | None = None
    public_url: str | None = None
    # PostgreSQL connections each worker keeps open in its pool (and up to three times as many
    # more under load), and its changes at once; the event loop's thread keeps one more for
    # its reads. Four: one worker is one core of Python, and more change threads only fight
    # over the GIL (docs/scaling.md).
    database_pool_size: int = Field(default=4, ge=1, le=1000)
    rate_limit_per_minute: int = Field(default=300, ge=1)
    upload_max_size_mb: int = Field(
        default=50,
        ge=1,
        validation_alias=AliasChoices("UPLOAD_MAX_SIZE_MB", "MAPROOM_UPLOAD_MAX_SIZE_MB"),
    )
    # The largest JSON request body (uploads and reports have their own limits).
    max_body_mb: int = Field(default=16, ge=1)
    # Requests per minute to the keyless pages and their data, per link and client address.
    public_rate_limit_per_minute: int = Field(default=1200, ge=1)
    # Below this much free space in the data dir, /readyz answers 503.
    min_free_mb: int = Field(default=100, ge=0)
    # Hosts, addresses or CIDR networks the server may fetch from although they are not public
    # (comma-separated), e.g. a COG server on the same private network.
    fetch_allowlist: str = ""
    # Seconds the server waits on a remote source (a remote COG) per request.
    fetch_timeout_s: float = Field(default=10.0, gt=0, le=300)
    # An OpenAI-compatible chat-completions endpoint for the chat agent; unset: the built-in one.
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_timeout_s: float = Field(default=60.0, gt=0, le=3600)
    llm_max_steps: int = Field(default=8, ge=1, le=100)
    # With s3:// storage: how much of the local copies (kept for readers that need a file, such
    # as COG tiles) each process keeps.
    blob_cache_mb: int = Field(default=1024, ge=16)
    # Project bodies each process keeps as JSON for reads (kept right by the commits it hears).
    body_cache_mb: int = Field(default=64, ge=0)
    # Stored blobs that no row refers to (a process killed mid-upload) are removed at start
    # once they are this old; younger ones may belong to an upload another worker is finishing.
    orphan_grace_s: float = Field(default=3600.0, ge=0)
    # History kept per project (docs/history.md): the newest this many versions, none older
    # than this many days; a removed layer's data is kept while a kept version refers to it.
    history_versions: int = Field(default=1000, ge=1, le=1_000_000)
    history_days: float = Field(default=30.0, gt=0)
    # The analysis engine (docs/analysis.md): its memory (beyond it, it spills to the scratch
    # folder), and how long one question or derived layer may take (then 504, nothing added).
    analysis_memory_mb: int = Field(default=512, ge=64)
    analysis_timeout_s: float = Field(default=120.0, gt=0, le=3600)
    # Set by `maproom serve --workers N` for its children (which needs MAPROOM_REDIS_URL): the
    # key and project caches then live only while the Redis bus can invalidate them.
    workers: int = Field(default=1, ge=1)

    @field_validator("public_url")
    @classmethod
    def _strip_slash(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("MAPROOM_PUBLIC_URL must be an http(s) origin")
        return value.rstrip("/")

    @field_validator("llm_base_url")
    @classmethod
    def _llm_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError(
                "MAPROOM_LLM_BASE_URL must be an http(s) URL, such as http://127.0.0.1:11434/v1"
            )
        return value.rstrip("/")

    @model_validator(mode="after")
    def _check_urls(self) -> Settings:
        url = self.resolved_database_url
        if not url.startswith(("sqlite", "postgresql")):
            raise ValueError("MAPROOM_DATABASE_URL must be a sqlite:// or postgresql:// URL")
        if not self.resolved_storage_url.startswith(("file://", "s3://")):
            raise ValueError("MAPROOM_STORAGE_URL must be a file:// or s3:// URL")
        return self

    @property
    def resolved_database_url(self) -> str:
        """The SQLAlchemy URL, with the embedded SQLite default and psycopg 3 as PG driver."""
        url = self.database_url or f"sqlite:///{(self.data_dir / 'maproom.db').resolve()}"
        for plain in ("postgresql://", "postgres://"):
            if url.startswith(plain):
                return "postgresql+psycopg://" + url[len(plain) :]
        return url

    @property
    def resolved_storage_url(self) -> str:
        """Where blobs live: `file://<data dir>/files` unless set."""
        return self.storage_url or f"file://{(self.data_dir / 'files').resolve()}"

    @property
    def upload_max_bytes(self) -> int:
        """The upload ceiling in bytes (MB = 1,048,576 bytes)."""
        return self.upload_max_size_mb * MB

    @property
    def max_body_bytes(self) -> int:
        """The JSON body ceiling in bytes."""
        return self.max_body_mb * MB

    @property
    def fetch_allowed(self) -> tuple[str, ...]:
        """`MAPROOM_FETCH_ALLOWLIST` as a tuple of entries."""
        return tuple(entry.strip() for entry in self.fetch_allowlist.split(",") if entry.strip())

    @property
    def chat_turn_seconds(self) -> float:
        """How long a chat turn may hold its project before another may take over."""
        return self.llm_timeout_s * (self.llm_max_steps + 1) + 30

    @property
    def is_sqlite(self) -> bool:
        """True when the database is the embedded SQLite file."""
        return self.resolved_database_url.startswith("sqlite")
