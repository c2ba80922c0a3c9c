"""Accounts, API keys and scopes: creation, authentication (cached), listing, revocation."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, update

from maproom.domain.common import iso, new_id, parse_uuid, utcnow
from maproom.domain.heard import HeardCache
from maproom.errors import BadRequest, Forbidden, NotFound
from maproom.storage.db import Database, Prepared, Writer
from maproom.storage.models import accounts, api_keys

ACTIVE_BY_PREFIX = Prepared(
    select(
        api_keys.c.id, api_keys.c.account_id, api_keys.c.scopes, api_keys.c.key_hash,
        accounts.c.email,
    )
    .join(accounts, accounts.c.id == api_keys.c.account_id)
    .where(api_keys.c.prefix == bindparam("prefix"), api_keys.c.revoked_at.is_(None))
)  # fmt: skip
ACCOUNT_KEYS = Prepared(
    select(api_keys)
    .where(api_keys.c.account_id == bindparam("account_id"), api_keys.c.revoked_at.is_(None))
    .order_by(api_keys.c.created_at, api_keys.c.id)
)
KEY = Prepared(select(api_keys).where(api_keys.c.id == bindparam("id")))
_WITH_EMAIL = (
    select(api_keys, accounts.c.email)
    .join(accounts, accounts.c.id == api_keys.c.account_id)
    .where(api_keys.c.revoked_at.is_(None))
    .order_by(api_keys.c.created_at, api_keys.c.id)
)
ALL_KEYS = Prepared(_WITH_EMAIL)
ALL_KEYS_OF = Prepared(_WITH_EMAIL.where(accounts.c.email == bindparam("email")))
ACCOUNT = Prepared(select(accounts).where(accounts.c.id == bindparam("id")))
SCOPES = ("session", "chat", "files", "layers", "map", "reports", "remote", "keys")
ALL = "*"
KEY_PREFIX = "mr_"
PREFIX_LENGTH = 11


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the account and key behind a request, with the key's scopes."""

    account_id: str
    key_id: str
    scopes: tuple[str, ...]
    email: str = ""  # the account's, lower case: what shares name (maproom.domain.shares)

    @property
    def has_all(self) -> bool:
        """`*` or an empty list grants every scope (docs/api-decisions.md)."""
        return not self.scopes or ALL in self.scopes

    def allows(self, *any_of: str) -> bool:
        """True when the key holds at least one of the scopes (or all of them)."""
        return self.has_all or any(scope in self.scopes for scope in any_of)

    def require(self, *any_of: str) -> None:
        """Raise Forbidden unless one of the scopes is held."""
        if not self.allows(*any_of):
            raise Forbidden(
                f"This operation needs scope {' or '.join(any_of)}",
                details={"requiredScopes": list(any_of)},
            )


def generate_key() -> str:
    """A new plaintext key: `mr_` and 43 URL-safe random characters (256 bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(plaintext: str) -> str:
    """The stored form of a key. Keys carry 256 random bits, so a fast hash is the right one."""
    return hashlib.sha256(plaintext.encode()).hexdigest()


def looks_like_key(token: str) -> bool:
    """Cheap shape check before any lookup."""
    return token.startswith(KEY_PREFIX) and 40 + len(KEY_PREFIX) <= len(token) <= 200


def normalise_scopes(scopes: list[str] | None) -> tuple[str, ...]:
    """Validate scope names; keep their order, drop repeats."""
    if scopes is None:
        return (ALL,)
    unknown = [s for s in scopes if s not in SCOPES and s != ALL]
    if unknown:
        raise BadRequest(
            f"Unknown scope: {', '.join(unknown)}",
            details=[
                {"path": f"scopes[{scopes.index(s)}]", "message": f"unknown scope {s!r}"}
                for s in unknown
            ],
        )
    return tuple(dict.fromkeys(scopes))


def key_record(row: Any, last_used: Any = None) -> dict[str, Any]:
    """The public record of a key: never the plaintext, never the hash."""
    return {
        "id": row.id,
        "name": row.name,
        "prefix": row.prefix,
        "scopes": list(row.scopes),
        "createdAt": iso(row.created_at),
        "lastUsedAt": iso(last_used or row.last_used_at),
    }


def ensure_account(conn: Writer, *, email: str, name: str | None = None) -> str:
    """The id of the account with this email, created if missing."""
    email = email.strip().lower()
    if "@" not in email or len(email) > 320:
        raise BadRequest("account must be an email address")
    found = conn.execute(select(accounts.c.id).where(accounts.c.email == email)).scalar()
    if found:
        return str(found)
    account_id = new_id()
    conn.execute(
        accounts.insert().values(
            id=account_id,
            email=email,
            name=name or email.split("@", 1)[0],
            plan="self-hosted",
            created_at=utcnow(),
        )
    )
    return account_id


def insert_key(
    conn: Writer, *, account_id: str, name: str, scopes: tuple[str, ...]
) -> tuple[str, Any]:
    """Store a new key; returns the plaintext (shown once) and the stored row."""
    plaintext = generate_key()
    values = {
        "id": new_id(),
        "account_id": account_id,
        "name": name,
        "prefix": plaintext[:PREFIX_LENGTH],
        "key_hash": hash_key(plaintext),
        "scopes": list(scopes),
        "created_at": utcnow(),
        "last_used_at": None,
        "revoked_at": None,
    }
    conn.execute(api_keys.insert().values(**values))
    return plaintext, conn.one(KEY, id=values["id"])


def bootstrap_key(
    db: Database, *, email: str, name: str = "default", scopes: list[str] | None = None
) -> str:
    """Create the account if needed and a key for it; returns the plaintext (CLI, tests)."""
    wanted = normalise_scopes(scopes)
    with db.write() as conn:
        account_id = ensure_account(conn, email=email)
        plaintext, _ = insert_key(conn, account_id=account_id, name=name, scopes=wanted)
    return plaintext


def create(
    db: Database, *, principal: Principal, name: str, scopes: list[str] | None
) -> dict[str, Any]:
    """Create a key for the caller's account; it may not hold more than the caller's key."""
    wanted = normalise_scopes(scopes) if scopes is not None else principal.scopes or (ALL,)
    if not principal.has_all:
        wants_all = not wanted or ALL in wanted
        missing = list(SCOPES) if wants_all else [s for s in wanted if s not in principal.scopes]
        if missing:
            raise Forbidden(
                "A key cannot grant scopes its creator does not hold",
                details={"requiredScopes": [s for s in missing if s not in principal.scopes]},
            )
    with db.write() as conn:
        plaintext, row = insert_key(conn, account_id=principal.account_id, name=name, scopes=wanted)
    return {**key_record(row), "key": plaintext}


def list_for_account(
    db: Database, *, principal: Principal, last_used: dict[str, Any]
) -> list[dict[str, Any]]:
    """Active keys of the caller's account, oldest first."""
    with db.reader() as tx:
        rows = tx.all(ACCOUNT_KEYS, account_id=principal.account_id)
    return [key_record(row, last_used.get(row.id)) for row in rows]


