//! What the tests share: the reference fixtures and their comparison (`fixture`), a toy
//! model (`toy`), the lesson's outcome for a setting, and the downloaded model files.
#![allow(dead_code)]

pub use attention_lab::core;

pub mod fixture;
pub mod toy;
#[allow(unused_imports)] // not every test uses them
pub use fixture::{check, worst, Fixture};

/// What the lesson would show for `s` with the models `models` has: its model's forward pass,
/// at the layer the settings name.
#[allow(dead_code)]
pub fn outcome_of(
    s: &attention_lab::settings::Settings,
    models: &attention_lab::models::Models,
) -> Result<attention_lab::core::model::Outcome, attention_lab::core::model::ModelError> {
    use attention_lab::models::Catalog;
    let model = models.model(s.choice());
    let encoding = model.forward(&s.input(&*model), &s.run_options(&*model))?;
    let outcome = attention_lab::core::model::Outcome::new(std::sync::Arc::new(encoding), s.lesson().layer());
    Ok(outcome.expect("every model returns at least one layer"))
}

/// The bytes of a downloaded model file in `assets/model/` (never in git: `scripts/model.sh`
/// makes it, and the README's test command runs that first), or a failure that says so.
pub fn model_file(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/model").join(name);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. This test needs the downloaded model: run `bash scripts/model.sh` (it downloads and converts \
             it, a few minutes; `bash scripts/test.sh` runs it first)",
            path.display()
        )
    })
}
