//! Everything a learner controls, as one value, and its round trip through the URL query
//! string (so reload and shared links show the same picture). Pure: no web APIs, so parsing is
//! tested natively. Parsing never fails: each bad value falls back to its default and is
//! reported by name.

use crate::number::parse_decimal;
use crate::core::attention::Mask;
use crate::core::lab::snap_dk;
use crate::core::scenario::Scenario;
use crate::core::tokenize::tokenize;
use crate::i18n::Lang;

/// The most tokens a sentence may have: beyond this the heatmaps stop being readable.
pub const MAX_TOKENS: usize = 64;
/// The model widths offered.
pub const D_MODEL_CHOICES: [usize; 7] = [8, 16, 32, 64, 128, 256, 512];
/// The head counts offered (only those dividing d_model are shown).
pub const HEAD_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];
/// The softmax temperature range.
pub const TEMPERATURE_RANGE: (f32, f32) = (0.05, 20.0);
/// Seeds are whole numbers up to this (they fit a number box and a URL comfortably).
pub const MAX_SEED: u64 = 999_999_999;

/// The seven stages of the lesson, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stage {
    #[default]
    Input,
    Projection,
    Scores,
    Scaling,
    Softmax,
    Output,
    MultiHead,
}

impl Stage {
    pub const ALL: [Stage; 7] =
        [Stage::Input, Stage::Projection, Stage::Scores, Stage::Scaling, Stage::Softmax, Stage::Output, Stage::MultiHead];

    /// Position in the lesson, 0-based.
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// The name used in the URL and in `data-testid="stage-…"`.
    pub fn slug(self) -> &'static str {
        match self {
            Stage::Input => "input",
            Stage::Projection => "projection",
            Stage::Scores => "scores",
            Stage::Scaling => "scaling",
            Stage::Softmax => "softmax",
            Stage::Output => "output",
            Stage::MultiHead => "multihead",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.slug() == s)
    }

    /// The next stage, or `None` at the last.
    pub fn next(self) -> Option<Self> {
        Self::ALL.get(self.index() + 1).copied()
    }

    /// The previous stage, or `None` at the first.
    pub fn prev(self) -> Option<Self> {
        self.index().checked_sub(1).map(|i| Self::ALL[i])
    }
}

/// The views reachable from the navigation: the lesson, and the deeper lessons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    Lesson,
    Variance,
    Variants,
    Patterns,
    Graph,
    Complexity,
}

impl View {
    pub const ALL: [View; 6] = [View::Lesson, View::Variance, View::Variants, View::Patterns, View::Graph, View::Complexity];

    /// The name used in the URL and in `data-testid="view-…"`.
    pub fn slug(self) -> &'static str {
        match self {
            View::Lesson => "lesson",
            View::Variance => "variance",
            View::Variants => "variants",
            View::Patterns => "patterns",
            View::Graph => "graph",
            View::Complexity => "complexity",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.slug() == s)
    }
}

/// The colour themes. `Auto` follows the system's light/dark preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
    /// Black on white, heavier lines and type: for projectors in bright rooms.
    Contrast,
}

impl Theme {
    pub const ALL: [Theme; 4] = [Theme::Auto, Theme::Light, Theme::Dark, Theme::Contrast];

    pub fn slug(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Contrast => "contrast",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.slug() == s)
    }
}

/// Sample counts offered by the variance experiment.
pub const SAMPLE_CHOICES: [usize; 5] = [100, 300, 1000, 3000, 10_000];
/// The sequence lengths of the cost view: 2⁴ … 2¹⁷ (128K).
pub const COST_N_RANGE: (u32, u32) = (4, 17);
/// Tile sizes of the FlashAttention view.
pub const TILE_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];

