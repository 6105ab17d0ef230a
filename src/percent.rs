//! Percent-encoding for query strings (RFC 3986), a dozen lines of our own: a crate for it
//! cost the page's .wasm more than these.

/// Percent-encode everything but RFC 3986's unreserved characters (letters, digits, `-_.~`).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undo percent-encoding ("+" is a space); `None` for a broken escape or invalid UTF-8, so a
/// mangled value is named in the notice rather than taken literally.
pub fn decode(s: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(s.len());
    let mut rest = s.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hex = rest.get(..2).and_then(|h| std::str::from_utf8(h).ok())?;
                bytes.push(u8::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|c| c.is_ascii_hexdigit()))?);
                rest = &rest[2..];
            }
            _ => bytes.push(b),
        }
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_is_reversible_and_rejects_broken_escapes() {
        for s in ["", "a b", "100%", "猫", "a+b=c&d", "<img src=x onerror=alert(1)>"] {
            assert_eq!(decode(&encode(s)).as_deref(), Some(s));
        }
        assert_eq!(encode("a b~c"), "a%20b~c");
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("%e7"), None, "a lone UTF-8 lead byte");
        assert_eq!(decode("a+b"), Some("a b".into()));
        assert_eq!(decode("%2B"), Some("+".into()));
    }
}
