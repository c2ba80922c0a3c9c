"""Moving the camera: zoom, pan, reset, rotate and tilt ("zoom in a bit", "zoom to level
twelve", "pan north by 500 km", "rotate the map 45 degrees", "tilt the map so it looks 3D")."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.builtin import keywords
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome, phrase
from maproom.domain.chat.builtin.resolvers import places
from maproom.domain.chat.builtin.text import number
from maproom.geo import camera

ONE_LEVEL = frozenset(
    ["more", "again", "once", "one more", "in", "out", "further", "farther", "some more",
     "even more", "further out", "further in"]
)  # fmt: skip
TILT = 60.0  # degrees: "tilt the map", "3D"
MAX_PITCH = 85.0


def levels(text: str) -> float | None:
    """Zoom levels an amount phrase means ("a bit": 0.5, "twice": 2, "a lot": 3, "way": 5,
    "all the way": 24)."""
    said = text.strip().lower()
    if not said or said in ONE_LEVEL:
        return 1.0
    if "all the way" in said:
        return 24.0
    if re.search(r"bit|little|slightly|tad", said):
        return 0.5
    if re.search(r"\bway\b", said):  # "zoom way out": further than "a lot"
        return 5.0
    if re.search(r"lot|much|far", said):
        return 3.0
    if re.match(r"a (?:couple|few)\b", said):
        return 2.0 if "couple" in said else 3.0
    found = re.search(
        r"(?:by )?(\S+)(?: more)?(?: levels?| times?| steps?| notches?| clicks?)?$", said
    )
    value = number(found.group(1)) if found else None
    if value is None or not 0 < value <= 24:
        return None
    return value


def _there(mind: Mind, slots: dict[str, str]) -> list[float]:
    """Where a camera move happens: "there" is the last place named, else the view's center."""
    if slots.get("there") and mind.memory.place:
        return [mind.memory.place["lng"], mind.memory.place["lat"]]
    return list(mind.state["center"])


