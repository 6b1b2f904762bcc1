// Shared by the tests: paths, and real processes started and stopped by pid.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export const here = dirname(fileURLToPath(import.meta.url));
export const pkgDir = resolve(here, "..");
export const repoRoot = resolve(pkgDir, "..");

const require = createRequire(import.meta.url);
/** server-everything's entry point (the devDependency, run with this node). */
export const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist/index.js");

/**
 * Starts `node args...` and resolves `{child, match}` once a line of its
 * stderr matches `ready` (rejects after `timeoutMs` or on exit).
 */
export function startNode(args, { ready, env = {}, timeoutMs = 20_000 }) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`not ready within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    const onData = (d) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        child.stderr.off("data", onData);
        child.stderr.resume();
        resolvePromise({ child, match: m });
      }
    };
    child.stdout.resume();
    child.stderr.on("data", onData);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before ready: ${out}`));
    });
  });
}

/** Stops a child we started (by its pid), waiting for it to exit. */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill("SIGTERM");
  });
}
