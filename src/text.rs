//! Text cleaning primitives for model-visible strings (used by the `sanitize` stage).
//!
//! Order inside `clean` (each step sees the previous one's output):
//! 1. terminal escape sequences (CSI/OSC/…) go first, so their printable
//!    tails (`[31m`) do not survive the control-character pass;
//! 2. line breaks are unified (`\r\n`, `\r`, U+2028/2029/0085 → `\n`);
//! 3. control characters except `\n`/`\t` are removed;
//! 4. invisible and formatting characters are removed (tag characters are
//!    decoded so the report shows the hidden ASCII);
//! 5. NFKC, after removal, so a zero-width joiner cannot split a sequence NFKC
//!    would otherwise fold;
//! 6. blank runs are collapsed (before measuring, so padding cannot push a
//!    payload past the cap and out of a scanner's view);
//! 7. the length cap is applied last, with a visible marker.

use std::borrow::Cow;
use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// Whitespace and length settings for one field.
#[derive(Clone, Copy, Debug)]
pub struct TextLimits<'a> {
    pub max_chars: u32,
    pub max_space_run: u32,
    pub max_blank_lines: u32,
    pub marker: &'a str,
}

/// What `clean` changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub controls: u32,
    pub escapes: u32,
    pub invisible: u32,
    /// ASCII decoded from Unicode tag characters (U+E0020–U+E007E).
    pub tag_text: String,
    pub nfkc: bool,
    pub whitespace: bool,
    /// Characters removed by the cap (0 if not truncated).
    pub truncated: u32,
}

impl Changes {
    pub fn any(&self) -> bool {
        self.controls > 0 || self.escapes > 0 || self.invisible > 0 || self.nfkc || self.whitespace || self.truncated > 0
    }
}

/// True for characters that render as nothing (or as blank) and can carry
/// hidden text: every Cf (zero-width, bidi controls, BOM, soft hyphen, tag
/// block), variation selectors, Hangul/halfwidth fillers, private use (Co),
/// unassigned and noncharacters (Cn), the combining grapheme joiner, Mongolian
/// free variation selectors, and the braille blank.
pub fn is_invisible(c: char) -> bool {
    let cp = c as u32;
    if cp < 0xA0 {
        return false;
    }
    matches!(cp,
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF // variation selectors
        | 0x115F | 0x1160 | 0x3164 | 0xFFA0 // Hangul / halfwidth fillers
        | 0x034F                            // combining grapheme joiner
        | 0x180B..=0x180F                   // Mongolian FVS + vowel separator
        | 0x17B4 | 0x17B5                   // Khmer inherent vowels
        | 0x2800                            // braille pattern blank
    ) || matches!(
        get_general_category(c),
        GeneralCategory::Format | GeneralCategory::PrivateUse | GeneralCategory::Unassigned | GeneralCategory::Surrogate
    )
}

/// C0/C1 controls other than `\n` and `\t`.
pub fn is_control(c: char) -> bool {
    let cp = c as u32;
    (cp < 0x20 && c != '\n' && c != '\t') || (0x7F..=0x9F).contains(&cp)
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\r' | '\u{2028}' | '\u{2029}' | '\u{85}')
}

/// Cheap pre-check: printable ASCII plus `\n`/`\t` needs no cleaning except
/// maybe whitespace collapsing and the cap, which `clean` checks separately.
/// (`scan`'s first answer, with no whitespace limit to check.)
fn plain_ascii(s: &str) -> bool {
    scan(s, u32::MAX, u32::MAX).0
}

/// Whether all eight bytes of `w` are printable ASCII (0x20..=0x7E).
fn printable_word(w: u64) -> bool {
    !crate::swar::any_unprintable(w)
}
/// Whether a value the server receives back contains characters that must
/// never be rewritten silently (invisible, controls, escape sequences, odd
/// line breaks). NFKC-only differences are reported separately.
pub fn has_unsafe_chars(s: &str) -> bool {
    if plain_ascii(s) {
        return false;
    }
    strip_scan(s, true)
}

/// Whether `s` holds a character `strip_chars` removes or rewrites: a
/// control (ESC included), an invisible character or a line break other
/// than `\n`. Eight printable ASCII bytes at a time, the other ASCII bytes
/// by a byte test, and only the characters outside ASCII decoded and looked
/// up (the general-category lookup per character was most of the cost of
/// cleaning a text with one em dash in it).
fn any_to_strip(s: &str) -> bool {
    strip_scan(s, false)
}

