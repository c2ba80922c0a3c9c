"""Remote COG tiles: the server fetches by ranges through its own reader, pinned to checked
addresses, redirects checked hop by hop, with timeouts; whatever the remote host does, the
client gets a tile, a 502 or a 504 in the contract's envelope, never a 500 (docs/actions.md).

The remote host is a real HTTP server on loopback, let through by MAPROOM_FETCH_ALLOWLIST."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Route

from maproom import geo
from maproom.adapters.remote import RemoteFile
from maproom.errors import BadGateway
from tests import makers
from tests.serving import free_port, serving
from tests.support import AppFactory, assert_error, create_project, http_client, new_key

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def cog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cog")
    source = folder / "scene.tif"
    source.write_bytes(makers.geotiff(folder / "made.tif", size=512))
    return Path(str(geo.convert(source, "tif", folder).output))


@pytest.fixture(scope="module")
def host(cog: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The remote host: a COG, a redirect, a redirect out, junk, no ranges, 404, a hang."""
    junk = tmp_path_factory.mktemp("junk") / "junk.tif"
    junk.write_bytes(b"II*\x00" + bytes(range(256)) * 400)
    port = free_port()

    async def slow(request: Request) -> Response:
        await asyncio.sleep(5)
        return Response(b"late")

    routes = [
        Route("/cog.tif", lambda r: FileResponse(cog)),
        Route("/hop.tif", lambda r: RedirectResponse("/cog.tif", 302)),
        Route("/out.tif", lambda r: RedirectResponse(f"http://127.0.0.2:{port}/cog.tif", 302)),
        Route("/loop.tif", lambda r: RedirectResponse("/loop.tif", 302)),
        Route("/junk.tif", lambda r: FileResponse(junk)),
        Route("/whole.tif", lambda r: Response(cog.read_bytes(), media_type="image/tiff")),
        Route("/slow.tif", slow),
    ]
    with serving(Starlette(routes=routes), port) as base:
        yield base


@pytest.fixture
async def api(app_factory: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    settings = {"fetch_allowlist": "127.0.0.1", "fetch_timeout_s": 1.0}
    async with app_factory(**settings) as app, http_client(app, new_key(app)) as client:
        yield client


async def tile(api: httpx.AsyncClient, url: str, z: int = 0) -> httpx.Response:
    project = (await create_project(api))["id"]
    added = await api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "add_cog_layer", "layer_id": "dem", "url": url}]},
    )
    assert added.status_code == 200, added.text
    layer = added.json()["layers"][0]["layer_id"]
    return await api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/{z}/0/0.png")


async def test_a_remote_cog_is_read_by_ranges(api: httpx.AsyncClient, host: str) -> None:
    response = await tile(api, f"{host}/cog.tif")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")
    followed = await tile(api, f"{host}/hop.tif")  # a redirect on the same checked host
    assert followed.status_code == 200, followed.text


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/out.tif", 502, "non-public address"),  # a redirect to an address not allowed
        ("/loop.tif", 502, "redirected more than"),
        ("/junk.tif", 502, "could not be read"),
        ("/whole.tif", 502, "byte ranges"),
        ("/missing.tif", 502, "answered 404"),
        ("/slow.tif", 504, "in time"),
    ],
)
async def test_a_failing_remote_source_is_a_gateway_error(
    api: httpx.AsyncClient, host: str, path: str, status: int, words: str
) -> None:
    response = await tile(api, f"{host}{path}")
    error = assert_error(response, status, "bad_gateway" if status == 502 else "gateway_timeout")
    assert words in error["message"]
    for leak in ("Traceback", "rasterio", "CPLE", "/tmp", "vsicurl"):
        assert leak not in error["message"]


async def test_without_the_allowlist_a_private_host_is_never_fetched(
    app_factory: AppFactory, host: str
) -> None:
    async with app_factory() as app, http_client(app, new_key(app)) as api:
        project = (await create_project(api))["id"]
        refused = await api.post(
            f"/api/v1/sessions/{project}/map/actions",
            json={"actions": [{"type": "add_cog_layer", "url": f"{host}/cog.tif"}]},
        )
        assert_error(refused, 400, "bad_request")  # a literal loopback address, at dispatch


def test_the_connection_goes_to_the_address_checked_once() -> None:
    """A name is resolved once; every request goes to that address, named by Host (and the TLS
    server name), so a lookup answering otherwise later cannot redirect the reads."""
    seen: list[httpx.Request] = []
    body = bytes(range(256)) * 1024

    def remote(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        first, last = (int(n) for n in request.headers["range"][6:].split("-"))
        return httpx.Response(
            206,
            content=body[first : last + 1],
            headers={"content-range": f"bytes {first}-{last}/{len(body)}"},
        )

    with RemoteFile(
        "http://localhost:8123/data.bin",
        allowlist=["localhost"],
        transport=httpx.MockTransport(remote),
    ) as file:
        file.seek(200_000)
        assert file.read(10) == body[200_000:200_010]
        assert file.size == len(body)
    assert {str(r.url.host) for r in seen} == {"127.0.0.1"}
    assert {r.headers["host"] for r in seen} == {"localhost:8123"}


def test_a_name_that_does_not_resolve_is_a_bad_gateway() -> None:
    with pytest.raises(BadGateway, match="does not resolve"):
        RemoteFile("https://no-such-host.invalid/cog.tif")
