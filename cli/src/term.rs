//! Terminal output: escaping hostile text and optional ANSI colors.
//!
//! Every string that came from the catalog (tool names, pointers built from
//! property names, finding details that quote values) is untrusted. Printed
//! raw, an ESC byte could recolor, move the cursor, retitle the window or
//! write OSC 8 links; a bidi override could reorder the line. So anything
//! that is not plainly printable becomes a visible `<U+XXXX>`.

use std::fmt::Write as _;

/// Characters that must never reach a terminal as themselves: C0 controls
/// (newline and tab included: a name must stay on one line), DEL and C1
/// controls, line/paragraph separators, whitespace other than U+0020 (it
/// can pad text out of view), and everything the engine classes as
/// invisible (Cf incl. bidi controls and tag characters, variation
/// selectors, fillers, private use, unassigned).
pub fn needs_escape(c: char) -> bool {
    let cp = c as u32;
    cp < 0x20 || (0x7F..=0x9F).contains(&cp) || (c.is_whitespace() && c != ' ') || mcp_guard::text::is_invisible(c)
}

/// `s` with every unsafe character spelled `<U+XXXX>`.
pub fn escape(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if needs_escape(c) {
            let _ = write!(out, "<U+{:04X}>", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// ANSI styling, or nothing.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
}

impl Style {
    /// Wraps *already escaped* text in an SGR sequence.
    pub fn paint(self, text: &str, sgr: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The SGR code for a severity.
pub fn severity_sgr(s: mcp_guard::Severity) -> &'static str {
    use mcp_guard::Severity::*;
    match s {
        Critical => "1;31",
        High => "31",
        Medium => "33",
        Low => "36",
        Info => "2",
    }
}

/// The SGR code for a tool status.
pub fn status_sgr(s: mcp_guard::ToolStatus) -> &'static str {
    use mcp_guard::ToolStatus::*;
    match s {
        Clean => "32",
        Rewritten | Truncated => "33",
        Hidden => "1;31",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_escape_in_a_name_is_spelled_out() {
        assert_eq!(escape("ok\x1b[2J\x1b]0;pwned\x07"), "ok<U+001B>[2J<U+001B>]0;pwned<U+0007>");
    }

    #[test]
    fn c1_csi_and_bidi_override_are_spelled_out() {
        assert_eq!(escape("a\u{9b}31mb\u{202e}cba"), "a<U+009B>31mb<U+202E>cba");
    }

    #[test]
    fn tag_characters_and_line_breaks_are_spelled_out() {
        assert_eq!(escape("x\u{E0041}\n\u{2028}"), "x<U+E0041><U+000A><U+2028>");
    }

    #[test]
    fn printable_unicode_is_kept() {
        assert_eq!(escape("météo 天気 → ok"), "météo 天気 → ok");
    }
}
