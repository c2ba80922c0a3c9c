"""Projects shared between accounts (docs/sharing.md).

The owner shares a project with an email, as `viewer` or `editor`. The share applies to the
account with that email whether it exists yet or not (one made later gets it when it appears),
and the answer is the same either way, so sharing never tells which accounts exist. Sharing
again with the same email changes the role. The owner lists and revokes shares; the person a
share names may revoke it too (leaving), and sees only that share. Access itself is decided
in one place, `gate.get_or_raise`, from these rows, on every request: a revoked share is
refused at once, on every worker.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from sqlalchemy import and_, bindparam, delete, select, update

from maproom.domain.common import iso, new_id, require_uuid, utcnow
from maproom.domain.gate import OWN, get_or_raise
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, NotFound
from maproom.storage.db import Database, Prepared
from maproom.storage.models import accounts, shares

ROLES = ("viewer", "editor")
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}$")
SHARES = Prepared(
    select(shares)
    .where(shares.c.project_id == bindparam("project_id"))
    .order_by(shares.c.created_at, shares.c.id)
)
OWNER = Prepared(select(accounts).where(accounts.c.id == bindparam("id")))


def record(row: Any) -> dict[str, Any]:
    """A share as the API shows it."""
    return {"id": row.id, "email": row.email, "role": row.role, "createdAt": iso(row.created_at)}


def normalise_email(email: str) -> str:
    """An email as shares keep and compare it: trimmed, lower case; BadRequest if it is none."""
    value = email.strip().lower()
    if not _EMAIL.match(value) or len(value) > 320:
        raise BadRequest(
            "Not an email address",
            details=[{"path": "email", "message": "expected an email address"}],
        )
    return value


def create(
    db: Database, *, principal: Principal, project_id: str, email: str, role: str
) -> dict[str, Any]:
    """Share the caller's project with `email` as `role` (again: the role changes)."""
    email = normalise_email(email)
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, need=OWN)
        if email == principal.email:
            raise BadRequest(
                "This project is yours already",
                details=[{"path": "email", "message": "the owner's own email"}],
            )
        found = tx.execute(
            select(shares).where(shares.c.project_id == project.id, shares.c.email == email)
        ).first()
        if found is not None:
            tx.execute(update(shares).where(shares.c.id == found.id).values(role=role))
            return record(SimpleNamespace(**{**found._mapping, "role": role}))
        row = {"id": new_id(), "project_id": project.id, "email": email, "role": role,
               "created_at": utcnow()}  # fmt: skip
        tx.execute(shares.insert().values(**row))
        return record(SimpleNamespace(**row))


def list_for_project(
    db: Database, *, principal: Principal, project_id: str
) -> list[dict[str, Any]]:
    """The project's shares (the owner), or the caller's own (someone it is shared with)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        rows = tx.all(SHARES, project_id=project.id)
    mine = project.account_id == principal.account_id
    return [record(row) for row in rows if mine or row.email == principal.email]


def revoke(db: Database, *, principal: Principal, project_id: str, share_id: str) -> None:
    """Remove a share: the owner, or the person it names (leaving the project)."""
    share_id = require_uuid(share_id, "Share")
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        owner = project.account_id == principal.account_id
        whose = and_(shares.c.id == share_id, shares.c.project_id == project.id)
        if not owner:
            whose = and_(whose, shares.c.email == principal.email)
        if not tx.execute(delete(shares).where(whose)).rowcount:
            raise NotFound("Share not found")
        tx.notify(f"project:{project.id}")


def owner_of(tx: Any, project: Any, principal: Principal) -> dict[str, Any] | None:
    """`sharedByUser` for the caller: the owner (`id`, `name`, `email`) of a project shared
    with them, None on their own."""
    if project.account_id == principal.account_id:
        return None
    owner = tx.one(OWNER, id=project.account_id)
    return {"id": owner.id, "name": owner.name, "email": owner.email}
