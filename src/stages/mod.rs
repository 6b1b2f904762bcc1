//! One module per pipeline stage. The order they run in is fixed in one place:
//! `crate::pipeline`.

pub mod description;
pub mod dialect;
pub mod envelope;
pub mod fields;
pub mod limits;
pub mod names;
pub mod poisoning;
pub mod sanitize;
