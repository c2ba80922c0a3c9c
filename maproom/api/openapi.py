"""The OpenAPI 3.1 document: bearer security, the error responses of each operation, no 422s."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from maproom import API_VERSION
from maproom.api.schemas.common import ErrorResponse
from maproom.domain.actions.models import batch_schema
from maproom.domain.styles import StylePatch

ERROR_REF = {"$ref": "#/components/schemas/ErrorResponse"}
STYLE_REF = {"$ref": "#/components/schemas/LayerStyle"}
ACTIONS_REF = {"$ref": "#/components/schemas/ActionBatch"}
# Schemas that operations name by `$ref` rather than through a FastAPI-typed parameter.
MODELS: dict[str, type[BaseModel]] = {"ErrorResponse": ErrorResponse, "LayerStyle": StylePatch}
ERRORS = {
    "400": "Malformed JSON, schema or semantic violation (`bad_request`)",
    "401": "Missing, malformed, unknown or revoked API key (`unauthorized`)",
    "403": "The key lacks a required scope (`forbidden`)",
    "404": "Unknown id, or an id of another account (`not_found`)",
    "409": "Idempotency-Key reused with another body, or still in flight (`conflict`)",
    "412": "If-Match names a version that is no longer current (`precondition_failed`)",
    "413": "Payload too large (`payload_too_large`)",
    "415": "Unsupported upload type (`unsupported_media_type`)",
    "429": "Over the per-key rate limit (`rate_limited`); see Retry-After",
    "500": "Internal error (`internal_error`); the message carries a request id",
    "502": "A remote source failed or answered nonsense (`bad_gateway`)",
    "504": "A remote source did not answer in time (`gateway_timeout`)",
    "507": "The disk or the object store is full; nothing was stored (`insufficient_storage`)",
}
COMMON = ("400", "401", "403", "404", "429", "500")
IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Makes a retried POST safe: the first response is replayed for 24 hours",
    "schema": {"type": "string", "maxLength": 255},
}


def json_body(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """`openapi_extra` declaring a required JSON request body of this schema, for operations
    that read their body by hand (the domain validates it)."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema}},
            "description": description,
        }
    }


def build(app: FastAPI) -> dict[str, Any]:
    """Generate (once) and decorate the document."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(
        title="maproom",
        version=API_VERSION,
        openapi_version="3.1.0",
        description="Map projects, layers, files, map actions and live views over REST.",
        routes=app.routes,
    )
    components = doc.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name, model in MODELS.items():
        schemas[name] = model.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(schemas[name].pop("$defs", {}))
    schemas["ActionBatch"] = batch_schema()
    schemas.update(schemas["ActionBatch"].pop("$defs", {}))
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    components["securitySchemes"] = {
        "bearerAuth": {"type": "http", "scheme": "bearer", "description": "API key (`mr_...`)"}
    }
    doc["security"] = [{"bearerAuth": []}]
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            _decorate(path, method, operation)
    app.openapi_schema = doc
    return doc


def _decorate(path: str, method: str, operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    responses.pop("422", None)
    if path == "/api/v1/openapi.json":
        operation["security"] = []
        responses["500"] = _error("500")
        return
    codes = list(COMMON)
    scopes = operation.get("x-required-scopes") or []
    if scopes:
        needed = " or ".join(f"`{scope}`" for scope in scopes)
        operation["description"] = f"{operation.get('description', '')}\n\nScope: {needed}.".strip()
    else:
        codes.remove("403")
    params = {p["name"] for p in operation.get("parameters", [])}
    if method == "post":
        codes.append("409")
        operation.setdefault("parameters", []).append(IDEMPOTENCY_HEADER)
    if method in ("post", "put", "patch"):
        codes.append("413")  # any body over its ceiling (MAPROOM_MAX_BODY_MB, uploads)
    if method in ("post", "put", "patch", "delete"):
        codes.append("507")  # a write on a full disk
    body = operation.get("requestBody", {}).get("content", {})
    if "multipart/form-data" in body:
        codes.append("415")
    if "if-match" in params:
        codes.append("412")
    for code in codes:
        responses.setdefault(code, _error(code))
    for code, response in responses.items():  # errors an operation declares: the envelope
        if code.isdigit() and int(code) >= 400 and "content" not in response:
            response["content"] = (
                _error(code)["content"]
                if code in ERRORS
                else {"application/json": {"schema": ERROR_REF}}
            )


def _error(code: str) -> dict[str, Any]:
    return {"description": ERRORS[code], "content": {"application/json": {"schema": ERROR_REF}}}
