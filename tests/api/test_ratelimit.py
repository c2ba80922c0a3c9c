"""The per-key rate limit over HTTP: RateLimit-* headers, 429 with Retry-After."""

from __future__ import annotations

import httpx
import pytest

from tests.support import AppFactory, assert_error, bearer, http_client, new_key

pytestmark = pytest.mark.anyio

LIMIT = 5


async def test_over_the_limit_is_429_with_retry_after(app_factory: AppFactory) -> None:
    async with (
        app_factory(rate_limit_per_minute=LIMIT) as app,
        http_client(app, new_key(app)) as api,
    ):
        remaining = []
        for _ in range(LIMIT):
            response = await api.get("/api/v1/verify")
            assert response.status_code == 200
            assert response.headers["ratelimit-limit"] == str(LIMIT)
            assert 1 <= int(response.headers["ratelimit-reset"]) <= 60
            remaining.append(int(response.headers["ratelimit-remaining"]))
        assert remaining == [4, 3, 2, 1, 0]

        refused = await api.get("/api/v1/verify")
        assert_error(refused, 429, "rate_limited")
        # A sliding window may need part of the next minute to drain: never more than two.
        assert 1 <= int(refused.headers["retry-after"]) <= 120
        assert refused.headers["ratelimit-limit"] == str(LIMIT)
        assert refused.headers["ratelimit-remaining"] == "0"
        assert "x-request-id" in refused.headers

        # Every endpoint shares the budget; refused requests change nothing.
        assert_error(await api.post("/api/v1/sessions", json={}), 429, "rate_limited")
        assert_error(await api.get("/api/v1/nowhere"), 429, "rate_limited")
        assert_error(await api.get("/api/v1/usage"), 429, "rate_limited")

    async with app_factory() as app, http_client(app, new_key(app)) as api:
        assert (await api.get("/api/v1/usage")).json()["projects"]["used"] == 0


async def test_the_limit_is_per_key(app_factory: AppFactory) -> None:
    async with app_factory(rate_limit_per_minute=LIMIT) as app, http_client(app) as client:
        first, second = bearer(new_key(app)), bearer(new_key(app))
        for _ in range(LIMIT):
            assert (await client.get("/api/v1/verify", headers=first)).status_code == 200
        assert_error(await client.get("/api/v1/verify", headers=first), 429, "rate_limited")

        fresh = await client.get("/api/v1/verify", headers=second)
        assert fresh.status_code == 200
        assert fresh.headers["ratelimit-remaining"] == str(LIMIT - 1)


async def test_unauthenticated_requests_spend_no_budget(app_factory: AppFactory) -> None:
    async with app_factory(rate_limit_per_minute=LIMIT) as app, http_client(app) as client:
        key = bearer(new_key(app))
        for _ in range(LIMIT + 2):
            assert_error(await client.get("/api/v1/verify"), 401, "unauthorized")
        response = await client.get("/api/v1/verify", headers=key)
        assert response.status_code == 200
        assert response.headers["ratelimit-remaining"] == str(LIMIT - 1)


async def test_default_limit_is_300(api: httpx.AsyncClient) -> None:
    response = await api.get("/api/v1/verify")
    assert response.headers["ratelimit-limit"] == "300"
    assert response.headers["ratelimit-remaining"] == "299"
