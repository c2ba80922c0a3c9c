"""The maproom MCP server: its tools and its project resource, over a `maproom.client`.

Both transports serve this one server. On the service (`/mcp`) the client talks to the
service itself, in process, with the caller's key; on stdio (`maproom mcp`) it talks to a
service over HTTP with the user's key. Either way each tool is one or two REST operations, so
it is allowed by the same scope, validated by the same rules and counted against the same
rate limit as the REST call; nothing here touches the database.

Tool inputs come from the same schemas as `openapi.json` and the chat agent's tools: the
action union (`maproom.domain.actions.models`) and the style object
(`maproom.domain.styles.StylePatch`). A refused or invalid call is a tool result with
`isError: true` whose text is the error envelope `{"error": {"code", "message", "details"}}`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.helper_types import ReadResourceContents
from pydantic import AnyUrl, BaseModel

from maproom import __version__
from maproom.api.schemas.chat import ChatRequest
from maproom.api.schemas.projects import ProjectCreate
from maproom.client import ApiError, AsyncClient, ServiceUnreachable
from maproom.domain.actions.models import batch_schema
from maproom.domain.styles import StylePatch
from maproom.limits import FEATURES_PAGE_MAX, HISTORY_PAGE_MAX

RESOURCE_PREFIX = "maproom://projects/"
ClientFor = Callable[[], AsyncClient]  # the client of the current request's caller
Handler = Callable[[AsyncClient, dict[str, Any]], Awaitable[Any]]

PROJECT_ID = {"type": "string", "description": "The project's id (from list_projects)"}
LAYER_ID = {"type": "string", "description": "The layer's id (from list_layers)"}


def _property(model: type[BaseModel], name: str) -> dict[str, Any]:
    """A field's JSON schema as the API's request model states it: the API's limits are the
    tools' limits, written once."""
    found = dict(model.model_json_schema()["properties"][name])
    for key in ("title", "examples"):
        found.pop(key, None)
    return found


TITLE = _property(ProjectCreate, "title")
FILTER = {
    "type": "object",
    "description": "A condition {field, op, value?} (op: == != < <= > >= in not_in is_null "
    "not_null contains) or {all|any: [conditions or filters]}",
}


