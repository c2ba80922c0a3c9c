"""The machine-readable contract and its offline docs (spec 9)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

pytestmark = pytest.mark.anyio

OPERATIONS = {
    ("get", "/api/v1/sessions"),
    ("post", "/api/v1/sessions"),
    ("get", "/api/v1/sessions/{id}"),
    ("patch", "/api/v1/sessions/{id}"),
    ("delete", "/api/v1/sessions/{id}"),
    ("post", "/api/v1/sessions/{id}/fork"),
    ("get", "/api/v1/sessions/{id}/map"),
    ("get", "/api/v1/api-keys"),
    ("post", "/api/v1/api-keys"),
    ("delete", "/api/v1/api-keys/{keyId}"),
    ("get", "/api/v1/verify"),
    ("get", "/api/v1/usage"),
    ("get", "/api/v1/openapi.json"),
}
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@pytest.fixture
async def document(client: httpx.AsyncClient) -> dict[str, Any]:
    """The served OpenAPI document, fetched without a key."""
    response = await client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    return dict(response.json())


def operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Every operation of the document by (method, path)."""
    return {
        (method, path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


async def test_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    OpenAPIV31SpecValidator(document).validate()
    assert document["openapi"] == "3.1.0"
    assert document["info"]["version"] == "1.0.0"


async def test_document_lists_the_operations_including_itself(document: dict[str, Any]) -> None:
    assert set(operations(document)) >= OPERATIONS
    assert not [path for path in document["paths"] if not path.startswith("/api/v1/")]


async def test_bearer_security(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert len(schemes) == 1
    ((name, scheme),) = schemes.items()
    assert scheme["type"] == "http"
    assert scheme["scheme"].lower() == "bearer"
    assert {name: []} in document["security"]
    assert operations(document)[("get", "/api/v1/openapi.json")]["security"] == []


def keys_anywhere(node: Any) -> set[str]:
    """Every mapping key anywhere in a JSON document."""
    if isinstance(node, dict):
        return set(node) | {k for value in node.values() for k in keys_anywhere(value)}
    if isinstance(node, list):
        return {k for value in node for k in keys_anywhere(value)}
    return set()


async def test_no_422_anywhere(document: dict[str, Any]) -> None:
    found = keys_anywhere(document)
    assert "422" not in found
    assert "HTTPValidationError" not in found
    for key, operation in operations(document).items():
        assert "400" in operation["responses"] or key[1] == "/api/v1/openapi.json", key


async def test_errors_are_documented_with_the_envelope(document: dict[str, Any]) -> None:
    envelope = document["components"]["schemas"]["ErrorResponse"]
    assert envelope["required"] == ["error"]
    for key, operation in operations(document).items():
        if key == ("get", "/api/v1/openapi.json"):
            continue
        responses = operation["responses"]
        for status in ("400", "401", "404", "429", "500"):
            schema = responses[status]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorResponse"}, (key, status)
        if key[0] == "post":
            assert "409" in responses, key
    assert "412" in operations(document)[("patch", "/api/v1/sessions/{id}")]["responses"]


async def test_docs_page_works_offline(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/v1/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "/api/v1/openapi.json" in page
    assert not re.search(r"https?://", page)
    assert "cdn" not in page.lower()

    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(a.endswith(".js") for a in assets)
    assert any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert asset.startswith("/"), asset
        loaded = await client.get(asset)
        assert loaded.status_code == 200, asset
        assert loaded.content


async def test_map_actions_body_is_the_typed_union(document: dict[str, Any]) -> None:
    from maproom.domain.actions import models

    operation = operations(document)[("post", "/api/v1/sessions/{id}/map/actions")]
    body = operation["requestBody"]
    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ActionBatch"
    }
    schemas = document["components"]["schemas"]
    items = schemas["ActionBatch"]["properties"]["actions"]["items"]
    assert schemas["ActionBatch"]["properties"]["actions"]["minItems"] == 1
    assert items["discriminator"]["propertyName"] == "type"
    assert items["discriminator"]["mapping"]["map.flyTo"] == "#/components/schemas/FlyTo"
    refs = {branch["$ref"].rsplit("/", 1)[1] for branch in items["oneOf"]}
    assert len(refs) == len(models.TYPES)
    for name in refs:
        variant = schemas[name]
        kind = variant["properties"]["type"]["enum"][0]
        assert variant["properties"]["type"]["enum"] == models.spellings(kind)
        assert "type" in variant["required"], name
        assert variant["examples"], name
    assert schemas["AddCogLayer"]["required"] == ["type", "url", "layer_id"]
    assert schemas["FileGenerated"]["required"] == ["type", "file_id", "file_name"]


async def test_the_chat_operations_are_described(document: dict[str, Any]) -> None:
    for path, body in (("/chat", "ChatRequest"), ("/ask/respond", "AskResponse")):
        operation = operations(document)[("post", f"/api/v1/sessions/{{id}}{path}")]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": f"#/components/schemas/{body}"}
        answer = operation["responses"]["200"]["content"]
        assert answer["application/json"]["schema"] == {"$ref": "#/components/schemas/ChatAnswer"}
        assert "text/event-stream" in answer
        assert {"409", "502", "504"} <= set(operation["responses"])
        assert operation["x-required-scopes"] == ["chat"]


async def test_every_error_answer_is_the_envelope(document: dict[str, Any]) -> None:
    for key, operation in operations(document).items():
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorResponse"}, (key, status)
