"""Evaluation of the chat agent: commands as people type them, judged by the project's state.

Each line of `bench/chat_eval.jsonl` is a case: a `group`, a `command`, optional `start`
actions applied first, and `expect`ed state afterwards, with tolerances:

    center + within_km     the view's center within that distance
    zoom [low, high]       the view's zoom in that range
    moved north|south|east|west   the view moved that way from the default center
    basemap, category      the basemap style; category overrides ({"roads": {"visible": false}})
    mask                   the country mask's code (null: none)
    visible, layers        layer visibility by name; layer names, top first
    paint, paint_above, paint_below   a layer's paint values (equal, above, below)
    renderer               a layer's renderer fields
    question               the turn ends with a question; `answer` answers it and `then` is
                           checked afterwards
    unchanged              nothing changed (reply_has: words the reply must hold)

The cases: 142 written with the agent, then four sets written independently (by people who
saw neither the agent nor the other sets) to measure how it reads phrasings nobody tuned it for;
each was scored on first sight (73.9%, 78.5%, 92.7%, 93.4%: see docs/performance.md), then the
agent was improved where they showed a general gap, and the sets were folded in here as
regression cases. Expectations a set got wrong (a zoom level it assumed, a landmark) were fixed
or dropped when folded in.

Every case runs on a fresh project with three layers (Cafes: points with name/rating/kind,
Counties: polygons with county/population/state, Rivers: lines; Rivers on top) and the default
view, through the HTTP API of an in-process app. It prints the success rate per group and
overall, and the turn time (p50/p95) of the agent. Targets for the built-in agent: at least 95%
and p95 under 100 ms. `--llm` runs the same cases against the model configured by
`MAPROOM_LLM_BASE_URL`, `MAPROOM_LLM_MODEL` and `MAPROOM_LLM_API_KEY`.

    python bench/chat_eval.py [--llm] [--only GROUP] [--show-failures] [--cases FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maproom.app import create_app  # noqa: E402
from maproom.domain.keys import bootstrap_key  # noqa: E402
from maproom.settings import Settings  # noqa: E402
from tests.chat.support import LAYERS  # noqa: E402

CASES = Path(__file__).with_name("chat_eval.jsonl")
DEFAULT_CENTER = (0.0, 20.0)


def km(a: list[float], b: list[float]) -> float:
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2
    h += math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 6371 * 2 * math.asin(math.sqrt(h))


def judge(expect: dict[str, Any], state: dict[str, Any], reply: dict[str, Any],
          before: dict[str, Any]) -> list[str]:  # fmt: skip
    """What differs from the expectation (empty: the case passed)."""
    view, layers = state["mapState"], state["layers"]
    problems = []
    if expect.get("question") and reply.get("question") is None:
        problems.append("no question")
    if not expect.get("question") and reply.get("question") is not None:
        problems.append(f"asked {reply['question']['text']!r}")
    if "center" in expect and km(view["center"], expect["center"]) > expect.get("within_km", 60):
        problems.append(f"center {view['center']}")
    if "zoom" in expect and not expect["zoom"][0] <= view["zoom"] <= expect["zoom"][1]:
        problems.append(f"zoom {view['zoom']}")
    if "moved" in expect:
        lng, lat = view["center"]
        ok = {
            "north": lat > DEFAULT_CENTER[1],
            "south": lat < DEFAULT_CENTER[1],
            "east": lng > DEFAULT_CENTER[0],
            "west": lng < DEFAULT_CENTER[0],
        }[expect["moved"]]
        if not ok:
            problems.append(f"center {view['center']} did not move {expect['moved']}")
    if "basemap" in expect and view["basemap"]["style"] != expect["basemap"]:
        problems.append(f"basemap {view['basemap']['style']}")
    for key, wanted in expect.get("category", {}).items():
        found = view["basemap"]["categories"].get(key, {})
        if any(found.get(k) != v for k, v in wanted.items()):
            problems.append(f"category {key} {found}")
    if "mask" in expect:
        found = (view["countryMask"] or {}).get("countryCode")
        if found != expect["mask"]:
            problems.append(f"mask {found}")
    for name, shown in expect.get("visible", {}).items():
        if name not in layers or layers[name]["visible"] != shown:
            problems.append(f"{name} visible {layers.get(name, {}).get('visible')}")
    if "layers" in expect and list(layers) != expect["layers"]:
        problems.append(f"layers {list(layers)}")
    tests = {
        "paint": lambda a, b: a == b,
        "paint_above": lambda a, b: a is not None and a > b,
        "paint_below": lambda a, b: a is not None and a < b,
    }
    for key, test in tests.items():
        for name, wanted in expect.get(key, {}).items():
            paint = layers.get(name, {}).get("style", {}).get("renderer", {}).get("paint", {})
            for prop, value in wanted.items():
                if not test(paint.get(prop), value):
                    problems.append(f"{name} {prop} {paint.get(prop)}")
    for name, wanted in expect.get("renderer", {}).items():
        found = layers.get(name, {}).get("style", {}).get("renderer", {})
        if any(found.get(k) != v for k, v in wanted.items()):
            problems.append(f"{name} renderer { ({k: found.get(k) for k in wanted}) }")
    if expect.get("unchanged") and state != before:
        problems.append("the project changed")
    for word in expect.get("reply_has", []):
        if word not in reply.get("reply", ""):
            problems.append(f"reply lacks {word!r}")
    return problems


async def run(
    cases: list[dict[str, Any]], settings: Settings
) -> list[tuple[dict[str, Any], list[str], float]]:
    app = create_app(settings)
    results = []
    async with app.router.lifespan_context(app):
        key = bootstrap_key(
            app.state.services.db, email="eval@example.com", name="eval", scopes=None
        )
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(transport=transport, base_url="http://eval", headers=headers,
                                     timeout=600) as api:  # fmt: skip
            for case in cases:
                project = (await api.post("/api/v1/sessions", json={})).json()["id"]
                setup = [
                    {"type": "add_geojson_layer", "layer_id": ref, "name": name, "geojson": data}
                    for ref, name, data in LAYERS
                ]
                setup += case.get("start", [])
                await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": setup})
                before = await _state(api, project)
                started = time.perf_counter()
                response = await api.post(f"/api/v1/sessions/{project}/chat",
                                          json={"message": case["command"]})  # fmt: skip
                seconds = time.perf_counter() - started
                reply = response.json() if response.status_code == 200 else {"reply": response.text}
                problems = [] if response.status_code == 200 else [f"HTTP {response.status_code}"]
                problems += judge(case["expect"], await _state(api, project), reply, before)
                if not problems and case.get("answer") and reply.get("question"):
                    answer = {"questionId": reply["question"]["id"], "answer": case["answer"]}
                    answered = await api.post(
                        f"/api/v1/sessions/{project}/ask/respond", json=answer
                    )
                    problems += judge({**case.get("then", {})}, await _state(api, project),
                                      answered.json(), before)  # fmt: skip
                results.append((case, problems, seconds))
    return results


async def _state(api: httpx.AsyncClient, project: str) -> dict[str, Any]:
    body = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    return {
        "mapState": body["mapState"],
        "layers": {layer["name"]: layer for layer in body["layers"]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llm", action="store_true", help="use the configured model")
    parser.add_argument("--only", help="run one group")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--cases", type=Path, default=CASES, help="another file of cases")
    opts = parser.parse_args()
    cases = [orjson.loads(line) for line in opts.cases.read_text().splitlines() if line.strip()]
    if opts.only:
        cases = [case for case in cases if case["group"] == opts.only]
    with tempfile.TemporaryDirectory(prefix="maproom-eval-") as tmp:
        fields: dict[str, Any] = {"data_dir": Path(tmp), "rate_limit_per_minute": 1_000_000}
        if opts.llm:
            if not os.environ.get("MAPROOM_LLM_BASE_URL"):
                raise SystemExit("--llm needs MAPROOM_LLM_BASE_URL (and MAPROOM_LLM_MODEL)")
            settings = Settings(**fields)
        else:
            settings = Settings(_env_file=None, llm_base_url=None, **fields)
        results = asyncio.run(run(cases, settings))
    agent = "model " + (settings.llm_model or "?") if opts.llm else "built-in agent"
    by_group: dict[str, list[bool]] = defaultdict(list)
    for case, problems, _ in results:
        by_group[case["group"]].append(not problems)
    print(f"\nchat evaluation: {len(results)} cases, {agent}\n")
    print(f"{'group':<10}{'cases':>7}{'passed':>8}{'rate':>8}")
    for group, passed in by_group.items():
        print(f"{group:<10}{len(passed):>7}{sum(passed):>8}{sum(passed) / len(passed):>8.0%}")
    total = sum(not problems for _, problems, _ in results)
    rate = total / len(results)
    times = sorted(seconds * 1000 for _, _, seconds in results)
    p50, p95 = statistics.median(times), times[max(0, math.ceil(len(times) * 0.95) - 1)]
    print(f"{'all':<10}{len(results):>7}{total:>8}{rate:>8.1%}")
    print(f"\nturn time: p50 {p50:.1f} ms, p95 {p95:.1f} ms (request through the API, in process)")
    if not opts.llm:
        met = rate >= 0.95 and p95 < 100
        print(f"target: >= 95% and p95 < 100 ms -> {'met' if met else 'NOT met'}")
    if opts.show_failures:
        for case, problems, _ in results:
            if problems:
                print(f"  [{case['group']}] {case['command']!r}: {'; '.join(problems)}")


if __name__ == "__main__":
    main()
