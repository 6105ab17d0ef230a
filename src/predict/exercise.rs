//! "Check yourself": a small exercise under each stage. From stage 3 on, a 3-key example cut
//! from the numbers on screen (the chosen query's first four coordinates of q, three keys' of k
//! and v, rounded to one decimal so it can be done by hand), whose expected answer is what the
//! core's own head ([`crate::core::attention::head`]) computes from exactly the numbers shown;
//! before there are any scores, the sizes on screen (how many numbers X holds, how many
//! multiply–adds a projection takes).

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
    /// How many numbers X holds: n × d_model.
    Size,
    /// How many multiply–adds a projection takes: n × d_model × d_k (one head's Q_h), or
    /// n × d_model × d_model (every head's Q at once).
    Cost,
    /// One raw score q·k (the scores stage, before the division).
    Dot,
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
        Stage::Input => Task::Size,
        Stage::Projection => Task::Cost,
        Stage::Scores => Task::Dot,
        Stage::Scaling => Task::Scaled,
        Stage::Softmax => Task::Weight,
        Stage::Output | Stage::MultiHead => Task::Mix,
    }
}

/// One exercise: the problem, its answer (and as the page prints it), the tolerance it is
/// checked to (0 for a count, checked exactly), the worked solution, and whether "New numbers"
/// gives another.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    pub prompt: String,
    pub answer: f64,
    pub answer_text: String,
    pub tolerance: f64,
    pub solution: String,
    pub redraws: bool,
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
    let (n, d, dk) = (s.tokens.len() as u64, s.d_model as u64, s.d_k as u64);
    match task {
        Task::Size => Some(count(P::ExSize, P::ExSizeSolution, n * d, [n, d, dk], false, lang)),
        // New numbers alternate between one head's Q_h and every head's Q at once.
        Task::Cost if seed % 2 == 1 => Some(count(P::ExCost, P::ExCostSolution, n * d * dk, [n, d, dk], true, lang)),
        Task::Cost => Some(count(P::ExCostWhole, P::ExCostWholeSolution, n * d * d, [n, d, dk], true, lang)),
        Task::Dot | Task::Scaled | Task::Weight | Task::Mix => worked(s, task, seed, lang),
    }
}

/// A count made from the sizes on screen (`n`, `d`, `dk`), checked exactly.
fn count(prompt: P, solution: P, answer: u64, [n, d, dk]: [u64; 3], redraws: bool, lang: Lang) -> Exercise {
    let [n, d, dk, x] = [n, d, dk, answer].map(|v| v.to_string());
    let values = [("n", n.as_str()), ("d", &d), ("dk", &dk), ("x", &x)];
    Exercise {
        prompt: fill(t(lang, prompt), &values),
        answer: answer as f64,
        answer_text: x.clone(),
        tolerance: 0.0,
        solution: fill(t(lang, solution), &values),
        redraws,
    }
}

/// A worked example on the 3-key cut of `s`'s numbers (`None` with fewer than three keys, or
/// for a task that counts).
fn worked(s: &Shown, task: Task, seed: u64, lang: Lang) -> Option<Exercise> {
    let (q, k, v, names) = example(s, seed)?;
    let w = q.ncols();
    let scale = (w as f32).sqrt();
    let trace = head(q.view(), k.view(), v.view(), &Array2::from_elem((1, 3), false), scale, 1.0).ok()?;
    let tr = |m: P| t(lang, m);
    let row = |m: &Array2<f32>, r: usize| m.row(r).to_vec();
    let (w_text, sq) = (w.to_string(), show(scale));
    // (prompt, the core's number, its tolerance, the worked solution)
    let (prompt, answer, tolerance, solution) = match task {
        Task::Size | Task::Cost => return None,
        Task::Dot | Task::Scaled => {
            let (dot, x) = (trace.scores[(0, 0)], trace.scaled_scores[(0, 0)]);
            let terms: Vec<String> = (0..w).map(|c| format!("{}·{}", q[(0, c)] + 0.0, k[(0, c)] + 0.0)).collect();
            let pairs = [
                ("q", inputs(&row(&q, 0))),
                ("k", inputs(&row(&k, 0))),
                ("dk", w_text.clone()),
                ("key", names[0].clone()),
            ];
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            if task == Task::Dot {
                let solution = fill(tr(P::ExDotSolution), &[("terms", &terms.join(" + ")), ("dot", &show(dot))]);
                return Some(Exercise {
                    prompt: fill(tr(P::ExDot), &pairs),
                    answer: f64::from(dot),
                    answer_text: show(dot),
                    tolerance: 0.01,
                    solution,
                    redraws: true,
                });
            }
            let prompt = fill(tr(P::ExScaled), &pairs);
            let solution = fill(
                tr(P::ExScaledSolution),
                &[("terms", &terms.join(" + ")), ("dot", &show(dot)), ("sq", &sq), ("x", &show(x))],
            );
            (prompt, x, 0.01, solution)
        }
        Task::Weight => {
            let logits = row(&trace.scaled_scores, 0);
            let exps: Vec<f32> = logits.iter().map(|l| l.exp()).collect();
            let (sum, x) = (exps.iter().sum::<f32>(), trace.weights[(0, 0)]);
            let prompt = fill(tr(P::ExWeight), &[("s", &vector(&logits)), ("key", &names[0]), ("w", &w_text)]);
            let solution = fill(
                tr(P::ExWeightSolution),
                &[("e", &vector(&exps)), ("sum", &show(sum)), ("e1", &show(exps[0])), ("x", &show(x))],
            );
            (prompt, x, 0.01, solution)
        }
        Task::Mix => {
            let (a, x) = (row(&trace.weights, 0), trace.output[(0, 0)]);
            let col: Vec<f32> = v.column(0).to_vec();
            let terms: Vec<String> = (0..3).map(|j| format!("{}·{}", show(a[j]), col[j] + 0.0)).collect();
            let prompt = fill(tr(P::ExMix), &[("a", &vector(&a)), ("v", &inputs(&col))]);
            let solution = fill(tr(P::ExMixSolution), &[("terms", &terms.join(" + ")), ("x", &show(x))]);
            (prompt, x, 0.02, solution)
        }
    };
    Some(Exercise { prompt, answer: f64::from(answer), answer_text: show(answer), tolerance, solution, redraws: true })
}