def revoke(db: Database, *, principal: Principal, key_id: str) -> str:
    """Revoke one of the caller's keys (possibly the one in use); returns its canonical id."""
    return _revoke(db, key_id, principal.account_id)


def revoke_any(db: Database, key_id: str) -> str:
    """Revoke a key of any account: the operator's `maproom keys revoke`."""
    return _revoke(db, key_id, None)


def _revoke(db: Database, key_id: str, account_id: str | None) -> str:
    canonical = parse_uuid(key_id)
    if canonical is None:
        raise NotFound("API key not found")
    owned = [api_keys.c.account_id == account_id] if account_id is not None else []
    with db.write() as conn:
        done = conn.execute(
            update(api_keys)
            .where(api_keys.c.id == canonical, api_keys.c.revoked_at.is_(None), *owned)
            .values(revoked_at=utcnow())
        ).rowcount
        if done:
            conn.notify(f"key-gone:{canonical}")  # every worker's key cache drops it
    if not done:
        raise NotFound("API key not found")
    return canonical


def all_keys(db: Database, *, email: str | None = None) -> list[dict[str, Any]]:
    """Every active key (of one account, given its email) with its account's email, oldest
    first: the operator's `maproom keys list`."""
    with db.reader() as tx:
        if email is None:
            rows = tx.all(ALL_KEYS)
        else:
            rows = tx.all(ALL_KEYS_OF, email=email.strip().lower())
    return [{**key_record(row, row.last_used_at), "account": row.email} for row in rows]


def verify(db: Database, *, principal: Principal, last_used: Any) -> dict[str, Any]:
    """The `/verify` answer: the account and the key record."""
    with db.reader() as tx:
        account = tx.one(ACCOUNT, id=principal.account_id)
        key = tx.one(KEY, id=principal.key_id)
    return {
        "valid": True,
        "account": {"id": account.id, "email": account.email, "name": account.name},
        "key": key_record(key, last_used),
    }


class Authenticator:
    """Turns a bearer token into a Principal.

    Lookups hit the database by key prefix and compare hashes in constant time. Results are
    cached per process for `ttl` seconds when `cache` is on (`maproom.domain.heard`: one worker
    process, or several while the shared bus is subscribed). A revocation's commit names
    `key-gone:{id}`, and `heard` drops the key at once.
    """

    def __init__(self, db: Database, *, cache: bool, ttl: float = 60.0) -> None:
        self.db = db
        self.cache: HeardCache[Principal] = HeardCache(enabled=cache, bound=10_000, ttl=ttl)

    def cached(self, digest: str) -> Principal | None:
        """The cached principal for a key hash, if fresh."""
        return self.cache.get(digest)

    def lookup(self, token: str, digest: str) -> Principal | None:
        """The principal of an active key, from the database (blocking)."""
        generation = self.cache.generation
        with self.db.reader() as tx:
            rows = tx.all(ACTIVE_BY_PREFIX, prefix=token[:PREFIX_LENGTH])
        found = None
        for row in rows:
            if hmac.compare_digest(row.key_hash, digest):
                found = Principal(row.account_id, row.id, tuple(row.scopes), row.email.lower())
        if found is not None:
            self.cache.put(digest, found, generation)
        return found

    def heard(self, topics: frozenset[str]) -> None:
        """Commit listener: drop the keys revoked (`key-gone:{id}`) by any worker."""
        for topic in topics:
            if topic.startswith("key-gone:"):
                self.forget(topic[9:])

    def forget(self, key_id: str) -> None:
        """Drop a key from the cache (after it is revoked)."""
        self.cache.drop(where=lambda principal: principal.key_id == key_id)
