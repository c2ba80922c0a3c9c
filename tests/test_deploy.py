"""The deployment files (deploy/) set exactly the settings the several-worker test runs with
(tests/scale/test_workers.py), and every maproom setting they name exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from maproom.settings import Settings
from tests.scale.services import deployment_env

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
PROXY_ONLY = {"FORWARDED_ALLOW_IPS"}  # uvicorn's, for client addresses behind the proxy
TESTED = set(deployment_env("postgresql://db", "redis://redis", "http://s3"))


def _known_setting(name: str) -> bool:
    fields = Settings.model_fields
    return name.removeprefix("MAPROOM_").lower() in fields or name == "UPLOAD_MAX_SIZE_MB"


def _check(settings: dict[str, Any]) -> None:
    assert set(settings) - PROXY_ONLY == TESTED
    assert all(_known_setting(name) for name in settings if name.startswith("MAPROOM_"))
    assert settings["MAPROOM_DATABASE_URL"].startswith("postgresql://")
    assert settings["MAPROOM_REDIS_URL"].startswith("redis://")
    assert settings["MAPROOM_STORAGE_URL"].startswith("s3://")
    Settings(**{k.removeprefix("MAPROOM_").lower(): v for k, v in settings.items()
                if k.startswith("MAPROOM_")})  # fmt: skip


def test_compose_sets_the_tested_settings() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    workers = compose["services"]["maproom"]
    _check(workers["environment"])
    assert set(compose["services"]) >= {"maproom", "postgres", "redis", "minio", "proxy"}
    assert "readyz" in " ".join(workers["healthcheck"]["test"])


def test_kubernetes_sets_the_tested_settings() -> None:
    documents = [
        doc
        for path in sorted((DEPLOY / "kubernetes").glob("*.yaml"))
        for doc in yaml.safe_load_all(path.read_text())
    ]
    kinds = {(doc["kind"], doc["metadata"]["name"]) for doc in documents}
    assert {("Deployment", "maproom"), ("Service", "maproom"), ("StatefulSet", "postgres"),
            ("Deployment", "redis"), ("StatefulSet", "minio")} <= kinds  # fmt: skip
    config = next(d for d in documents if d["kind"] == "ConfigMap")["data"]
    secret = next(d for d in documents if d["kind"] == "Secret")["stringData"]
    _check({**config, **secret})
    workers = next(
        d for d in documents if d["kind"] == "Deployment" and d["metadata"]["name"] == "maproom"
    )
    container = workers["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
