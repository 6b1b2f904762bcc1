//! Verdicts per distinct string within one catalog.
//!
//! A catalog repeats itself: every schema says `"type": "string"`, sibling
//! tools share parameter descriptions ("Maximum number of results to
//! return"), merged catalogs repeat whole tools. The verdict on a string
//! depends only on the string, the rules and the catalog's names, so it is
//! computed once per distinct string.
//!
//! Bounded: at most `MAX_ENTRIES` strings (as many again of 8 bytes or less,
//! kept apart in one word each) and `MAX_BYTES` of their text are
//! kept; past that, strings are scanned without being remembered. The table
//! is open-addressed with a bounded probe, so strings crafted to collide
//! (the hash is not keyed: the engine has no randomness) cost at most
//! `MAX_PROBE` comparisons each and are then simply not remembered.

/// Strings kept per catalog (a real catalog has a few thousand distinct
/// strings; the 868-tool merged corpus has 7,104).
const MAX_ENTRIES: usize = 1 << 15;
/// Text kept per catalog.
const MAX_BYTES: usize = 4 << 20;
const MAX_PROBE: usize = 16;
// `Entry::hash` keeps 32 bits: every slot index of the largest table.
const _: () = assert!(2 * MAX_ENTRIES as u64 <= 1 << 32);
const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(std::mem::size_of::<Short>() == 16);

/// A remembered string of more than 8 bytes, kept in its slot: a lookup's
/// first read brings the hash to compare and, on a hit, where the text is
/// (a slot holding an index into a separate entry list, as before, made two
/// dependent cache misses of every lookup before the text's).
///
/// 16 bytes, four to a cache line: the table is read at hash-chosen
/// addresses (~384 KiB for the corpus's 7,104 strings with a 64-bit hash,
/// 24-byte slots), and the slot's read was most of a lookup's time.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The hash's low 32 bits: enough to place the entry again when the
    /// table grows (at most `2 * MAX_ENTRIES` slots), and to pass over
    /// other strings before their text is compared (which decides).
    hash: u32,
    /// Range of the string in `Memo::text` (`MAX_BYTES` fits); `len` 0 =
    /// free slot (strings this table keeps are longer than 8 bytes).
    start: u32,
    len: u32,
    /// Index into `Memo::verdicts`; 0 = nothing found (the common case).
    verdict: u32,
}

/// A string of at most 8 bytes, kept as one word: a third of the strings a
/// real catalog scans are this short (`string`, `object`, enum values), and
/// for them the general table's hash pass and text compare cost more than
/// the lookup itself.
#[derive(Clone, Copy, Default)]
struct Short {
    key: u64,
    /// 0 = free slot (the empty string is never looked up).
    len: u8,
    /// The table the string is kept for (`get_in`); in the struct's padding.
    table: u16,
    verdict: u32,
}

fn short_key(s: &str) -> u64 {
    s.bytes().fold(0u64, |w, b| w << 8 | u64::from(b))
}

