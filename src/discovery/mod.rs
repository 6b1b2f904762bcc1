//! Discovery: a small listing that still
//! reaches every tool. `surface` builds what is served; `search` ranks tools
//! for `search_tools`; `calls` answers the meta-tools from a session's
//! baseline (through the call gate, so nothing bypasses pinning).

pub mod search;
pub mod expand;
pub mod lexicon;
mod lexicon_tables;
mod expand_table;
pub mod vectors;
mod vector_table;
mod surface;
mod calls;

pub use calls::{search_tools, tool_schema, SearchHit};
pub(crate) use calls::answer;

pub use expand::Expansions;
pub use search::{summary, Hit, SearchIndex};
pub use surface::*;
