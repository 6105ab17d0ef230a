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

/// The `key=value` pairs of a query string (with or without "?"), in order, decoded: a value
/// that does not decode is `None` (so the page can name it); a pair whose key does not decode
/// is left out. Of a repeated key, the caller decides (the site takes the last).
pub fn pairs(query: &str) -> Vec<(String, Option<String>)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .filter_map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((decode(k)?, decode(v)))
        })
        .collect()
}

/// The value of `key` among `pairs` (the last, if repeated): `Some(None)` if it did not decode.
pub fn last<'a>(pairs: &'a [(String, Option<String>)], key: &str) -> Option<Option<&'a str>> {
    pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_deref())
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

    #[test]
    fn a_query_is_its_decoded_pairs_and_the_last_of_a_key_counts() {
        let p = pairs("?a=1&b=%zz&a=%202&%zz=3&c");
        assert_eq!(
            p,
            [
                ("a".into(), Some("1".into())),
                ("b".into(), None),
                ("a".into(), Some(" 2".into())),
                ("c".into(), Some(String::new()))
            ]
        );
        assert_eq!((last(&p, "a"), last(&p, "b"), last(&p, "d")), (Some(Some(" 2")), Some(None), None));
    }
}
