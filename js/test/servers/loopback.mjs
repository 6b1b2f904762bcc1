// Preloaded (`node --import`) into server-everything's Streamable HTTP
// transport, which calls `app.listen(PORT)` on every interface: binds it to
// 127.0.0.1 instead (tests talk to loopback only), and prints the port the
// kernel picked for PORT=0 so the test can connect.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if ((typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) && typeof args[1] !== "string") {
    args.splice(1, 0, "127.0.0.1");
  }
  this.once("listening", () => process.stderr.write(`mcp-guard-test listening on port ${this.address().port}\n`));
  return listen.apply(this, args);
};
