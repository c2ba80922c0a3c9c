"""Idempotent POSTs across two workers (docs/api-decisions.md, idempotency): a retry sent to
the other worker right after the answer is the stored answer, and two first requests at once
on both workers make one project."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from tests.scale.services import cli_key, cluster_of_two
from tests.support import bearer

pytestmark = [pytest.mark.postgresql, pytest.mark.scale, pytest.mark.anyio]


async def test_retries_on_the_other_worker(tmp_path: Path, pg_server: str) -> None:
    settings = {"MAPROOM_RATE_LIMIT_PER_MINUTE": "10000"}
    with cluster_of_two(tmp_path, pg_server, **settings) as (a, b, env):
        key = cli_key(env, tmp_path / "a", "retry@example.com")
        async with (
            httpx.AsyncClient(base_url=a.base, headers=bearer(key), timeout=30) as on_a,
            httpx.AsyncClient(base_url=b.base, headers=bearer(key), timeout=30) as on_b,
        ):
            for attempt in range(200):
                first_on, again_on = (on_a, on_b) if attempt % 2 else (on_b, on_a)
                headers = {"Idempotency-Key": f"sequential-{attempt}"}
                body = {"title": f"Once {attempt}"}
                first = await first_on.post("/api/v1/sessions", json=body, headers=headers)
                assert first.status_code == 201, first.text
                again = await again_on.post("/api/v1/sessions", json=body, headers=headers)
                assert again.status_code == 201, (attempt, again.text)
                assert again.headers["idempotent-replayed"] == "true"
                assert again.content == first.content

            # Two first requests at once, one on each worker: one project, never two.
            for attempt in range(20):
                headers = {"Idempotency-Key": f"concurrent-{attempt}"}
                body = {"title": f"Race {attempt}"}
                both = await asyncio.gather(
                    on_a.post("/api/v1/sessions", json=body, headers=headers),
                    on_b.post("/api/v1/sessions", json=body, headers=headers),
                )
                created = [r for r in both if r.status_code == 201]
                assert len({r.json()["id"] for r in created}) == 1, [r.text for r in both]
                for response in both:
                    assert response.status_code in (201, 409), response.text
            usage = (await on_a.get("/api/v1/usage")).json()
            assert usage["projects"]["used"] == 220
