//! The training view's keys in the page's URL (`settings::url::LEARN_KEYS`), so a link reopens the
//! same experiment: `task`, `ld` (d_model), `lh` (heads), `ll` (layers), `lr` (learning rate),
//! `lb` (batch), `lseed`, `lscale` and `lmlp` (0 or 1), `lkv` (K/V heads; absent or equal to
//! the heads: as many as the heads) and `lpos` (`learned`, `sinusoidal`, `rope`). The lesson's
//! settings own the other keys; each side keeps the other's.

use crate::bridge::with_pairs;
use crate::core::train::model::Positions;
use crate::core::train::session::Setup;
use crate::core::train::Task;

/// The setup the URL names (defaults for what it does not name or cannot be read; the range
/// check comes after, by the session).
pub fn read() -> Setup {
    let search = crate::hosted::address();
    from_query(&search)
}

/// The setup of a query string.
pub fn from_query(query: &str) -> Setup {
    let pairs = crate::percent::pairs(query);
    let get = |key: &str| crate::percent::last(&pairs, key).flatten();
    let num = |key: &str, default: usize| get(key).and_then(|v| v.parse().ok()).unwrap_or(default);
    let d = Setup::default();
    let n_heads = num("lh", d.n_heads);
    Setup {
        task: get("task").and_then(Task::from_slug).unwrap_or(d.task),
        d_model: num("ld", d.d_model),
        n_heads,
        kv_heads: get("lkv").and_then(|v| v.parse().ok()).filter(|&k| k != n_heads),
        positions: get("lpos").and_then(Positions::from_slug).unwrap_or(d.positions),
        n_layers: num("ll", d.n_layers),
        learning_rate: get("lr").and_then(|v| v.parse().ok()).unwrap_or(d.learning_rate),
        batch: num("lb", d.batch),
        seed: get("lseed").and_then(|v| v.parse().ok()).unwrap_or(d.seed),
        scaled: get("lscale").map_or(d.scaled, |v| v != "0"),
        mlp: get("lmlp").map_or(d.mlp, |v| v != "0"),
    }
}

/// `query` with the training keys replaced by `setup`'s.
pub fn with_setup(query: &str, setup: &Setup) -> String {
    let pairs = pairs(setup);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    with_pairs(query, &pairs)
}

/// `setup` as the training view's keys, in `settings::url::LEARN_KEYS` order (a test holds it).
fn pairs(setup: &Setup) -> [(&'static str, String); 11] {
    [
        ("task", setup.task.slug().to_string()),
        ("ld", setup.d_model.to_string()),
        ("lh", setup.n_heads.to_string()),
        ("ll", setup.n_layers.to_string()),
        ("lr", setup.learning_rate.to_string()),
        ("lb", setup.batch.to_string()),
        ("lseed", setup.seed.to_string()),
        ("lscale", u8::from(setup.scaled).to_string()),
        ("lmlp", u8::from(setup.mlp).to_string()),
        ("lkv", setup.kv_heads().to_string()),
        ("lpos", setup.positions.slug().to_string()),
    ]
}

/// Write `setup` into the URL (replacing the entry: a changed setting is not a new page).
pub fn write(setup: &Setup) {
    let search = crate::hosted::address();
    crate::hosted::replace_query(&with_setup(&search, setup));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_goes_through_the_url_and_the_lesson_s_keys_stay() {
        let setup = Setup {
            task: Task::Induction,
            d_model: 64,
            n_heads: 4,
            n_layers: 2,
            learning_rate: 0.003,
            batch: 16,
            seed: 9,
            scaled: false,
            mlp: true,
            kv_heads: Some(2),
            positions: Positions::Rotary,
        };
        let keys = pairs(&setup).map(|(k, _)| k);
        assert_eq!(keys, crate::settings::url::LEARN_KEYS, "the keys the page keeps as the training view's");
        let query = with_setup("?lang=zh&view=learn&task=sort&d=128", &setup);
        assert!(query.starts_with("lang=zh&view=learn&d=128&"), "{query}");
        assert_eq!(from_query(&query), setup);
        assert_eq!(from_query("task=nonsense&ld=x&lpos=spiral"), Setup::default(), "unreadable values fall back");
        let full = from_query("lh=4&lkv=4");
        assert_eq!((full.kv_heads, full.kv_heads()), (None, 4), "as many K/V heads as heads is multi-head attention");
        assert_eq!(from_query("lh=4").kv_heads(), 4, "an old link: every head its own keys and values");
    }
}
