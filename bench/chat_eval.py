"""Evaluation of the chat agent: requests as people type them, judged by the project's state.

Each line of a case file is a request with what must hold after it (the format and every
expectation key: bench/chat_sets/README.md; the judge: bench/chat_judge.py). Every case runs on
a fresh project (`standard`: Cafes, Counties, Rivers; `world`: Sites, Cities, Districts,
Rivers) through the HTTP API of an in-process app: its `start` actions, its `before` turns,
then the judged turn (and the answer to its question, if it asks one).

`bench/chat_eval.jsonl` holds the regression cases (written with the agent, and the sets of
earlier rounds folded in once they were scored); `bench/chat_sets/` holds the sets written by
people who had not read the agent, each scored on first sight (docs/performance.md).

It prints the success rate per group, per language and overall, and the turn time (p50/p95).
Targets for the built-in agent: at least 95% of the regression cases, 90% of an unseen set,
and p95 under 100 ms. `--llm` runs the cases against the model configured by
`MAPROOM_LLM_BASE_URL`, `MAPROOM_LLM_MODEL` and `MAPROOM_LLM_API_KEY`, and first prints how many
tokens the model counts in its first call's prompt for a project of ten layers.

    python bench/chat_eval.py [--llm] [--only GROUP] [--lang LANG] [--show-failures]
                              [--cases FILE ...]
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
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.chat_judge import judge  # noqa: E402
from maproom.app import create_app  # noqa: E402
from maproom.domain.keys import bootstrap_key  # noqa: E402
from maproom.settings import Settings  # noqa: E402
from tests.chat.support import LAYERS, WORLD_LAYERS  # noqa: E402

CASES = Path(__file__).with_name("chat_eval.jsonl")
PROJECTS = {"standard": LAYERS, "world": WORLD_LAYERS}


async def run(
    cases: list[dict[str, Any]], settings: Settings
) -> list[tuple[dict[str, Any], list[str], float]]:
    """Every case on a fresh project: its problems and the judged turn's seconds."""
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
                results.append(await _case(api, case))
    return results


async def _case(
    api: httpx.AsyncClient, case: dict[str, Any]
) -> tuple[dict[str, Any], list[str], float]:
    project = await _project(api, case)
    for message in case.get("before", []):
        await api.post(f"/api/v1/sessions/{project}/chat", json={"message": message})
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
        answered = await api.post(f"/api/v1/sessions/{project}/ask/respond", json=answer)
        if answered.status_code != 200:
            problems.append(f"answer: HTTP {answered.status_code}")
        else:
            problems += judge({**case.get("then", {})}, await _state(api, project),
                              answered.json(), before)  # fmt: skip
    return case, problems, seconds