/// `any_to_strip`; with `orthographic`, a format character that is how the
/// text is written (`orthographic`) does not count: a value is not
/// rewritten, so only what could hide something makes it unsafe.
fn strip_scan(s: &str, orthographic_ok: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some(Ok(w)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) {
            if printable_word(crate::swar::word(w)) {
                i += 8;
                continue;
            }
        }
        let c = b[i];
        if c < 0x80 {
            // `is_control` for ASCII (ESC and `\r` among them);
            // `is_invisible` and the other line breaks are not ASCII.
            if (c < 0x20 && c != b'\n' && c != b'\t') || c == 0x7f {
                return true;
            }
            i += 1;
            continue;
        }
        let Some(ch) = s.get(i..).and_then(|t| t.chars().next()) else { return false };
        if is_control(ch) || is_line_break(ch) || (is_invisible(ch) && !(orthographic_ok && orthographic(s, i, ch))) {
            return true;
        }
        i += ch.len_utf8();
    }
    false
}

/// Whether the format character `c` at byte `i` of `s` is part of how the
/// text is written, not something hidden in it, so that a value holding it
/// is no unsafe value (a red team found honest tools hidden under the
/// default policy for a `default` of "I ❤️ MCP" or a Kannada greeting):
/// - U+FE0F / U+FE0E, the emoji and text presentation selectors, after a
///   symbol, a punctuation mark, `#`, `*` or a digit (❤️, ‼️, 1️⃣);
/// - U+200D, the zero-width joiner, between two symbols of an emoji sequence
///   (👨‍👩‍👧, 👩🏽‍💻, ❤️‍🔥), or between two letters or marks of a joining script;
/// - U+200C, the zero-width non-joiner, between two letters or marks of a
///   joining script (Persian "می‌خواهم", Kannada, Hindi, Malayalam).
///
/// Joining scripts: Arabic (U+0600-U+08FF, presentation forms), the Indic
/// and Sinhala blocks (U+0900-U+0DFF), Myanmar and Khmer. Between Latin,
/// Cyrillic or CJK letters, at either end, or beside another format
/// character, a joiner is still unsafe: there it only splits what a reader
/// sees from what a filter reads ("ig\u{200D}nore").
fn orthographic(s: &str, i: usize, c: char) -> bool {
    let prev = s[..i].chars().next_back();
    let next = s[i + c.len_utf8()..].chars().next();
    let symbol = |x: char| {
        use GeneralCategory::*;
        matches!(
            get_general_category(x),
            OtherSymbol | MathSymbol | ModifierSymbol | CurrencySymbol | OtherPunctuation | DashPunctuation | OpenPunctuation | ClosePunctuation
        ) && !x.is_ascii()
    };
    let joining = |x: char| {
        let cp = x as u32;
        (matches!(cp, 0x0600..=0x08FF | 0x0900..=0x0DFF | 0x1000..=0x109F | 0x1780..=0x17FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF))
            && (x.is_alphabetic() || matches!(get_general_category(x), GeneralCategory::NonspacingMark | GeneralCategory::SpacingMark))
    };
    match (c, prev, next) {
        ('\u{FE0F}' | '\u{FE0E}', Some(p), _) => symbol(p) || p == '#' || p == '*' || p.is_ascii_digit(),
        // An emoji sequence: a symbol (or one with its presentation
        // selector or skin tone) on the left, a symbol on the right.
        ('\u{200D}', Some(p), Some(n)) if symbol(n) && (symbol(p) || p == '\u{FE0F}') => true,
        ('\u{200D}' | '\u{200C}', Some(p), Some(n)) => joining(p) && joining(n),
        _ => false,
    }
}

/// Whether NFKC would change `s`.
pub fn nfkc_changes(s: &str) -> bool {
    if s.is_ascii() {
        return false;
    }
    match nfkc_quick_non_ascii(s) {
        IsNormalized::Yes => false,
        _ => s.nfkc().ne(s.chars()),
    }
}

