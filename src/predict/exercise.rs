//! "Check yourself": a small exercise under each stage, on a 3-key example cut from the numbers
//! on screen (the chosen query's first four coordinates of q, three keys' of k and v, rounded
//! to one decimal so it can be done by hand). The expected answer is what the core's own head
//! ([`crate::core::attention::head`]) computes from exactly the numbers shown.

use super::questions::show;
use super::shown::Shown;
use crate::core::attention::head;
use crate::core::rng::SplitMix64;
use crate::i18n::{fill, t, Lang, PredictMsg as P};
use crate::settings::Stage;
use ndarray::{s, Array2};

/// What the exercise asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// One scaled score q·k / √d_k.
    Scaled,
    /// One softmax weight from three scaled scores.
    Weight,
    /// The first entry of the output, Σ_j a_j v_j.
    Mix,
}

/// The exercise of `stage`.
pub fn task(stage: Stage) -> Task {
    match stage {
        Stage::Input | Stage::Projection | Stage::Scores | Stage::Scaling => Task::Scaled,
        Stage::Softmax => Task::Weight,
        Stage::Output | Stage::MultiHead => Task::Mix,
    }
}

/// One exercise: the problem, its answer, the tolerance it is checked to and the worked
/// solution.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    pub prompt: String,
    pub answer: f32,
    pub tolerance: f32,
    pub solution: String,
}

/// The width of the example: four coordinates (√4 = 2), or d_k if it is smaller.
const WIDTH: usize = 4;

