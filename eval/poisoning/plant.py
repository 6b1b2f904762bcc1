"""Where a payload goes in a tool: the locations a model reads (shared by generate.py, which
builds the labelled set, and transfer.py, which plants the same way in tools nobody fitted on).
Standard library only; no data of any part lives here."""

import json
import re

# Where a model reads text. "description" is the common case and gets the
# first item of every family; the others rotate.
LOCATIONS = [
    "description", "title", "annotations.title", "property.description",
    "property.title", "property.name", "enum", "default", "examples", "const",
    "$defs.description", "outputSchema.description", "format", "pattern",
    "$defs.key", "split.fields", "split.tools",
]
# Properties added for the `const` location.
CONST_PROPS = ["client_version", "schema_version", "source", "api_version"]


def copy_tool(tool):
    return json.loads(json.dumps(tool))


def string_props(tool):
    props = tool["inputSchema"].setdefault("properties", {})
    out = [k for k, v in props.items() if v.get("type") == "string"]
    if not out:
        # A carrier without a string property (memory's create_entities) gets
        # an ordinary one, so that string-only locations have a home.
        props["label"] = {"type": "string", "description": "Optional label"}
        out = ["label"]
    return out


def key_text(payload, style):
    flat = " ".join(payload.split())
    if style == "sentence":
        return flat
    out = re.sub(r"[^\w~./-]+", "_", flat, flags=re.UNICODE).strip("_")
    return out[:120]


def regex_escape(text):
    flat = " ".join(text.split())
    return "^(?:" + re.sub(r"([\\^$.|?*+()\[\]{}/])", r"\\\1", flat) + ")?[\\s\\S]*$"


def split_text(text):
    words = text.split(" ")
    if len(words) >= 4:
        mid = len(words) // 2
        return " ".join(words[:mid]), " ".join(words[mid:])
    mid = len(text) // 2
    return text[:mid], text[mid:]


def ensure_param(tool, param):
    props = tool["inputSchema"].setdefault("properties", {})
    if param not in props:
        props[param] = {"type": "string", "description": "Optional."}


def plant(tool, payload, location, rng, extra):
    """Put `payload` in `tool` at `location`; returns a detail string."""
    schema = tool["inputSchema"]
    props = schema.setdefault("properties", {})
    sprops = string_props(tool)
    if location == "description":
        pos = rng.choice(["append", "prepend", "newline"])
        base = tool.get("description", "")
        tool["description"] = {"append": base + " " + payload, "prepend": payload + " " + base, "newline": base + "\n\n" + payload}[pos]
        return pos
    if location == "title":
        tool["title"] = payload
        return ""
    if location == "annotations.title":
        tool.setdefault("annotations", {})["title"] = payload
        return ""
    if location == "property.description":
        p = extra.get("param") if extra.get("param") in props else rng.choice(sprops)
        d = props[p].get("description", "")
        props[p]["description"] = (d + " " + payload).strip()
        return p
    if location == "property.title":
        p = rng.choice(sprops)
        props[p]["title"] = payload
        return p
    if location == "property.name":
        style = rng.choice(["sentence", "snake"])
        props[key_text(payload, style)] = {"type": "string"}
        return style
    if location == "enum":
        for p, v in props.items():
            if "enum" in v and v.get("type") == "string":
                v["enum"] = list(v["enum"]) + [payload]
                return p
        props["mode"] = {"type": "string", "description": "Processing mode", "enum": ["standard", payload], "default": "standard"}
        return "mode"
    if location == "default":
        p = rng.choice(sprops)
        props[p]["default"] = payload
        return p
    if location == "examples":
        p = rng.choice(sprops)
        props[p]["examples"] = list(props[p].get("examples", [])) + [payload]
        return p
    if location == "const":
        p = rng.choice(CONST_PROPS)
        props[p] = {"type": "string", "const": payload}
        return p
    if location == "$defs.description":
        defs = schema.setdefault("$defs", {})
        if defs:
            name = sorted(defs)[0]
            defs[name]["description"] = payload
            return name
        defs["Options"] = {"type": "object", "description": payload, "properties": {"verbose": {"type": "boolean", "description": "Return more detail"}}}
        props["options"] = {"$ref": "#/$defs/Options"}
        return "Options"
    if location == "outputSchema.description":
        out = tool.get("outputSchema")
        if out and out.get("properties") and rng.random() < 0.5:
            name = sorted(out["properties"])[0]
            d = out["properties"][name].get("description", "")
            out["properties"][name]["description"] = (d + " " + payload).strip()
            return "property:" + name
        if not out:
            tool["outputSchema"] = {"type": "object", "properties": {"result": {"type": "string", "description": "Result text"}}}
        tool["outputSchema"]["description"] = payload
        return "root"
    if location == "format":
        p = rng.choice(sprops)
        props[p]["format"] = " ".join(payload.split())
        return p
    if location == "pattern":
        p = rng.choice(sprops)
        props[p]["pattern"] = regex_escape(payload)
        return p
    if location == "$defs.key":
        style = rng.choice(["sentence", "snake"])
        schema.setdefault("$defs", {})[key_text(payload, style)] = {"type": "object"}
        return style
    raise ValueError(location)
