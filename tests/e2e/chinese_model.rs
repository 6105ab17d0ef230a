//! Real attention in Chinese: multilingual-e5-small chosen in the Chinese interface (where it
//! is the pretrained model offered first), downloaded, its SentencePiece pieces on the axes,
//! every layer in the export, and the subject-finding head measured as the native tests do.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Wait until the stages show model `tag` (the note says so), up to `secs`.
async fn shown(b: &Browser, tag: &str, secs: u64) {
    let started = Instant::now();
    loop {
        let note =
            "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
        if b.js(note, vec![]).await == tag {
            return;
        }
        let error = "const e = document.querySelector(`[data-testid='model-error']`); return e ? e.textContent : '';";
        assert_eq!(b.js(error, vec![]).await, "", "the model failed to load");
        assert!(started.elapsed() < Duration::from_secs(secs), "{tag} not shown within {secs} s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn token_strip(b: &Browser) -> Vec<String> {
    let tokens =
        b.js("return [...document.querySelectorAll('.token-strip__token')].map(t => t.textContent);", vec![]).await;
    serde_json::from_value(tokens).unwrap_or_default()
}

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn a_chinese_sentence_through_the_multilingual_model_layer_by_layer() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    let sentence = "动物没有穿过马路，由于它太累了。";
    b.open_page(&site.url(&format!("?lang=zh&stage=softmax&text={}", urlencode(sentence)))).await;
    b.wait_for("[data-testid='stage-softmax']").await;
    let options = b.js("return [...document.querySelectorAll('#weights option')].map(o => o.value);", vec![]).await;
    assert_eq!(
        options,
        serde_json::json!(["random", "e5", "minilm", "yours"]),
        "in Chinese the model that reads it first"
    );
    b.choose("weights-switch", "e5").await;
    shown(&b, "e5", 90).await;
    let tokens = token_strip(&b).await;
    assert_eq!(tokens.first().map(String::as_str), Some("<s>"));
    assert_eq!(tokens.last().map(String::as_str), Some("</s>"));
    for piece in ["动物", "它", "马", "路"] {
        assert!(tokens.iter().any(|t| t == piece), "{piece} in {tokens:?}");
    }
    let note = b.text_of("weights-note").await;
    assert!(note.contains("SentencePiece") && note.contains("马 | 路") && !note.contains("[UNK]"), "{note}");
    // On the input stage, no word of "every Chinese character a token": this model's note says how it cuts them.
    b.click("goto-input").await;
    b.wait_for("[data-testid='stage-input']").await;
    assert_eq!(b.js("return document.querySelector(`[data-testid='tokens-cjk']`) === null;", vec![]).await, true);
    b.click("goto-softmax").await;
    b.wait_for("[data-testid='stage-softmax']").await;
    b.choose("layer-select", "9").await;
    b.click("head-9").await;
    let search = b.address().await;
    assert!(search.as_str().is_some_and(|s| s.contains("model=e5") && s.contains("layer=9")), "{search}");

    // The export: every layer; layer 9 head 9 gives 它 about half its weight on 动物.
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    let trace: Value = serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("the export is JSON");
    assert_eq!(trace["model"], "multilingual-e5-small");
    let exported: Vec<String> = serde_json::from_value(trace["tokens"].clone()).expect("tokens");
    assert_eq!(exported, tokens);
    let layers = trace["layers"].as_array().expect("layers");
    assert_eq!(layers.len(), 12);
    let head: Vec<Vec<f64>> = serde_json::from_value(layers[8]["weights"][8].clone()).expect("heads × n × n");
    let at = |piece: &str| tokens.iter().position(|t| t == piece).unwrap_or_default();
    let weight = head[at("它")][at("动物")];
    assert!((0.45..0.53).contains(&weight), "它 → 动物 {weight}");
    b.assert_no_panic().await;

    // A piece that joins 因为 and 它: the note says so and offers the phrasing that separates them.
    b.set_value("token-input", "动物没有穿过马路，因为它太累了。").await;
    let started = Instant::now();
    while !b.text_of("weights-note").await.contains("由于它") {
        assert!(started.elapsed() < Duration::from_secs(10), "no word on 因为它: {}", b.text_of("weights-note").await);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(token_strip(&b).await.iter().any(|t| t == "因为它"));
    // In English the options come in another order; the switch still shows the model chosen.
    b.click("lang-switch").await;
    let started = Instant::now();
    while b.js("return document.querySelector('#weights option').parentElement.options[1].value;", vec![]).await
        != "minilm"
    {
        assert!(started.elapsed() < Duration::from_secs(5), "the options did not follow the language");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(b.js("return document.querySelector('#weights').value;", vec![]).await, "e5");
    b.assert_no_panic().await;
    b.close().await;
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}