impl Exercise {
    /// Whether `text` (a decimal; a comma as the decimal mark is accepted) is within the
    /// tolerance; `None` when it is not a number.
    pub fn accepts(&self, text: &str) -> Option<bool> {
        let x = text.trim().replace(',', ".").parse::<f64>().ok().filter(|x| x.is_finite())?;
        Some((x - self.answer).abs() <= self.tolerance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predict::shown::from_outcome;
    use crate::reading::tests::outcome;

    /// Over many draws and every task: the page accepts the core's number, and the number it
    /// accepts is what the core's head computes from the numbers printed in the problem.
    #[test]
    fn the_accepted_answer_is_the_core_s_number_over_many_draws() {
        let o = outcome(Lang::En, |_, _| {});
        for head_index in 0..o.trace().n_heads() {
            let s = from_outcome(&o, o.layer, head_index, head_index + 1).expect("reads the outcome");
            for seed in 0..200 {
                for task in [Task::Dot, Task::Scaled, Task::Weight, Task::Mix] {
                    let e = exercise(&s, task, seed, Lang::Zh).expect("an exercise");
                    assert_eq!(e.accepts(&format!("{}", e.answer)), Some(true));
                    assert_eq!(e.accepts(&format!("{}", e.answer + 3.0 * e.tolerance)), Some(false));
                    assert_eq!(e.answer_text, show(e.answer as f32));
                    let (q, k, v, _) = example(&s, seed).expect("an example");
                    let h =
                        head(q.view(), k.view(), v.view(), &Array2::from_elem((1, 3), false), 2.0, 1.0).expect("runs");
                    let core = match task {
                        // The scores stage asks for the dot product itself, before ÷√d_k.
                        Task::Dot => h.scores[(0, 0)],
                        Task::Scaled => h.scores[(0, 0)] / 2.0,
                        Task::Weight => h.weights[(0, 0)],
                        Task::Mix => h.output[(0, 0)],
                        Task::Size | Task::Cost => continue,
                    };
                    assert!((e.answer - f64::from(core)).abs() < 1e-6, "{task:?} seed {seed}");
                    // The problem prints the numbers it is about, rounded to one decimal.
                    assert!(q.iter().all(|x| (x * 10.0 - (x * 10.0).round()).abs() < 1e-4));
                    assert!(!e.prompt.contains('{') && !e.solution.contains('{'));
                }
            }
        }
    }

    #[test]
    fn before_the_scores_the_exercises_count_what_is_on_screen() {
        let o = outcome(Lang::En, |_, _| {});
        let s = from_outcome(&o, o.layer, 0, 0).expect("reads the outcome");
        let (n, d, dk) = (s.tokens.len(), s.d_model, s.d_k);
        let size = exercise(&s, task(Stage::Input), 1, Lang::En).expect("one");
        assert_eq!((size.answer as usize, size.answer_text.clone(), size.redraws), (n * d, (n * d).to_string(), false));
        assert_eq!(
            (size.accepts(&(n * d).to_string()), size.accepts(&(n * d + 1).to_string())),
            (Some(true), Some(false))
        );
        assert_eq!(exercise(&s, task(Stage::Projection), 1, Lang::Zh).expect("one").answer as usize, n * d * dk);
        assert_eq!(exercise(&s, task(Stage::Projection), 2, Lang::Zh).expect("one").answer as usize, n * d * d);
        // A count stays exact where f32 would not: 128 × 384 × 384 and one more are told apart.
        let big = count(P::ExCostWhole, P::ExCostWholeSolution, 128 * 384 * 384, [128, 384, 32], true, Lang::En);
        assert_eq!(big.accepts(&(128 * 384 * 384 + 1).to_string()), Some(false));
        for e in [size, exercise(&s, Task::Cost, 1, Lang::Zh).expect("one")] {
            assert!(!e.prompt.contains('{') && !e.solution.contains('{'), "{} / {}", e.prompt, e.solution);
        }
    }

    #[test]
    fn a_sentence_of_two_keys_has_no_exercise_and_text_is_refused() {
        let o = outcome(Lang::En, |s, c| assert!(s.set_text("hello world", c).is_ok()));
        let s = from_outcome(&o, o.layer, 0, 0).expect("reads the outcome");
        assert!(exercise(&s, Task::Weight, 1, Lang::En).is_none());
        let o = outcome(Lang::En, |_, _| {});
        let s = from_outcome(&o, o.layer, 0, 0).expect("reads the outcome");
        let e = exercise(&s, Task::Scaled, 1, Lang::En).expect("one");
        assert_eq!(e.accepts("abc"), None);
    }
}
