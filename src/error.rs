//! Errors that refuse a whole input. A defect inside one tool is never an
//! error: it hides that tool and is reported as a finding.

use crate::json::{ParseError, ParseErrorKind};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The text is not exactly one valid JSON value (BOM, comments, trailing
    /// data, bad syntax, lone surrogate escapes).
    InvalidJson { offset: u64, reason: String },
    /// The same key twice in one object: parsers disagree on which wins.
    DuplicateKey { pointer: String, key: String },
    /// Nesting deeper than the parser bound.
    TooDeep { max_depth: u32 },
    /// The input is larger than `catalog_limits.max_catalog_bytes`.
    TooLarge { limit: u64, actual: u64 },
    /// Valid JSON but not a tools/list result (not an object; `tools` missing,
    /// null or not an array).
    InvalidEnvelope { reason: String },
    /// The policy is unusable; `field` is the dotted path of the offending setting.
    InvalidPolicy { field: String, reason: String },
    /// A session baseline that cannot be used: not one this engine wrote, or
    /// pinned under other settings (engine version, server, fields, dialect).
    InvalidBaseline { reason: String },
    /// Anything else. The text is not API.
    Other(String),
}

impl Error {
    /// Stable kebab-case id (crosses the WIT boundary as the variant case).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::InvalidJson { .. } => "invalid-json",
            Error::DuplicateKey { .. } => "duplicate-key",
            Error::TooDeep { .. } => "too-deep",
            Error::TooLarge { .. } => "too-large",
            Error::InvalidEnvelope { .. } => "invalid-envelope",
            Error::InvalidPolicy { .. } => "invalid-policy",
            Error::InvalidBaseline { .. } => "invalid-baseline",
            Error::Other(_) => "other",
        }
    }

    pub(crate) fn policy(field: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::InvalidPolicy { field: field.into(), reason: reason.into() }
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        let reason = e.to_string();
        match e.kind {
            ParseErrorKind::DuplicateKey { pointer, key } => Error::DuplicateKey { pointer, key },
            ParseErrorKind::TooDeep { max_depth } => Error::TooDeep { max_depth: max_depth as u32 },
            _ => Error::InvalidJson { offset: e.offset as u64, reason },
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidJson { reason, .. } => write!(f, "invalid JSON: {reason}"),
            Error::DuplicateKey { pointer, key } => {
                write!(f, "duplicate key {key:?} in the object at {pointer:?} (refused: parsers disagree on which one wins)")
            }
            Error::TooDeep { max_depth } => write!(f, "JSON nested deeper than {max_depth} levels"),
            Error::TooLarge { limit, actual } => write!(f, "input is {actual} bytes, over the {limit}-byte limit"),
            Error::InvalidEnvelope { reason } => write!(f, "not a tools/list result: {reason}"),
            Error::InvalidPolicy { field, reason } => write!(f, "invalid policy at {field}: {reason}"),
            Error::InvalidBaseline { reason } => write!(f, "unusable baseline: {reason}"),
            Error::Other(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for Error {}