@resolves("home")
def home(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "reset the view"."""
    return Done([{"type": "go_home"}], [phrase("home")])


@resolves("zoom_level")
def zoom_level(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "zoom to level 12", "zoom level twelve there"."""
    if not slots.get("level") and slots.get("there"):  # "zoom in there"
        return zoom(mind, {**slots, "dir": "in"})
    level = number(slots.get("level", ""))
    if level is None or not 0 <= level <= camera.MAX_ZOOM:
        return None
    action = {"type": "jump_to", "center": _there(mind, slots), "zoom": level}
    return Done([action], [phrase("zoom_level", level=f"{level:g}")])


@resolves("zoom")
def zoom(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "zoom in", "zoom out a bit", "closer", "zoom +2"."""
    direction = (slots.get("dir") or "").strip()
    inward = direction in ("in", "closer", "zoom in") or direction == ""
    if direction in ("out", "further", "farther", "back", "away", "further away",
                     "farther away", "zoom out", "off"):  # fmt: skip
        inward = False
    if direction.startswith("too "):  # "too close": out; "too far away": in
        inward = bool(re.search(r"far|zoomed out", direction))
    if slots.get("sign"):  # "zoom +2", "zoom -1"
        inward = slots["sign"] == "+"
    most = re.search(r"all the way|\bmax(?:imum)?\b|\bfull zoom", slots.get("clause", ""))
    count = 24.0 if most else levels(slots.get("amount", ""))
    if count is None:
        return None
    action: dict[str, Any] = {"type": "zoom_in" if inward else "zoom_out"}
    if count != 1:
        action["levels"] = count
    how = "all" if count >= 24 else "little" if count < 1 else "levels" if count != 1 else "one"
    actions = [action]
    if slots.get("there") and mind.memory.place and inward and not most:
        # "which site gets the most visitors?" "zoom there": all the way to it, from afar
        place = places.from_json(mind.memory.place)
        if places.fly_to(place, None)["zoom"] > float(mind.state.get("zoom") or 0) + count:
            return places.to_place(mind, "goto", {}, place)
    if slots.get("there") and mind.memory.place:  # "zoom in there": on that place first
        center = [mind.memory.place["lng"], mind.memory.place["lat"]]
        actions.insert(0, {"type": "jump_to", "center": center})
    key = f"zoomed_{'in' if inward else 'out'}_{how}"
    return Done(actions, [phrase(key, levels=f"{count:g}")])


@resolves("pan")
def pan(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "pan left", "move the map north a bit", "move east by 500 km"."""
    direction = slots.get("dir", "").strip().lower()
    names = {"up": "north", "down": "south", "left": "west", "right": "east"}
    if direction in ("northeast", "northwest", "southeast", "southwest"):
        first, second = direction[:5], direction[5:]
        return Done([{"type": "pan", "direction": first}, {"type": "pan", "direction": second}],
                    [phrase("panned", direction=direction)])  # fmt: skip
    amount = 256.0
    said = (slots.get("amount") or slots.get("amount_before") or "").strip().lower()
    distance = keywords.DISTANCE.search(said)
    if distance:  # "by 500 km": in pixels at the view's zoom and latitude
        amount = _pixels(mind, float(distance.group("number")), distance.group("unit"))
    elif re.search(r"bit|little|slightly|tad", said):
        amount = 128.0
    elif re.search(r"lot|far|way|much", said):
        amount = 512.0
    elif said and levels(said) is None:
        return None
    return Done([{"type": "pan", "direction": direction, "amount": amount}],
                [phrase("panned", direction=names.get(direction, direction))])  # fmt: skip


def _pixels(mind: Mind, distance: float, unit: str) -> float:
    """How many pixels of the view a distance on the ground is."""
    state = mind.state
    metres = distance * (1609.34 if unit.startswith("mi") else 1000.0)
    if unit.startswith("deg") or unit == "°":
        metres = distance * 111_320.0
    per_pixel = camera.metres_per_pixel(state["center"][1], state["zoom"])
    return round(max(1.0, min(100_000.0, metres / per_pixel)), 1)


def _move(mind: Mind, **view: float) -> dict[str, Any]:
    """A `jump_to` that changes only bearing or pitch (and keeps where the map looks)."""
    state = mind.state
    return {"type": "jump_to", "center": state["center"], "zoom": state["zoom"], **view}


@resolves("rotate")
def rotate(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "rotate the map 45 degrees", "rotate left 30°", "face north", "reset the rotation"."""
    said = slots.get("clause", "")
    up = {"east": 90.0, "south": 180.0, "west": -90.0}.get(slots.get("up") or "")
    if up is not None:  # "turn the map so east is at the top"
        return Done([_move(mind, bearing=up)], [phrase("bearing", degrees=f"{up:g}")])
    if slots.get("both"):  # "reset the rotation and the tilt"
        return Done([_move(mind, bearing=0, pitch=0)],
                    [phrase("bearing_reset"), phrase("pitch_reset")])  # fmt: skip
    if slots.get("reset") or re.search(r"\bnorth(?: up)?\b|\breset\b|\bstraight\b", said):
        return Done([_move(mind, bearing=0)], [phrase("bearing_reset")])
    value = number(slots.get("degrees") or "")
    if value is None:
        value = 90.0 if re.search(r"\bquarter\b", said) else 45.0
    if re.search(r"\b(?:left|anti-?clockwise|counter-?clockwise|west)\b", said):
        value = -value
    if slots.get("by"):  # "rotate by 30 more": from the bearing now
        value += float(mind.state.get("bearing") or 0)
    bearing = ((value + 180) % 360) - 180
    return Done([_move(mind, bearing=bearing)], [phrase("bearing", degrees=f"{bearing:g}")])


@resolves("tilt")
def tilt(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "tilt the map", "3D view", "pitch 30 degrees", "flat", "look straight down"."""
    said = slots.get("clause", "")
    if slots.get("flat") or re.search(r"\b(?:flat|2d|straight down|top.down|untilt)\b", said):
        return Done([_move(mind, pitch=0)], [phrase("pitch_reset")])
    value = number(slots.get("degrees") or "")
    if value is None:
        value = 30.0 if re.search(r"\b(?:bit|little|slightly)\b", said) else TILT
    value = max(0.0, min(MAX_PITCH, value))
    return Done([_move(mind, pitch=value)], [phrase("pitch", degrees=f"{value:g}")])


@resolves("zoom_there")
def zoom_there(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "zoom to level 12 over Lyon": a place at a zoom (the zoom of the place phrase)."""
    return places.outcome_for(mind, "goto", slots, slots.get("place", ""))


@resolves("coordinates")
def coordinates(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "go to lat 40 lon -3", "fly to 48.85, 2.35" (latitude first, as maps write it,
    unless the first cannot be one)."""
    if slots.get("lat") is not None and slots.get("lng") is not None:
        lat, lng = float(slots["lat"]), float(slots["lng"])
    elif slots.get("a") is not None and slots.get("b") is not None:
        lat, lng = float(slots["a"]), float(slots["b"])
        if abs(lat) > 90 >= abs(lng):
            lat, lng = lng, lat
    else:
        return None
    if abs(lat) > 85.06 or abs(lng) > 180:
        return None
    zoom = number(slots.get("zoom") or "") or 10.0
    action = {"type": "fly_to", "center": [lng, lat], "zoom": camera.clamp_zoom(zoom)}
    return Done([action], [phrase("flew", place=f"{lat:g}, {lng:g}")])
