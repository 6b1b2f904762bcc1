// What the proxy's end-to-end tests (proxy, http, pins) assert the same way.
import assert from "node:assert/strict";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

/** Resolves on the client's next notifications/tools/list_changed (rejects after 10 s). */
export function nextListChanged(client) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no tools/list_changed within 10s")), 10_000);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Asserts `promise` rejects with a JSON-RPC error `code` whose data.reason is `reason`. */
export async function refused(promise, code, reason) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof McpError, `expected McpError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.data?.reason, reason, e.message);
    return true;
  });
}
