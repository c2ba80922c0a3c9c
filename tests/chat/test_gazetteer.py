"""The built-in agent's gazetteer, alone: which place a name means, and when it is unclear."""

from __future__ import annotations

import pytest

from maproom.domain.chat.builtin.gazetteer import Gazetteer


@pytest.fixture(scope="module")
def places() -> Gazetteer:
    return Gazetteer.load()


@pytest.mark.parametrize(
    ("text", "label", "kind"),
    [
        ("Paris", "Paris, France", "city"),
        ("sao paulo", "São Paulo, Brazil", "city"),
        ("Pars", "Paris, France", "city"),  # a typo, not Pará (one letter off, but short)
        ("Germnay", "Germany", "country"),  # two letters swapped in a longer name
        ("Europe", "Europe", "area"),
        ("the Middle East", "Middle East", "area"),
        ("africa", "Africa", "area"),  # not Mahdia, whose other names include "Africa"
        ("Tuscany", "Tuscany, Italy", "region"),  # the provinces' group, not a Canadian town
        ("Scotland", "Scotland, United Kingdom", "region"),
        ("Florence, Tuscany", "Florence, Italy", "city"),
        ("Edinburgh, Scotland", "Edinburgh, United Kingdom", "city"),
        ("Springfield, Illinois", "Springfield, Illinois, United States", "city"),
        ("Portland Maine", "Portland, Maine, United States", "city"),
        ("Luxembourg", "Luxembourg", "city"),  # the capital stands for its country
        ("New York", "New York City, New York, United States", "city"),
        ("Buenos Aires", "Buenos Aires, Argentina", "city"),  # not the province around it
        ("Bombay", "Mumbai, Maharashtra, India", "city"),
        ("capital of Japan", "Tokyo, Japan", "city"),
        ("Mallorca", "Mallorca", "area"),
    ],
)
def test_a_name_means_one_place(places: Gazetteer, text: str, label: str, kind: str) -> None:
    found = places.find(text)
    assert found.clear, [p.label for p in found.candidates]
    best = found.best
    assert best is not None
    assert (best.label, best.kind) == (label, kind)


@pytest.mark.parametrize(
    ("text", "both"),
    [
        ("Georgia", {"Georgia", "Georgia, United States"}),
        (
            "Springfield",
            {"Springfield, Missouri, United States", "Springfield, Illinois, United States"},
        ),
        ("Valencia", {"Valencia, Spain", "Valencia, Venezuela"}),
    ],
)
def test_close_candidates_are_unclear(places: Gazetteer, text: str, both: set[str]) -> None:
    found = places.find(text)
    assert not found.clear
    assert both <= {p.label for p in found.candidates[:4]}


@pytest.mark.parametrize("text", ["Narnia", "Zarblenstan", "qwerty"])
def test_made_up_names_find_nothing(places: Gazetteer, text: str) -> None:
    assert places.find(text).candidates == []


def test_every_country_region_and_area_has_a_box_around_its_center(places: Gazetteer) -> None:
    for place in places.places:
        if place.kind in ("city", "landmark"):  # points
            continue
        assert place.box is not None, place
        west, south, east, north = place.box
        assert south <= place.lat <= north, place
        if west <= east:  # boxes across the antimeridian have west > east
            assert west <= place.lng <= east, place
