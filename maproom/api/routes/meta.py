"""The machine-readable contract and its interactive docs (assets served locally)."""

from __future__ import annotations

import swagger_ui_bundle
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from maproom.api import API_PREFIX
from maproom.api.deps import operation_id
from maproom.api.openapi import build
from maproom.api.responses import json_response

router = APIRouter(prefix=API_PREFIX, generate_unique_id_function=operation_id)
DOCS_ASSETS = f"{API_PREFIX}/docs/assets"
SWAGGER_DIR = swagger_ui_bundle.swagger_ui_path

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><title>maproom API</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="icon" href="{assets}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({{url: "{api}/openapi.json", dom_id: "#swagger-ui",
  deepLinking: true, persistAuthorization: true}});
</script>
</body>
</html>
"""


@router.get(
    "/openapi.json",
    tags=["meta"],
    summary="Machine-readable contract of the API",
    response_model=dict[str, object],
)
async def openapi_document(request: Request) -> Response:
    """This OpenAPI 3.1.0 document (no key needed)."""
    return json_response(build(request.app))


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    """Swagger UI, working offline."""
    return HTMLResponse(DOCS_PAGE.format(assets=DOCS_ASSETS, api=API_PREFIX))
