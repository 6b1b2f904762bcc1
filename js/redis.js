// A session store in Redis, for gateways running several replicas that must
// share pins and tombstones (the contract is in store.js).
//
// Two keys per session: `<prefix>pin:<key>` holds the baseline,
// `<prefix>tomb:<key>` the tombstone (JSON `{reason, until}`). A read fetches
// both (one MGET) and a tombstone wins, so a replica that writes a baseline
// after another replica closed the session cannot revive it, without a
// script or a transaction. Expiry is Redis's own (PX).
//
// Pin records (pins across runs) live under `<prefix>records:<id>`, without
// expiry: one SET replaces a record whole (atomic: a reader sees the old
// record or the new one), and `listRecords` SCANs that namespace.
//
// Works with a connected node-redis client (`redis` package, v4 and later):
// only `sendCommand([...])` is used, whose shape has not changed across
// versions.

export class RedisStore {
  #client;
  #prefix;

  /**
   * @param client a connected node-redis client (`createClient().connect()`)
   * @param {{prefix?: string}} [opts] key prefix, default `mcp-guard:`
   */
  constructor(client, { prefix = "mcp-guard:" } = {}) {
    if (typeof client?.sendCommand !== "function") throw new TypeError("RedisStore needs a node-redis client (sendCommand)");
    this.#client = client;
    this.#prefix = prefix;
  }

  #pin(key) {
    return `${this.#prefix}pin:${key}`;
  }

  #tomb(key) {
    return `${this.#prefix}tomb:${key}`;
  }

  async get(key) {
    const [pin, tomb] = await this.#client.sendCommand(["MGET", this.#pin(key), this.#tomb(key)]);
    if (tomb !== null && tomb !== undefined) {
      const t = JSON.parse(tomb);
      return { state: "tombstone", reason: t.reason, until: t.until };
    }
    if (pin !== null && pin !== undefined) return { state: "active", baseline: pin };
    return undefined;
  }

  async put(key, entry, ttlMs) {
    const px = String(Math.max(1, Math.ceil(ttlMs)));
    if (entry.state === "tombstone") {
      const value = JSON.stringify({ reason: entry.reason, until: entry.until });
      await this.#client.sendCommand(["SET", this.#tomb(key), value, "PX", px]);
      await this.#client.sendCommand(["DEL", this.#pin(key)]);
    } else {
      await this.#client.sendCommand(["SET", this.#pin(key), entry.baseline, "PX", px]);
    }
  }

  async touch(key, ttlMs) {
    await this.#client.sendCommand(["PEXPIRE", this.#pin(key), String(Math.max(1, Math.ceil(ttlMs)))]);
  }

  async delete(key) {
    await this.#client.sendCommand(["DEL", this.#pin(key), this.#tomb(key)]);
  }

  #record(id) {
    return `${this.#prefix}records:${id}`;
  }

  async getRecord(id) {
    const text = await this.#client.sendCommand(["GET", this.#record(id)]);
    return text === null || text === undefined ? undefined : String(text);
  }

  async putRecord(id, text) {
    if (typeof text !== "string") throw new TypeError("a pin record is text");
    await this.#client.sendCommand(["SET", this.#record(id), text]);
  }

  async deleteRecord(id) {
    await this.#client.sendCommand(["DEL", this.#record(id)]);
  }

  async listRecords() {
    const namespace = this.#record("");
    const keys = new Set();
    let cursor = "0";
    do {
      // MATCH with the prefix escaped: a prefix holding `*` or `?` must not
      // match other namespaces.
      const pattern = `${namespace.replace(/[*?[\]\\]/g, "\\$&")}*`;
      const [next, batch] = await this.#client.sendCommand(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"]);
      cursor = String(next);
      for (const k of batch) keys.add(String(k));
    } while (cursor !== "0");
    const ids = [...keys].map((k) => k.slice(namespace.length)).sort();
    if (ids.length === 0) return [];
    const texts = await this.#client.sendCommand(["MGET", ...ids.map((id) => this.#record(id))]);
    return ids.flatMap((id, i) => (texts[i] === null || texts[i] === undefined ? [] : [{ id, text: String(texts[i]) }]));
  }
}
