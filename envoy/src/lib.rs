//! mcp-guard as an Envoy HTTP filter (proxy-wasm ABI 0.2.1), for MCP over
//! Streamable HTTP: the same engine crate as every other host, no rule of
//! its own.
//!
//! - `config`: the filter configuration, parsed once in `on_configure`.
//! - `stream`: one HTTP stream over the engine's mediation core
//!   (`mcp_guard::mediate` makes every MCP decision); what HTTP adds
//!   (which POSTs are MCP, the `Mcp-*` headers, bodies and SSE events, the
//!   pin state's writes), pure and tested natively.
//! - `sse`: the `text/event-stream` framing.
//! - `admin`: the admin path of persistent pins (list, show, approve,
//!   forget the pin records), pure; the filter reads and writes shared data.
//! - `filter` (wasm only): the host glue — headers, bodies, shared data,
//!   the clock. It only moves bytes between Envoy and `stream`.
//!
//! No panic may reach Envoy: a panic traps the VM (with `panic = "abort"`
//! there is no unwinding to catch), so the glue handles every host status
//! and every engine error as a value.

pub mod admin;
pub mod config;
pub mod stream;
pub mod sse;

#[cfg(target_arch = "wasm32")]
mod filter;