fn round1(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

/// The example's own numbers, rounded to one decimal: as short as they are ("1.3", "-0.4", "0").
fn inputs(v: &[f32]) -> String {
    format!("[{}]", v.iter().map(|x| format!("{}", x + 0.0)).collect::<Vec<_>>().join(", "))
}

/// Computed numbers, as the page prints them.
fn vector(v: &[f32]) -> String {
    format!("[{}]", v.iter().map(|x| show(*x)).collect::<Vec<_>>().join(", "))
}

/// q (1, w), K (3, w), V (3, w) and the three keys' tokens.
type Example = (Array2<f32>, Array2<f32>, Array2<f32>, Vec<String>);

/// The example cut from `s` for draw `seed`: q (1, w), K and V (3, w), rounded; `None` when the
/// sentence has fewer than three keys.
fn example(s: &Shown, seed: u64) -> Option<Example> {
    let w = WIDTH.min(s.d_k);
    let n = s.kv_tokens.len();
    if n < 3 || w == 0 {
        return None;
    }
    // Three different keys, drawn.
    let mut rng = SplitMix64::new(seed);
    let mut keys: Vec<usize> = vec![];
    while keys.len() < 3 {
        let j = (rng.next_u64() % n as u64) as usize;
        if !keys.contains(&j) {
            keys.push(j);
        }
    }
    let q = s.q.slice(s![s.query..s.query + 1, ..w]).mapv(round1);
    let pick = |m: &Array2<f32>| Array2::from_shape_fn((3, w), |(r, c)| round1(m[(keys[r], c)]));
    let names = keys.iter().map(|j| s.kv_tokens[*j].clone()).collect();
    Some((q, pick(&s.k), pick(&s.v), names))
}

/// The exercise `task` on the numbers of `s`, draw `seed`, in `lang`.
pub fn exercise(s: &Shown, task: Task, seed: u64, lang: Lang) -> Option<Exercise> {
    let (q, k, v, names) = example(s, seed)?;
    let w = q.ncols();
    let scale = (w as f32).sqrt();
    let trace = head(q.view(), k.view(), v.view(), &Array2::from_elem((1, 3), false), scale, 1.0).ok()?;
    let tr = |m: P| t(lang, m);
    let row = |m: &Array2<f32>, r: usize| m.row(r).to_vec();
    let (w_text, sq) = (w.to_string(), show(scale));
    Some(match task {
        Task::Scaled => {
            let dot = trace.scores[(0, 0)];
            let terms: Vec<String> = (0..w).map(|c| format!("{}·{}", q[(0, c)] + 0.0, k[(0, c)] + 0.0)).collect();
            Exercise {
                prompt: fill(
                    tr(P::ExScaled),
                    &[("q", &inputs(&row(&q, 0))), ("k", &inputs(&row(&k, 0))), ("dk", &w_text), ("key", &names[0])],
                ),
                answer: trace.scaled_scores[(0, 0)],
                tolerance: 0.01,
                solution: fill(
                    tr(P::ExScaledSolution),
                    &[
                        ("terms", &terms.join(" + ")),
                        ("dot", &show(dot)),
                        ("sq", &sq),
                        ("x", &show(trace.scaled_scores[(0, 0)])),
                    ],
                ),
            }
        }
        Task::Weight => {
            let logits = row(&trace.scaled_scores, 0);
            let exps: Vec<f32> = logits.iter().map(|l| l.exp()).collect();
            let sum: f32 = exps.iter().sum();
            Exercise {
                prompt: fill(tr(P::ExWeight), &[("s", &vector(&logits)), ("key", &names[0])]),
                answer: trace.weights[(0, 0)],
                tolerance: 0.01,
                solution: fill(
                    tr(P::ExWeightSolution),
                    &[
                        ("e", &vector(&exps)),
                        ("sum", &show(sum)),
                        ("e1", &show(exps[0])),
                        ("x", &show(trace.weights[(0, 0)])),
                    ],
                ),
            }
        }
        Task::Mix => {
            let a = row(&trace.weights, 0);
            let col: Vec<f32> = v.column(0).to_vec();
            let terms: Vec<String> = (0..3).map(|j| format!("{}·{}", show(a[j]), col[j] + 0.0)).collect();
            Exercise {
                prompt: fill(tr(P::ExMix), &[("a", &vector(&a)), ("v", &inputs(&col))]),
                answer: trace.output[(0, 0)],
                tolerance: 0.02,
                solution: fill(
                    tr(P::ExMixSolution),
                    &[("terms", &terms.join(" + ")), ("x", &show(trace.output[(0, 0)]))],
                ),
            }
        }
    })
}

impl Exercise {
    /// Whether `text` (a decimal; a comma as the decimal mark is accepted) is within the
    /// tolerance; `None` when it is not a number.
    pub fn accepts(&self, text: &str) -> Option<bool> {
        Some((super::questions::decimal(text)? - self.answer).abs() <= self.tolerance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::trace_json;
    use crate::predict::shown::from_export;
    use crate::reading::tests::outcome;

    /// Over many draws and every task: the page accepts the core's number, and the number it
    /// accepts is what the core's head computes from the numbers printed in the problem.
    #[test]
    fn the_accepted_answer_is_the_core_s_number_over_many_draws() {
        let o = outcome(Lang::En, |_, _| {});
        for head_index in 0..o.trace().n_heads() {
            let s = from_export(&trace_json(&o, ""), head_index, head_index + 1).expect("reads the export");
            for seed in 0..200 {
                for task in [Task::Scaled, Task::Weight, Task::Mix] {
                    let e = exercise(&s, task, seed, Lang::Zh).expect("an exercise");
                    assert_eq!(e.accepts(&format!("{}", e.answer)), Some(true));
                    assert_eq!(e.accepts(&format!("{}", e.answer + 3.0 * e.tolerance)), Some(false));
                    let (q, k, v, _) = example(&s, seed).expect("an example");
                    let h =
                        head(q.view(), k.view(), v.view(), &Array2::from_elem((1, 3), false), 2.0, 1.0).expect("runs");
                    let core = match task {
                        Task::Scaled => h.scores[(0, 0)] / 2.0,
                        Task::Weight => h.weights[(0, 0)],
                        Task::Mix => h.output[(0, 0)],
                    };
                    assert!((e.answer - core).abs() < 1e-6, "{task:?} seed {seed}");
                    // The problem prints the numbers it is about, rounded to one decimal.
                    assert!(q.iter().all(|x| (x * 10.0 - (x * 10.0).round()).abs() < 1e-4));
                    assert!(!e.prompt.contains('{') && !e.solution.contains('{'));
                }
            }
        }
    }

    #[test]
    fn a_sentence_of_two_keys_has_no_exercise_and_text_is_refused() {
        let o = outcome(Lang::En, |s, c| assert!(s.set_text("hello world", c).is_ok()));
        let s = from_export(&trace_json(&o, ""), 0, 0).expect("reads the export");
        assert!(exercise(&s, Task::Weight, 1, Lang::En).is_none());
        let o = outcome(Lang::En, |_, _| {});
        let s = from_export(&trace_json(&o, ""), 0, 0).expect("reads the export");
        let e = exercise(&s, Task::Scaled, 1, Lang::En).expect("one");
        assert_eq!(e.accepts("abc"), None);
    }
}