/// The whole state of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub text: String,
    /// The second sentence (keys/values), used when `cross` is on.
    pub kv_text: String,
    pub cross: bool,
    pub d_model: usize,
    pub heads: usize,
    pub seed: u64,
    pub positional: bool,
    pub causal: bool,
    pub scaled: bool,
    pub temperature: f32,
    /// The saturation lab's d_k (a power of two, 1–1024).
    pub lab_dk: usize,
    /// The saturation lab's scaling switch.
    pub lab_scaled: bool,
    pub view: View,
    pub stage: Stage,
    /// The variance experiment's d_k (a power of two) and number of sampled pairs.
    pub var_dk: usize,
    pub var_samples: usize,
    /// The token index the sparse pattern head looks for.
    pub anchor: usize,
    /// The cost view's sequence length, as log₂ n.
    pub cost_log_n: u32,
    /// The FlashAttention view's tile size (queries × keys per tile).
    pub tile: usize,
    /// Projector layout: big type, one stage per screen, settings folded away.
    pub present: bool,
    pub theme: Theme,
    /// The spotlighted token (0-based): its row and column are outlined in every heatmap.
    pub spot: Option<usize>,
    /// The head shown in the per-head stages, 0-based.
    pub head: usize,
    /// The query row highlighted in the softmax stage, 0-based.
    pub query: usize,
    pub lang: Lang,
}

impl Settings {
    /// Defaults, with the sentences in `lang`.
    pub fn new(lang: Lang) -> Self {
        let (text, kv_text) = default_sentences(lang);
        Self {
            text: text.into(),
            kv_text: kv_text.into(),
            cross: false,
            d_model: 64,
            heads: 4,
            seed: 42,
            positional: true,
            causal: false,
            scaled: true,
            temperature: 1.0,
            lab_dk: 64,
            lab_scaled: false,
            view: View::Lesson,
            stage: Stage::Input,
            var_dk: 64,
            var_samples: 3000,
            anchor: 0,
            cost_log_n: 10,
            tile: 4,
            present: false,
            theme: Theme::Auto,
            spot: None,
            head: 0,
            query: 0,
            lang,
        }
    }

    /// What the attention core needs (a `Memo` of this skips recomputing on other changes).
    pub fn scenario(&self) -> Scenario {
        Scenario {
            text: self.text.clone(),
            kv_text: self.cross.then(|| self.kv_text.clone()),
            d_model: self.d_model,
            heads: self.heads,
            seed: self.seed,
            positional: self.positional,
            mask: if self.causal { Mask::Causal } else { Mask::None },
            scaled: self.scaled,
            temperature: self.temperature,
        }
    }

    /// The settings as a query string (without "?").
    pub fn to_query(&self) -> String {
        let b = |v: bool| if v { "1" } else { "0" };
        let mut pairs = vec![
            ("text", self.text.clone()),
            ("d", self.d_model.to_string()),
            ("h", self.heads.to_string()),
            ("seed", self.seed.to_string()),
            ("pe", b(self.positional).into()),
            ("mask", if self.causal { "causal" } else { "none" }.into()),
            ("scale", b(self.scaled).into()),
            ("t", format_temperature(self.temperature)),
            ("cross", b(self.cross).into()),
            // Always: the self/causal/cross view shows the second sentence even when off.
            ("kv", self.kv_text.clone()),
        ];
        pairs.extend([
            ("dk", self.lab_dk.to_string()),
            ("labscale", b(self.lab_scaled).into()),
            ("view", self.view.slug().into()),
            ("stage", self.stage.slug().into()),
            ("vdk", self.var_dk.to_string()),
            ("vn", self.var_samples.to_string()),
            ("anchor", (self.anchor + 1).to_string()),
            ("cn", self.cost_log_n.to_string()),
            ("tile", self.tile.to_string()),
            ("present", b(self.present).into()),
            ("theme", self.theme.slug().into()),
            ("head", (self.head + 1).to_string()),
            ("q", (self.query + 1).to_string()),
            ("lang", self.lang.code().into()),
        ]);
        if let Some(spot) = self.spot {
            pairs.push(("spot", (spot + 1).to_string()));
        }
        pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&")
    }

