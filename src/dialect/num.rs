//! Exact arithmetic on JSON number lexemes, for the few places the dialect
//! module compares or shifts bounds. Never through `f64` when the exact answer
//! is cheap: `9007199254740993` must stay above `9007199254740992`.

use crate::json::Number;
use std::cmp::Ordering;

/// Compares two numbers by exact value (`1e2 == 100.0`).
pub fn cmp(a: &Number, b: &Number) -> Ordering {
    let (an, ad, ae) = a.decimal();
    let (bn, bd, be) = b.decimal();
    let sign = |neg: bool, d: &str| -> i8 {
        if d.is_empty() {
            0
        } else if neg {
            -1
        } else {
            1
        }
    };
    let (sa, sb) = (sign(an, &ad), sign(bn, &bd));
    if sa != sb {
        return sa.cmp(&sb);
    }
    if sa == 0 {
        return Ordering::Equal;
    }
    let mag = cmp_magnitude(&ad, ae, &bd, be);
    if sa < 0 {
        mag.reverse()
    } else {
        mag
    }
}

/// Compares `0.d1d2… × 10^(len+e)` magnitudes of two non-zero canonical decimals.
fn cmp_magnitude(ad: &str, ae: i64, bd: &str, be: i64) -> Ordering {
    let oa = ad.len() as i64 + ae;
    let ob = bd.len() as i64 + be;
    if oa != ob {
        return oa.cmp(&ob);
    }
    // Same order of magnitude: compare digit strings; canonical digits have no
    // trailing zeros, so when one is a prefix of the other the longer is larger.
    ad.cmp(bd)
}

/// The value as an `i128` if it is an integer in range.
pub fn to_i128(n: &Number) -> Option<i128> {
    let (neg, digits, exp) = n.decimal();
    if digits.is_empty() {
        return Some(0);
    }
    if exp < 0 || digits.len() as i64 + exp > 38 {
        return None;
    }
    let mut v: i128 = digits.parse().ok()?;
    for _ in 0..exp {
        v = v.checked_mul(10)?;
    }
    Some(if neg { -v } else { v })
}

pub fn from_i128(v: i128) -> Number {
    crate::json::Number::from_lexeme_unchecked(v.to_string())
}

/// Whether `x` is an integer multiple of `m` (`m > 0`), exactly when the
/// operands are of reasonable size, else through `f64`.
pub fn is_multiple_of(x: &Number, m: &Number) -> bool {
    let (_, xd, xe) = x.decimal();
    let (_, md, me) = m.decimal();
    if xd.is_empty() {
        return true;
    }
    if md.is_empty() {
        return false;
    }
    // x = X·10^e, m = M·10^e with e = min(xe, me), X and M integers.
    let e = xe.min(me);
    let x_shift = xe - e;
    let m_shift = me - e;
    if x_shift <= 10_000 && m_shift <= 30 && md.len() as i64 + m_shift <= 36 {
        let mut mm: u128 = match md.parse() {
            Ok(v) => v,
            Err(_) => return fallback(x, m),
        };
        for _ in 0..m_shift {
            mm *= 10;
        }
        let mut r: u128 = 0;
        for b in xd.bytes() {
            r = (r * 10 + (b - b'0') as u128) % mm;
        }
        for _ in 0..x_shift {
            r = (r * 10) % mm;
        }
        return r == 0;
    }
    fallback(x, m)
}

fn fallback(x: &Number, m: &Number) -> bool {
    let q = x.as_f64() / m.as_f64();
    q.is_finite() && (q - q.round()).abs() < 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::from_lexeme_unchecked(s.to_string())
    }

    #[test]
    fn exact_comparison_beyond_two_to_the_53() {
        assert_eq!(cmp(&n("9007199254740993"), &n("9007199254740992")), Ordering::Greater);
        assert_eq!(cmp(&n("1e2"), &n("100.0")), Ordering::Equal);
        assert_eq!(cmp(&n("-1.5"), &n("-1.25")), Ordering::Less);
        assert_eq!(cmp(&n("0.1"), &n("0.09")), Ordering::Greater);
        assert_eq!(cmp(&n("-0"), &n("0")), Ordering::Equal);
        assert_eq!(cmp(&n("-3"), &n("2")), Ordering::Less);
    }

    #[test]
    fn multiple_of_is_exact_for_decimals() {
        assert!(is_multiple_of(&n("0.3"), &n("0.1")));
        assert!(!is_multiple_of(&n("0.35"), &n("0.1")));
        assert!(is_multiple_of(&n("1e3"), &n("8")));
        assert!(!is_multiple_of(&n("9007199254740993"), &n("2")));
        assert!(is_multiple_of(&n("-12"), &n("4")));
    }

    #[test]
    fn integers_round_trip_through_i128() {
        assert_eq!(to_i128(&n("1e3")), Some(1000));
        assert_eq!(to_i128(&n("-2.0")), Some(-2));
        assert_eq!(to_i128(&n("2.5")), None);
        assert_eq!(from_i128(41).as_str(), "41");
    }
}
