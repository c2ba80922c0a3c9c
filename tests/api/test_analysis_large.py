"""Questions of a million points over HTTP (slow: `-m slow`, run by `.ci/run`): a sorted query
paged with its cursor, and statistics, against NumPy on the same values."""

from __future__ import annotations

from pathlib import Path

import httpx
import numpy as np
import orjson
import pytest

from tests.support import create_project

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
POINTS = 1_000_000


async def test_a_million_points_sorted_and_paged(api: httpx.AsyncClient, tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    values = np.round(rng.uniform(0, 1000, POINTS), 3)
    kinds = np.array(["a", "b", "c"])[rng.integers(0, 3, POINTS)]
    path = tmp_path / "points.csv"
    with path.open("w") as out:
        out.write("lat,lon,value,kind\n")
        lat, lon = rng.uniform(-60, 70, POINTS), rng.uniform(-180, 180, POINTS)
        out.writelines(f"{lat[i]:.5f},{lon[i]:.5f},{values[i]},{kinds[i]}\n" for i in range(POINTS))
    project = (await create_project(api))["id"]
    with path.open("rb") as stream:
        upload = {"file": ("points.csv", stream)}
        made = await api.post(f"/api/v1/sessions/{project}/files", files=upload, timeout=600)
    assert made.status_code == 201, made.text
    base = f"/api/v1/sessions/{project}/layers/{made.json()['layer']['layer_id']}"

    wanted = np.sort(values)[::-1][:250]
    seen: list[float] = []
    cursor = None
    for _ in range(5):
        params = {"sort": "value", "order": "desc", "limit": 50} | (
            {"cursor": cursor} if cursor else {}
        )
        page = (await api.get(f"{base}/features", params=params, timeout=600)).json()
        seen += [f["properties"]["value"] for f in page["features"]]
        cursor = page["meta"]["nextCursor"]
    assert seen == pytest.approx(list(wanted))

    where = orjson.dumps({"field": "kind", "op": "==", "value": "b"}).decode()
    stats = (await api.get(f"{base}/stats", params={"field": "value", "filter": where})).json()
    kept = values[kinds == "b"]
    assert stats["count"] == len(kept)
    assert stats["sum"] == pytest.approx(float(kept.sum()), rel=1e-9)
    assert (stats["min"], stats["max"]) == (pytest.approx(kept.min()), pytest.approx(kept.max()))
