//! The first page: the default sentence's attention weights, drawn, with no error.

use crate::browser::Browser;
use crate::server::Site;

#[tokio::test]
#[ignore = "needs dist/ and Chromium: run scripts/test.sh"]
async fn default_page_draws_the_weights_heatmap_without_errors() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/")).await;

    let caption = b.text_of("heatmap-weights").await;
    assert!(caption.contains("11 × 11"), "caption should give the shape of the default sentence: {caption:?}");
    let (painted, colours) = b.canvas_paint("heatmap-weights").await;
    // 11 × 11 cells of up to 40 px: far more than a few stray label pixels, in many colours.
    assert!(painted > 50_000, "the heatmap looks blank: {painted} painted pixels");
    assert!(colours > 20, "the heatmap looks flat: {colours} distinct colours");
    b.assert_no_panic().await;
    let errors = b.client.find_all(fantoccini::Locator::Css("[role='alert']")).await.expect("query");
    assert!(errors.is_empty(), "an error is shown on the default page");
    b.close().await;
}
