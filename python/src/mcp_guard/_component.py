"""The engine component in wasmtime-py: compiled once per process, lifted fast.

This module is the only code that knows the WIT world (`wit/*.wit`,
`mcp-guard:engine/guard@0.1.0`). It uses wasmtime-py's native component API
(`wasmtime.component`): `Component`, `Linker`, `get_export_index`. The
component imports nothing, so the linker defines nothing (no WASI).

Two costs are avoided:

- **Compilation** (~1 s with Cranelift for the 1.9 MB component) happens once
  per process (`_shared()`), and the compiled artifact is cached on disk
  (`Component.serialize`), keyed by the component's SHA-256, the wasmtime
  version and the platform: a later process deserializes it in a few ms.
  `MCP_GUARD_CACHE_DIR` picks the directory, `MCP_GUARD_CACHE_DIR=off`
  disables the cache.
- **Lifting**: wasmtime-py's generic `Func.__call__` re-reads the function
  type and, for every record value, its field list through the C API; on a
  real catalog's outcome (thousands of records) that costs several times the
  guest's own work. Here each function's types are read once and turned into
  a tree of small lifters that read the C value where it lies (laid out as
  `wasmtime._ffi`, the C API's ctypes mirror, says) straight into plain Python
  dicts, lists and strings; the value is then freed with one call.
  `tests/test_lifting.py` checks the lifters against wasmtime-py's generic
  conversion on every outcome of the conformance suite and the real corpus,
  so a wasmtime release that changes the layout fails the tests, not users
  (the dependency is pinned to 50.x).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import struct
import sys
import tempfile
import threading
from ctypes import byref, pointer
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Optional

import wasmtime
from wasmtime import Config, Engine, Store, WasmtimeError
from wasmtime import _ffi as ffi  # the C API mirror wasmtime-py itself uses
from wasmtime.component import (
    Bool,
    Component,
    EnumType,
    Instance,
    Linker,
    ListType,
    OptionType,
    RecordType,
    ResultType,
    String,
    U32,
    U64,
    ValType,
    VariantType,
)

from .errors import not_unicode

PACKAGE = "mcp-guard:engine"
VERSION = "0.1.0"


def _iface(name: str) -> str:
    return f"{PACKAGE}/{name}@{VERSION}"


def wasm_path() -> Path:
    """The component this process runs: `$MCP_GUARD_WASM`, else the packaged one."""
    env = os.environ.get("MCP_GUARD_WASM")
    if env:
        return Path(env)
    return Path(str(resources.files("mcp_guard").joinpath("mcp-guard.wasm")))


# ---------------------------------------------------------------------------
# Compile once per process (plus an on-disk cache of the compiled artifact).


def _cache_dir() -> Optional[Path]:
    env = os.environ.get("MCP_GUARD_CACHE_DIR")
    if env is not None:
        return None if env in ("", "0", "off") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcp-guard" / "python"


def _compile(engine: Engine, wasm: bytes) -> Component:
    cache = _cache_dir()
    if cache is None:
        return Component(engine, wasm)
    key = hashlib.sha256(
        wasm + f"|wasmtime {_wasmtime_version()}|{platform.machine()}|{sys.platform}".encode()
    ).hexdigest()[:32]
    path = cache / f"{key}.cwasm"
    if path.is_file():
        try:
            return Component.deserialize_file(engine, str(path))
        except WasmtimeError:
            pass  # another engine configuration or a damaged file: recompile and overwrite
    component = Component(engine, wasm)
    try:
        cache.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Atomic: a concurrent process reads either nothing or a whole artifact.
        fd, tmp = tempfile.mkstemp(dir=cache, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(component.serialize())
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home is not an error: the process just compiled
    return component


def _wasmtime_version() -> str:
    try:
        from importlib.metadata import version

        return version("wasmtime")
    except Exception:  # pragma: no cover - metadata missing in odd installs
        return getattr(wasmtime, "__version__", "unknown")


class _Shared:
    """The process-wide engine, compiled component and linker."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.engine = Engine(Config())
        self.component = _compile(self.engine, path.read_bytes())
        # The component imports nothing: an empty linker instantiates it.
        self.linker = Linker(self.engine)
        self._funcs: dict[tuple[str, str], Any] = {}

    def index(self, iface: str, func: str) -> Any:
        ii = self.component.get_export_index(_iface(iface))
        if ii is None:
            raise RuntimeError(f"component exports no {_iface(iface)}")
        fi = self.component.get_export_index(func, ii)
        if fi is None:
            raise RuntimeError(f"{_iface(iface)} exports no {func}")
        return fi


