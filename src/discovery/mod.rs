//! Discovery: a small listing that still
//! reaches every tool. `surface` builds what is served; `search` ranks tools
//! for `search_tools`; `calls` answers the meta-tools from a session's
//! baseline (through the call gate, so nothing bypasses pinning).

pub mod search;
mod surface;
mod calls;

pub use calls::{search_tools, tool_schema, SearchHit};
pub(crate) use calls::answer;

pub use search::{summary, Hit, SearchIndex};
pub use surface::*;