/// `is_nfkc_quick(s.chars())`, reading only the runs of non-ASCII
/// characters: ASCII is NFKC-stable and a starter, and the quick check
/// forgets what came before at every starter, so each run is checked on its
/// own (No if any run is No, else Maybe if any is Maybe). The ASCII between
/// them is skipped eight bytes at a time instead of decoded per character.
fn nfkc_quick_non_ascii(s: &str) -> IsNormalized {
    let b = s.as_bytes();
    let mut result = IsNormalized::Yes;
    let mut i = 0;
    loop {
        while let Some(Ok(w)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) {
            if crate::swar::any_high(crate::swar::word(w)) {
                break;
            }
            i += 8;
        }
        while b.get(i).is_some_and(|c| c.is_ascii()) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(|c| !c.is_ascii()) {
            i += 1;
        }
        // Both ends are next to ASCII bytes (or the ends of `s`): character
        // boundaries.
        let Some(run) = s.get(start..i).filter(|r| !r.is_empty()) else { return result };
        match is_nfkc_quick(run.chars()) {
            IsNormalized::No => return IsNormalized::No,
            IsNormalized::Maybe => result = IsNormalized::Maybe,
            IsNormalized::Yes => {}
        }
    }
}

/// Cleans one model-visible string. Returns the new text only if it changed.
pub fn clean<'s>(s: &'s str, lim: TextLimits) -> (Cow<'s, str>, Changes) {
    let mut ch = Changes::default();
    let (plain, blanks) = scan(s, lim.max_space_run, lim.max_blank_lines);
    if plain && !blanks && s.len() <= lim.max_chars as usize {
        return (Cow::Borrowed(s), ch);
    }
    let mut cur: Cow<'s, str> = Cow::Borrowed(s);
    if !plain {
        let stripped = strip_chars(s, &mut ch);
        if let Some(t) = stripped {
            cur = Cow::Owned(t);
        }
        if nfkc_changes(&cur) {
            ch.nfkc = true;
            cur = Cow::Owned(cur.nfkc().collect());
            // NFKC can produce line-break or control compatibility forms only
            // from characters already removed above; run the strip pass once
            // more for safety (cheap, usually a no-op).
            let mut extra = Changes::default();
            if let Some(t) = strip_chars(&cur, &mut extra) {
                cur = Cow::Owned(t);
                ch.controls += extra.controls;
                ch.invisible += extra.invisible;
                ch.whitespace |= extra.whitespace;
            }
        }
    }
    if !plain || blanks {
        if let Some(t) = collapse_blanks(&cur, lim.max_space_run, lim.max_blank_lines) {
            ch.whitespace = true;
            cur = Cow::Owned(t);
        }
    }
    if let Some((t, cut)) = truncate(&cur, lim.max_chars, lim.marker) {
        ch.truncated = cut;
        cur = Cow::Owned(t);
    }
    (cur, ch)
}

/// One pass over the bytes: is the text plain printable ASCII (plus `\n`,
/// `\t`), and does it have a blank run over the limits? Most real text is
/// plain and short enough, and leaves here untouched.
///
/// Eight bytes at a time where they are all printable ASCII (spaces
/// included), which is nearly all of real metadata: such a word only moves
/// the space run (by its leading spaces, then to its trailing ones, or by 8)
/// and ends any newline run. Its inner space runs are at most 6 long, so it
/// is taken whole only when `max_run` is at least that; other words go byte
/// by byte.
fn scan(s: &str, max_run: u32, max_blank: u32) -> (bool, bool) {
    let mut st = Scan { plain: true, blanks: false, run: 0, newlines: 0 };
    let bytes = s.as_bytes();
    let mut i = 0;
    if max_run >= 6 {
        while let Some(chunk) = bytes.get(i..i + 8) {
            let Ok(word) = <[u8; 8]>::try_from(chunk) else { break };
            i += 8;
            let w = crate::swar::word(word);
            if !printable_word(w) {
                word.iter().for_each(|&b| st.byte(b, max_run, max_blank));
                continue;
            }
            let non_space = crate::swar::bytes_not(w, b' ');
            if non_space == 0 {
                st.run = st.run.saturating_add(8);
                st.blanks |= st.run > max_run;
            } else {
                // The word's leading spaces are at most 7: only a run that
                // long already needs them counted (most words start a run
                // of 0 or 1, and the count was a third of the loop).
                if st.run.saturating_add(7) > max_run {
                    st.blanks |= st.run.saturating_add(non_space.trailing_zeros() / 8) > max_run;
                }
                st.run = non_space.leading_zeros() / 8;
                st.newlines = 0;
            }
        }
    }
    bytes[i..].iter().for_each(|&b| st.byte(b, max_run, max_blank));
    (st.plain, st.blanks)
}

struct Scan {
    plain: bool,
    blanks: bool,
    run: u32,
    newlines: u32,
}

