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

#[derive(Clone, Debug, PartialEq, Eq)]
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
    if problem.is_none() {
        problem = ambiguous_loop(p, &tree);
    }
    match problem {
        None => Verdict::Ok,
        Some(why) => Verdict::Drop(why),
    }
}

/// The other shapes that backtrack exponentially without nesting two
/// unbounded repetitions: a repeated expression that can match the empty
/// string (`(a|a?)+b`, `(a?)*`), and one holding an alternation whose
/// branches can start with the same character (`^(a|aa)+$`): each repetition
/// then has two ways to take the same text, and a failing match tries them
/// all. A bounded repetition of more than a few turns around an unbounded one
/// (`(.*a){20}`) is polynomial of that degree, and dropped too. Read on the
/// translated expression (classes resolved); a pattern that does not
/// translate was already judged on its syntax.
fn ambiguous_loop(p: &str, tree: &Ast) -> Option<String> {
    use regex_syntax::hir::translate::TranslatorBuilder;
    let hir = TranslatorBuilder::new().utf8(false).build().translate(p, tree).ok()?;
    let mut why = None;
    hir_scan(&hir, false, 1, &mut why);
    why
}

/// `in_loop`: inside an unbounded repetition; `turns`: the product of the
/// maxima of the bounded repetitions around (`((a+){4}){4}` is sixteen turns
/// of `a+`, one after the other).
fn hir_scan(h: &regex_syntax::hir::Hir, in_loop: bool, turns: u32, why: &mut Option<String>) {
    use regex_syntax::hir::HirKind;
    if why.is_some() {
        return;
    }
    match h.kind() {
        HirKind::Repetition(r) => {
            let unbounded = r.max.is_none();
            if unbounded && nullable(&r.sub) {
                *why = Some("a repeated expression that can match nothing risks catastrophic backtracking in the client".into());
                return;
            }
            if unbounded && turns > 4 {
                *why = Some("an unbounded repetition repeated more than four times over risks polynomial backtracking in the client".into());
                return;
            }
            let turns = r.max.map_or(turns, |m| turns.saturating_mul(m.max(1)));
            hir_scan(&r.sub, in_loop || unbounded, turns, why);
        }
        HirKind::Alternation(alts) => {
            if in_loop {
                for (i, a) in alts.iter().enumerate() {
                    for b in &alts[..i] {
                        if first_overlap(a, b) {
                            *why = Some("alternatives that can start alike inside a repetition risk catastrophic backtracking in the client".into());
                            return;
                        }
                    }
                }
            }
            alts.iter().for_each(|a| hir_scan(a, in_loop, turns, why));
        }
        HirKind::Concat(xs) => {
            if adjacent_overlapping_runs(xs) >= 3 {
                *why = Some("three or more unbounded repetitions over the same characters side by side risk polynomial backtracking in the client".into());
                return;
            }
            xs.iter().for_each(|x| hir_scan(x, in_loop, turns, why));
        }
        HirKind::Capture(c) => hir_scan(&c.sub, in_loop, turns, why),
        _ => {}
    }
}

/// The longest chain of unbounded repetitions in a sequence that one text
/// could be split between in many ways (`\d*\d*\d*`, `\w+\w+\w+`): each next
/// one can start with a character the previous one takes. A mandatory
/// part whose first character none of them takes (`[a-z]+-[a-z]+`) ends the
/// chain; optional parts are looked through.
fn adjacent_overlapping_runs(xs: &[regex_syntax::hir::Hir]) -> usize {
    use regex_syntax::hir::HirKind;
    let mut best = 0;
    let mut chain: Vec<&regex_syntax::hir::Hir> = Vec::new();
    for x in xs {
        let unbounded = matches!(x.kind(), HirKind::Repetition(r) if r.max.is_none());
        if unbounded {
            let joins = chain.last().is_some_and(|prev| first_overlap(body(prev), body(x)));
            if !joins {
                chain.clear();
            }
            chain.push(x);
            best = best.max(chain.len());
        } else if nullable(x) || x.properties().maximum_len() == Some(0) {
            continue;
        } else if !chain.iter().any(|c| first_overlap(body(c), x)) {
            chain.clear();
        }
    }
    best
}

