//! Safety check for JSON Schema `pattern` strings.
//!
//! The engine never *runs* an untrusted pattern with a backtracking engine; it
//! parses it (regex-syntax, linear, no execution) to decide:
//! - `Invalid`: broken in every dialect (unclosed group or class, nothing to
//!   repeat) — the schema is defective and the tool is hidden;
//! - `Drop`: not portable ECMA-262 as a client would run it (look-around and
//!   back-references we cannot vet, POSIX classes and inline flags that mean
//!   something else in JavaScript, `(?P<..>)` groups), or at risk of
//!   catastrophic backtracking in the client's engine (an unbounded
//!   repetition nested inside another: `^(a+)+$`) — the keyword is removed,
//!   which only loosens validation;
//! - `Ok`.

use regex_syntax::ast::{self, Ast};

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Drop(String),
    Invalid(String),
}

pub fn check(p: &str) -> Verdict {
    let mut parser = ast::parse::ParserBuilder::new().nest_limit(64).build();
    let tree = match parser.parse(p) {
        Ok(t) => t,
        Err(e) => {
            use ast::ErrorKind as E;
            return match e.kind() {
                E::GroupUnclosed
                | E::GroupUnopened
                | E::ClassUnclosed
                | E::RepetitionMissing
                | E::RepetitionCountInvalid
                | E::ClassRangeInvalid
                | E::NestLimitExceeded(_) => Verdict::Invalid(format!("pattern does not compile: {}", e.kind())),
                _ => Verdict::Drop(format!("pattern uses syntax that cannot be vetted safely: {}", e.kind())),
            };
        }
    };
    let mut problem = None;
    scan(&tree, 0, &mut problem);
    match problem {
        None => Verdict::Ok,
        Some(why) => Verdict::Drop(why),
    }
}

/// `unbounded_above`: how many unbounded repetitions enclose this node.
fn scan(a: &Ast, unbounded_above: u32, problem: &mut Option<String>) {
    if problem.is_some() {
        return;
    }
    match a {
        Ast::Repetition(r) => {
            use ast::RepetitionKind as RK;
            let unbounded = matches!(
                r.op.kind,
                RK::ZeroOrMore | RK::OneOrMore | RK::Range(ast::RepetitionRange::AtLeast(_))
            );
            if unbounded && unbounded_above > 0 {
                *problem = Some("nested unbounded repetition risks catastrophic backtracking in the client".into());
                return;
            }
            scan(&r.ast, unbounded_above + unbounded as u32, problem);
        }
        Ast::Group(g) => {
            match &g.kind {
                ast::GroupKind::CaptureName { starts_with_p: true, .. } => {
                    *problem = Some("(?P<name>…) groups are not ECMA-262".into());
                    return;
                }
                ast::GroupKind::NonCapturing(flags) if !flags.items.is_empty() => {
                    *problem = Some("inline flags are not ECMA-262".into());
                    return;
                }
                _ => {}
            }
            scan(&g.ast, unbounded_above, problem);
        }
        Ast::Flags(_) => *problem = Some("inline flags are not ECMA-262".into()),
        Ast::Alternation(x) => x.asts.iter().for_each(|s| scan(s, unbounded_above, problem)),
        Ast::Concat(x) => x.asts.iter().for_each(|s| scan(s, unbounded_above, problem)),
        Ast::ClassBracketed(c) if class_has_posix(&c.kind) => {
            *problem = Some("POSIX character classes mean something else in ECMA-262".into());
        }
        _ => {}
    }
}

fn class_has_posix(set: &ast::ClassSet) -> bool {
    match set {
        ast::ClassSet::Item(item) => item_has_posix(item),
        ast::ClassSet::BinaryOp(op) => class_has_posix(&op.lhs) || class_has_posix(&op.rhs),
    }
}

fn item_has_posix(item: &ast::ClassSetItem) -> bool {
    match item {
        ast::ClassSetItem::Ascii(_) => true,
        ast::ClassSetItem::Bracketed(b) => class_has_posix(&b.kind),
        ast::ClassSetItem::Union(u) => u.items.iter().any(item_has_posix),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_patterns_pass() {
        for p in [
            r"^[a-z0-9][a-z0-9_-]*$",
            r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$",
            r"^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$",
            r"^\d{4}-\d{2}-\d{2}T(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d))$",
            r"^(?<year>\d{4})$",
        ] {
            assert_eq!(check(p), Verdict::Ok, "{p}");
        }
    }

    #[test]
    fn redos_patterns_are_dropped() {
        for p in [r"^(a+)+$", r"^(([a-z])+.)+[A-Z]([a-z])+$", r"^(x+x+)+y$", r"(?<=a)b", r"(a)\1", r"[[:alpha:]]", r"(?i)abc", r"(?P<x>y)"] {
            assert!(matches!(check(p), Verdict::Drop(_)), "{p}");
        }
    }

    #[test]
    fn broken_patterns_are_invalid() {
        for p in ["([a-z", "a)", "*a", "[z-a]"] {
            assert!(matches!(check(p), Verdict::Invalid(_)), "{p}");
        }
    }
}
