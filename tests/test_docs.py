"""The docs inside the repository stand on their own: every action type is documented with its
parameters and a valid example, and the docs link only to files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from maproom.domain.actions import models

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = (ROOT / "docs" / "actions.md").read_text()
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def sections() -> dict[str, str]:
    """The text under each `### ...` heading of docs/actions.md, by every type it names."""
    found: dict[str, str] = {}
    for block in re.split(r"^### ", ACTIONS, flags=re.MULTILINE)[1:]:
        heading, _, body = block.partition("\n")
        for kind in re.findall(r"`([a-z_]+)`", heading):
            found[kind] = body
    return found


@pytest.mark.parametrize("kind", models.TYPES)
def test_every_action_type_is_documented_with_its_parameters(kind: str) -> None:
    body = sections().get(kind)
    assert body is not None, f"docs/actions.md has no section for {kind}"
    for name in models.MODELS[kind].model_fields:
        if name != "type":
            assert f"`{name}`" in body, f"{kind}: parameter {name} is not documented"
    examples = [
        orjson.loads(text) for text in re.findall(r"```json\n(.*?)\n```", body, flags=re.DOTALL)
    ]
    assert any(example.get("type") == kind for example in examples), f"{kind}: no example"


def test_every_example_in_the_actions_doc_is_a_valid_action() -> None:
    for text in re.findall(r"```json\n(.*?)\n```", ACTIONS, flags=re.DOTALL):
        example = orjson.loads(text)
        if "type" in example:
            models.parse(example)


@pytest.mark.parametrize(
    "document", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name
)
def test_links_point_inside_the_repository(document: Path) -> None:
    for target in LINK.findall(document.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        resolved = (document.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{document.name} links outside: {target}"
        assert resolved.exists(), f"{document.name} links to a missing file: {target}"
