"""Session stores: where a host keeps each session's baseline and tombstone.

The engine is stateless (`wit/pinning.wit`): a host keeps one baseline per
session key as an opaque string, and a tombstone when drift closed the
session (`block` + `error` + `invalidate`), so that key stays refused until
the tombstone expires. This mirrors the wasmtime host's `Sessions`
(`host/src/session.rs`).

- `MemoryStore`: one process; entries expire on access (and `sweep()`).
- `RedisStore`: several replicas of a gateway behind one Redis; redis-py's
  asyncio client, expiry by Redis itself (`PX`). Tombstones live under their
  own key, so an active baseline written by a replica that has not yet seen
  the drift can never erase a tombstone.

Stores are async (the MCP SDK is). TTLs are seconds.

Pin records (pins across runs: `mcp_guard.pins`, `guarded_session(...,
pins=Pins(store, server))`) live in a namespace of their own, without
expiry: pins outlive every session. A record is named by its id
(`Guard.record_id(key)`: a hash of the server key, so no key text ever
becomes part of a store key). `PinStore` is that contract: `get_record`,
`put_record` (replaces a record in one write: a reader sees the old record or
the new one, never half of one), `delete_record`, `list_records`.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Union

if TYPE_CHECKING:  # pragma: no cover
    import redis.asyncio


@dataclass(frozen=True)
class Active:
    """The session's baseline (opaque engine text)."""

    baseline: str


@dataclass(frozen=True)
class Tombstone:
    """The session was closed by drift; refuse it until the entry expires."""

    reason: str


Entry = Union[Active, Tombstone]


class SessionStore(Protocol):
    """Storage of session entries with expiry. An expired entry is absent."""

    async def get(self, key: str) -> Optional[Entry]:
        """The live entry for `key`; a tombstone wins over a baseline."""
        ...

    async def put_baseline(self, key: str, baseline: str, ttl: float) -> None:
        """Stores the session's baseline for `ttl` seconds (refreshed on each use)."""
        ...

    async def tombstone(self, key: str, reason: str, ttl: float) -> None:
        """Closes the session for `ttl` seconds; its baseline is dropped."""
        ...

    async def remove(self, key: str) -> None:
        """Forgets the session (baseline and tombstone)."""
        ...


class PinStore(Protocol):
    """Storage of pin records by record id, without expiry."""

    async def get_record(self, record_id: str) -> Optional[str]:
        """The stored record text, or None."""
        ...

    async def put_record(self, record_id: str, text: str) -> None:
        """Replaces the record in one write."""
        ...

    async def delete_record(self, record_id: str) -> None:
        ...

    async def list_records(self) -> list[tuple[str, str]]:
        """Every `(id, text)`, sorted by id."""
        ...


