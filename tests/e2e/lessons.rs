//! The lessons the sources teach beside the main one (issue 12): each opens from its chapter
//! of the navigation and shows numbers the core computed; the code panel on every stage; no
//! causal mask in cross-attention; the Chinese pages hold no stray English.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::json;

async fn open(site: &Site, query: &str, slug: &str) -> Browser {
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url(&format!("/?{query}"))).await;
    b.click(&format!("nav-{slug}")).await;
    b.wait_for_view(slug).await;
    b
}

async fn texts(b: &Browser, id: &str) -> Vec<String> {
    let v = b
        .js(
            "return [...document.querySelectorAll(`[data-testid='${arguments[0]}']`)].map(e => e.textContent.trim());",
            vec![json!(id)],
        )
        .await;
    serde_json::from_value(v).unwrap_or_default()
}

pub async fn scaling_choices_show_too_sharp_right_and_too_flat() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en", "scaling-choices").await;
    // The side lessons' module draws them from the numbers the page hands over.
    let three = "return document.querySelectorAll(`[data-testid='view-scaling-choices'] canvas[data-drawn='true']`).length === 3;";
    b.until(three, "the three maps drawn", 10).await;
    let (drawn, total) = b.drawn_canvases("view-scaling-choices").await;
    assert!(total == 3 && drawn == 3, "{drawn} of {total} maps");
    // d_k = 16 by default: the spread of ÷1 is about 4× that of ÷√d_k, which is 4× that of ÷d_k.
    let std: Vec<f64> = texts(&b, "choice-std").await.iter().map(|t| t.parse().unwrap_or(f64::NAN)).collect();
    assert!(std.len() == 3 && std[0] > std[1] && std[1] > std[2], "{std:?}");
    // The readouts show 3 decimals, so the ratios hold to about 1 %.
    assert!(((std[0] / std[1]) - 4.0).abs() < 0.05 && ((std[1] / std[2]) - 4.0).abs() < 0.05, "{std:?}");
    let top: Vec<f64> = texts(&b, "choice-top").await.iter().map(|t| t.parse().unwrap_or(f64::NAN)).collect();
    assert!(top[0] > top[1] && top[1] > top[2], "sharper without division: {top:?}");
    let identity = b.text_of("choices-identity").await;
    assert!(identity.contains("T = √d_k"), "{identity}");
    b.assert_no_panic().await;
    b.close().await;
}

/// Where the output ring is drawn.
async fn output_at(b: &Browser) -> (f64, f64) {
    let script = "const c = document.querySelector(`[data-testid='convex-output']`); return [+c.getAttribute('cx'), +c.getAttribute('cy')];";
    serde_json::from_value(b.js(script, vec![]).await).unwrap_or_default()
}

pub async fn the_output_stays_in_the_hull_at_every_temperature() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&q=8", "convex").await;
    b.wait_for("[data-testid='convex-output']").await;
    let dots = b.js("return document.querySelectorAll('.convex__value').length;", vec![]).await;
    assert_eq!(dots, json!(11), "one dot per value vector");
    let before = output_at(&b).await;
    for t in ["-1", "1", "0"] {
        b.set_value("convex-temperature", t).await;
        assert_eq!(b.text_of("convex-inside").await, "The output lies inside the hull: yes");
    }
    b.set_value("convex-temperature", "-1").await;
    let sharp = output_at(&b).await;
    assert!((sharp.0 - before.0).abs() + (sharp.1 - before.1).abs() > 1.0, "the output moves: {before:?} → {sharp:?}");
    b.close().await;
}

pub async fn position_rotation_rnn_cnn_and_the_block_are_one_click_away() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en", "position").await;
    assert_eq!(b.captions_in("view-position").await, ["PE · PEᵀ for positions 1–32, d_model = 64: 32 × 32"]);
    for k in ["1", "7", "16"] {
        b.set_value("position-offset", k).await;
        let err: f64 = b.text_of("position-error").await.parse().unwrap_or(f64::NAN);
        assert!(err < 1e-4, "offset {k}: {err}");
    }
    b.click("nav-rnn-cnn").await;
    b.wait_for_view("rnn-cnn").await;
    b.set_value("mixer-n-slider", "10").await;
    assert_eq!(texts(&b, "mixer-path").await, ["1023", "512", "1"], "recurrent, convolution, attention at n = 1024");
    assert_eq!(texts(&b, "mixer-steps").await, ["1024", "1", "1"]);
    b.click("nav-block").await;
    b.wait_for("[data-testid='block-attention']").await;
    b.click("block-open-lesson").await;
    b.wait_for("[data-testid='stage-input']").await;
    b.close().await;
}