async def _project(api: httpx.AsyncClient, case: dict[str, Any]) -> str:
    """A fresh project with the case's layers, then its `start` actions as a batch of their own."""
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    setup = [
        {"type": "add_geojson_layer", "layer_id": ref, "name": name, "geojson": data}
        for ref, name, data in PROJECTS[case.get("project", "standard")]
    ]
    for batch in (setup, case.get("start")):
        if batch:
            response = await api.post(
                f"/api/v1/sessions/{project}/map/actions", json={"actions": batch}
            )
            if response.status_code != 200:
                raise SystemExit(f"{case['command']!r}: start failed: {response.text}")
    return str(project)


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
    parser.add_argument("--lang", help="run one language")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--cases", type=Path, nargs="+", default=[CASES], help="case files")
    opts = parser.parse_args()
    cases = [
        orjson.loads(line)
        for path in opts.cases
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    cases = [
        case
        for case in cases
        if (not opts.only or case["group"] == opts.only)
        and (not opts.lang or case.get("lang", "en") == opts.lang)
    ]
    with tempfile.TemporaryDirectory(prefix="maproom-eval-") as tmp:
        fields: dict[str, Any] = {"data_dir": Path(tmp), "rate_limit_per_minute": 1_000_000}
        if opts.llm:
            if not os.environ.get("MAPROOM_LLM_BASE_URL"):
                raise SystemExit("--llm needs MAPROOM_LLM_BASE_URL (and MAPROOM_LLM_MODEL)")
            settings = Settings(**fields)
            asyncio.run(print_prompt_size(settings))
        else:
            settings = Settings(_env_file=None, llm_base_url=None, **fields)
        results = asyncio.run(run(cases, settings))
    agent = "model " + (settings.llm_model or "?") if opts.llm else "built-in agent"
    report(results, agent, opts.show_failures)


def report(results: list[tuple[dict[str, Any], list[str], float]], agent: str,
           failures: bool) -> None:  # fmt: skip
    """The rates per group, per language and overall, and the turn times."""
    print(f"\nchat evaluation: {len(results)} cases, {agent}\n")
    for title, key in (("group", "group"), ("language", "lang")):
        counted: dict[str, list[bool]] = defaultdict(list)
        for case, problems, _ in results:
            counted[case.get(key, "en")].append(not problems)
        print(f"{title:<10}{'cases':>7}{'passed':>8}{'rate':>8}")
        for name, passed in sorted(counted.items()):
            print(f"{name:<10}{len(passed):>7}{sum(passed):>8}{sum(passed) / len(passed):>8.0%}")
        print()
    total = sum(not problems for _, problems, _ in results)
    rate = total / max(1, len(results))
    times = sorted(seconds * 1000 for _, _, seconds in results) or [0.0]
    p50, p95 = statistics.median(times), times[max(0, math.ceil(len(times) * 0.95) - 1)]
    print(f"{'all':<10}{len(results):>7}{total:>8}{rate:>8.1%}")
    print(f"\nturn time: p50 {p50:.1f} ms, p95 {p95:.1f} ms (request through the API, in process)")
    if agent == "built-in agent":
        print(f"target: p95 < 100 ms -> {'met' if p95 < 100 else 'NOT met'}")
    if failures:
        for case, problems, _ in results:
            if problems:
                print(f"  [{case['group']}/{case.get('lang', 'en')}] {case['command']!r}: "
                      f"{'; '.join(problems)}")  # fmt: skip


async def print_prompt_size(settings: Settings) -> None:
    """The tokens of the first model call's prompt (system, project, tools) for a project of
    ten layers, as the model's server counts them."""
    from maproom.domain.chat.llm import first_call_body

    view = ten_layer_view()
    body = first_call_body(view, [], "fly to Lisbon", model=settings.llm_model or "")
    body |= {"stream": False, "max_tokens": 1}
    headers = {"Authorization": f"Bearer {settings.llm_api_key}"} if settings.llm_api_key else {}
    async with httpx.AsyncClient(base_url=str(settings.llm_base_url).rstrip("/"),
                                 headers=headers, timeout=600) as client:  # fmt: skip
        response = await client.post("/chat/completions", json=body)
    usage = response.json().get("usage") or {} if response.status_code == 200 else {}
    print(f"first call's prompt for ten layers: {usage.get('prompt_tokens', '?')} tokens "
          f"({len(orjson.dumps(body))} bytes; target <= 2,000 tokens)")  # fmt: skip


def ten_layer_view() -> dict[str, Any]:
    """A project of ten layers as an agent sees it (names, kinds and a few fields each)."""
    kinds = ["Point", "Polygon", "LineString"]
    layers = [
        {
            "layer_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"Layer {i}")), "name": f"Layer {i}",
            "layer_type": "geojson", "geometry_type": kinds[i % 3], "visible": True,
            "feature_count": 100 * (i + 1), "style": {"renderer": {"type": "single"}},
            "fields": [{"name": name, "type": kind} for name, kind in
                       (("name", "string"), ("population", "number"), ("kind", "string"))],
        }
        for i in range(10)
    ]  # fmt: skip
    state = {"center": [0, 20], "zoom": 1.5, "bearing": 0, "pitch": 0,
             "basemap": {"style": "light", "categories": {}}}  # fmt: skip
    return {"title": "Ten layers", "mapState": state, "layers": layers, "files": []}


if __name__ == "__main__":
    main()
