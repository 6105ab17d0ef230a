//! "Predict first": the figure is absent until the student answers, the answer is judged
//! against the live trace (read here from the page's own JSON export, taken before the mode is
//! switched on), a new setting asks afresh, the tally survives a reload, the teacher's
//! "Ask the class" reveals with the keyboard, and "Check yourself" accepts the number worked
//! out from the numbers it prints.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::{json, Value};
use std::time::Duration;

async fn open(site: &Site, query: &str, width: u32) -> Browser {
    let b = Browser::open(width, 900).await;
    b.open_page(&site.url(&format!("/?{query}"))).await;
    b.wait_for("[data-testid^='stage-']").await;
    b
}

/// The page's trace export of the stage on screen.
async fn exported(b: &Browser) -> Value {
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("the export is JSON")
}

/// Matrix `m` of head `h` of the export's `expected[key]`.
fn head_matrix(trace: &Value, key: &str, h: usize) -> Vec<Vec<f64>> {
    serde_json::from_value(trace["expected"][key][h].clone()).expect("a heads × n × n matrix")
}

fn argmax(row: &[f64]) -> usize {
    (0..row.len()).max_by(|&a, &c| row[a].total_cmp(&row[c])).unwrap_or(0)
}

fn argmin(row: &[f64]) -> usize {
    (0..row.len()).min_by(|&a, &c| row[a].total_cmp(&row[c])).unwrap_or(0)
}

async fn present(b: &Browser, css: &str) -> bool {
    b.js("return document.querySelector(arguments[0]) !== null;", vec![json!(css)]).await == json!(true)
}

async fn choose_key(b: &Browser, index: usize) {
    let css = format!("[data-testid='predict-choice'][data-index='{index}']");
    b.click_css(&css).await;
}

/// Set the softmax stage's slider to `value` and check it.
async fn answer_slider(b: &Browser, value: f64) {
    let slider = "[data-kind='slider'] [data-testid='predict-answer']";
    b.wait_for(slider).await;
    b.js(
        "const el = document.querySelector(arguments[0]); el.value = arguments[1]; el.dispatchEvent(new Event('input', { bubbles: true }));",
        vec![json!(slider), json!(format!("{value:.2}"))],
    )
    .await;
    let check = "[data-kind='slider'] [data-testid='predict-check']";
    b.wait_for(check).await.click().await.expect("check the slider");
}

