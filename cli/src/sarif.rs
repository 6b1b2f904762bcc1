//! `--format sarif`: a SARIF 2.1.0 log for code-scanning tools.
//!
//! One run; one rule per finding kind that occurs (sorted by kind, so the
//! output is deterministic); one result per finding. A finding's JSON
//! pointer is not a text position, so each result carries it twice: as a
//! logical location (`fullyQualifiedName`) and in `properties.pointer`. The
//! physical region is the start of the tool's raw text in the catalog (the
//! engine reports its byte span), so an annotation lands on the right tool.

use crate::json_out::{n, obj, s};
use crate::report::Report;
use mcp_guard::json::Value;
use mcp_guard::{FindingKind, Severity};

pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// SARIF has three levels; severities map onto them.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium | Severity::Low => "warning",
        Severity::Info => "note",
    }
}

/// One sentence per kind for `rules[].shortDescription`. The engine's kind
/// enum is non-exhaustive: a new kind gets a generic text until added here.
fn short_description(k: FindingKind) -> String {
    use FindingKind::*;
    let text = match k {
        ResultKeyDropped => "An unknown key of the tools/list result was removed.",
        InvalidCursor => "A non-string nextCursor was removed.",
        ToolEntryInvalid => "A tools entry was not an object or had no string name.",
        CatalogLimit => "The catalog has more tools than the policy allows.",
        FieldDropped => "A tool field outside the allow-list was removed.",
        FieldInvalidType => "An optional tool field had the wrong JSON type.",
        AnnotationDropped => "An unknown or mistyped tool annotation was removed.",
        AnnotationContradiction => "Annotation hints contradict each other or the tool's name (read-only and destructive).",
        TitleMismatch => "The display title does not describe what the tool does.",
        IconDropped => "An icon with a disallowed URI or type was removed.",
        MetaDropped => "A reserved or unsafe _meta key was removed.",
        InvisibleRemoved => "Invisible or formatting characters were removed from model-visible text.",
        ControlRemoved => "Control characters or terminal escape sequences were removed.",
        UnicodeNormalized => "Unicode NFKC normalization changed the text.",
        WhitespaceNormalized => "Line separators or long runs of blanks were normalized.",
        TextTruncated => "Text exceeded its cap and was cut.",
        UnsafeValue => "A value sent back to the server holds unsafe characters.",
        DescriptionTruncated => "A description was truncated by policy.",
        DescriptionStripped => "A description was removed by policy.",
        DescriptionReplaced => "A description was replaced by a neutral placeholder.",
        SchemaKeywordDropped => "An unknown JSON Schema keyword was removed.",
        SchemaNormalized => "A schema was rewritten to an equivalent normal form.",
        SchemaInvalid => "A schema value has the wrong type or shape.",
        SchemaLimit => "A schema exceeded a structural limit.",
        SchemaRef => "A $ref points outside the schema or nowhere.",
        PatternDropped => "A non-portable or backtracking-prone pattern was removed.",
        NumberInvalid => "A number no JSON consumer can represent.",
        NameInvalid => "A tool name is not a valid MCP tool name.",
        NameMapped => "A tool name was mapped to a different visible name.",
        NameDuplicate => "Two tools share a name.",
        NameConfusable => "A tool name looks like another tool's name.",
        _ => return format!("mcp-guard finding {}.", k.id()),
    };
    text.to_string()
}

