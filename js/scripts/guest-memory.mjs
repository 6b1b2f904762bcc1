// The guest's linear memory, for the benchmark table and the tests that
// check a call leaves it as it was. Importing this module wraps the global
// `WebAssembly.Instance`, through which jco instantiates the core modules,
// and keeps the memories they export (the engine's is the one that grows);
// import it before the package's first call (the package instantiates
// lazily, on its first call).
const memories = [];
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const inst = new Instance(module, imports);
  for (const x of Object.values(inst.exports)) if (x instanceof WebAssembly.Memory) memories.push(x);
  return inst;
};

/** Bytes of the largest guest memory so far; null before the first instance. */
export function guestBytes() {
  return memories.length ? Math.max(...memories.map((m) => m.buffer.byteLength)) : null;
}