    /// Settings from a query string (with or without "?"), starting from `Settings::new(lang)`;
    /// also returns the keys whose values were ignored (unknown keys are ignored silently).
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
        let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        // The language first: it decides the default sentences.
        let mut ignored = Vec::new();
        let lang = match get("lang") {
            None => lang,
            Some(v) => match v.as_deref() {
                Some("en") => Lang::En,
                Some("zh") => Lang::Zh,
                _ => {
                    ignored.push("lang".to_string());
                    lang
                }
            },
        };
        let mut s = Settings::new(lang);
        let mut take = |key: &str, apply: &mut dyn FnMut(&str) -> bool| {
            if let Some(v) = get(key) {
                if !v.as_deref().is_some_and(|v| apply(v)) {
                    ignored.push(key.to_string());
                }
            }
        };
        take("text", &mut |v| valid_sentence(v).then(|| s.text = v.into()).is_some());
        take("kv", &mut |v| valid_sentence(v).then(|| s.kv_text = v.into()).is_some());
        take("cross", &mut |v| parse_bool(v).map(|b| s.cross = b).is_some());
        take("d", &mut |v| v.parse().ok().filter(|d| D_MODEL_CHOICES.contains(d)).map(|d| s.d_model = d).is_some());
        let d_model = s.d_model;
        take("h", &mut |v| v.parse().ok().filter(|h| heads_allowed(d_model, *h)).map(|h| s.heads = h).is_some());
        if !heads_allowed(s.d_model, s.heads) {
            s.heads = fit_heads(s.d_model, s.heads);
        }
        take("seed", &mut |v| v.parse().ok().filter(|x| *x <= MAX_SEED).map(|x| s.seed = x).is_some());
        take("pe", &mut |v| parse_bool(v).map(|b| s.positional = b).is_some());
        take("mask", &mut |v| match v {
            "none" => Some(s.causal = false).is_some(),
            "causal" => Some(s.causal = true).is_some(),
            _ => false,
        });
        take("scale", &mut |v| parse_bool(v).map(|b| s.scaled = b).is_some());
        take("t", &mut |v| {
            parse_decimal(v).map(|t| t as f32).filter(|t| (TEMPERATURE_RANGE.0..=TEMPERATURE_RANGE.1).contains(t)).map(|t| s.temperature = t).is_some()
        });
        take("dk", &mut |v| parse_decimal(v).filter(|d| (1.0..=1024.0).contains(d)).map(|d| s.lab_dk = snap_dk(d)).is_some());
        take("labscale", &mut |v| parse_bool(v).map(|b| s.lab_scaled = b).is_some());
        take("stage", &mut |v| Stage::from_slug(v).map(|st| s.stage = st).is_some());
        take("view", &mut |v| View::from_slug(v).map(|x| s.view = x).is_some());
        take("vdk", &mut |v| parse_decimal(v).filter(|d| (1.0..=1024.0).contains(d)).map(|d| s.var_dk = snap_dk(d)).is_some());
        take("vn", &mut |v| v.parse().ok().filter(|n| SAMPLE_CHOICES.contains(n)).map(|n| s.var_samples = n).is_some());
        take("cn", &mut |v| v.parse().ok().filter(|e| (COST_N_RANGE.0..=COST_N_RANGE.1).contains(e)).map(|e| s.cost_log_n = e).is_some());
        take("tile", &mut |v| v.parse().ok().filter(|t| TILE_CHOICES.contains(t)).map(|t| s.tile = t).is_some());
        let heads = s.heads;
        take("head", &mut |v| v.parse::<usize>().ok().filter(|h| (1..=heads).contains(h)).map(|h| s.head = h - 1).is_some());
        let n = tokenize(&s.text).len();
        take("q", &mut |v| v.parse::<usize>().ok().filter(|q| (1..=n).contains(q)).map(|q| s.query = q - 1).is_some());
        take("spot", &mut |v| v.parse::<usize>().ok().filter(|x| (1..=n).contains(x)).map(|x| s.spot = Some(x - 1)).is_some());
        take("present", &mut |v| parse_bool(v).map(|b| s.present = b).is_some());
        take("theme", &mut |v| Theme::from_slug(v).map(|t| s.theme = t).is_some());
        take("anchor", &mut |v| v.parse::<usize>().ok().filter(|a| (1..=n).contains(a)).map(|a| s.anchor = a - 1).is_some());
        (s, ignored)
    }
}

/// The default sentences (query side, key/value side) in `lang`.
pub fn default_sentences(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => ("The animal didn't cross the street because it was too tired", "Le chat est fatigué"),
        Lang::Zh => ("小猫没有过马路，因为它太累了。", "The cat was too tired"),
    }
}

