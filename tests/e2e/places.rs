//! Every place of the site a learner can open: each stage of the lesson and every other view,
//! as query strings, and what tells that a place has finished drawing.

use attention_lab::settings::{Stage, View};

/// Every stage of the lesson and every other view, as query strings.
pub fn every_place() -> Vec<String> {
    let stages = Stage::ALL.iter().map(|s| format!("view=lesson&stage={}", s.slug()));
    let views = View::ALL.iter().filter(|v| **v != View::Lesson).map(|v| format!("view={}", v.slug()));
    stages.chain(views).collect()
}

/// What each place draws: a canvas, an SVG graph, or the case study's table.
pub const DRAWN: &str = "canvas[data-drawn='true'], svg, [data-testid='coref-cell']";