def _object(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


def _with_defs(schema: dict[str, Any], model_schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` carrying the `$defs` its `$ref`s (`#/$defs/...`) point to."""
    return {**schema, "$defs": model_schema.get("$defs", {})}


def _actions_input() -> dict[str, Any]:
    batch = batch_schema(ref_template="#/$defs/{model}")
    actions = {
        **batch["properties"]["actions"],
        "description": "Map actions applied in order, all or nothing (the map/actions union; "
        "`map.flyTo`-style aliases and camelCase parameters are accepted too)",
    }
    return _with_defs(
        _object(["project_id", "actions"], project_id=PROJECT_ID, actions=actions), batch
    )


def _style_input() -> dict[str, Any]:
    style = StylePatch.model_json_schema(ref_template="#/$defs/{model}")
    described = {key: value for key, value in style.items() if key != "$defs"}
    described["description"] = (
        "Merged into the layer's style. A renderer of type graduated, categorized or "
        "interpolated naming a `field` and no classes is classified by the server"
    )
    properties = {"project_id": PROJECT_ID, "layer_id": LAYER_ID, "style": described}
    return _with_defs(_object(["project_id", "layer_id", "style"], **properties), style)


async def _list_projects(mr: AsyncClient, _: dict[str, Any]) -> Any:
    found = [project.model_dump(mode="json") async for project in mr.projects()]
    return {"data": found, "meta": {"count": len(found)}}


async def _create_project(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.create_project(title=args.get("title"))


async def _describe_project(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.map(args["project_id"])


async def _list_layers(mr: AsyncClient, args: dict[str, Any]) -> Any:
    found = await mr.layers(args["project_id"])
    return {
        "data": [layer.model_dump(mode="json") for layer in found],
        "meta": {"count": len(found)},
    }


async def _dispatch_actions(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.dispatch(args["project_id"], args["actions"])


async def _style_layer(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.style_layer(args["project_id"], args["layer_id"], args["style"])


async def _save_report(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.save_report(args["project_id"], args["title"], args["html"])


async def _live_view_url(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return {"liveViewUrl": await mr.live_view_url(args["project_id"])}


async def _style_url(mr: AsyncClient, args: dict[str, Any]) -> Any:
    if args.get("public"):
        return {"styleUrl": f"{await mr.live_view_url(args['project_id'])}/style.json"}
    return {"styleUrl": mr.style_url(args["project_id"])}


async def _chat(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.chat(args["project_id"], args["message"])


async def _query_features(mr: AsyncClient, args: dict[str, Any]) -> Any:
    query = {k: args.get(k) for k in ("filter", "sort", "order", "limit", "fields", "cursor")}
    return await mr.features(args["project_id"], args["layer_id"], **query)


async def _layer_stats(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.stats(args["project_id"], args["layer_id"], args.get("field"),
                          args.get("filter"))  # fmt: skip


async def _history(mr: AsyncClient, args: dict[str, Any]) -> Any:
    found = await mr.history(args["project_id"], int(args.get("limit", 20)))
    return {"data": [v.model_dump(mode="json") for v in found], "meta": {"count": len(found)}}


async def _restore_version(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.restore(args["project_id"], int(args["version"]))


async def _undo(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.undo(args["project_id"])


async def _redo(mr: AsyncClient, args: dict[str, Any]) -> Any:
    return await mr.redo(args["project_id"])


async def _upload_file(mr: AsyncClient, args: dict[str, Any]) -> Any:
    path = Path(args["path"]).expanduser()
    if not path.is_file():
        raise ApiError(400, "bad_request", f"no such file on this machine: {args['path']}")
    return await mr.upload(args["project_id"], path, name=args.get("name"))


# name: (description, input schema, handler)
TOOLS: dict[str, tuple[str, dict[str, Any], Handler]] = {
    "list_projects": (
        "The account's projects, newest change first: id, title, layer count.",
        _object([]),
        _list_projects,
    ),
    "create_project": (
        "Create a project (an empty map); returns it with its id.",
        _object([], title=TITLE),
        _create_project,
    ),
    "describe_project": (
        "A project's map state (view, basemap, masks) and its layers, top first, with "
        "their fields (name, type, min, max, sample values), style and legend.",
        _object(["project_id"], project_id=PROJECT_ID),
        _describe_project,
    ),
    "list_layers": (
        "A project's layers, top first: id, name, type, geometry, visibility, feature count.",
        _object(["project_id"], project_id=PROJECT_ID),
        _list_layers,
    ),
    "dispatch_actions": (
        "Change the map: fly to places, add, restyle, reorder, hide or remove layers, switch "
        "the basemap, mask a country. Every open live view follows at once.",
        _actions_input(),
        _dispatch_actions,
    ),
    "style_layer": (
        "Restyle a layer (colours, opacity, labels, legend) or classify it by a field "
        "(graduated, categorized, interpolated); returns the whole merged style.",
        _style_input(),
        _style_layer,
    ),
    "save_report": (
        "Save an HTML report in the project; returns a link that opens it without a key.",
        _object(
            ["project_id", "title", "html"],
            project_id=PROJECT_ID,
            title=TITLE,
            html={"type": "string", "description": "At most 2 MB of UTF-8"},
        ),
        _save_report,
    ),
    "get_live_view_url": (
        "A new link to a live page of the project's map that follows every change.",
        _object(["project_id"], project_id=PROJECT_ID),
        _live_view_url,
    ),
    "get_style_url": (
        "The URL of the project as a MapLibre style (version 8) that any MapLibre client "
        "draws as maproom does. Read with the same API key; with public=true, the style of a "
        "new live view link instead, readable by anyone who has it and following every change.",
        _object(
            ["project_id"],
            project_id=PROJECT_ID,
            public={"type": "boolean", "default": False},
        ),
        _style_url,
    ),
    "chat": (
        "Ask the project's own map agent to do something in plain words; returns its reply, "
        "the actions it applied, and a question when it needs a choice.",
        _object(
            ["project_id", "message"],
            project_id=PROJECT_ID,
            message=_property(ChatRequest, "message"),
        ),
        _chat,
    ),
    "query_features": (
        "A layer's features as GeoJSON: those a filter keeps, sorted by a field (the five "
        "largest cities: sort=population, order=desc, limit=5), a page at a time.",
        _object(
            ["project_id", "layer_id"],
            project_id=PROJECT_ID,
            layer_id=LAYER_ID,
            filter=FILTER,
            sort={"type": "string", "description": "A field to sort by"},
            order={"type": "string", "enum": ["asc", "desc"]},
            limit={"type": "integer", "minimum": 1, "maximum": FEATURES_PAGE_MAX, "default": 100},
            fields={"type": "string", "description": "Properties to return, comma-separated"},
            cursor={"type": "string", "description": "meta.nextCursor of the page before"},
        ),
        _query_features,
    ),
    "layer_stats": (
        "How many of a layer's features a filter keeps; with a field: nulls, min, max, mean, "
        "sum and its 20 most frequent values over them.",
        _object(
            ["project_id", "layer_id"],
            project_id=PROJECT_ID,
            layer_id=LAYER_ID,
            field={"type": "string", "description": "A field to describe"},
            filter=FILTER,
        ),
        _layer_stats,
    ),
    "project_history": (
        "A project's versions, newest first: who changed what (summary, actions), and how "
        "(api, actions, chat, mcp, restore).",
        _object(
            ["project_id"],
            project_id=PROJECT_ID,
            limit={"type": "integer", "minimum": 1, "maximum": HISTORY_PAGE_MAX, "default": 20},
        ),
        _history,
    ),
    "restore_version": (
        "Make the project as it was after a version of its history (itself a new version); "
        "lists the layers that could not come back.",
        _object(
            ["project_id", "version"],
            project_id=PROJECT_ID,
            version={"type": "integer", "minimum": 1, "description": "From project_history"},
        ),
        _restore_version,
    ),
    "undo": (
        "Take back the project's latest change not taken back yet (the same as the `undo` "
        "map action); successive undos walk back one change at a time.",
        _object(["project_id"], project_id=PROJECT_ID),
        _undo,
    ),
    "redo": (
        "Re-apply what the last undo took back, if nothing else changed since.",
        _object(["project_id"], project_id=PROJECT_ID),
        _redo,
    ),
}
LOCAL_TOOLS: dict[str, tuple[str, dict[str, Any], Handler]] = {
    "upload_file": (
        "Upload a file of this machine (GeoJSON, CSV, Excel, GeoTIFF, ...) into a project; "
        "it becomes a layer.",
        _object(
            ["project_id", "path"],
            project_id=PROJECT_ID,
            path={"type": "string", "description": "A path on this machine"},
            name={"type": "string", "description": "The layer's name"},
        ),
        _upload_file,
    ),
}


def build(client_for: ClientFor, *, local_files: bool) -> Server[Any, Any]:
    """The MCP server; `local_files` adds `upload_file` (stdio only: the files of the machine
    the server runs on are the user's only there)."""
    tools = {**TOOLS, **(LOCAL_TOOLS if local_files else {})}
    server: Server[Any, Any] = Server("maproom", version=__version__)

    @server.list_tools()  # type: ignore[no-untyped-call,untyped-decorator]
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(name=name, description=description, inputSchema=schema)
            for name, (description, schema, _) in tools.items()
        ]

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name not in tools:
            return _refused(ApiError(400, "bad_request", f"no tool named {name!r}"))
        _, schema, handler = tools[name]
        wrong = _wrong_arguments(schema, arguments or {})
        if wrong:
            return _refused(wrong)
        try:
            async with client_for() as mr:
                answer = await handler(mr, arguments)
        except ApiError as exc:
            return _refused(exc)
        except ServiceUnreachable as exc:
            return _refused(ApiError(502, "bad_gateway", f"maproom is unreachable: {exc}"))
        return _result(answer)

    @server.list_resource_templates()  # type: ignore[no-untyped-call,untyped-decorator]
    async def resource_templates() -> list[types.ResourceTemplate]:
        return [
            types.ResourceTemplate(
                uriTemplate=f"{RESOURCE_PREFIX}{{id}}",
                name="project",
                description="A project as GET /sessions/{id} returns it",
                mimeType="application/json",
            )
        ]

    @server.list_resources()  # type: ignore[no-untyped-call,untyped-decorator]
    async def resources() -> list[types.Resource]:
        async with client_for() as mr:
            return [
                types.Resource(
                    uri=AnyUrl(f"{RESOURCE_PREFIX}{p.id}"),
                    name=p.title,
                    mimeType="application/json",
                )
                async for p in mr.projects()
            ]

    @server.read_resource()  # type: ignore[no-untyped-call,untyped-decorator]
    async def read(uri: AnyUrl) -> list[ReadResourceContents]:
        text = str(uri)
        if not text.startswith(RESOURCE_PREFIX):
            raise ValueError(f"unknown resource {text}; projects are {RESOURCE_PREFIX}{{id}}")
        async with client_for() as mr:
            project = await mr.project(text.removeprefix(RESOURCE_PREFIX))
        return [ReadResourceContents(project.model_dump_json(), "application/json")]

    return server


JSON_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "array": list, "object": dict}


def _wrong_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> ApiError | None:
    """The arguments' missing or ill-typed top-level fields, as a `bad_request` (what lies
    inside them, the actions and the style, the API validates)."""
    details = [{"path": field, "message": "required"}
               for field in schema["required"] if field not in arguments]  # fmt: skip
    for field, value in arguments.items():
        expected = schema["properties"].get(field, {}).get("type")
        if expected in JSON_TYPES and not isinstance(value, JSON_TYPES[expected]):
            details.append({"path": field, "message": f"expected {expected}"})
    if not details:
        return None
    fields = ", ".join(f"{d['path']} ({d['message']})" for d in details)
    return ApiError(400, "bad_request", f"invalid arguments: {fields}", details)


def _result(answer: Any) -> types.CallToolResult:
    data = answer.model_dump(mode="json") if hasattr(answer, "model_dump") else answer
    text = json.dumps(data, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structuredContent=data
    )


def _refused(error: ApiError) -> types.CallToolResult:
    envelope = {"error": {"code": error.code, "message": error.message, "details": error.details}}
    text = json.dumps(envelope, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=True)
