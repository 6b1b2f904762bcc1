//! Just enough of the `text/event-stream` format (WHATWG HTML §9.2) to find
//! the event that carries one JSON-RPC response and rewrite its data.
//!
//! Lines end in CRLF, LF or CR; an event ends at a blank line; its data is
//! its `data:` lines joined with LF (one leading space after the colon is
//! dropped). Only *complete* events are returned: an event still being
//! received is not decided on.

/// One complete event in a buffer.
#[derive(Debug, PartialEq, Eq)]
pub struct Event {
    /// Byte range of the event in the buffer, blank line included.
    pub start: usize,
    pub end: usize,
    /// The joined `data:` lines; `None` when they are not UTF-8 (a client
    /// decodes such bytes to U+FFFD and may still read JSON out of them, so
    /// the caller treats that as malformed, never as "not a response").
    pub data: Option<String>,
    /// The event had at least one `data:` line.
    pub has_data: bool,
}

/// Splits `buf` into lines: (line without its terminator, index after the
/// terminator). A trailing line without terminator is not returned.
fn lines(buf: &[u8]) -> impl Iterator<Item = (&[u8], usize, usize)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &buf[at..];
        let i = rest.iter().position(|&b| b == b'\n' || b == b'\r')?;
        // A lone CR at the very end may be the first half of a CRLF still
        // in flight: wait for the next byte.
        let term = match (rest[i], rest.get(i + 1)) {
            (b'\r', Some(b'\n')) => 2,
            (b'\r', None) => return None,
            _ => 1,
        };
        let start = at;
        at += i + term;
        Some((&rest[..i], start, at))
    })
}

/// Every complete event in `buf`, in order.
pub fn events(buf: &[u8]) -> Vec<Event> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut data: Vec<u8> = Vec::new();
    let mut has_data = false;
    for (line, line_start, next) in lines(buf) {
        if line.is_empty() {
            if let Some(s) = start.take() {
                out.push(Event { start: s, end: next, data: String::from_utf8(std::mem::take(&mut data)).ok(), has_data });
            }
            has_data = false;
            data.clear();
            continue;
        }
        start.get_or_insert(line_start);
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &b""[..]),
        };
        if field == b"data" {
            if has_data {
                data.push(b'\n');
            }
            data.extend_from_slice(value);
            has_data = true;
        }
    }
    out
}

/// The event's text with its `data:` lines replaced by one `data: {new}`
/// line where the first one stood (`id:`, `event:` and comments kept, so the
/// client's resumption id is unchanged). `new` must hold no line break —
/// compact JSON never does.
pub fn rewrite(event_text: &[u8], new: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(new.len() + 64);
    let mut wrote = false;
    for (line, _, _) in lines(event_text) {
        if line.is_empty() {
            break;
        }
        let is_data = line == b"data" || line.starts_with(b"data:");
        if is_data {
            if !wrote {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(new.as_bytes());
                out.push(b'\n');
                wrote = true;
            }
            continue;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    if !wrote {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(new.as_bytes());
        out.push(b'\n');
    }
    out.push(b'\n');
    out
}

/// A whole event of our own (a refusal when no upstream event can be reused).
pub fn event(data: &str) -> Vec<u8> {
    format!("event: message\ndata: {data}\n\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_in_an_sdk_stream() {
        let buf = b"event: message\nid: 1\ndata: {\"a\":1}\n\nevent: message\ndata: {\"b\":\ndata: 2}\n\n";
        let e = events(buf);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].data.as_deref(), Some("{\"a\":1}"));
        assert_eq!(e[1].data.as_deref(), Some("{\"b\":\n2}"));
        assert_eq!(e[1].end, buf.len());
    }

    #[test]
    fn incomplete_event_is_not_decided_on() {
        assert!(events(b"data: {\"tools\":[]}\n").is_empty());
        assert!(events(b"data: {}\r\n\r").is_empty(), "CR may be half of a CRLF");
        assert_eq!(events(b"data: {}\r\n\r\n").len(), 1);
        assert_eq!(events(b"data: {}\r\r\n").len(), 1, "CR line ends");
    }

    #[test]
    fn comment_only_event_has_no_data() {
        let e = events(b": keep-alive\n\n");
        assert_eq!(e.len(), 1);
        assert!(!e[0].has_data);
    }

    #[test]
    fn non_utf8_data_is_flagged_not_skipped() {
        let e = events(b"data: {\"x\":\"\xff\"}\n\n");
        assert!(e[0].has_data && e[0].data.is_none());
    }

    #[test]
    fn rewrite_keeps_id_and_event_type() {
        let out = rewrite(b"event: message\r\nid: 7\r\ndata: {\"old\":\r\ndata: 1}\r\n\r\n", "{\"new\":2}");
        assert_eq!(out, b"event: message\nid: 7\ndata: {\"new\":2}\n\n");
    }
}
