"""`openapi.json` is good enough for a real generator: `openapi-python-client` builds a client
from the served document, and that client creates a project, uploads a file and dispatches a
`fly_to` against the started service."""

from __future__ import annotations

import importlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from maproom.client import Client
from tests.clients.conftest import Service

PACKAGE = "maproom_openapi"
# Tiles answer vector tiles or images: bytes to a generated client.
CONFIG = {
    "content_type_overrides": {
        "application/vnd.mapbox-vector-tile": "application/octet-stream",
        "image/png": "application/octet-stream",
        "image/webp": "application/octet-stream",
    }
}


def generate(service: Service, where: Path) -> Any:
    document = where / "openapi.json"
    document.write_bytes(httpx.get(f"{service.url}/api/v1/openapi.json").content)
    config = where / "config.json"
    config.write_text(json.dumps(CONFIG))
    command = shutil.which("openapi-python-client") or "openapi-python-client"
    made = subprocess.run(
        [command, "generate", "--path", str(document), "--config", str(config),
         "--meta", "none", "--output-path", str(where / PACKAGE)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout, made.stdout  # every operation understood
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


def test_a_generated_client_creates_uploads_and_flies(service: Service, tmp_path: Path) -> None:
    generated = generate(service, tmp_path)
    try:
        projects = importlib.import_module(f"{PACKAGE}.api.projects.create_project")
        upload = importlib.import_module(f"{PACKAGE}.api.files.upload_file")
        dispatch = importlib.import_module(f"{PACKAGE}.api.map_.dispatch_actions")
        models = importlib.import_module(f"{PACKAGE}.models")
        types = importlib.import_module(f"{PACKAGE}.types")

        with generated.AuthenticatedClient(base_url=service.url, token=service.key) as api:
            project = projects.sync(client=api, body=models.ProjectCreate(title="generated"))
            assert isinstance(project, models.ProjectRead) and project.title == "generated"

            geojson = {"type": "FeatureCollection", "features": [{"type": "Feature",
                       "geometry": {"type": "Point", "coordinates": [2.35, 48.86]},
                       "properties": {"name": "Paris"}}]}  # fmt: skip
            payload = types.File(
                payload=io.BytesIO(json.dumps(geojson).encode()), file_name="p.geojson"
            )
            form = models.UploadFileUploadForm(file=payload, name="Paris")
            stored = upload.sync(project.id, client=api, body=form)
            assert isinstance(stored, models.UploadResult), stored
            assert stored.layer.name == "Paris" and stored.layer.feature_count == 1

            fly = models.FlyTo(type_=models.FlyToType.FLY_TO, center=[2.35, 48.86], zoom=9)
            done = dispatch.sync(project.id, client=api, body=models.ActionBatch(actions=[fly]))
            assert isinstance(done, models.ActionsDispatched) and done.dispatched == 1

            refused = dispatch.sync(
                project.id,
                client=api,
                body=models.ActionBatch(
                    actions=[models.FlyTo(type_=models.FlyToType.FLY_TO, center=[0, 0], zoom=99)]
                ),
            )
            assert isinstance(refused, models.ErrorResponse)  # the envelope, typed
            assert refused.error.code == "bad_request"
    finally:
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]

    with Client(service.url, service.key) as mr:
        seen = mr.project(project.id)
    assert seen.mapState.zoom == 9 and [layer.name for layer in seen.layers] == ["Paris"]