pub fn render(r: &Report) -> String {
    let o = r.outcome;
    let uri = artifact_uri(r.path);
    let lines = LineIndex::new(r.input);

    let mut kinds: Vec<FindingKind> = o.findings.iter().map(|f| f.kind).collect();
    kinds.sort();
    kinds.dedup();
    let rules: Vec<Value> = kinds
        .iter()
        .map(|k| obj([("id", s(k.id())), ("shortDescription", obj([("text", s(&short_description(*k)))]))]))
        .collect();

    let results: Vec<Value> = o
        .findings
        .iter()
        .map(|f| {
            let rule_index = kinds.iter().position(|k| *k == f.kind).unwrap_or(0);
            let span = f.tool_index.and_then(|i| o.tools.iter().find(|t| t.index == i)).map(|t| t.raw_span);
            let mut physical = obj([("artifactLocation", obj([("uri", s(&uri)), ("index", n(0))]))]);
            if let (Some((start, end)), Value::Object(p)) = (span.filter(|sp| sp.1 > sp.0), &mut physical) {
                let (sl, sc) = lines.line_col(start as usize);
                let (el, ec) = lines.line_col(end as usize);
                p.insert(
                    "region",
                    obj([("startLine", n(sl)), ("startColumn", n(sc)), ("endLine", n(el)), ("endColumn", n(ec))]),
                );
            }
            let mut props =
                obj([("pointer", s(&f.pointer)), ("severity", s(f.severity.id())), ("action", s(f.action.id()))]);
            if let Value::Object(p) = &mut props {
                if let Some(t) = &f.tool {
                    p.insert("tool", s(t));
                }
                if let Some(i) = f.tool_index {
                    p.insert("toolIndex", n(i.into()));
                }
            }
            obj([
                ("ruleId", s(f.kind.id())),
                ("ruleIndex", n(rule_index as u64)),
                ("level", s(level(f.severity))),
                ("message", obj([("text", s(&f.detail))])),
                (
                    "locations",
                    Value::Array(vec![obj([
                        ("physicalLocation", physical),
                        (
                            "logicalLocations",
                            Value::Array(vec![obj([("fullyQualifiedName", s(&f.pointer)), ("kind", s("member"))])]),
                        ),
                    ])]),
                ),
                ("properties", props),
            ])
        })
        .collect();

    let log = obj([
        ("$schema", s(SCHEMA)),
        ("version", s("2.1.0")),
        (
            "runs",
            Value::Array(vec![obj([
                (
                    "tool",
                    obj([(
                        "driver",
                        obj([
                            ("name", s("mcp-guard")),
                            ("version", s(mcp_guard::ENGINE_VERSION)),
                            ("rules", Value::Array(rules)),
                        ]),
                    )]),
                ),
                ("artifacts", Value::Array(vec![obj([("location", obj([("uri", s(&uri))]))])])),
                ("columnKind", s("utf16CodeUnits")),
                ("results", Value::Array(results)),
            ])]),
        ),
    ]);
    let mut text = mcp_guard::json::write_pretty(&log);
    text.push('\n');
    text
}

/// The catalog path as a URI reference: relative paths stay relative (code
/// scanning resolves them against the checkout), absolute ones become
/// `file://` URIs; reserved characters are percent-encoded.
pub fn artifact_uri(path: &str) -> String {
    if path == "<stdin>" {
        return "stdin".to_string();
    }
    let slashed = path.replace('\\', "/");
    let mut out = String::with_capacity(slashed.len());
    if slashed.starts_with('/') {
        out.push_str("file://");
    }
    for b in slashed.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Byte offset → 1-based (line, column in UTF-16 code units).
struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    fn line_col(&self, offset: usize) -> (u64, u64) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= offset) - 1;
        let start = self.starts[line];
        let col = self.text.get(start..offset).map_or(0, |t| t.encode_utf16().count());
        (line as u64 + 1, col as u64 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_stay_relative_and_get_encoded() {
        assert_eq!(artifact_uri("examples/a b.json"), "examples/a%20b.json");
        assert_eq!(artifact_uri("/tmp/x#1.json"), "file:///tmp/x%231.json");
        assert_eq!(artifact_uri("<stdin>"), "stdin");
    }

    #[test]
    fn line_and_utf16_column() {
        let li = LineIndex::new("{\n  \"é𝄞\": 1\n}");
        assert_eq!(li.line_col(0), (1, 1));
        assert_eq!(li.line_col(2), (2, 1));
        // after `  "é𝄞` = 2 spaces + quote + é (1 unit) + 𝄞 (2 units)
        assert_eq!(li.line_col(2 + 3 + 2 + 4), (2, 7));
    }
}
