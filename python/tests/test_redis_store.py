"""`RedisStore` against a real `redis-server` this test starts on loopback:
two wrapped sessions (two replicas of a gateway, each with its own server
process) that share one Redis and one session key see the same pin and the
same tombstone. Plus `MemoryStore` expiry with a fake clock."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator

import anyio
import pytest
import redis.asyncio
from mcp import stdio_client

from mcp_guard import CallRefused, Guard, ListingRefused
from mcp_guard.mcp import guarded_session
from mcp_guard.store import Active, MemoryStore, RedisStore, Tombstone

from test_mcp_e2e import INVALIDATE, params, run, wait_stale


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    exe = shutil.which("redis-server")
    assert exe, "redis-server not installed (scripts/test-python.sh installs it: apt-get install -y redis-server)"
    port = free_port()
    workdir: Path = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_store_round_trip_and_expiry(redis_url: str) -> None:
    async def body() -> None:
        store = RedisStore(redis.asyncio.Redis.from_url(redis_url), prefix="t1:")
        assert await store.get("k") is None
        await store.put_baseline("k", "B1", ttl=60)
        assert await store.get("k") == Active("B1")
        await store.tombstone("k", "drift closed it", ttl=0.3)
        assert await store.get("k") == Tombstone("drift closed it")
        # A replica that has not seen the drift writes a baseline: the tombstone still wins.
        await store.put_baseline("k", "B2", ttl=60)
        assert await store.get("k") == Tombstone("drift closed it")
        await anyio.sleep(0.5)
        assert await store.get("k") == Active("B2")
        await store.remove("k")
        assert await store.get("k") is None
        await store.aclose()

    run(body)


def test_two_replicas_share_pins_and_tombstones(redis_url: str) -> None:
    key = "session-42"

    async def body() -> None:
        guard = Guard(INVALIDATE)
        a_store = RedisStore.from_url(redis_url, prefix="t2:")
        b_store = RedisStore.from_url(redis_url, prefix="t2:")
        async with stdio_client(params("rug_pull_server.py")) as (ra, wa), stdio_client(params("rug_pull_server.py")) as (rb, wb):
            async with guarded_session(ra, wa, guard, store=a_store, session_key=key) as a, guarded_session(
                rb, wb, Guard(INVALIDATE), store=b_store, session_key=key
            ) as b:
                # Replica A serves the listing and pins it.
                await a.list_tools()
                # Replica B never listed, yet the shared pin makes `add` callable there...
                assert (await b.call_tool("add", {"a": 20, "b": 22})).content[0].text == "42"
                # ...and B's own listing is compared with A's pin (same tools: served).
                assert sorted(t.name for t in (await b.list_tools()).tools) == ["add", "mutate"]
                assert b.last_listing["drift"] == []

                # A's upstream pulls the rug; A's next listing closes the session for everyone.
                await a.call_tool("mutate", {})
                await wait_stale(a)
                with pytest.raises(ListingRefused) as e:
                    await a.list_tools()
                assert e.value.kind == "session-invalidated"
                assert isinstance(await b_store.get(key), Tombstone)
                with pytest.raises(CallRefused) as ce:
                    await b.call_tool("add", {"a": 1, "b": 1})
                assert ce.value.reason == "session-invalidated"
                with pytest.raises(ListingRefused):
                    await b.list_tools()
        await a_store.aclose()
        await b_store.aclose()

    run(body)


def test_memory_store_expires_baselines_and_tombstones() -> None:
    now = [1000.0]
    store = MemoryStore(clock=lambda: now[0])

    async def body() -> None:
        await store.put_baseline("s", "B", ttl=10)
        assert await store.get("s") == Active("B")
        await store.tombstone("s", "closed", ttl=5)
        assert await store.get("s") == Tombstone("closed")
        now[0] += 6
        assert await store.get("s") is None  # tombstone expired, its baseline was dropped
        await store.put_baseline("t", "B", ttl=1)
        now[0] += 2
        store.sweep()
        assert len(store) == 0

    run(body)


def test_pins_across_runs_in_redis_a_rug_pull_is_quarantined_until_approved(redis_url: str, tmp_path: Path) -> None:
    """Three runs of `mcp.Client` (2026-07-28) against the SDK server, the
    pin record in Redis: run 2 holds back the rug-pulled tool, approval
    serves it in run 3 (pins_runs.py)."""
    from pins_runs import rug_pull_across_runs, run_all

    prefix = f"pins-{time.monotonic_ns()}:"

    async def body() -> None:
        store = RedisStore.from_url(redis_url, prefix)
        r = redis.asyncio.Redis.from_url(redis_url)
        try:
            await rug_pull_across_runs(store, tmp_path)
            keys = [k async for k in r.scan_iter(match=f"{prefix}records:*")]
            assert len(keys) == 1, keys
            assert await r.pttl(keys[0]) == -1, "pins outlive sessions: no expiry"
        finally:
            await store.aclose()
            await r.aclose()

    run_all(body)


def test_redis_pin_records_are_replaced_whole_listed_by_id_and_a_glob_prefix_matches_only_itself(redis_url: str) -> None:
    async def body() -> None:
        base = f"glob-{time.monotonic_ns()}"
        store = RedisStore.from_url(redis_url, f"{base}*")
        other = RedisStore.from_url(redis_url, f"{base}x")
        try:
            await other.put_record("aa", "other")
            assert await store.get_record("aa") is None
            await store.put_record("bb", "one")
            await store.put_record("aa", "two")
            await store.put_record("bb", "three")
            assert await store.list_records() == [("aa", "two"), ("bb", "three")]
            await store.delete_record("aa")
            assert await store.list_records() == [("bb", "three")]
            assert await other.list_records() == [("aa", "other")]
        finally:
            await store.aclose()
            await other.aclose()

    anyio.run(body)
