//! The stylesheet is the one table of theme colours: every theme gives the charts a whole ink
//! (the variables `chart::ink` reads) whose text stands out from that theme's page.
#![cfg(not(target_arch = "wasm32"))]

use attention_lab::chart::colormap::Rgb;
use attention_lab::chart::ink::{parse_hex, Ink, VARIABLES};
use attention_lab::settings::Theme;

/// `css` without its comments.
fn uncommented(css: &str) -> String {
    css.split("/*")
        .enumerate()
        .map(|(i, part)| if i == 0 { part } else { part.split_once("*/").map_or("", |(_, rest)| rest) })
        .collect()
}

/// The custom properties declared in the block opened by `selector`.
fn block(css: &str, selector: &str) -> Vec<(String, String)> {
    let start = css.find(&format!("{selector} {{")).unwrap_or_else(|| panic!("no {selector} block in style/main.css"));
    let body = &css[start..];
    let body = &body[body.find('{').map_or(0, |i| i + 1)..body.find('}').unwrap_or(body.len())];
    body.split(';')
        .filter_map(|decl| decl.trim().split_once(':'))
        .filter(|(name, _)| name.trim().starts_with("--"))
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .collect()
}

/// A theme's variables: the root's, overridden by the theme's own block.
fn variables(css: &str, theme: &str) -> impl Fn(&str) -> Option<String> {
    let mut vars = block(css, ":root");
    if theme != "light" {
        vars.extend(block(css, &format!("[data-theme=\"{theme}\"]")));
    }
    move |name| vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone())
}

fn luma(c: Rgb) -> f32 {
    0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32
}

#[test]
fn every_theme_gives_the_charts_a_whole_ink_that_stands_out_from_its_page() {
    let css = uncommented(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/style/main.css")).expect("the stylesheet"),
    );
    // Auto shows the light or the dark one; the others are themes of their own.
    let shown: Vec<&str> = Theme::ALL.iter().map(|t| t.slug()).filter(|s| *s != "auto").collect();
    assert_eq!(shown, ["light", "dark", "contrast"]);
    for theme in shown {
        let var = variables(&css, theme);
        let ink = Ink::from_variables(&var)
            .unwrap_or_else(|| panic!("{theme}: one of {VARIABLES:?} is missing or not #rrggbb"));
        let page = var("--bg").as_deref().and_then(parse_hex).unwrap_or_else(|| panic!("{theme}: no --bg"));
        assert!((luma(ink.text) - luma(page)).abs() > 150.0, "{theme}: text {:?} on page {:?}", ink.text, page);
        assert_ne!(ink.series[0], ink.series[1], "{theme}: the two series must differ");
    }
}
