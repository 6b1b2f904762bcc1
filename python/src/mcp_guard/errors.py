"""Typed exceptions. Every error the engine returns is a `GuardError` whose
`kind` is the WIT error case id (`invalid-json`, `duplicate-key`, `too-deep`,
`too-large`, `invalid-envelope`, `invalid-policy`, `invalid-baseline`,
`other`; `normalize_schema` adds `unsupported`), so callers branch on ids,
never on message text."""

from __future__ import annotations

from typing import Any, Optional


class GuardError(Exception):
    """The engine refused an input.

    - `kind`: the WIT error case id (stable API).
    - `detail`: the case's payload as plain data: a dict for record payloads
      (`{"offset": 3, "reason": ...}`, `{"field": "core.x", "reason": ...}`),
      a string or int otherwise. Reasons are prose, not API.
    """

    def __init__(self, kind: str, detail: Any = None, message: Optional[str] = None) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(message or _message(kind, detail))


def _message(kind: str, detail: Any) -> str:
    if isinstance(detail, dict):
        if kind == "invalid-policy":
            field = detail.get("field") or "(policy)"
            return f"invalid-policy: {field}: {detail.get('reason')}"
        if kind == "invalid-json":
            return f"invalid-json at byte {detail.get('offset')}: {detail.get('reason')}"
        if kind == "duplicate-key":
            return f"duplicate-key {detail.get('key')!r} in object at {detail.get('pointer')!r}"
        if kind == "too-large":
            return f"too-large: {detail.get('actual')} bytes, limit {detail.get('limit')}"
    if detail is None:
        return kind
    return f"{kind}: {detail}"


def not_unicode(argument: str, text: str, index: int) -> GuardError:
    """`invalid-json` for a host string that cannot cross into the component.

    The component takes UTF-8; a `str` holding a surrogate code point (a lone
    UTF-16 half, or bytes decoded with `surrogateescape`) has no UTF-8 form.
    It is refused before it crosses, never replaced, naming the argument and
    the index of the first surrogate (docs/component.md, "Strings that cannot cross").
    `detail`: `{"argument", "index", "offset", "reason"}`, `offset` being the
    UTF-8 byte length of the text before it.
    """
    cp = ord(text[index])
    reason = f"surrogate code point U+{cp:04X} at index {index} has no UTF-8 form"
    offset = len(text[:index].encode("utf-8"))  # the first surrogate: the prefix encodes
    detail = {"argument": argument, "index": index, "offset": offset, "reason": reason}
    return GuardError("invalid-json", detail, f"invalid-json: {argument} is not Unicode text: {reason}")


def check_unicode(argument: str, text: str) -> str:
    """`text` if it has a UTF-8 form, else `not_unicode` raised. O(1) for ASCII."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            raise not_unicode(argument, text, e.start) from None
    return text


class EngineTrap(GuardError):
    """The component trapped (a bug in the engine, or the memory limit was hit).

    `kind` is `trap`. The instance is discarded; the next call on the same
    `Guard` runs in a fresh one. Treat the input as refused (fail closed).
    """

    def __init__(self, message: str) -> None:
        super().__init__("trap", message, f"trap: {message}")


class ListingRefused(GuardError):
    """A `tools/list` result was refused by pinning (drift under `block`).

    `kind` is `drift` (the session goes on), or `session-invalidated` (the
    session is closed: every later listing and call is refused until the
    tombstone expires). `message` is the engine's one line for the client.
    """


class CallRefused(GuardError):
    """A `tools/call` was refused by the call gate; it never reached the server.

    `kind` (also `reason`) is the WIT `refusal-reason` id: `session-invalidated`,
    `hidden-tool`, `drifted-tool`, `confusable-name`, `unknown-tool`,
    `invalid-arguments`. `violations` holds `{pointer, reason}` dicts for
    `invalid-arguments`.
    """

    def __init__(self, reason: str, message: str, violations: Optional[list[dict[str, str]]] = None) -> None:
        super().__init__(reason, message, f"{reason}: {message}")
        self.reason = reason
        self.violations = violations or []