pub async fn the_weights_wait_for_the_answer_and_the_answer_is_judged_against_the_trace() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax&head=2&q=3", 1280).await;
    let weights = head_matrix(&exported(&b).await, "weights", 1);
    b.click("predict-toggle").await;
    b.wait_for("[data-testid='predict-question'][data-kind='click-key']").await;
    assert!(b.address().await.as_str().unwrap_or_default().contains("predict=1"));
    // Both of the stage's questions are asked before anything is revealed.
    assert!(present(&b, "[data-kind='slider']").await, "the follow-up is asked with the first question");
    assert!(!present(&b, "[data-testid='heatmap-weights']").await, "the weights are not in the page before the answer");
    assert!(!present(&b, "[data-testid='chart-query-row']").await);
    assert!(!present(&b, "table").await, "nor their numbers table");
    let unmoved = "return document.querySelector(\"[data-kind='slider'] [data-testid='predict-check']\").disabled;";
    assert_eq!(b.js(unmoved, vec![]).await, json!(true), "the slider answers nothing until it is moved");
    // A wrong answer: the least-weighted key.
    let (best, worst) = (argmax(&weights[2]), argmin(&weights[2]));
    choose_key(&b, worst).await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='0']").await;
    let tokens: Vec<String> = {
        let v = b
            .js(
                "return [...document.querySelectorAll(\"[data-testid='predict-choice']\")].map(e => e.textContent);",
                vec![],
            )
            .await;
        serde_json::from_value(v).expect("the choices' tokens")
    };
    let feedback = b.text_of("predict-feedback").await;
    assert!(
        feedback.contains(&tokens[best]) && feedback.contains(&format!("{:.2}", weights[2][best])[..3]),
        "{feedback}"
    );
    assert!(!present(&b, "[data-testid='heatmap-weights']").await, "still held back: the second question waits");
    // The second question answered: the figure.
    answer_slider(&b, weights[2].iter().cloned().fold(0.0, f64::max)).await;
    b.wait_for("[data-kind='slider'] [data-testid='predict-feedback'][data-correct='1']").await;
    b.wait_for("[data-testid='heatmap-weights'] canvas[data-drawn='true']").await;
    let focused = b.js("return document.activeElement && document.activeElement.dataset.testid;", vec![]).await;
    assert_eq!(focused, json!("predict-feedback"), "the feedback takes the focus, for a screen reader");
    // Another query: asked afresh, the figure held back again.
    b.choose("query-select", "5").await;
    b.until(
        "return !document.querySelector(\"[data-testid='heatmap-weights']\") && !document.querySelector(\"[data-testid='predict-feedback'][data-correct]\");",
        "held back again, nothing answered",
        10,
    )
    .await;
    choose_key(&b, argmax(&weights[5])).await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='1']").await;
    // The tally is kept on the device.
    b.reload().await;
    b.wait_for("[data-testid='predict-progress']").await;
    let progress = b.text_of("predict-progress").await;
    assert!(progress.contains("1 of 7 stages answered, 2 of 3 answers right"), "{progress}");
    b.click("predict-reset").await;
    assert!(b.text_of("predict-progress").await.contains("0 of 7 stages answered"));
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn the_spread_after_scaling_is_typed_and_judged_in_chinese_on_a_phone() {
    let site = Site::start("").await;
    let b = open(&site, "lang=zh&stage=scaling&mask=none&scale=1&head=1", 390).await;
    let trace = exported(&b).await;
    let spread = |h: usize| {
        let s: Vec<f64> = head_matrix(&trace, "scores", h).concat();
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        (s.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / s.len() as f64).sqrt()
    };
    let d_k = (trace["d_model"].as_f64().unwrap_or(0.0) / trace["heads"].as_f64().unwrap_or(1.0)).sqrt();
    // On a phone the teacher's tools are in their menu.
    b.click("tools-toggle").await;
    b.click("predict-toggle").await;
    b.wait_for("[data-testid='predict-question'][data-kind='number']").await;
    assert!(!present(&b, "[data-testid='heatmap-scores-scaled']").await);
    assert!(present(&b, "[data-testid='stage-reading'][hidden]").await, "the reading, which says it, waits too");
    // The classic slip: the raw spread, unscaled.
    b.type_into("predict-answer", &format!("{:.3}", spread(0))).await;
    b.click("predict-check").await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='0']").await;
    assert!(b.text_of("predict-feedback").await.contains("不太对"));
    // Head 2, asked afresh: the right spread, worked out from the export.
    b.click("head-2").await;
    b.wait_for("[data-testid='predict-feedback']:not([data-correct])").await;
    b.type_into("predict-answer", "很多").await;
    b.click("predict-check").await;
    b.wait_for("[data-testid='predict-error']:not(:empty)").await;
    b.type_into("predict-answer", &format!("{:.3}", spread(1) / d_k)).await;
    b.click("predict-check").await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='1']").await;
    assert!(b.text_of("predict-feedback").await.contains("答对了"));
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn identical_rows_are_clicked_and_the_class_is_asked_with_the_keyboard() {
    let site = Site::start("").await;
    // No positional encoding: the two "the" (rows 1 and 5) are the same row of X.
    let b = open(&site, "lang=en&predict=1&stage=input&pe=0", 390).await;
    b.wait_for("[data-testid='predict-question'][data-kind='click-row']").await;
    assert!(!present(&b, "[data-testid='heatmap-x']").await);
    choose_key(&b, 0).await;
    choose_key(&b, 4).await;
    b.click("predict-check").await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='1']").await;
    b.wait_for("[data-testid='heatmap-x']").await;
    // The next stage, by keyboard: its own question, its figure held back.
    b.press("\u{E014}").await; // ArrowRight
    b.wait_for("[data-testid='stage-projection'] [data-testid='predict-question'][data-kind='number']").await;
    assert!(!present(&b, "[data-testid='heatmap-q']").await);
    // The other language: the same question, asked in it.
    // On a phone the teacher's tools are in their menu.
    b.click("tools-toggle").await;
    b.click("lang-switch").await;
    b.wait_for("[data-testid='predict-question'] h3:not(:empty)").await;
    for _ in 0..50 {
        if b.text_of("predict-question").await.contains("形状") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let prompt = b.text_of("predict-question").await;
    assert!(prompt.contains("形状"), "the question follows the language: {prompt}");
    // The Chinese default sentence has its own tokens: n, d_model and h as the prompt says them.
    let numbers: Vec<usize> =
        prompt.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).filter_map(|p| p.parse().ok()).collect();
    let [n, d, h] = numbers[..3] else { panic!("{prompt}") };
    b.type_into("predict-answer", &format!("{n} × {}", d / h)).await;
    b.click("predict-check").await;
    b.wait_for("[data-testid='predict-feedback'][data-correct='1']").await;
    b.wait_for("[data-testid='heatmap-q']").await;
    b.close().await;

    // The teacher: presentation, the scores' question large, revealed with R.
    let b = open(&site, "lang=en&predict=1&present=1&stage=scores", 1280).await;
    b.wait_for("[data-testid='ask-class']").await;
    b.click("ask-class").await;
    assert!(present(&b, ".predict__card--ask").await, "the question fills the screen");
    assert!(!present(&b, "[data-testid='heatmap-scores']").await);
    b.press("r").await;
    b.wait_for("[data-testid='heatmap-scores'] canvas[data-drawn='true']").await;
    let answer = b.text_of("predict-feedback").await;
    assert!(answer.starts_with("The answer:") && answer.contains("scores highest"), "{answer}");
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn check_yourself_accepts_the_softmax_worked_out_from_the_printed_scores() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&predict=1&stage=softmax", 1280).await;
    b.wait_for("[data-testid='exercise'] [data-testid='exercise-input']").await;
    let prompt = b.text_of("exercise").await;
    // "Three scaled scores of this query: [a, b, c]."
    let inside =
        prompt.split_once('[').and_then(|(_, r)| r.split_once(']')).map(|(l, _)| l.to_string()).expect("the scores");
    let scores: Vec<f64> = inside.split(',').map(|s| s.trim().replace('−', "-").parse().expect("a number")).collect();
    assert_eq!(scores.len(), 3, "{prompt}");
    let weight = scores[0].exp() / scores.iter().map(|s| s.exp()).sum::<f64>();
    b.type_into("exercise-input", &format!("{weight:.3}")).await;
    b.click("exercise-check").await;
    b.wait_for("[data-testid='exercise-feedback'][data-correct='1']").await;
    b.click("exercise-new").await;
    b.wait_for("[data-testid='exercise-feedback']:not([data-correct])").await;
    assert_ne!(b.text_of("exercise").await, prompt, "new numbers");
    b.type_into("exercise-input", "7").await;
    b.click("exercise-check").await;
    b.wait_for("[data-testid='exercise-feedback'][data-correct='0']").await;
    assert!(b.text_of("exercise-feedback").await.contains("exp of each"), "the worked solution follows");
    b.assert_no_panic().await;
    b.close().await;
}

/// The random walk's find: an answer, and in the same moment a new setting (new numbers, so
/// new question cards) before the answered card could move the focus to its feedback. The
/// page must stay alive and ask afresh.
pub async fn an_answer_followed_at_once_by_a_new_setting_leaves_the_page_alive() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=scores&predict=1&seed=7", 1280).await;
    b.wait_for("[data-testid='predict-question'][data-kind='click-key']").await;
    b.js(
        "document.querySelector(\"[data-testid='predict-choice']\").click();
         const seed = document.querySelector(\"[data-testid='seed-input']\");
         seed.value = '8';
         seed.dispatchEvent(new Event('input', { bubbles: true }));",
        vec![],
    )
    .await;
    b.until("return location.search.includes('seed=8');", "the new seed in the link", 10).await;
    b.frames(5).await;
    b.assert_no_panic().await;
    // The new numbers' question, not yet answered.
    b.wait_for("[data-testid='predict-question'] [data-testid='predict-choice']:not([disabled])").await;
    assert_eq!(
        b.js("return document.querySelector(\"[data-testid='predict-feedback']\").textContent;", vec![]).await,
        json!("")
    );
}
