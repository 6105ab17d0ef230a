//! The settings' round trip through the URL query string, so a reload or a shared link shows
//! the same picture. One table, [`KEYS`], names every key with how to write and read it; the
//! writer, the parser and the fuzz test all walk it. Parsing never fails: a bad value is
//! ignored (the default stays) and its key is reported, so the page can name it.

use super::{format_temperature, Settings, Stage, Theme, View};
use crate::core::attention::Mask;
use crate::core::scenario::Source;
use crate::i18n::Lang;
use crate::number::parse_decimal;

fn flag(v: bool) -> Option<String> {
    Some(if v { "1" } else { "0" }.into())
}

fn parse_flag(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// A 1-based index in the URL as the 0-based index the settings hold.
fn index(v: &str) -> Option<usize> {
    v.parse::<usize>().ok()?.checked_sub(1)
}

/// One key of the query string.
pub struct Key {
    /// The name in the URL.
    pub name: &'static str,
    /// Its value for `s`, or `None` to leave the key out.
    write: fn(&Settings) -> Option<String>,
    /// Apply a value to `s` through the setting's own setter; `false` if it was not accepted.
    read: fn(&mut Settings, &str) -> bool,
}

/// Every key, in the order it is written and read. Order matters when reading: `lang` first
/// (it decides the default sentences), `model` before the sentence and the head, `d` before
/// `h`, `h` before `head`, `text` before the indices into it.
pub const KEYS: &[Key] = &[
    Key {
        name: "lang",
        write: |s| Some(s.lang.slug().into()),
        read: |s, v| Lang::from_slug(v).map(|l| s.lang = l).is_some(),
    },
    // Before the sentence and the head: the weights decide how tokens and heads are counted.
    Key {
        name: "model",
        write: |s| Some(s.source.slug().into()),
        read: |s, v| Source::from_slug(v).is_some_and(|m| s.set_source(m)),
    },
    Key {
        name: "layer",
        write: |s| Some((s.layer + 1).to_string()),
        read: |s, v| index(v).is_some_and(|l| s.set_layer(l)),
    },
    Key { name: "text", write: |s| Some(s.text.clone()), read: |s, v| s.set_text(v).is_ok() },
    // Always written: the self/causal/cross view shows the second sentence even when off.
    Key { name: "kv", write: |s| Some(s.kv_text.clone()), read: |s, v| s.set_kv_text(v).is_ok() },
    Key { name: "cross", write: |s| flag(s.cross), read: |s, v| parse_flag(v).map(|b| s.cross = b).is_some() },
    Key { name: "d", write: |s| Some(s.d_model.to_string()), read: |s, v| v.parse().is_ok_and(|d| s.set_d_model(d)) },
    Key { name: "h", write: |s| Some(s.heads.to_string()), read: |s, v| v.parse().is_ok_and(|h| s.set_heads(h)) },
    Key { name: "seed", write: |s| Some(s.seed.to_string()), read: |s, v| v.parse().is_ok_and(|x| s.set_seed(x)) },
    Key { name: "pe", write: |s| flag(s.positional), read: |s, v| parse_flag(v).map(|b| s.positional = b).is_some() },
    Key {
        name: "mask",
        write: |s| Some(s.mask.slug().into()),
        read: |s, v| Mask::from_slug(v).map(|m| s.mask = m).is_some(),
    },
    Key { name: "scale", write: |s| flag(s.scaled), read: |s, v| parse_flag(v).map(|b| s.scaled = b).is_some() },
    Key {
        name: "t",
        write: |s| Some(format_temperature(s.temperature)),
        read: |s, v| parse_decimal(v).is_some_and(|t| s.set_temperature(t)),
    },
    Key {
        name: "dk",
        write: |s| s.lab_dk.map(|d| d.to_string()),
        read: |s, v| parse_decimal(v).is_some_and(|d| s.set_lab_dk(d)),
    },
    Key {
        name: "stage",
        write: |s| Some(s.stage.slug().into()),
        read: |s, v| Stage::from_slug(v).map(|x| s.stage = x).is_some(),
    },
    Key {
        name: "view",
        write: |s| Some(s.view.slug().into()),
        read: |s, v| View::from_slug(v).map(|x| s.view = x).is_some(),
    },
    Key {
        name: "vdk",
        write: |s| Some(s.var_dk.to_string()),
        read: |s, v| parse_decimal(v).is_some_and(|d| s.set_var_dk(d)),
    },
    Key {
        name: "vn",
        write: |s| Some(s.var_samples.to_string()),
        read: |s, v| v.parse().is_ok_and(|n| s.set_var_samples(n)),
    },
    Key {
        name: "cn",
        write: |s| Some(s.cost_log_n.to_string()),
        read: |s, v| v.parse().is_ok_and(|e| s.set_cost_log_n(e)),
    },
    Key { name: "tile", write: |s| Some(s.tile.to_string()), read: |s, v| v.parse().is_ok_and(|t| s.set_tile(t)) },
    Key {
        name: "head",
        write: |s| Some((s.head + 1).to_string()),
        read: |s, v| index(v).is_some_and(|h| s.set_head(h)),
    },
    Key {
        name: "q",
        write: |s| Some((s.query + 1).to_string()),
        read: |s, v| index(v).is_some_and(|q| s.set_query(q)),
    },
    Key {
        name: "spot",
        write: |s| s.spot.map(|x| (x + 1).to_string()),
        read: |s, v| index(v).is_some_and(|x| s.set_spot(Some(x))),
    },
    Key { name: "present", write: |s| flag(s.present), read: |s, v| parse_flag(v).map(|b| s.present = b).is_some() },
    Key {
        name: "theme",
        write: |s| Some(s.theme.slug().into()),
        read: |s, v| Theme::from_slug(v).map(|t| s.theme = t).is_some(),
    },
    Key { name: "c1", write: |s| Some(s.study.sentences[0].clone()), read: |s, v| s.study.set_sentence(0, v) },
    Key { name: "c2", write: |s| Some(s.study.sentences[1].clone()), read: |s, v| s.study.set_sentence(1, v) },
    Key {
        name: "cw",
        write: |s| Some(s.study.words.join(",")),
        read: |s, v| {
            let words: Vec<&str> = v.split(',').collect();
            let mut study = s.study.clone();
            let ok = words.len() == 3 && words.iter().enumerate().all(|(i, w)| study.set_word(i, w));
            ok.then(|| s.study = study).is_some()
        },
    },
    Key {
        name: "anchor",
        write: |s| Some((s.anchor + 1).to_string()),
        read: |s, v| index(v).is_some_and(|a| s.set_anchor(a)),
    },
];

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

impl Settings {
    /// The settings as a query string (without "?").
    pub fn to_query(&self) -> String {
        self.query_where(|_, _| true)
    }

    /// The query of the keys whose written value `keep(key, value)` accepts, in [`KEYS`] order.
    fn query_where(&self, keep: impl Fn(&Key, &str) -> bool) -> String {
        let pair = |k: &Key| (k.write)(self).filter(|v| keep(k, v)).map(|v| format!("{}={}", k.name, encode(&v)));
        KEYS.iter().filter_map(pair).collect::<Vec<_>>().join("&")
    }

    /// The shortest query that reopens these settings: the language, then only the keys whose
    /// value differs from that language's defaults.
    pub fn to_short_query(&self) -> String {
        let defaults = Settings::new(self.lang);
        self.query_where(|k, value| k.name == "lang" || (k.write)(&defaults).as_deref() != Some(value))
    }

    /// What a student's phone should open: this state in the normal layout and the default
    /// theme (a projector's presentation mode and high contrast are the teacher's choice).
    pub fn for_students(&self) -> Settings {
        Settings { present: false, theme: Theme::default(), ..self.clone() }
    }

    /// Settings from a query string (with or without "?"), starting from the defaults in the
    /// link's language (else `lang`); also returns the keys whose values were ignored, in the
    /// order of [`KEYS`]. Unknown keys are ignored silently; of a repeated key the last counts.
    pub fn from_query(query: &str, lang: Lang) -> (Self, Vec<String>) {
        let pairs: Vec<(String, Option<String>)> = query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (decode(k).unwrap_or_default(), decode(v))
            })
            .collect();
        let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_deref());
        let lang = get("lang").flatten().and_then(Lang::from_slug).unwrap_or(lang);
        let mut s = Settings::new(lang);
        let mut ignored = Vec::new();
        for key in KEYS {
            if let Some(value) = get(key.name) {
                if !value.is_some_and(|v| (key.read)(&mut s, v)) {
                    ignored.push(key.name.to_string());
                }
            }
        }
        (s, ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Study;

    #[test]
    fn round_trip_through_the_query() {
        let mut s = Settings::new(Lang::Zh);
        s.text = "猫 & dog = 100% <b>".into();
        s.cross = true;
        s.kv_text = "key side".into();
        s.d_model = 128;
        s.heads = 8;
        s.seed = 7;
        s.mask = Mask::Causal;
        s.temperature = 0.5;
        s.lab_dk = Some(1024);
        s.positional = false;
        s.scaled = false;
        s.view = View::Graph;
        s.var_dk = 8;
        s.var_samples = 10_000;
        s.anchor = 2;
        s.cost_log_n = 17;
        s.tile = 16;
        s.present = true;
        s.theme = Theme::Contrast;
        s.spot = Some(1);
        s.stage = Stage::Softmax;
        s.head = 3;
        s.query = 2;
        s.study.sentences[1] = "A cat, then & a dog".into();
        s.study.words = ["cat".into(), "dog".into(), "then".into()];
        let (back, ignored) = Settings::from_query(&s.to_query(), Lang::En);
        assert_eq!(back, s);
        assert!(ignored.is_empty(), "{ignored:?}");
    }

    #[test]
    fn trained_weights_and_their_layer_round_trip_and_garbage_is_named() {
        let mut s = Settings::new(Lang::En);
        assert!(s.set_source(Source::Minilm) && s.set_layer(2) && s.set_head(11));
        let (back, ignored) = Settings::from_query(&s.to_query(), Lang::En);
        assert_eq!((back.source, back.layer, back.head, ignored.len()), (Source::Minilm, 2, 11, 0));
        let (bad, ignored) = Settings::from_query("model=gpt9&layer=7&cw=a,b", Lang::En);
        assert_eq!((bad.source, bad.layer, &bad.study.words), (Source::Random, 0, &Study::default().words));
        assert_eq!(ignored, ["model", "layer", "cw"]);
    }

    #[test]
    fn every_key_is_written_once() {
        let mut s = Settings::new(Lang::En);
        s.spot = Some(0);
        s.lab_dk = Some(64);
        let query = s.to_query();
        let written: Vec<&str> = query.split('&').filter_map(|p| p.split_once('=')).map(|(k, _)| k).collect();
        assert_eq!(written, KEYS.iter().map(|k| k.name).collect::<Vec<_>>());
    }

    #[test]
    fn garbage_falls_back_to_defaults_and_is_named() {
        let (s, ignored) = Settings::from_query("?d=abc&h=3&t=-1&stage=nope&dk=5000&seed=x&text=&lang=fr&zzz=1&view=x&vn=7&cn=40&tile=3&anchor=99&spot=0&present=maybe&theme=neon&mask=sideways", Lang::En);
        let d = Settings::new(Lang::En);
        assert_eq!(
            (s.d_model, s.heads, s.temperature, s.stage, s.lab_dk, s.seed, &s.text, s.mask),
            (d.d_model, d.heads, d.temperature, d.stage, d.lab_dk, d.seed, &d.text, d.mask)
        );
        assert_eq!(
            ignored,
            [
                "lang", "text", "d", "h", "seed", "mask", "t", "dk", "stage", "view", "vn", "cn", "tile", "spot",
                "present", "theme", "anchor"
            ]
        );
    }

    #[test]
    fn heads_are_fitted_to_a_new_width() {
        let (s, ignored) = Settings::from_query("d=8&h=16", Lang::En);
        assert_eq!((s.d_model, s.heads), (8, 4));
        assert_eq!(ignored, ["h"]);
    }

    #[test]
    fn lab_dk_snaps_to_a_power_of_two_and_temperature_rounds() {
        let (s, ignored) = Settings::from_query("dk=700&t=0.123", Lang::En);
        assert_eq!((s.lab_dk(), s.temperature), (512, 0.12));
        assert!(ignored.is_empty());
    }

    #[test]
    fn the_lab_follows_the_lessons_head_width_until_its_slider_moves() {
        let (mut s, _) = Settings::from_query("d=128&h=2", Lang::En);
        assert_eq!((s.lab_dk, s.lab_dk()), (None, 64));
        let query = s.to_query();
        assert!(!query.split('&').any(|p| p.starts_with("dk=")), "an untouched lab writes no d_k: {query}");
        assert!(s.set_heads(8));
        assert_eq!(s.lab_dk(), 16);
        assert!(s.set_lab_dk(256.0));
        assert!(s.set_heads(2));
        assert_eq!(s.lab_dk(), 256);
    }

    #[test]
    fn a_student_link_is_short_leaves_the_projector_behind_and_reopens_the_same_lesson() {
        let mut s = Settings::new(Lang::Zh);
        s.present = true;
        s.theme = Theme::Contrast;
        s.stage = Stage::Softmax;
        s.scaled = false;
        let student = s.for_students();
        let short = student.to_short_query();
        assert_eq!(short, "lang=zh&scale=0&stage=softmax");
        let (back, ignored) = Settings::from_query(&short, Lang::En);
        assert!(ignored.is_empty());
        assert_eq!(back, student);
        assert!(!back.present && back.theme == Theme::Auto);
        assert!(short.len() * 4 < s.to_query().len(), "{} vs {}", short.len(), s.to_query().len());
    }

    #[test]
    fn language_picks_the_default_sentence() {
        assert!(Settings::from_query("lang=zh", Lang::En).0.text.starts_with("小猫"));
    }

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