/// The repeated body of a repetition (what each turn matches), else the
/// expression itself.
fn body(h: &regex_syntax::hir::Hir) -> &regex_syntax::hir::Hir {
    match h.kind() {
        regex_syntax::hir::HirKind::Repetition(r) => &r.sub,
        _ => h,
    }
}

fn nullable(h: &regex_syntax::hir::Hir) -> bool {
    h.properties().minimum_len() == Some(0)
}

/// Whether two expressions can start with the same character: their sets
/// of first characters (as byte-or-char ranges) intersect. An expression
/// that can be empty starts with anything that may follow it: taken as
/// overlapping.
fn first_overlap(a: &regex_syntax::hir::Hir, b: &regex_syntax::hir::Hir) -> bool {
    match (first_set(a), first_set(b)) {
        (Some(x), Some(y)) => x.iter().any(|&(lo, hi)| y.iter().any(|&(l2, h2)| lo <= h2 && l2 <= hi)),
        _ => true,
    }
}

/// The ranges (as code points) an expression's first character falls in;
/// `None` when unknown or when the expression can be empty.
fn first_set(h: &regex_syntax::hir::Hir) -> Option<Vec<(u32, u32)>> {
    use regex_syntax::hir::{Class, HirKind};
    match h.kind() {
        HirKind::Literal(l) => {
            let c = std::str::from_utf8(&l.0).ok().and_then(|s| s.chars().next()).map_or(u32::from(*l.0.first()?), u32::from);
            Some(vec![(c, c)])
        }
        HirKind::Class(Class::Unicode(c)) => Some(c.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect()),
        HirKind::Class(Class::Bytes(c)) => Some(c.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect()),
        HirKind::Capture(c) => first_set(&c.sub),
        HirKind::Repetition(r) if r.min > 0 => first_set(&r.sub),
        HirKind::Concat(xs) => {
            // Leading look-arounds and empty parts are skipped; the first
            // part that must consume a character decides.
            let mut acc: Vec<(u32, u32)> = Vec::new();
            for x in xs {
                if x.properties().maximum_len() == Some(0) {
                    continue;
                }
                if nullable(x) {
                    acc.extend(first_set_loose(x)?);
                    continue;
                }
                acc.extend(first_set(x)?);
                return Some(acc);
            }
            None
        }
        HirKind::Alternation(xs) => {
            let mut acc = Vec::new();
            for x in xs {
                acc.extend(first_set(x)?);
            }
            Some(acc)
        }
        _ => None,
    }
}

/// `first_set` of an expression that may be empty: its first characters
/// when it is not.
fn first_set_loose(h: &regex_syntax::hir::Hir) -> Option<Vec<(u32, u32)>> {
    use regex_syntax::hir::HirKind;
    match h.kind() {
        HirKind::Repetition(r) => first_set(&r.sub),
        _ => first_set(h),
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
            r"^[a-z]+-[a-z]+-[a-z]+-[a-z]+$",
            r"^(\d+\.){3}\d+$",
            r"^[A-Za-z0-9+/]*={0,2}$",
            r"^\s*\S+\s*$",
            r"^[a-z][a-z0-9_]*$",
        ] {
            assert_eq!(check(p), Verdict::Ok, "{p}");
        }
    }

    #[test]
    fn redos_patterns_are_dropped() {
        for p in [
            r"^(a+)+$",
            r"^(([a-z])+.)+[A-Z]([a-z])+$",
            r"^(x+x+)+y$",
            r"(?<=a)b",
            r"(a)\1",
            r"[[:alpha:]]",
            r"(?i)abc",
            r"(?P<x>y)",
            // Exponential without two nested unbounded repetitions.
            r"^(a|aa)+$",
            r"(a|a?)+b",
            r"(\w+\s?)*$",
            r"^(a?)*$",
            r"^(\d|\d\d)+$",
            r"^([a-z]|[a-c]x)*$",
            r"^(.*a){20}$",
            r"^(((a+){4}){4}){2}$",
            r"^(?:(?:a+){4}){4}$",
            r"^\d*\d*\d*\d*\d*\d*\d*\d*\d*\d*\d*\d*$",
            r"^\w+\w+\w+$",
        ] {
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