class MemoryStore:
    """An in-process store (sessions with expiry, and pin records without).
    `clock` (seconds, monotonic) is injectable for tests."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._baselines: dict[str, tuple[str, float]] = {}
        self._tombstones: dict[str, tuple[str, float]] = {}
        self._records: dict[str, str] = {}

    async def get_record(self, record_id: str) -> Optional[str]:
        return self._records.get(record_id)

    async def put_record(self, record_id: str, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError("a pin record is text")
        self._records[record_id] = text

    async def delete_record(self, record_id: str) -> None:
        self._records.pop(record_id, None)

    async def list_records(self) -> list[tuple[str, str]]:
        return sorted(self._records.items())

    def _live(self, table: dict[str, tuple[str, float]], key: str) -> Optional[str]:
        item = table.get(key)
        if item is None:
            return None
        if item[1] > self._clock():
            return item[0]
        del table[key]
        return None

    async def get(self, key: str) -> Optional[Entry]:
        reason = self._live(self._tombstones, key)
        if reason is not None:
            return Tombstone(reason)
        baseline = self._live(self._baselines, key)
        return Active(baseline) if baseline is not None else None

    async def put_baseline(self, key: str, baseline: str, ttl: float) -> None:
        self._baselines[key] = (baseline, self._clock() + ttl)

    async def tombstone(self, key: str, reason: str, ttl: float) -> None:
        self._baselines.pop(key, None)
        self._tombstones[key] = (reason, self._clock() + ttl)

    async def remove(self, key: str) -> None:
        self._baselines.pop(key, None)
        self._tombstones.pop(key, None)

    def sweep(self) -> None:
        """Drops every expired entry (memory stays bounded by live sessions)."""
        now = self._clock()
        for table in (self._baselines, self._tombstones):
            for k in [k for k, (_, exp) in table.items() if exp <= now]:
                del table[k]

    def __len__(self) -> int:
        return len(self._baselines) + len(self._tombstones)


class RedisStore:
    """Sessions in Redis, shared by every replica that uses the same `prefix`.

    `client` is a `redis.asyncio.Redis` (or anything with its `get`, `mget`,
    `set`, `delete`, `scan_iter` and `pipeline`). Keys: `{prefix}b:{key}`
    (baseline) and `{prefix}t:{key}` (tombstone), both with a Redis TTL; pin
    records under `{prefix}records:{id}`, without expiry (one `SET` replaces a
    record whole).
    """

    def __init__(self, client: "redis.asyncio.Redis", prefix: str = "mcp-guard:") -> None:
        self._r = client
        self._prefix = prefix

    @classmethod
    def from_url(cls, url: str, prefix: str = "mcp-guard:") -> "RedisStore":
        import redis.asyncio

        return cls(redis.asyncio.Redis.from_url(url), prefix)

    def _keys(self, key: str) -> tuple[str, str]:
        return f"{self._prefix}b:{key}", f"{self._prefix}t:{key}"

    async def get(self, key: str) -> Optional[Entry]:
        b, t = self._keys(key)
        baseline, tomb = await self._r.mget([b, t])
        if tomb is not None:
            return Tombstone(json.loads(tomb)["reason"])
        if baseline is not None:
            return Active(baseline.decode("utf-8") if isinstance(baseline, bytes) else baseline)
        return None

    async def put_baseline(self, key: str, baseline: str, ttl: float) -> None:
        b, _ = self._keys(key)
        await self._r.set(b, baseline, px=max(1, int(ttl * 1000)))

    async def tombstone(self, key: str, reason: str, ttl: float) -> None:
        b, t = self._keys(key)
        pipe = self._r.pipeline(transaction=True)
        pipe.set(t, json.dumps({"reason": reason}), px=max(1, int(ttl * 1000)))
        pipe.delete(b)
        await pipe.execute()

    async def remove(self, key: str) -> None:
        await self._r.delete(*self._keys(key))

    def _record(self, record_id: str) -> str:
        return f"{self._prefix}records:{record_id}"

    @staticmethod
    def _str(v: Any) -> str:
        return v.decode("utf-8") if isinstance(v, bytes) else str(v)

    async def get_record(self, record_id: str) -> Optional[str]:
        v = await self._r.get(self._record(record_id))
        return None if v is None else self._str(v)

    async def put_record(self, record_id: str, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError("a pin record is text")
        await self._r.set(self._record(record_id), text)

    async def delete_record(self, record_id: str) -> None:
        await self._r.delete(self._record(record_id))

    async def list_records(self) -> list[tuple[str, str]]:
        namespace = self._record("")
        # The prefix escaped: one holding `*`, `?` or `[` must not match other namespaces.
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", namespace) + "*"
        keys = sorted({self._str(k) async for k in self._r.scan_iter(match=pattern, count=1000)})
        if not keys:
            return []
        texts = await self._r.mget(keys)
        return [(k[len(namespace) :], self._str(t)) for k, t in zip(keys, texts) if t is not None]

    async def aclose(self) -> None:
        await self._r.aclose()
