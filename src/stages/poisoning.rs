//! The `poisoning` stage — tool-poisoning detection (`core.tool_poisoning`: off | flag | block).
//!
//! Runs after `sanitize` (obfuscation is gone) and `limits` (bombs are gone)
//! and before `description`, so it reads what upstream *sent* — including
//! text later stages drop (`x-` keywords, `$comment`, dropped `_meta`, decoded
//! tag characters, stripped HTML comments): a server that plants instructions
//! where the model will not see them is still telling you something.

use crate::ctx::ToolCtx;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::Object;
use crate::poison::{self, mostly_latin, reads_foreign, Hit};
use crate::policy::PoisoningMode;

/// The rule id of the learned scorer's finding.
pub const LEARNED: &str = "learned.poisoning";

/// The learned score at which the scorer alone makes a tool `high`: a
/// quarter step (of flag → block) above its block threshold. The block
/// threshold is already above every development benign tool out of fold
/// (`eval/poisoning/model/train.py`); the quarter step is the margin for
/// text of servers never seen: an urgent "always call this first" in a real
/// server's own onboarding tool reads like line jumping.
pub const LEARNED_ALONE: i32 = poison::scorer::BLOCK + (poison::scorer::BLOCK - poison::scorer::FLAG) / 4;

/// The learned score at which the scorer alone makes a tool `high` in Latin
/// text that reads as another language (`reads_foreign`): half a step (of
/// flag → block) above its block threshold. The benign text the block
/// threshold was measured on is mostly English; in other languages written
/// in Latin letters the scorer reads more into the words: the
/// highest-scoring Latin-script hard benign tools of every set are Danish,
/// Swahili and Swedish (7.69, 7.10 and 7.04 logits, against 6.56 for the
/// first English one), and the Danish one, an index-lag note naming a
/// sibling tool, was hidden at `LEARNED_ALONE` (session 35). With the span
/// rule below, the development part loses 10 of its 1,554 hides (41.0% →
/// 40.4%); flagging is unchanged.
pub const LEARNED_ALONE_FOREIGN: i32 = poison::scorer::BLOCK + (poison::scorer::BLOCK - poison::scorer::FLAG) / 2;

/// The learned score at which the scorer is a signal of its own beside a
/// rule hit: halfway from its flag threshold to its block threshold. Below
/// it, from its flag threshold, it is an instruction-kind signal that
/// counts beside an exfiltration channel only (`poison::Learned::Flagged`,
/// `poison::score` says why). Counted at the flag
/// threshold as a signal of its own, it corroborated benign real tools of
/// the wide corpus's development part ("send the auth headers on every
/// request": a line-jumping or before-using phrase in API prose that the
/// scorer also finds mildly instruction-like). A quarter or a third of the
/// way measured the same on the development parts (hidden 19.0% either way).
pub const CORROBORATE: i32 = poison::scorer::FLAG + (poison::scorer::BLOCK - poison::scorer::FLAG) / 2;