pub async fn every_stage_shows_its_pytorch_with_the_live_shapes() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    // One line each stage must hold for the default settings (11 tokens, d_model 64, 4 heads).
    let expected = [
        ("input", "(1, 11, 64)"),
        ("projection", "q = w_q(x).view(1, 11, 4, 16).transpose(1, 2)"),
        ("scores", "scores = q @ k.transpose(-2, -1)  # (1, 4, 11, 11)"),
        ("scaling", "scale = math.sqrt(16)"),
        ("softmax", "torch.softmax(scores / 1.0, dim=-1)"),
        ("output", "out = weights @ v  # (1, 4, 11, 16)"),
        ("multihead", "concat = out.transpose(1, 2).reshape(1, 11, 64)"),
    ];
    for (stage, line) in expected {
        b.open_page(&site.url(&format!("/?lang=en&stage={stage}"))).await;
        b.wait_for("[data-testid='stage-code']").await;
        // The panel is folded: read the code's text, not what is on screen.
        let code = texts(&b, "stage-code-text").await.join("");
        assert!(code.contains(line), "{stage}: {code}");
    }
    b.open_page(&site.url("/?lang=en&stage=projection")).await;
    b.wait_for("[data-testid='stage-code']").await;
    b.choose("heads", "2").await;
    let code = texts(&b, "stage-code-text").await.join("");
    assert!(code.contains("view(1, 11, 2, 32)"), "the code follows the settings: {code}");
    b.open_page(&site.url("/?lang=en&stage=softmax&mask=causal")).await;
    let code = texts(&b, "stage-code-text").await.join("");
    assert!(code.contains("masked_fill(mask == 0, -1e9)"), "{code}");
    b.close().await;
}

pub async fn cross_attention_switches_the_causal_mask_off_and_says_why() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=zh&stage=softmax&mask=causal")).await;
    b.wait_for("[data-testid='stage-softmax']").await;
    b.choose("kind-select", "cross").await;
    b.wait_for("[data-testid='mask-note']").await;
    let disabled = b.js("return document.querySelector(`[data-testid='mask-select']`).disabled;", vec![]).await;
    assert_eq!(disabled, json!(true));
    assert!(b.text_of("mask-note").await.contains("交叉注意力不使用因果掩码"));
    // The Chinese defaults: 20 query tokens, 5 key tokens; and no mask in the code that ran.
    let caps = b.captions_in("stage-softmax").await;
    assert!(caps.iter().any(|c| c.ends_with("20 × 5")), "{caps:?}");
    let code = texts(&b, "stage-code-text").await.join("");
    assert!(!code.contains("masked_fill") && code.contains("(1, 4, 20, 5)"), "{code}");
    b.choose("kind-select", "self").await;
    let value = b.js("return document.querySelector(`[data-testid='mask-select']`).value;", vec![]).await;
    assert_eq!(value, json!("causal"), "self-attention gets the causal mask back");
    b.close().await;
}

/// Issue 24's lessons in the page: the formula named before stage 1, each piece opening its
/// stage; splitting heads as a reshape on the live shapes; the padding mask on the lesson's
/// two sentences; and the texts of a state where d_k = 1.
pub async fn the_formula_the_reshape_and_the_padding_mask_are_shown_on_the_live_numbers() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&stage=input")).await;
    b.wait_for("[data-testid='overview'] math").await;
    assert!(b.text_of("overview").await.contains("scaled dot-product attention"));
    b.click("overview-scores").await;
    b.wait_for("[data-testid='stage-scores']").await;
    assert_eq!(texts(&b, "overview").await.len(), 0, "the overview stands before stage 1 only");
    b.click("goto-projection").await;
    // In the code panel, for the reader of the code: folded until opened.
    assert_eq!(
        b.js("return !!document.querySelector(`details:not([open]) [data-testid='reshape']`);", vec![]).await,
        true
    );
    b.click_css("[data-testid='stage-code'] summary").await;
    let reshape = b.text_of("reshape").await;
    assert!(reshape.contains("q.view(1, 11, 4, 16)") && reshape.contains("(1, 4, 11, 16)"), "{reshape}");

    b.click("nav-variants").await;
    b.wait_for("[data-testid='heatmap-padding'] canvas[data-drawn='true']").await;
    let padding = b.text_of("padding-reading").await;
    assert!(padding.contains("Sentence 2 is the shorter") && padding.contains("padded to 11"), "{padding}");
    let diff: f64 = padding
        .split("by at most ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|d| d.parse().ok())
        .expect("the largest difference");
    assert!(diff < 1e-5, "the real rows are what the sentence gives alone: {padding}");
    b.close().await;

    // d_k = 1: nothing is divided, and the notices say so instead of "paler" and "sharpen".
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&d=8&h=8&stage=scaling")).await;
    b.wait_for("[data-testid='stage-notice']").await;
    let notice = b.text_of("stage-notice").await;
    assert!(notice.contains("d_k = 1") && !notice.contains("paler"), "{notice}");
    b.click("goto-softmax").await;
    let notice = b.text_of("stage-notice").await;
    assert!(notice.contains("changes nothing") && !notice.contains("sharpen"), "{notice}");
    b.assert_no_panic().await;
    b.close().await;
}
