//! Byte tests on eight bytes at once (a `u64` read little-endian), for the
//! scans that read every byte of a catalog's text: the JSON parser's and
//! writer's plain runs (`json::plain_run`) and the clean-text scan
//! (`text::scan`). Nearly every byte of real metadata passes them, so a word
//! that passes skips eight bytes; one that fails is read byte by byte.
//!
//! Each test is `x - n·0x01…01 & !x & 0x80…80`: it may set extra bits above
//! a byte that qualifies (the subtraction borrows), but it is zero exactly
//! when no byte does, which is all these callers ask. (For bytes below
//! 0x80; a byte with the high bit set never counts as below `n`.)

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGH: u64 = ONES << 7;

pub fn word(bytes: [u8; 8]) -> u64 {
    u64::from_le_bytes(bytes)
}

/// Some byte is below `n` (`n` at most 0x80).
pub fn any_below(w: u64, n: u8) -> bool {
    w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH != 0
}

/// Some byte equals `b`.
pub fn any_eq(w: u64, b: u8) -> bool {
    any_below(w ^ (ONES * u64::from(b)), 1)
}

/// Some byte has the high bit set (is not ASCII).
pub fn any_high(w: u64) -> bool {
    w & HIGH != 0
}

/// Some byte is special in a JSON string (a C0 control, `"` or `\\`), or,
/// with `NON_ASCII`, not ASCII: the four tests of `any_below`, `any_eq` and
/// `any_high` folded into one mask, tested once (the writer and the parser
/// run it on every eight bytes of a catalog's strings).
pub fn special_in_string<const NON_ASCII: bool>(w: u64) -> bool {
    special_mask::<NON_ASCII>(w) != 0
}

/// Where the first byte special in a JSON string (a C0 control, `"` or
/// `\\`) is among the eight, if one is: `special_mask` has the high bit of
/// that byte set and none below it (a borrow only runs up, from a byte that
/// counts, to the bytes after it).
pub fn first_special_in_string(w: u64) -> Option<usize> {
    let m = special_mask::<false>(w);
    (m != 0).then(|| m.trailing_zeros() as usize / 8)
}

/// The high bit of every byte special in a JSON string (and, with
/// `NON_ASCII`, of every byte not ASCII), possibly with stray bits above
/// the first such byte. With `NON_ASCII` the control test needs no `& !w`:
/// a byte with its high bit set counts anyway, and a borrow only comes out
/// of a byte below 0x20.
#[inline(always)]
fn special_mask<const NON_ASCII: bool>(w: u64) -> u64 {
    let q = w ^ (ONES * u64::from(b'"'));
    let b = w ^ (ONES * u64::from(b'\\'));
    let eq = (q.wrapping_sub(ONES) & !q) | (b.wrapping_sub(ONES) & !b);
    let low = w.wrapping_sub(ONES * 0x20);
    let ctl = if NON_ASCII { low | w } else { low & !w };
    (eq | ctl) & HIGH
}

/// Some byte is not printable ASCII (below 0x20, 0x7F, or not ASCII), in
/// one mask: `w - 0x20…` sets the high bit of a byte below 0x20, `w + 1…`
/// that of 0x7F, `w` that of a byte not ASCII, and a borrow or carry only
/// comes out of a byte that counts anyway (below 0x20, 0xFF). The
/// clean-text scan runs it on every eight bytes of a catalog's text.
pub fn any_unprintable(w: u64) -> bool {
    (w.wrapping_sub(ONES * 0x20) | w.wrapping_add(ONES) | w) & HIGH != 0
}

/// A high bit in each byte that is not `b`: exact per byte, for words with
/// no high bit set (nothing carries from one byte into the next).
pub fn bytes_not(w: u64, b: u8) -> u64 {
    let x = w ^ (ONES * u64::from(b));
    ((x + !HIGH) | x) & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_agree_with_bytes() {
        let mut rng = 3u64;
        for _ in 0..20000 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Bytes near the boundaries the callers use.
            let pick = [0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x61, 0x7d, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xa2, 0xdc, 0xff];
            let b: [u8; 8] = std::array::from_fn(|k| pick[(rng >> (k * 4 + 8)) as usize % pick.len()]);
            let w = word(b);
            assert_eq!(any_below(w, 0x20), b.iter().any(|&x| x < 0x20), "{b:?}");
            assert_eq!(first_special_in_string(w), b.iter().position(|&x| x < 0x20 || x == b'"' || x == b'\\'), "{b:?}");
            assert_eq!(any_eq(w, b'"'), b.contains(&b'"'), "{b:?}");
            assert_eq!(any_eq(w, 0x7f), b.contains(&0x7f), "{b:?}");
            assert_eq!(any_high(w), b.iter().any(|&x| x >= 0x80), "{b:?}");
            assert_eq!(any_unprintable(w), b.iter().any(|&x| !(0x20..=0x7e).contains(&x)), "{b:?}");
            let json = |x: &u8| *x < 0x20 || *x == b'"' || *x == b'\\';
            assert_eq!(special_in_string::<false>(w), b.iter().any(json), "{b:?}");
            assert_eq!(special_in_string::<true>(w), b.iter().any(|x| json(x) || *x >= 0x80), "{b:?}");
            if !any_high(w) {
                let want = b.iter().enumerate().filter(|(_, &x)| x != b' ').fold(0u64, |m, (k, _)| m | 0x80 << (k * 8));
                assert_eq!(bytes_not(w, b' '), want, "{b:?}");
            }
        }
    }
}