impl Scan {
    fn byte(&mut self, b: u8, max_run: u32, max_blank: u32) {
        match b {
            b' ' | b'\t' => {
                self.run = self.run.saturating_add(1);
                self.blanks |= self.run > max_run;
            }
            b'\n' => {
                self.run = 0;
                self.newlines = self.newlines.saturating_add(1);
                self.blanks |= self.newlines > max_blank.saturating_add(1);
            }
            0x20..=0x7e => {
                self.run = 0;
                self.newlines = 0;
            }
            _ => {
                self.plain = false;
                self.run = 0;
                self.newlines = 0;
            }
        }
    }
}

/// Steps 1–4. `None` if nothing changed.
fn strip_chars(s: &str, ch: &mut Changes) -> Option<String> {
    if !any_to_strip(s) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        // ESC sequences (ECMA-48): CSI `ESC [ params final`, OSC/DCS/PM/APC
        // `ESC ] … (BEL | ESC \)`, and two-byte `ESC x`. C1 CSI (U+009B) too.
        if c == '\u{1b}' || c == '\u{9b}' {
            ch.escapes += 1;
            let csi = c == '\u{9b}' || chars.get(i + 1) == Some(&'[');
            let string_seq = c == '\u{1b}' && matches!(chars.get(i + 1), Some(']' | 'P' | '^' | '_' | 'X'));
            i += if c == '\u{9b}' { 1 } else { 2 };
            if csi {
                while i < chars.len() && ('\u{20}'..='\u{3f}').contains(&chars[i]) {
                    i += 1;
                }
                if i < chars.len() && ('\u{40}'..='\u{7e}').contains(&chars[i]) {
                    i += 1;
                }
            } else if string_seq {
                while i < chars.len() {
                    if chars[i] == '\u{7}' {
                        i += 1;
                        break;
                    }
                    if chars[i] == '\u{1b}' && chars.get(i + 1) == Some(&'\\') {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
            }
            continue;
        }
        if c == '\r' {
            ch.whitespace = true;
            out.push('\n');
            if chars.get(i + 1) == Some(&'\n') {
                i += 1;
            }
        } else if is_line_break(c) {
            ch.whitespace = true;
            out.push('\n');
        } else if is_control(c) {
            ch.controls += 1;
        } else if is_invisible(c) {
            ch.invisible += 1;
            let cp = c as u32;
            if (0xE0020..=0xE007E).contains(&cp) {
                if let Some(a) = char::from_u32(cp - 0xE0000) {
                    ch.tag_text.push(a);
                }
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    Some(out)
}

/// Step 6: runs of more than `max_run` spaces/tabs become one space; more
/// than `max_blank` consecutive blank lines become `max_blank`. Lines made
/// only of blanks count as blank. `None` if nothing changed.
fn collapse_blanks(s: &str, max_run: u32, max_blank: u32) -> Option<String> {
    // Fast check without allocating.
    let mut run = 0u32;
    let mut newlines = 0u32;
    let mut hit = false;
    for b in s.bytes() {
        match b {
            b' ' | b'\t' => {
                run += 1;
                if run > max_run {
                    hit = true;
                    break;
                }
            }
            b'\n' => {
                run = 0;
                newlines += 1;
                if newlines > max_blank.saturating_add(1) {
                    hit = true;
                    break;
                }
            }
            _ => {
                run = 0;
                newlines = 0;
            }
        }
    }
    if !hit {
        return None;
    }
    let mut out = String::with_capacity(s.len().min(1 << 20));
    let mut pending_ws = String::new();
    let mut newlines = 0u32;
    for c in s.chars() {
        match c {
            ' ' | '\t' => pending_ws.push(c),
            '\n' => {
                // Blanks before a newline on an otherwise empty line vanish
                // only when the line is collapsed away.
                newlines += 1;
                if newlines <= max_blank.saturating_add(1) {
                    flush_ws(&mut out, &mut pending_ws, max_run);
                    out.push('\n');
                } else {
                    pending_ws.clear();
                }
            }
            _ => {
                flush_ws(&mut out, &mut pending_ws, max_run);
                newlines = 0;
                out.push(c);
            }
        }
    }
    flush_ws(&mut out, &mut pending_ws, max_run);
    if out == s {
        None
    } else {
        Some(out)
    }
}

fn flush_ws(out: &mut String, ws: &mut String, max_run: u32) {
    if ws.chars().count() as u32 > max_run {
        out.push(' ');
    } else {
        out.push_str(ws);
    }
    ws.clear();
}

/// Step 7: cut to `max_chars` characters *including* the marker. Returns the
/// new text and how many original characters were dropped.
pub fn truncate(s: &str, max_chars: u32, marker: &str) -> Option<(String, u32)> {
    let max = max_chars as usize;
    // Byte length bounds char count from above: a quick exit for short text.
    if s.len() <= max {
        return None;
    }
    let total = s.chars().count();
    if total <= max {
        return None;
    }
    let keep = max.saturating_sub(marker.chars().count());
    let cut_at = s.char_indices().nth(keep).map(|(i, _)| i).unwrap_or(s.len());
    let mut out = String::with_capacity(cut_at + marker.len());
    out.push_str(s[..cut_at].trim_end());
    out.push_str(marker);
    Some((out, (total - keep) as u32))
}

/// The bytes of an MCP tool name (`[A-Za-z0-9._-]`): also the policy's
/// test for short identifiers such as the name separator.
pub fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-'
}

/// Shows a value with its invisible characters spelled out (`<U+200B>`), and
/// bounded, so a finding can never carry the payload it reports.
pub fn escape_for_detail(s: &str) -> String {
    let mut out = String::from("\"");
    for (n, c) in s.chars().enumerate() {
        if n >= 80 {
            out.push('…');
            break;
        }
        if (c as u32) < 0x20 || (c as u32) >= 0x7F {
            if c.is_alphanumeric() && !is_invisible(c) {
                out.push(c);
            } else {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_quick_check_by_runs_agrees_with_the_whole_text_check() {
        use unicode_normalization::is_nfkc_quick;
        let pieces = ["a", "plain ", "e\u{301}", "\u{301}", "\u{316}\u{301}", "\u{301}\u{316}", "ﬁ", "Å", "Å", "—", "日本", "ｱ", "\u{0345}", "12345678", "\u{1100}\u{1161}"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for lead in ["", "abcdefghij"] {
                        let s = format!("{lead}{a}{b}{c}{lead}");
                        assert_eq!(super::nfkc_quick_non_ascii(&s), is_nfkc_quick(s.chars()), "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_fast_strip_test_agrees_with_the_character_test() {
        let slow = |s: &str| s.chars().any(|c| c == '\u{1b}' || super::is_control(c) || super::is_invisible(c) || super::is_line_break(c));
        let pieces = ["a", "plain text ", "\n", "\t", "\r", "\u{1b}[31m", "\u{7f}", "\u{85}", "\u{9b}", "\u{200b}", "\u{2028}", "—", "é", "\u{e0041}", "\u{fe0f}", "日本", "12345678", " "];
        let mut n = 0u32;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for lead in ["", "abcdefg", "0123456789abcde"] {
                        let s = format!("{lead}{a}{b}{lead}{c}");
                        assert_eq!(super::any_to_strip(&s), slow(&s), "{s:?}");
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 10_000);
    }

    use super::*;

    #[test]
    fn plain_ascii_by_words_agrees_with_bytes() {
        for t in ["", "a", "abcdefgh", "abcdefg\x7f", "abc\tdef\nghijklmnop", "abcdefghé", "\x01bcdefghij", "12345678~", "1234567\u{80}"] {
            let plain = t.bytes().all(|b| (0x20..0x7F).contains(&b) || b == b'\n' || b == b'\t');
            assert_eq!(plain_ascii(t), plain, "{t:?}");
        }
    }

    #[test]
    fn scan_by_words_agrees_with_scan_by_bytes() {
        fn bytewise(s: &str, max_run: u32, max_blank: u32) -> (bool, bool) {
            let mut st = Scan { plain: true, blanks: false, run: 0, newlines: 0 };
            s.bytes().for_each(|b| st.byte(b, max_run, max_blank));
            (st.plain, st.blanks)
        }
        let pieces = [" ", "  ", "a", "Zz", "\t", "\n", "\n\n", "\x7f", "\x01", "é", "~", "        ", "word "];
        let mut rng = 5u64;
        for _ in 0..4000 {
            let mut t = String::new();
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = (rng >> 58) as usize;
            for _ in 0..n {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                t.push_str(pieces[(rng >> 33) as usize % pieces.len()]);
            }
            for max_run in [0, 1, 5, 6, 7, 8, 9, 15, 80] {
                for max_blank in [0, 1, 3] {
                    assert_eq!(scan(&t, max_run, max_blank), bytewise(&t, max_run, max_blank), "{t:?} {max_run} {max_blank}");
                }
            }
        }
    }

    const LIM: TextLimits = TextLimits { max_chars: 1000, max_space_run: 8, max_blank_lines: 2, marker: " [truncated]" };

    fn c(s: &str) -> (String, Changes) {
        let (t, ch) = clean(s, LIM);
        (t.into_owned(), ch)
    }

    #[test]
    fn clean_ascii_is_untouched_and_borrowed() {
        let s = "Get the weather.\n\tcity: a name";
        let (t, ch) = clean(s, LIM);
        assert!(matches!(t, Cow::Borrowed(_)));
        assert!(!ch.any());
    }

    #[test]
    fn ascii_smuggling_with_tag_characters_is_removed_and_decoded() {
        let hidden: String = "ignore previous".chars().map(|c| char::from_u32(0xE0000 + c as u32).unwrap()).collect();
        let (t, ch) = c(&format!("Lists a directory.{hidden}"));
        assert_eq!(t, "Lists a directory.");
        assert_eq!(ch.tag_text, "ignore previous");
    }

    #[test]
    fn trojan_source_bidi_controls_are_removed() {
        let (t, ch) = c("Approves.\u{2067} \u{2066}// only if asked\u{2069} \u{2069}");
        assert_eq!(t, "Approves. // only if asked ");
        assert_eq!(ch.invisible, 4);
    }

    #[test]
    fn variation_selector_smuggling_is_removed() {
        let (t, _) = c("Nice \u{1F600}\u{E0153}\u{E0151}\u{FE0F}");
        assert_eq!(t, "Nice \u{1F600}");
    }

    #[test]
    fn ansi_escape_sequences_are_removed_whole() {
        let (t, ch) = c("ok\u{1b}[2K\u{1b}[1Gfine \u{1b}]8;;https://x.example\u{7}click\u{1b}]8;;\u{7} \u{1b}[8mhidden\u{1b}[0m");
        assert_eq!(t, "okfine click hidden");
        assert_eq!(ch.escapes, 6);
    }

    #[test]
    fn fullwidth_and_compatibility_forms_fold_under_nfkc() {
        let (t, ch) = c("ｉｇｎｏｒｅ ﬁle µs");
        assert_eq!(t, "ignore file μs");
        assert!(ch.nfkc);
    }

    #[test]
    fn line_separators_become_newlines() {
        let (t, ch) = c("a\u{2028}b\u{2029}c\u{85}d\r\ne\rf");
        assert_eq!(t, "a\nb\nc\nd\ne\nf");
        assert!(ch.whitespace);
    }

    #[test]
    fn padding_cannot_push_a_payload_out_of_view() {
        let s = format!("Fine.{}{}PAYLOAD", " ".repeat(50_000), "\n".repeat(5_000));
        let (t, ch) = c(&s);
        assert_eq!(t, "Fine. \n\n\nPAYLOAD");
        assert!(ch.whitespace && ch.truncated == 0);
    }

    #[test]
    fn truncation_is_visible_and_counts_characters() {
        let s = "é".repeat(2000);
        let (t, ch) = c(&s);
        assert_eq!(t.chars().count(), 1000);
        assert!(t.ends_with(" [truncated]"));
        assert_eq!(ch.truncated, 2000 - (1000 - 12));
    }

    #[test]
    fn unsafe_chars_in_values() {
        assert!(has_unsafe_chars("k\u{200b}"));
        // Format characters that are how the text is written.
        for ok in ["I ❤️ MCP", "👨\u{200D}👩\u{200D}👧", "👩🏽\u{200D}💻", "❤️\u{200D}🔥", "1️⃣", "‼️", "می\u{200C}خواهم", "ನಿಮ್ಮ ಆರ್ಡರ್\u{200C}ಗೆ", "क्\u{200D}ष"] {
            assert!(!has_unsafe_chars(ok), "{ok:?}");
        }
        // The same characters where they only split what a reader sees from
        // what a filter reads, or carry nothing.
        for bad in ["ig\u{200D}nore", "ig\u{200C}nore", "\u{200C}می", "می\u{200C}", "a\u{FE0F}", "\u{FE0F}", "при\u{200D}вет", "中\u{200C}文", "👍\u{200D}", "می\u{200C}\u{200C}خواهم", "👍\u{E0041}"] {
            assert!(has_unsafe_chars(bad), "{bad:?}");
        }
        assert!(has_unsafe_chars("a\u{0}b"));
        assert!(!has_unsafe_chars("café"));
        assert!(!has_unsafe_chars("line\nbreak"));
    }
}