fn short_slot(key: u64, len: usize) -> usize {
    (((key ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 32) as usize
}

pub struct Memo<V> {
    /// Strings of 1 to 8 bytes, open-addressed like `slots`; same bounds.
    short: Vec<Short>,
    n_short: usize,
    /// Strings of more than 8 bytes. Length: a power of two, at least twice
    /// the entries.
    slots: Vec<Entry>,
    n_entries: usize,
    text: String,
    /// Verdicts other than "nothing found"; index 0 is unused.
    verdicts: Vec<Option<V>>,
}

/// wyhash-style: one 64 x 64 -> 128-bit multiply per 16 bytes, its halves
/// folded (the FxHash-style multiply per 8 bytes and a murmur3 finalizer it
/// replaces cost ~14 instructions per 16 bytes where this costs ~9).
/// Collisions only cost time (see the module docs). On 64-bit targets only:
/// wasm32 has no 128-bit product (a `__multi3` call), and keeps the other.
#[cfg(target_pointer_width = "64")]
fn hash(s: &str) -> u64 {
    const K0: u64 = 0xa076_1d64_78bd_642f;
    const K1: u64 = 0xe703_7ed1_a0b4_28db;
    let mum = |a: u64, b: u64| {
        let r = u128::from(a) * u128::from(b);
        r as u64 ^ (r >> 64) as u64
    };
    let b = s.as_bytes();
    let word = |c: &[u8]| c.try_into().map(u64::from_le_bytes).unwrap_or(0);
    let n = b.len();
    let mut h = n as u64 ^ K0;
    let mut chunks = b.chunks_exact(16);
    for c in &mut chunks {
        h = mum(word(&c[..8]) ^ K1, word(&c[8..]) ^ h);
    }
    // The tail: the last 16 bytes (overlapping the chunks) when there are
    // that many, the first and last 8 (overlapping) from 8 on, else the
    // short string byte by byte (no copy call).
    let (x, y) = if n >= 16 {
        (word(&b[n - 16..n - 8]), word(&b[n - 8..]))
    } else if n >= 8 {
        (word(&b[..8]), word(&b[n - 8..]))
    } else {
        (b.iter().fold(0u64, |w, &x| w << 8 | u64::from(x)), 0)
    };
    h = mum(x ^ K1, y ^ h);
    mum(h ^ K0, n as u64 ^ K1)
}

/// FxHash-style: one multiply per 8 bytes. Collisions only cost time (see
/// the module docs).
#[cfg(not(target_pointer_width = "64"))]
fn hash(s: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let b = s.as_bytes();
    let word = |c: &[u8]| c.try_into().map(u64::from_le_bytes).unwrap_or(0);
    let mut h = b.len() as u64;
    let chunks = b.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        h = (h.rotate_left(5) ^ word(c)).wrapping_mul(K);
    }
    // The tail: the last 8 bytes (overlapping the chunks) when there are
    // that many, else the short string byte by byte (no copy call).
    let last = if b.len() >= 8 {
        word(&b[b.len() - 8..])
    } else {
        rest.iter().fold(0u64, |w, &x| w << 8 | u64::from(x))
    };
    h = (h.rotate_left(5) ^ last).wrapping_mul(K);
    // The multiply leaves the low bits (the slot) weak: mix (murmur3's
    // finalizer), once per string.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// What a lookup found.
pub enum Found<'a, V> {
    Nothing,
    Verdict(&'a V),
    /// Not known yet: `hash` for the insert.
    Unknown(u64),
}

impl<V> Memo<V> {
    pub fn new() -> Memo<V> {
        Memo { short: Vec::new(), n_short: 0, slots: Vec::new(), n_entries: 0, text: String::new(), verdicts: vec![None] }
    }

    /// A memo sized up front for a catalog of about `tools` tools (a real
    /// tool has about eight distinct strings, 800 bytes of them), so the
    /// tables and the text grow rarely instead of a dozen times each, every
    /// growth copying and re-placing what was kept. At most ~1.5 MiB up
    /// front (a thousand tools' worth): a larger catalog grows from there
    /// as before, so a hostile one of many tiny tools costs no more memory
    /// than it fills.
    pub fn for_tools(tools: usize) -> Memo<V> {
        let mut m = Memo::new();
        if tools > 0 {
            m.slots = vec![Entry::default(); tools.saturating_mul(16).clamp(1024, 1 << 14).next_power_of_two()];
            m.short = vec![Short::default(); tools.saturating_mul(8).clamp(256, 1 << 13).next_power_of_two()];
            m.text.reserve(tools.saturating_mul(1024).min(1 << 20));
        }
        m
    }

    /// Room for `n` verdicts: the scorer has one for nearly every string
    /// (the rules for few; `for_tools` leaves them out).
    pub fn reserve_verdicts(&mut self, n: usize) {
        self.verdicts.reserve(n);
    }

    fn verdict(&self, i: u32) -> Found<'_, V> {
        match self.verdicts.get(i as usize) {
            Some(Some(v)) => Found::Verdict(v),
            _ => Found::Nothing,
        }
    }

    pub fn get(&self, s: &str) -> Found<'_, V> {
        self.get_in(0, s)
    }

    /// `get` in table `table`: one memo holds several tables (the scorer's,
    /// one per field group) whose verdicts on the same string differ. A
    /// string's hash is xor-ed with its table, so the same text in two
    /// tables differs in the low 32 bits an entry keeps and the hash
    /// compare tells the tables apart before the text compare; a short
    /// string's entry names its table. (A memo per group grew each of its
    /// tables, text and verdicts from empty.)
    pub fn get_in(&self, table: u16, s: &str) -> Found<'_, V> {
        if (1..=8).contains(&s.len()) {
            let (key, len) = (short_key(s), s.len());
            let mask = self.short.len().wrapping_sub(1);
            let at = short_slot(key, len | usize::from(table) << 8);
            for p in 0..if self.short.is_empty() { 0 } else { MAX_PROBE } {
                let Some(e) = self.short.get(at.wrapping_add(p) & mask) else { break };
                if e.len == 0 {
                    break;
                }
                if e.key == key && usize::from(e.len) == len && e.table == table {
                    return self.verdict(e.verdict);
                }
            }
            return Found::Unknown(0);
        }
        let h = hash(s) ^ u64::from(table);
        if self.slots.is_empty() {
            return Found::Unknown(h);
        }
        let mask = self.slots.len() - 1;
        for p in 0..MAX_PROBE {
            let Some(e) = self.slots.get((h as usize).wrapping_add(p) & mask) else { break };
            if e.len == 0 {
                break;
            }
            if e.hash == h as u32
                && e.len as usize == s.len()
                && self.text.as_bytes().get(e.start as usize..e.start as usize + s.len()) == Some(s.as_bytes())
            {
                return self.verdict(e.verdict);
            }
        }
        Found::Unknown(h)
    }

    /// Remembers `s` (whose hash `get` returned) with its verdict, if the
    /// bounds allow.
    pub fn insert(&mut self, s: &str, h: u64, verdict: Option<V>) {
        self.insert_in(0, s, h, verdict)
    }

    /// `insert` in table `table` (`get_in`, which returned `h`).
    pub fn insert_in(&mut self, table: u16, s: &str, h: u64, verdict: Option<V>) {
        if (1..=8).contains(&s.len()) {
            return self.insert_short(table, s, verdict);
        }
        if self.n_entries >= MAX_ENTRIES || self.text.len() + s.len() > MAX_BYTES {
            return;
        }
        if self.n_entries * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let Some(slot) = (0..MAX_PROBE).map(|p| (h as usize).wrapping_add(p) & mask).find(|&i| self.slots[i].len == 0)
        else {
            return;
        };
        if self.text.capacity() == 0 {
            // A memo made by `new` (the scorer's, one per field group):
            // start at 16 KiB of text and 256 verdicts, not at a few bytes
            // doubled a dozen times, each time copying what was kept.
            self.text.reserve(16 << 10);
            self.verdicts.reserve(256);
        }
        let v = self.push_verdict(verdict);
        // Both fit: `MAX_BYTES` bounds the text.
        self.slots[slot] = Entry { hash: h as u32, start: self.text.len() as u32, len: s.len() as u32, verdict: v };
        self.n_entries += 1;
        self.text.push_str(s);
    }

    fn insert_short(&mut self, table: u16, s: &str, verdict: Option<V>) {
        if self.n_short >= MAX_ENTRIES {
            return;
        }
        if self.n_short * 2 >= self.short.len() {
            // Grow and re-place; entries that find no slot within the probe
            // bound are forgotten (scanned again), as in `grow`.
            let n = (self.short.len() * 2).max(256);
            let old = std::mem::replace(&mut self.short, vec![Short::default(); n]);
            self.n_short = 0;
            for e in old.into_iter().filter(|e| e.len != 0) {
                self.place_short(e);
            }
        }
        let v = self.push_verdict(verdict);
        self.place_short(Short { key: short_key(s), len: s.len() as u8, table, verdict: v });
    }

    fn place_short(&mut self, e: Short) {
        let mask = self.short.len() - 1;
        let at = short_slot(e.key, usize::from(e.len) | usize::from(e.table) << 8);
        if let Some(slot) = (0..MAX_PROBE).map(|p| at.wrapping_add(p) & mask).find(|&i| self.short[i].len == 0) {
            self.short[slot] = e;
            self.n_short += 1;
        }
    }

    fn push_verdict(&mut self, verdict: Option<V>) -> u32 {
        match verdict {
            None => 0,
            Some(v) => {
                self.verdicts.push(Some(v));
                (self.verdicts.len() - 1) as u32
            }
        }
    }

    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![Entry::default(); n]);
        let mask = n - 1;
        for e in old.into_iter().filter(|e| e.len != 0) {
            // Entries that no longer find a free slot within the probe bound
            // are forgotten (they were found before; they are scanned again).
            if let Some(slot) =
                (0..MAX_PROBE).map(|p| (e.hash as usize).wrapping_add(p) & mask).find(|&j| self.slots[j].len == 0)
            {
                self.slots[slot] = e;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_verdicts_and_nothing_found() {
        let mut m: Memo<&str> = Memo::new();
        for (i, s) in ["string", "object", "a longer description of a parameter"].iter().enumerate() {
            let Found::Unknown(h) = m.get(s) else { panic!("{s} known too early") };
            m.insert(s, h, if i == 1 { Some("hit") } else { None });
        }
        assert!(matches!(m.get("string"), Found::Nothing));
        assert!(matches!(m.get("object"), Found::Verdict(&"hit")));
        assert!(matches!(m.get("strinG"), Found::Unknown(_)));
    }

    #[test]
    fn short_strings_are_told_apart_by_every_byte_and_length() {
        let mut m: Memo<usize> = Memo::new();
        let words = ["a", "a\0", "\0a", "string", "strinG", "12345678", "1234567", "é", "\0"];
        for (i, s) in words.iter().enumerate() {
            let Found::Unknown(h) = m.get(s) else { panic!("{s:?} known too early") };
            m.insert(s, h, Some(i));
        }
        for (i, s) in words.iter().enumerate() {
            assert!(matches!(m.get(s), Found::Verdict(&v) if v == i), "{s:?}");
        }
        for i in 0..3000 {
            let s = format!("{i}");
            let Found::Unknown(h) = m.get(&s) else { panic!() };
            m.insert(&s, h, None);
        }
        assert!(matches!(m.get("2999"), Found::Nothing));
        assert!(matches!(m.get("string"), Found::Verdict(&3)));
    }

    #[test]
    fn colliding_strings_are_bounded_not_slow() {
        // Thousands of distinct strings forced into one probe sequence: only
        // MAX_PROBE are kept, every lookup stays within the bound.
        let mut m: Memo<()> = Memo::new();
        let h = 42;
        for i in 0..5000 {
            let s = format!("s{i}");
            m.insert(&s, h, None);
        }
        assert!(m.slots.iter().filter(|e| e.len != 0).count() <= MAX_PROBE * 2);
    }

    #[test]
    fn grows_past_its_first_table() {
        let mut m: Memo<u32> = Memo::new();
        for i in 0..5000u32 {
            let s = format!("description number {i}");
            let Found::Unknown(h) = m.get(&s) else { panic!() };
            m.insert(&s, h, Some(i));
        }
        // A string the bounded probe could not place is only scanned again;
        // a remembered one always comes back with its own verdict.
        let mut known = 0;
        for i in 0..5000u32 {
            match m.get(&format!("description number {i}")) {
                Found::Verdict(&v) => {
                    assert_eq!(v, i);
                    known += 1;
                }
                Found::Nothing => panic!("no verdict was stored as nothing"),
                Found::Unknown(_) => {}
            }
        }
        assert!(known >= 4900, "{known}");
    }
}
