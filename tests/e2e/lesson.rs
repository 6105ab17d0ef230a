//! The lesson as a student and an instructor use it: stepping, typing, the saturation lab,
//! the language switch, bad input, and a reload that keeps everything.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::json;

/// (stage, expected heatmap captions' shapes) for the default English sentence: 11 tokens,
/// d_model 64, 4 heads (d_k 16).
const STAGES: [(&str, &[&str]); 7] = [
    ("input", &["11 × 64", "11 × 64", "11 × 64"]),
    ("projection", &["11 × 64", "11 × 64", "11 × 64"]),
    ("scores", &["11 × 11"]),
    ("scaling", &["11 × 11", "11 × 11"]),
    ("softmax", &["11 × 11", ""]),
    ("output", &["11 × 16", "11 × 16"]),
    ("multihead", &["11 × 11", "11 × 11", "11 × 11", "11 × 11", "11 × 64", "11 × 64"]),
];

async fn open(site: &Site, query: &str) -> Browser {
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url(&format!("/?{query}"))).await;
    b.wait_for("[data-testid^='stage-']").await;
    b
}

async fn assert_stage(b: &Browser, slug: &str, shapes: &[&str]) {
    let id = format!("stage-{slug}");
    b.wait_for(&format!("[data-testid='{id}']")).await;
    let captions = b.captions_in(&id).await;
    assert_eq!(captions.len(), shapes.len(), "{slug}: captions {captions:?}");
    for (c, shape) in captions.iter().zip(shapes) {
        assert!(c.ends_with(shape), "{slug}: caption {c:?} should end with {shape:?}");
    }
    let (drawn, total) = b.drawn_canvases(&id).await;
    assert_eq!(drawn, total, "{slug}: only {drawn} of {total} canvases are painted");
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn stepping_through_every_stage_shows_drawn_heatmaps_with_their_shapes() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    for (i, (slug, shapes)) in STAGES.iter().enumerate() {
        assert_stage(&b, slug, shapes).await;
        assert_eq!(b.text_of("stage-count").await, format!("Step {} of 7", i + 1));
        if i + 1 < STAGES.len() {
            b.click("next-stage").await;
        }
    }
    // Back with the button, then with the keyboard.
    b.click("prev-stage").await;
    assert_stage(&b, "output", STAGES[5].1).await;
    b.press("\u{E012}").await; // ArrowLeft
    assert_stage(&b, "softmax", STAGES[4].1).await;
    b.press("\u{E014}").await; // ArrowRight
    assert_stage(&b, "output", STAGES[5].1).await;
    // Clicking a stage name jumps there.
    b.click("goto-scaling").await;
    assert_stage(&b, "scaling", STAGES[3].1).await;
    b.assert_no_panic().await;
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn typing_a_sentence_changes_the_tokens_and_every_shape() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=scores").await;
    b.type_into("token-input", "猫喜欢鱼, a lot").await;
    // 猫 喜 欢 鱼 , a lot → 7 tokens
    assert_eq!(b.text_of("token-input-count").await, "7 tokens");
    let chips = b.js("return document.querySelectorAll(`[data-testid='token-input-chips'] li`).length;", vec![]).await;
    assert_eq!(chips, 7);
    assert_stage(&b, "scores", &["7 × 7"]).await;
    b.click("goto-output").await;
    assert_stage(&b, "output", &["7 × 16", "7 × 16"]).await;
    // Hovering an output cell explains it by the value rows that made it.
    b.hover_canvas("heatmap-output").await;
    let detail = b.text_of("heatmap-output-detail").await;
    assert!(detail.contains("Σ A·V") && detail.contains("largest contributions"), "{detail:?}");
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn hovering_a_score_shows_the_dot_product_behind_it() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=scores").await;
    b.hover_canvas("heatmap-scores").await;
    let detail = b.text_of("heatmap-scores-detail").await;
    assert!(
        detail.starts_with("q[") && detail.contains("Σ (m = 1…16) q_m·k_m") && detail.contains("largest terms"),
        "{detail:?}"
    );
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn unscaled_softmax_saturates_at_large_dk_and_scaling_keeps_it_soft() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    let read = |id: &'static str| {
        let b = &b;
        async move {
            let text = b.text_of(id).await;
            text.parse::<f32>().unwrap_or_else(|_| panic!("{id} shows {text:?}, not a number"))
        }
    };
    let checked = b.js("return document.querySelector(`[data-testid='scale-toggle']`).checked;", vec![]).await;
    if checked == true {
        b.click("scale-toggle").await;
    }
    b.set_value("dk-slider", "1").await;
    let (soft_max, soft_grad) = (read("readout-max-weight").await, read("readout-grad").await);
    b.set_value("dk-slider", "1024").await;
    assert_eq!(b.text_of("dk-value").await, "1024");
    let (max_w, grad, std) =
        (read("readout-max-weight").await, read("readout-grad").await, read("readout-score-std").await);
    assert!(max_w > 0.99, "unscaled at d_k = 1024 the typical row should be one-hot: {max_w}");
    assert!(grad < 0.01 && grad < soft_grad, "gradient should die: {grad} (was {soft_grad} at d_k = 1)");
    assert!(max_w > soft_max);
    assert!((std / 32.0 - 1.0).abs() < 0.25, "score std should be near √1024 = 32: {std}");

    b.click("scale-toggle").await;
    let (max_w, std) = (read("readout-max-weight").await, read("readout-score-std").await);
    assert!(max_w < 0.8, "scaled rows stay soft: {max_w}");
    assert!((std - 1.0).abs() < 0.3, "scaled score std should be near 1: {std}");
    // A slider value between steps snaps to a power of two.
    b.set_value("dk-slider", "700").await;
    assert_eq!(b.text_of("dk-value").await, "512");
    b.assert_no_panic().await;
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn the_language_switch_changes_the_texts_and_survives_a_reload() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    let title = || async { b.wait_for("h1").await.text().await.unwrap_or_default() };
    assert_eq!(title().await, "Attention Lab");
    b.click("lang-switch").await;
    assert_eq!(title().await, "自注意力实验室");
    assert_eq!(b.text_of("stage-count").await, "第 1 步，共 7 步");
    // The untouched default sentence follows the language.
    assert!(b.text_of("token-input-count").await.ends_with("个词元"));
    b.client.refresh().await.expect("reload");
    b.wait_for("[data-testid^='stage-']").await;
    assert_eq!(title().await, "自注意力实验室");
    // A bare link remembers the last choice too.
    b.open_page(&site.url("/")).await;
    assert_eq!(title().await, "自注意力实验室");
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn bad_input_shows_a_message_and_keeps_the_last_good_picture() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    b.type_into("token-input", "").await;
    let err = b.text_of("token-input-error").await;
    assert!(err.contains("at least one word"), "{err:?}");
    assert_stage(&b, "softmax", &["11 × 11", ""]).await;

    // Pasted at once (typed key by key it would pass through valid 64-word sentences).
    b.set_value("token-input", &"word ".repeat(500)).await;
    let err = b.text_of("token-input-error").await;
    assert!(err.contains("500 tokens") && err.contains("64"), "{err:?}");
    assert_stage(&b, "softmax", &["11 × 11", ""]).await;

    b.type_into("seed-input", "abc").await;
    assert!(b.text_of("seed-error").await.contains("whole number"));
    b.type_into("token-input", "<img src=x onerror=alert(1)>").await;
    let chips = b.js("return document.querySelectorAll('img').length;", vec![]).await;
    assert_eq!(chips, 0, "a token that looks like HTML must stay text");
    assert!(b.text_of("token-input-error").await.is_empty());
    b.assert_no_broken_numbers().await;
    b.assert_no_panic().await;
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn a_reload_keeps_every_setting() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    b.type_into("token-input", "one two three").await;
    b.click("goto-softmax").await;
    b.click("head-3").await;
    b.click("scaling-toggle").await;
    b.client.refresh().await.expect("reload");
    b.wait_for("[data-testid='stage-softmax']").await;
    assert_eq!(b.text_of("token-input-count").await, "3 tokens");
    let pressed =
        b.js("return document.querySelector(`[data-testid='head-3']`).getAttribute('aria-pressed');", vec![]).await;
    assert_eq!(pressed, "true");
    let scaled = b.js("return document.querySelector(`[data-testid='scaling-toggle']`).checked;", vec![]).await;
    assert_eq!(scaled, false);
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn next_at_the_bottom_of_a_stage_lands_on_the_next_heading() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    let heading_top = "return Math.round(document.querySelector('.stage__title').getBoundingClientRect().top);";
    for (id, expected) in [("next-stage-bottom", "6. Weighted sum"), ("prev-stage-bottom", "5. Softmax")] {
        // Read to the end of the stage, then step from the buttons found there.
        b.js("window.scrollTo(0, document.body.scrollHeight);", vec![]).await;
        b.click(id).await;
        b.wait_for("[data-testid='stage-count']").await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let title = b.js("return document.querySelector('.stage__title').textContent;", vec![]).await;
        assert_eq!(title, expected);
        let top = b.js(heading_top, vec![]).await.as_i64().unwrap_or(-1);
        assert!((0..120).contains(&top), "{id}: the heading is at {top} px, not at the top of the screen");
    }
    let said = b.js("return document.querySelector(`[data-testid='stage-announce']`).textContent;", vec![]).await;
    assert_eq!(said, "Step 5 of 7: Softmax", "the change is announced");
    b.close().await;
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn on_a_phone_the_stage_comes_first_and_the_settings_unfold_on_demand() {
    let site = Site::start("").await;
    let b = Browser::open(390, 844).await;
    b.open_page(&site.url("/?lang=en")).await;
    b.wait_for("[data-testid='stage-input'] canvas[data-drawn='true']").await;
    let shown = "return getComputedStyle(document.querySelector(`[data-testid='token-input']`)).display !== 'none' && !!document.querySelector(`[data-testid='token-input']`).offsetParent;";
    assert_eq!(b.js(shown, vec![]).await, json!(false), "the settings start folded");
    let top =
        b.js("return Math.round(document.querySelector('.stage__title').getBoundingClientRect().top);", vec![]).await;
    assert!(top.as_i64().is_some_and(|t| t < 844), "stage 1's heading is on the first screen: {top}");
    b.click("settings-toggle").await;
    assert_eq!(b.js(shown, vec![]).await, json!(true), "one tap unfolds them");
    b.type_into("token-input", "one two three").await;
    b.wait_for("[data-testid='stage-input']").await;
    assert!(b.captions_in("stage-input").await.iter().any(|c| c.ends_with("3 × 64")));
    b.close().await;
}
