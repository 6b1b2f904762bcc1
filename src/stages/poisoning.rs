//! The `poisoning` stage — tool-poisoning detection (`core.tool_poisoning`: off | flag | block).
//!
//! Runs after `sanitize` (obfuscation is gone) and `limits` (bombs are gone)
//! and before `description`, so it reads what upstream *sent* — including
//! text later stages drop (`x-` keywords, `$comment`, dropped `_meta`, decoded
//! tag characters, stripped HTML comments): a server that plants instructions
//! where the model will not see them is still telling you something.

use crate::ctx::ToolCtx;
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::Object;
use crate::poison::{self, Hit};
use crate::policy::PoisoningMode;

/// The rule id of the learned scorer's finding.
pub const LEARNED: &str = "learned.poisoning";

pub fn run(tool: &mut Object, cx: &mut ToolCtx, det: &poison::Detector, others: &poison::NameIndex) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let pp = &pol.poisoning;
    if pp.mode == PoisoningMode::Off {
        return;
    }
    let self_name = cx.name.clone().unwrap_or_default();
    let mut hits: Vec<Hit> = Vec::new();
    poison::scan_tool(det, tool, &Path::new(&cx.base()), others, &self_name, &mut hits);
    let extra = std::mem::take(&mut cx.extra_text);
    for (ptr, text) in &extra {
        poison::scan_str(det, text, ptr, others, &self_name, &mut hits);
    }
    // The learned scorer reads the same text as the rules (the tool as
    // sanitized, plus what the sanitizer took out of it) and adds at most one
    // finding: its best span, with the features that weigh most in it.
    if pp.learned {
        // The catalog's buffers; should they be busy (nothing here
        // re-enters), fresh ones.
        let scored = match others.scorer.try_borrow_mut() {
            Ok(mut sc) => poison::scorer::score_tool(tool, &cx.base(), &extra, &mut sc),
            Err(_) => poison::scorer::score_tool(tool, &cx.base(), &extra, &mut poison::scorer::Scratch::default()),
        };
        if let Some((t, severity)) = scored.and_then(|t| Some((t.severity()?, t)).map(|(s, t)| (t, s))) {
            hits.push(Hit { rule: LEARNED, kind: K::PoisonInstruction, severity, pointer: t.pointer.clone(), detail: t.detail() });
        }
    }
    for ptr in std::mem::take(&mut cx.padding) {
        hits.push(Hit {
            rule: "hidden.padding",
            kind: K::PoisonHidden,
            severity: S::Medium,
            pointer: ptr,
            detail: "[hidden.padding] long whitespace padding that pushes text out of view (collapsed)".into(),
        });
    }
    // One finding per (rule, pointer); accepted false positives removed.
    hits.sort_by(|a, b| (a.pointer.as_str(), a.rule).cmp(&(b.pointer.as_str(), b.rule)));
    hits.dedup_by(|a, b| a.pointer == b.pointer && a.rule == b.rule);
    hits.retain(|h| {
        !pp.allow.iter().any(|a| {
            a.server.as_deref().is_none_or(|s| Some(s) == cx.server)
                && a.tool.as_deref().is_none_or(|t| t == self_name)
                && a.rule.as_deref().is_none_or(|r| r == h.rule || r == h.kind.id() || h.rule.starts_with(&format!("{r}.")))
        })
    });
    // The scorer's severity stands on its own: it is not one more category
    // that raises the rules' score (a rule match and a flagged span in the
    // same tool are often the same sentence read twice).
    let rules_score = poison::score(&hits.iter().filter(|h| h.rule != LEARNED).cloned().collect::<Vec<_>>());
    let learned = hits.iter().filter(|h| h.rule == LEARNED).map(|h| h.severity).max();
    let Some(score) = rules_score.max(learned) else { return };
    let block = pp.mode == PoisoningMode::Block && score >= pp.block_threshold;
    // The deciding finding (highest severity, first in order) carries the hide.
    let decider = if block { hits.iter().position(|h| h.severity == hits.iter().map(|x| x.severity).max().unwrap_or(S::Info)) } else { None };
    for (i, h) in hits.into_iter().enumerate() {
        let mut detail = h.detail;
        if Some(i) == decider {
            detail.push_str(&format!(" — tool score {score} ≥ block threshold {}", pp.block_threshold));
            cx.hide(h.kind, h.severity, h.pointer, detail);
        } else {
            cx.report(h.kind, h.severity, h.pointer, Action::Flagged, detail);
        }
    }
}