pub fn run(tool: &mut Object, cx: &mut ToolCtx, det: &poison::Detector, others: &poison::NameIndex) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let pp = &pol.poisoning;
    if pp.mode == PoisoningMode::Off {
        return;
    }
    // Borrowed, not cloned: the walk and the `allow` check only read it
    // (a copy per tool was an allocation per tool).
    let self_name: &str = cx.name.as_deref().unwrap_or_default();
    let mut hits: Vec<Hit> = Vec::new();
    let mut prose = poison::scan_tool(det, tool, &cx.base(), others, self_name, &mut hits);
    let mut extra = std::mem::take(&mut cx.extra_text);
    for (ptr, text) in &extra {
        poison::scan_str(det, text, ptr, others, self_name, &mut hits);
        poison::scan_dropped_prose(text, ptr, &cx.base(), &mut hits, &mut prose);
    }
    poison::count_prose(&mut hits, prose);
    // Text no reader sees (tag characters, markup a renderer hides): a rule
    // hit there was hidden on purpose, and the hiding is a second signal
    // beside the rule that read it — an instruction smuggled in invisible
    // characters is never "one common phrase" (`poison::score`).
    let concealed = std::mem::take(&mut cx.concealed_text);
    let before = hits.len();
    for (ptr, text) in &concealed {
        poison::scan_str(det, text, ptr, others, self_name, &mut hits);
    }
    if let Some(first) = hits[before..].first() {
        let pointer = first.pointer.clone();
        hits.push(Hit {
            rule: "hidden.concealed",
            kind: K::PoisonHidden,
            severity: S::Medium,
            pointer,
            detail: "[hidden.concealed] the text a rule matched here is hidden from readers (Unicode tag characters or markup a renderer does not show)".into(),
            mention: false,
        });
    }
    extra.extend(concealed);
    // The learned scorer reads the same text as the rules (the tool as
    // sanitized, plus what the sanitizer took out of it) and adds at most one
    // finding: its best span, with the features that weigh most in it.
    // What the scorer adds as a signal beside the rules (see `CORROBORATE`).
    let mut learned_signal = poison::Learned::Quiet;
    // The strings with a decoded reading, for the rules: the scorer's pass
    // notices them; without the scorer each string is decoded on its own.
    let mut encoded = Vec::new();
    if pp.learned {
        // The catalog's buffers, for the score and its explanation; should
        // they be busy (nothing here re-enters), fresh ones.
        let mut held = others.scorer.try_borrow_mut().ok();
        let mut fresh = None;
        let sc = match held.as_deref_mut() {
            Some(sc) => sc,
            None => fresh.insert(poison::scorer::Scratch::default()),
        };
        if let Some(t) = poison::scorer::score_tool(tool, &extra, sc) {
            encoded = t.encoded(tool, &cx.base(), &extra);
            learned_signal = if t.score >= CORROBORATE {
                poison::Learned::Confident
            } else if t.score >= poison::scorer::FLAG {
                poison::Learned::Flagged
            } else {
                poison::Learned::Quiet
            };
            // Alone, the scorer blocks only above `LEARNED_ALONE`, and only in
            // Latin text (`mostly_latin`); above `LEARNED_ALONE_FOREIGN` when
            // that text reads as another language (`reads_foreign`).
            // Both read the best span as scored (decoded, normalized), not its
            // whole string: padding the string with other text moves neither.
            let alone_blocks = t.score >= LEARNED_ALONE && {
                let span = t.span_text(sc);
                mostly_latin(&span) && (t.score >= LEARNED_ALONE_FOREIGN || !reads_foreign(&span))
            };
            let severity = t.severity().map(|s| if s >= S::High && !alone_blocks { S::Medium } else { s });
            if let Some(severity) = severity {
                let detail = t.detail_with(sc);
                hits.push(Hit { rule: LEARNED, kind: K::PoisonInstruction, severity, pointer: t.pointer(tool, &cx.base(), &extra), detail, mention: false });
            }
            // A property or definition name, read from its own line
            // (`scorer::NAME_LINE`): `medium` at most, as a script's line.
            // The scorer adds at most one finding: the best span's, a name's
            // or a script's, in that order.
            let mut found = severity.is_some();
            if !found {
                if let Some(n) = t.name_reading(sc) {
                    found = true;
                    let detail = n.detail_with(sc);
                    hits.push(Hit { rule: LEARNED, kind: K::PoisonInstruction, severity: S::Medium, pointer: n.pointer(tool, &cx.base(), &extra), detail, mention: false });
                }
            }
            // Text in a script the rest of the tool does not write, read
            // from that script's line (`scorer::other_script`): `medium` at
            // most, and a finding of the scorer's (its rule, its allow
            // entries), not a signal beside the rules. Every tool with such
            // text is counted into the catalog's count first.
            // The same units, of any script, are read by the concept
            // reading's learned line from its own line: a finding of the
            // concepts (it gives no signal), unless a concept finding
            // already stands at its string.
            if t.script_text {
                let catalog = others.script_strings();
                let r = poison::scorer::other_script(tool, &extra, catalog.as_ref(), sc);
                let o = r.best.filter(|o| o.severity().is_some());
                // The first unit that reads (one walk for its pointer).
                let concept = r
                    .units
                    .iter()
                    .find_map(|(at, unit)| poison::read_other_script(det, unit, || poison::scorer::pointer_at(*at, tool, &cx.base(), &extra)))
                    .filter(|c| !hits.iter().any(|h| h.pointer == c.pointer && h.rule.starts_with(poison::CONCEPT_RULES)));
                let wait = others.count_scripts(&r.strings, (o.is_some() || concept.is_some()) && catalog.is_none());
                if let (Some(o), false, false) = (o, wait, found) {
                    let detail = o.detail_with(sc);
                    hits.push(Hit { rule: LEARNED, kind: K::PoisonInstruction, severity: S::Medium, pointer: o.pointer(tool, &cx.base(), &extra), detail, mention: false });
                }
                if let (Some(c), false) = (concept, wait) {
                    hits.push(c);
                }
            }
        }
    } else {
        encoded = poison::scorer::encoded_strings(tool, &cx.base(), &extra);
    }
    for (ptr, text) in encoded {
        poison::scan_encoded(det, text, &ptr, others, self_name, &mut hits);
    }
    for ptr in std::mem::take(&mut cx.padding) {
        hits.push(Hit {
            rule: "hidden.padding",
            kind: K::PoisonHidden,
            severity: S::Medium,
            pointer: ptr,
            detail: "[hidden.padding] long whitespace padding that pushes text out of view (collapsed)".into(),
            mention: false,
        });
    }
    // One finding per (rule, pointer); accepted false positives removed.
    // Of two findings of one rule at one pointer, the one that is a signal
    // stays (a quoted example as written, the order in an encoded reading).
    hits.sort_by(|a, b| (a.pointer.as_str(), a.rule, a.mention).cmp(&(b.pointer.as_str(), b.rule, b.mention)));
    hits.dedup_by(|a, b| a.pointer == b.pointer && a.rule == b.rule);
    hits.retain(|h| {
        !pp.allow.iter().any(|a| {
            a.server.as_deref().is_none_or(|s| Some(s) == cx.server)
                && a.tool.as_deref().is_none_or(|t| t == self_name)
                && a.rule.as_deref().is_none_or(|r| r == h.rule || r == h.kind.id() || h.rule.starts_with(&format!("{r}.")))
        })
    });
    // The scorer's own severity stands on its own (`high` alone from
    // `LEARNED_ALONE`); beside the rules it is one more signal
    // (`poison::Learned`) — unless an `allow` entry accepted its finding.
    if !hits.iter().any(|h| h.rule == LEARNED) {
        learned_signal = poison::Learned::Quiet;
    }
    // The concept reading flags on its own and is no signal beside the
    // others (`poison::concepts`: it never hides).
    let concept = |h: &Hit| h.rule.starts_with(poison::CONCEPT_RULES);
    let rule_hits: Vec<Hit> = hits.iter().filter(|h| h.rule != LEARNED && !concept(h)).cloned().collect();
    let rules_score = poison::score(&rule_hits, learned_signal);
    // The findings that stand on their own: the scorer's and the concepts'.
    let alone = hits.iter().filter(|h| h.rule == LEARNED || concept(h)).map(|h| h.severity).max();
    let Some(score) = rules_score.max(alone) else { return };
    let block = pp.mode == PoisoningMode::Block && score >= pp.block_threshold;
    // The deciding finding (highest severity, first in order) carries the
    // tool's score: when signals corroborate each other it is raised to
    // it, in every mode, so that a finding at `high` always means "hidden
    // under `block`" (and under `block` it carries the hide).
    // A finding that gives no signal (`Hit::mention`) decides only when no
    // other finding is as severe: the deciding finding names what was read.
    let top = hits.iter().map(|x| x.severity).max().unwrap_or(S::Info);
    let decider = hits.iter().position(|h| h.severity == top && !h.mention).or_else(|| hits.iter().position(|h| h.severity == top));
    let kinds = {
        let mut k: Vec<&str> = rule_hits.iter().filter(|h| !h.mention).map(|h| h.kind.id()).collect();
        k.sort();
        k.dedup();
        if learned_signal > poison::Learned::Quiet && !rule_hits.is_empty() {
            k.push(LEARNED);
        }
        k.join(" + ")
    };
    for (i, h) in hits.into_iter().enumerate() {
        let mut detail = h.detail;
        let mut severity = h.severity;
        if Some(i) == decider && score > severity {
            detail.push_str(&format!(" — corroborated ({kinds}): tool score {score}"));
            severity = score;
        }
        if block && Some(i) == decider {
            detail.push_str(&format!(" — tool score {score} ≥ block threshold {}", pp.block_threshold));
            cx.hide(h.kind, severity, h.pointer, detail);
        } else {
            cx.report(h.kind, severity, h.pointer, Action::Flagged, detail);
        }
    }
}
