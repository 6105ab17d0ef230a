//! The tables the README records for shared K/V heads and positions (issue 27), measured on the
//! training core as the training view runs it (one worker's arithmetic, the same seeds):
//! steps to 99 % held-out accuracy for each choice, and what a model trained on 8 digits does
//! with 12. Figures, not checks (a measurement, not a test): run with
//! `cargo run --release --example training_tables`.

use attention_lab::core::rng::SplitMix64;
use attention_lab::core::train::model::{Config, Positions};
use attention_lab::core::train::session::{digits_of, Session, Setup};
use attention_lab::core::train::{accuracy, Task};

/// The most steps a run gets.
const LIMIT: usize = 6000;

/// Steps until the held-out accuracy first reaches 99 % (`None`: not within [`LIMIT`]), and
/// the run.
fn to_99(setup: Setup) -> (Option<usize>, Session) {
    let mut session = Session::new(setup).unwrap_or_else(|e| panic!("{setup:?}: {e:?}"));
    while session.accuracy() < 0.99 && session.steps < LIMIT && session.diverged.is_none() {
        let _ = session.step();
    }
    ((session.accuracy() >= 0.99).then_some(session.steps), session)
}

fn steps(s: Option<usize>) -> String {
    s.map_or(format!("> {LIMIT}"), |s| s.to_string())
}

fn steps_to_99_with_shared_kv_heads() {
    println!("| task | K/V heads (of 4) | seed 1 | seed 2 | seed 3 |");
    println!("|---|---|---|---|---|");
    for task in [Task::Reverse, Task::Induction] {
        let layers = if task == Task::Induction { 2 } else { 1 };
        for kv in [4, 2, 1] {
            let cells: Vec<String> = (1..=3)
                .map(|seed| {
                    let setup =
                        Setup { task, n_heads: 4, kv_heads: Some(kv), n_layers: layers, seed, ..Setup::default() };
                    steps(to_99(setup).0)
                })
                .collect();
            println!("| {} | {kv} | {} |", task.slug(), cells.join(" | "));
        }
    }
}

fn steps_to_99_and_longer_sequences_for_each_kind_of_positions() {
    println!("| task | layers | positions | steps to 99 % (seeds 1, 2, 3) | accuracy on 12 digits (seeds 1, 2, 3) |");
    println!("|---|---|---|---|---|");
    for (task, n_layers) in [(Task::Reverse, 1), (Task::Reverse, 2), (Task::Previous, 1), (Task::Induction, 2)] {
        for positions in Positions::ALL {
            let (mut reached, mut longer) = (vec![], vec![]);
            for seed in 1..=3 {
                let (s, session) = to_99(Setup { task, positions, seed, n_layers, ..Setup::default() });
                reached.push(steps(s));
                longer.push(match positions {
                    // One learned vector per place trained on: a 13th has none.
                    Positions::Learned => "cannot run".to_string(),
                    _ => format!("{:.2}", on_12_digits(&session)),
                });
            }
            let (reached, longer) = (reached.join(", "), longer.join(", "));
            println!("| {} | {n_layers} | {} | {reached} | {longer} |", task.slug(), positions.slug());
        }
    }
}

/// The held-out accuracy of a run trained on 8 digits, on 256 sequences of 12.
fn on_12_digits(session: &Session) -> f64 {
    let task = session.setup.task;
    let digits = digits_of(task).1;
    let longer = Config { context: task.context(12), ..session.config };
    let batch = task.batch(12, digits, 256, &mut SplitMix64::new(77));
    accuracy(&session.params, &longer, &batch)
}

fn main() {
    steps_to_99_with_shared_kv_heads();
    println!();
    steps_to_99_and_longer_sequences_for_each_kind_of_positions();
}
