//! Numbers and text, both ways: every number the site writes for people goes through [`show`]
//! (a legend's tick or a reading), and decimal text → number, for the URL and the sliders. std's float parser is exact for every
//! input but carries a large table of powers into the .wasm; the numbers here are short
//! decimals ("0.05", "12.5", "-1.3", "64"), for which one division of two exact integers is
//! already correctly rounded (Clinger's fast path), so up to 15 digits and exponents up to
//! ±22 give exactly std's value. Longer inputs are still parsed, to at least 12 significant
//! digits, and nothing panics (`tests/robustness.rs` checks both against std).

/// `text` as a number: `[+|-]digits[.digits][e[+|-]digits]`, nothing else (no spaces, no
/// "inf", no "NaN"); `None` when it is not one.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], parse_exponent(&rest[i + 1..])?),
        None => (rest, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut scale = exponent - fraction.len() as i64;
    for b in whole.bytes().chain(fraction.bytes()) {
        let digit = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        match mantissa.checked_mul(10).and_then(|m| m.checked_add(u64::from(digit))) {
            Some(m) if m < 1 << 53 => mantissa = m,
            // Beyond 2^53 the digit no longer changes the f64: drop it, keep the magnitude.
            _ => scale += 1,
        }
    }
    let value = scale_by_ten(mantissa as f64, scale);
    value.is_finite().then_some(if negative { -value } else { value })
}

/// The digits after "e": a signed integer, clamped far beyond any finite f64.
fn parse_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let mut e: i64 = 0;
    for b in digits.bytes() {
        let digit = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        e = (e * 10 + i64::from(digit)).min(10_000);
    }
    Some(if negative { -e } else { e })
}

/// `m · 10^scale`; exact (one correctly rounded operation) while |scale| ≤ 22.
fn scale_by_ten(m: f64, scale: i64) -> f64 {
    if m == 0.0 {
        return 0.0;
    }
    let scale = scale.clamp(-400, 400) as i32;
    if scale >= 0 {
        if scale <= 22 {
            m * 10f64.powi(scale)
        } else {
            m * 10f64.powi(22) * 10f64.powi(scale - 22)
        }
    } else if scale >= -22 {
        m / 10f64.powi(-scale)
    } else {
        m / 10f64.powi(22) / 10f64.powi(-scale - 22)
    }
}

/// Where a number is written, which sets how many digits it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Room {
    /// A chart's legend: short (three significant digits at most, fewer from 10 up).
    Legend,
    /// A reading: a hover's text, a table, a sentence (four significant digits at most).
    Reading,
}

/// `v` for people, in `room`: never "-0"; an exponent beyond the room's plain range.
pub fn show(v: f32, room: Room) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    let a = v.abs();
    match room {
        Room::Legend if a >= 1000.0 || (a > 0.0 && a < 0.01) => format!("{v:.1e}"),
        Room::Legend if a >= 10.0 => format!("{v:.0}"),
        Room::Legend => format!("{v:.2}"),
        Room::Reading if a != 0.0 && !(0.001..10_000.0).contains(&a) => format!("{v:.3e}"),
        Room::Reading if a >= 100.0 => format!("{v:.1}"),
        Room::Reading => format!("{v:.3}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_decimal, show, Room};

    #[test]
    fn numbers_are_short_for_their_room_and_never_minus_zero() {
        assert_eq!(show(1.0, Room::Legend), "1.00");
        assert_eq!(show(-0.0, Room::Legend), "0.00");
        assert_eq!(show(23.4, Room::Legend), "23");
        assert_eq!(show(12345.0, Room::Legend), "1.2e4");
        assert_eq!(show(0.123456, Room::Reading), "0.123");
        assert_eq!(show(-0.0, Room::Reading), "0.000");
        assert_eq!(show(1234.5, Room::Reading), "1234.5");
        assert_eq!(show(123456.0, Room::Reading), "1.235e5");
    }

    #[test]
    fn short_decimals_are_exact() {
        for s in ["0", "64", "0.05", "12.5", "-1.3", "+2", "1.", ".5", "20", "1e3", "2.5E-2", "-0.30"] {
            assert_eq!(parse_decimal(s), s.parse::<f64>().ok(), "{s}");
        }
    }

    #[test]
    fn anything_else_is_none() {
        for s in ["", "-", ".", "1.2.3", "1e", "e5", "abc", " 1", "1 ", "inf", "NaN", "0x10", "1e+", "--1", "1e400"] {
            assert_eq!(parse_decimal(s), None, "{s:?}");
        }
    }

    #[test]
    fn long_inputs_are_within_an_ulp_or_two() {
        for s in ["0.30000000000000004", "123456789012345678901234567890", "1e-300", "3.141592653589793238462643"] {
            let (ours, std) = (parse_decimal(s).unwrap(), s.parse::<f64>().unwrap());
            assert!(((ours - std) / std).abs() < 1e-15, "{s}: {ours} vs {std}");
        }
    }
}