_SHARED: Optional[_Shared] = None
_SHARED_LOCK = threading.Lock()


def shared() -> _Shared:
    """The engine and component, compiled on first use, once per process."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = _Shared(wasm_path())
        return _SHARED


# ---------------------------------------------------------------------------
# Lifting: a C value of a known type into plain Python values.
#
# Records become dicts with snake_case keys (`tool-index` -> `tool_index`);
# enums strings; options None or the value; results and variants
# `(tag, payload)` tuples (`("ok", x)`, `("err", e)`, `("serve", s)`).

# A lifter reads the C value at address `at` (in `_MEM`, below) into Python:
# the C API's tree is read where it lies, with precompiled `struct`s and
# strings decoded straight from memory. The ctypes way (one ctypes object per
# field access, one `string_at` call per string: about 1 µs a value) took
# 10 ms to lift the real corpus's outcome; this takes 5.5 ms. The layout comes
# from the ctypes mirror itself (`ffi`), not from constants written here, and
# `tests/test_lifting.py` checks every lifted value against wasmtime-py's
# generic conversion.
Lifter = Callable[[int], Any]

# The host's address space as one read-only byte view. Only what the C API
# handed over is read: every address and size comes from the value tree, as
# `string_at` would be given them, without an FFI call per read.
_MEM = memoryview((ctypes.c_char * sys.maxsize).from_address(0)).cast("B").toreadonly()
_VAL = ctypes.sizeof(ffi.wasmtime_component_val_t)
_OF = ffi.wasmtime_component_val_t.of.offset
_ENTRY = ctypes.sizeof(ffi.wasmtime_component_valrecord_entry_t)
_ENTRY_VAL = ffi.wasmtime_component_valrecord_entry_t.val.offset
_RESULT_VAL = _OF + ffi.wasmtime_component_valresult_t.val.offset
_VARIANT_VAL = _OF + ffi.wasmtime_component_valvariant_t.val.offset
# (size, data): strings, enum names, lists, records and variant names alike.
_VEC = struct.Struct("@NP").unpack_from
_PTR = struct.Struct("@P").unpack_from
_U32 = struct.Struct("=I").unpack_from
_U64 = struct.Struct("=Q").unpack_from


def _lift_string(at: int) -> str:
    size, data = _VEC(_MEM, at + _OF)
    return str(_MEM[data : data + size], "utf-8")


def _lift_enum(at: int) -> str:
    size, data = _VEC(_MEM, at + _OF)
    return str(_MEM[data : data + size], "ascii")


def _boxed(inner: Lifter) -> Lifter:
    """A lifter for the value the pointer at address `at` points to (0: none)."""

    def lift(at: int) -> Any:
        (ptr,) = _PTR(_MEM, at)
        return inner(ptr) if ptr else None

    return lift


def _lifter(ty: ValType) -> Lifter:
    if isinstance(ty, String):
        return _lift_string
    if isinstance(ty, EnumType):
        return _lift_enum
    if isinstance(ty, U32):
        return lambda at: _U32(_MEM, at + _OF)[0]
    if isinstance(ty, U64):
        return lambda at: _U64(_MEM, at + _OF)[0]
    if isinstance(ty, Bool):
        return lambda at: _MEM[at + _OF] != 0
    if isinstance(ty, ListType):
        el = _lifter(ty.element)

        def lift_list(at: int) -> list[Any]:
            size, data = _VEC(_MEM, at + _OF)
            return [el(v) for v in range(data, data + size * _VAL, _VAL)]

        return lift_list
    if isinstance(ty, RecordType):
        # (key, lifter, offset of the field's value from the first entry)
        fields = [(name.replace("-", "_"), _lifter(t), i * _ENTRY + _ENTRY_VAL) for i, (name, t) in enumerate(ty.fields)]

        def lift_record(at: int) -> dict[str, Any]:
            _, data = _VEC(_MEM, at + _OF)
            return {k: f(data + off) for k, f, off in fields}

        return lift_record
    if isinstance(ty, OptionType):
        inner = _boxed(_lifter(ty.payload))
        return lambda at: inner(at + _OF)
    if isinstance(ty, ResultType):
        ok = _boxed(_lifter(ty.ok)) if ty.ok is not None else None
        err = _boxed(_lifter(ty.err)) if ty.err is not None else None

        def lift_result(at: int) -> tuple[str, Any]:
            if _MEM[at + _OF]:
                return ("ok", ok(at + _RESULT_VAL) if ok else None)
            return ("err", err(at + _RESULT_VAL) if err else None)

        return lift_result
    if isinstance(ty, VariantType):
        cases = {name.encode(): (name, _boxed(_lifter(t)) if t is not None else None) for name, t in ty.cases}

        def lift_variant(at: int) -> tuple[str, Any]:
            size, data = _VEC(_MEM, at + _OF)
            name, f = cases[bytes(_MEM[data : data + size])]
            return (name, f(at + _VARIANT_VAL) if f else None)

        return lift_variant
    raise TypeError(f"no lifter for {type(ty).__name__}")


class Call:
    """One exported function, its types read once.

    Parameters are lowered by wasmtime-py's own `convert_to_c` (a handful of
    values per call); the result is lifted by the lifters above.
    """

    def __init__(self, instance: Instance, store: Store, index: Any) -> None:
        func = instance.get_func(store, index)
        if func is None:
            raise RuntimeError("export is not a function")
        self._func = func._func
        fty = func.type(store)
        self._params: list[ValType] = [t for _, t in fty.params]
        # The WIT parameter names, snake_case: also the `Guard` methods' own.
        self._names: list[str] = [n.replace("-", "_") for n, _ in fty.params]
        result = fty.result
        if result is None:
            raise RuntimeError("every engine function returns a value")
        self._lift = _lifter(result)

    def __call__(self, store: Store, *params: Any) -> Any:
        n = len(self._params)
        args = (ffi.wasmtime_component_val_t * n)()
        lowered = 0
        try:
            for ty, val in zip(self._params, params):
                try:
                    ty.convert_to_c(store, val, pointer(args[lowered]))
                except UnicodeEncodeError as e:
                    # A top-level string with a surrogate (no UTF-8 form): refused
                    # before it crosses, named by its parameter (`Guard` checks
                    # the strings inside records itself).
                    if not isinstance(val, str):
                        raise
                    raise not_unicode(self._names[lowered], val, e.start) from None
                lowered += 1
            out = ffi.wasmtime_component_val_t()
            err = ffi.wasmtime_component_func_call(byref(self._func), store._context(), args, n, byref(out), 1)
        finally:
            for i in range(lowered):
                ffi.wasmtime_component_val_delete(byref(args[i]))
        if err:
            raise WasmtimeError._from_ptr(err)
        try:
            return self._lift(ctypes.addressof(out))
        finally:
            ffi.wasmtime_component_val_delete(byref(out))


class GuestInstance:
    """One instance of the component in its own store (one per `Guard`).

    Not thread-safe: the caller serializes calls (`Guard` holds a lock). A trap
    poisons an instance; the caller then makes a new one.
    """

    def __init__(self, memory_limit: Optional[int] = None) -> None:
        sh = shared()
        self.store = Store(sh.engine)
        if memory_limit is not None:
            self.store.set_limits(memory_size=memory_limit)
        self.instance = sh.linker.instantiate(self.store, sh.component)
        inst, st = self.instance, self.store
        ctor = inst.get_func(st, sh.index("sanitize", "[constructor]policy"))
        if ctor is None:
            raise RuntimeError("the policy constructor is not a function")
        self._ctor = ctor
        self.sanitize = Call(inst, st, sh.index("sanitize", "[method]policy.sanitize"))
        self.engine_version = Call(inst, st, sh.index("sanitize", "engine-version"))
        self.pin = Call(inst, st, sh.index("pinning", "pin"))
        self.compare = Call(inst, st, sh.index("pinning", "compare"))
        self.check_call = Call(inst, st, sh.index("pinning", "check-call"))
        self.normalize_schema = Call(inst, st, sh.index("schema", "normalize-schema"))
        self.coerce_arguments = Call(inst, st, sh.index("schema", "coerce-arguments"))
        self.validate = Call(inst, st, sh.index("schema", "validate"))
        self.tool_name_ok = Call(inst, st, sh.index("schema", "tool-name-ok"))
        self.search = Call(inst, st, sh.index("discovery", "search"))
        self.tool_schema = Call(inst, st, sh.index("discovery", "tool-schema"))
        self.estimate_tokens = Call(inst, st, sh.index("discovery", "estimate-tokens"))
        mctor = inst.get_func(st, sh.index("mediation", "[constructor]mediator"))
        if mctor is None:
            raise RuntimeError("the mediator constructor is not a function")
        self._mediator_ctor = mctor
        self.on_client_message = Call(inst, st, sh.index("mediation", "[method]mediator.on-client-message"))
        self.on_server_message = Call(inst, st, sh.index("mediation", "[method]mediator.on-server-message"))
        self.mediator_baseline = Call(inst, st, sh.index("mediation", "[method]mediator.baseline"))
        self.mediator_dead = Call(inst, st, sh.index("mediation", "[method]mediator.dead"))
        self.mediator_relisting = Call(inst, st, sh.index("mediation", "[method]mediator.relisting"))
        self.mediator_restore = Call(inst, st, sh.index("mediation", "[method]mediator.restore"))
        self.mediator_pin_record = Call(inst, st, sh.index("mediation", "[method]mediator.pin-record"))
        wctor = inst.get_func(st, sh.index("mediation", "[static]mediator.with-record"))
        if wctor is None:
            raise RuntimeError("mediator.with-record is not a function")
        self._mediator_with_record = wctor
        self.record_id = Call(inst, st, sh.index("pinning", "record-id"))
        self.record_policy = Call(inst, st, sh.index("pinning", "record-policy"))
        self.record_show = Call(inst, st, sh.index("pinning", "record-show"))
        self.record_approve = Call(inst, st, sh.index("pinning", "record-approve"))
        self.record_forget = Call(inst, st, sh.index("pinning", "record-forget"))

    def new_policy(self, json_text: str) -> tuple[str, Any]:
        """The `policy` constructor: `("ok", ResourceAny)` or `("err", error)`.

        The one call through wasmtime-py's generic path: its result holds an
        owned resource handle, which the generic path knows how to take over.
        The error case is re-lifted into the same shape as the other calls.
        """
        r = self._ctor(self.store, json_text)
        if isinstance(r, wasmtime.component.ResourceAny):
            return ("ok", r)
        return ("err", _from_generic(r))

    def new_mediator(self, policy: Any, options: Any, id_prefix: str, baseline: Optional[str]) -> tuple[str, Any]:
        """The `mediator` constructor: `("ok", ResourceAny)` or `("err", error)`,
        through the generic path like `new_policy` (an owned handle)."""
        r = self._mediator_ctor(self.store, policy, options, id_prefix, baseline)
        if isinstance(r, wasmtime.component.ResourceAny):
            return ("ok", r)
        return ("err", _from_generic(r))

    def new_mediator_with_record(
        self, policy: Any, options: Any, id_prefix: str, key: str, stored: Optional[str]
    ) -> tuple[str, Any]:
        """`mediator.with-record` (pins across runs): like `new_mediator`."""
        r = self._mediator_with_record(self.store, policy, options, id_prefix, key, stored)
        if isinstance(r, wasmtime.component.ResourceAny):
            return ("ok", r)
        return ("err", _from_generic(r))

    def drop(self, resource: Any) -> None:
        resource.drop(self.store)


def _from_generic(v: Any) -> Any:
    """A value lifted by wasmtime-py's generic path, in the shape of `_lifter`'s."""
    from wasmtime.component import Record, Variant

    if isinstance(v, Variant):
        return (v.tag, _from_generic(v.payload))
    if isinstance(v, Record):
        return {k.replace("-", "_"): _from_generic(x) for k, x in v.__dict__.items()}
    if isinstance(v, list):
        return [_from_generic(x) for x in v]
    return v