/// A sentence the site can draw: 1 to [`MAX_TOKENS`] tokens.
pub fn valid_sentence(text: &str) -> bool {
    (1..=MAX_TOKENS).contains(&tokenize(text).len())
}

/// Does `heads` divide `d_model`, and is it offered?
pub fn heads_allowed(d_model: usize, heads: usize) -> bool {
    HEAD_CHOICES.contains(&heads) && heads <= d_model && d_model % heads == 0
}

/// The largest offered head count ≤ `wish` that divides `d_model` (1 always does).
pub fn fit_heads(d_model: usize, wish: usize) -> usize {
    HEAD_CHOICES.iter().rev().copied().find(|h| *h <= wish && heads_allowed(d_model, *h)).unwrap_or(1)
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// Short, exact enough: 0.05, 1, 12.5.
pub fn format_temperature(t: f32) -> String {
    let s = format!("{t:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Percent-encode everything but RFC 3986's unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undo percent-encoding ("+" is a space); `None` for a broken escape or invalid UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_the_query() {
        let mut s = Settings::new(Lang::Zh);
        s.text = "猫 & dog = 100% <b>".into();
        s.cross = true;
        s.kv_text = "key side".into();
        s.d_model = 128;
        s.heads = 8;
        s.seed = 7;
        s.causal = true;
        s.temperature = 0.5;
        s.lab_dk = 1024;
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
        let (back, ignored) = Settings::from_query(&s.to_query(), Lang::En);
        assert_eq!(back, s);
        assert!(ignored.is_empty(), "{ignored:?}");
    }

    #[test]
    fn garbage_falls_back_to_defaults_and_is_named() {
        let (s, ignored) = Settings::from_query("?d=abc&h=3&t=-1&stage=nope&dk=5000&seed=x&text=&lang=fr&zzz=1&view=x&vn=7&cn=40&tile=3&anchor=99&spot=0&present=maybe&theme=neon", Lang::En);
        let d = Settings::new(Lang::En);
        assert_eq!((s.d_model, s.heads, s.temperature, s.stage, s.lab_dk, s.seed, s.text), (d.d_model, d.heads, d.temperature, d.stage, d.lab_dk, d.seed, d.text));
        assert_eq!(ignored, ["lang", "text", "d", "h", "seed", "t", "dk", "stage", "view", "vn", "cn", "tile", "spot", "present", "theme", "anchor"]);
    }

    #[test]
    fn heads_are_fitted_to_a_new_width() {
        let (s, ignored) = Settings::from_query("d=8&h=16", Lang::En);
        assert_eq!((s.d_model, s.heads), (8, 4));
        assert_eq!(ignored, ["h"]);
        assert_eq!(fit_heads(8, 16), 8);
        assert_eq!(fit_heads(16, 3), 2);
    }

    #[test]
    fn lab_dk_snaps_to_a_power_of_two() {
        assert_eq!(Settings::from_query("dk=700", Lang::En).0.lab_dk, 512);
    }

    #[test]
    fn language_picks_the_default_sentence() {
        assert!(Settings::from_query("lang=zh", Lang::En).0.text.starts_with("小猫"));
        assert_eq!(Settings::new(Lang::En).scenario().text, crate::core::scenario::Scenario::default().text);
    }

    #[test]
    fn encoding_is_reversible_and_rejects_broken_escapes() {
        for s in ["", "a b", "100%", "猫", "a+b=c&d", "<img src=x onerror=alert(1)>"] {
            assert_eq!(decode(&encode(s)).as_deref(), Some(s));
        }
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%e7"), None, "a lone UTF-8 lead byte");
        assert_eq!(decode("a+b"), Some("a b".into()));
    }

    #[test]
    fn stages_step_in_order() {
        assert_eq!(Stage::Input.prev(), None);
        assert_eq!(Stage::Input.next(), Some(Stage::Projection));
        assert_eq!(Stage::MultiHead.next(), None);
        assert!(Stage::ALL.iter().all(|s| Stage::from_slug(s.slug()) == Some(*s)));
    }
}
