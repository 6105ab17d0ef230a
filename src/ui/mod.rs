//! What the page and its modules both draw with, so that a module's view looks and behaves
//! as the page's without reaching into the page: the lesson a view reads ([`LessonState`]), the
//! page's heatmap and charts ([`charts`]), the heatmaps' specs ([`specs`]), the head picker
//! ([`HeadPicker`]) and what keys mean in a form ([`in_form_control`]).

pub mod charts;
mod head_picker;
mod lesson;
pub mod specs;

pub use head_picker::HeadPicker;
pub use lesson::{use_lesson_state, LessonState};

use wasm_bindgen::JsCast;

/// Is the key event aimed at a form control, where keys already mean something?
pub fn in_form_control(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}
