//! The messages between the page and its training workers, and between the workers, as flat
//! lists of numbers (one `Float64Array` each, whose buffer moves without a copy): the page
//! starts each worker on its shard of a run, commands the leader, and draws the leader's
//! reports; the workers exchange their shares of every round (`replica`). Reading a list that
//! is not one of these gives `None`, never a panic.

use super::ablate::{Scores, Tracking};
use super::model::Positions;
use super::replica::{Command, Job, Share};
use super::session::{Diverged, Kind, Partial, Point, Progress, Setup, Shard};
use super::{Params, Task};
use crate::ablate::Replacement;
use ndarray::Array2;

/// A message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// Page → every worker of a pool: train `shard` of a run of `setup`.
    Start { setup: Setup, shard: Shard, job: Job },
    /// Page → the leading worker.
    Command(Command),
    /// Page → the leading worker: the example whose attention the reports carry.
    Example(Vec<usize>),
    /// Worker → worker: its share of a round.
    Share(Share),
    /// The leading worker → page.
    Report(Report),
    /// Page → a scoring worker: a model to score with sets of heads switched off.
    Score(ScoreJob),
    /// A scoring worker → page: one set's scores.
    Scored(Scored),
}

/// A learner's model scored on its run's held-out set with each set of heads off in turn
/// (`core::train::ablate`), in a worker of its own so the page never waits for it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreJob {
    /// Counts up on the page: a newer job in the same slot replaces this one.
    pub number: usize,
    /// Which of the page's experiments this is (the heads off now, or the sweep): a job waits
    /// only for one of its own slot.
    pub slot: usize,
    pub setup: Setup,
    /// The model's numbers ([`Params::flat`]).
    pub params: Vec<f64>,
    pub replacement: Replacement,
    /// The sets of heads to switch off, (layer, head) from 0, scored in this order.
    pub sets: Vec<Vec<(usize, usize)>>,
    /// Where each head's weights go, sent with the first set's scores.
    pub tracking: bool,
}

/// One set of a [`ScoreJob`] scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub number: usize,
    pub slot: usize,
    /// Which set, and how many the job has.
    pub index: usize,
    pub of: usize,
    pub scores: Scores,
    pub tracking: Option<Tracking>,
}

/// What the leading worker tells the page of its run.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub progress: Progress,
    /// The learner's wish: training (and it still can).
    pub running: bool,
    /// A round is under way or promised.
    pub busy: bool,
    /// How many of the page's commands the leader had read (so the page can tell a report
    /// sent before its latest command from one sent after).
    pub heard: usize,
    /// The model's numbers ([`Params::flat`]), in a report of a run at rest whose model
    /// changed since the last report that had them (what "Open in the lesson" keeps).
    pub params: Option<Vec<f64>>,
    /// The example and every head's attention on it, `[layer][head]` (n × n), when the model
    /// or the example changed since the last report that had them.
    pub attention: Option<(Vec<usize>, Attention)>,
}

/// Every head's attention on one example, `[layer][head]`, each (n, n).
pub type Attention = Vec<Vec<Array2<f64>>>;

const START: f64 = 1.0;
const COMMAND: f64 = 2.0;
const SHARE: f64 = 3.0;
const REPORT: f64 = 4.0;
const EXAMPLE: f64 = 5.0;
const SCORE: f64 = 6.0;
const SCORED: f64 = 7.0;

impl Message {
    /// As a list of numbers.
    pub fn encode(&self) -> Vec<f64> {
        let mut out = Vec::new();
        match self {
            Message::Start { setup, shard, job } => {
                out.push(START);
                put_setup(&mut out, setup);
                out.extend([shard.index as f64, shard.of as f64]);
                out.extend([job.limit.map_or(-1.0, |l| l as f64), flag(job.track_gradient)]);
            }
            Message::Command(c) => {
                out.extend([COMMAND, command_code(*c)]);
            }
            Message::Example(tokens) => {
                out.push(EXAMPLE);
                out.extend(tokens.iter().map(|&t| t as f64));
            }
            Message::Share(s) => {
                out.extend([SHARE, s.round as f64, s.shard as f64, kind_code(Some(s.kind)), kind_code(s.then)]);
                out.push(s.partial.right as f64);
                match &s.partial.step {
                    Some((loss, grads)) => {
                        out.extend([1.0, *loss]);
                        out.extend(grads.flat());
                    }
                    None => out.push(0.0),
                }
            }
            Message::Report(r) => {
                out.extend([REPORT, flag(r.running), flag(r.busy), r.heard as f64]);
                let p = &r.progress;
                put_setup(&mut out, &p.setup);
                out.extend([p.steps as f64, p.accuracy, p.diverged.map_or(-1.0, |d| d.step as f64)]);
                out.push(p.history.len() as f64);
                out.extend(p.history.iter().flat_map(|h| [h.step as f64, h.loss, h.accuracy]));
                out.push(p.gradients.len() as f64);
                out.extend(p.gradients.iter().flat_map(|&(s, g)| [s as f64, g]));
                match &r.params {
                    Some(params) => {
                        out.push(params.len() as f64);
                        out.extend(params);
                    }
                    None => out.push(-1.0),
                }
                match &r.attention {
                    Some((tokens, layers)) => {
                        out.push(tokens.len() as f64);
                        out.extend(tokens.iter().map(|&t| t as f64));
                        let heads = layers.first().map_or(0, Vec::len);
                        let n = layers.first().and_then(|l| l.first()).map_or(0, |a| a.nrows());
                        out.extend([layers.len() as f64, heads as f64, n as f64]);
                        out.extend(layers.iter().flatten().flat_map(|a| a.iter().copied()));
                    }
                    None => out.push(-1.0),
                }
            }
            Message::Score(j) => {
                out.extend([SCORE, j.number as f64, j.slot as f64]);
                put_setup(&mut out, &j.setup);
                out.extend([j.replacement.index() as f64, flag(j.tracking), j.params.len() as f64]);
                out.extend(&j.params);
                out.push(j.sets.len() as f64);
                for set in &j.sets {
                    out.push(set.len() as f64);
                    out.extend(set.iter().flat_map(|&(l, h)| [l as f64, h as f64]));
                }
            }
            Message::Scored(d) => {
                out.extend([SCORED, d.number as f64, d.slot as f64, d.index as f64, d.of as f64]);
                out.extend([d.scores.accuracy, d.scores.loss]);
                match &d.tracking {
                    Some(t) => {
                        let heads = t.previous.first().map_or(0, Vec::len);
                        out.extend([t.previous.len() as f64, heads as f64]);
                        out.extend(t.previous.iter().chain(&t.answer).flatten());
                    }
                    None => out.push(-1.0),
                }
            }
        }
        out
    }

    /// Read `data`; a share's gradient takes the shapes of `model` (the reader's own run).
    pub fn decode(data: &[f64], model: Option<&Params>) -> Option<Message> {
        let mut r = Reader { data, at: 0 };
        let message = match r.next()? {
            START => {
                let setup = r.setup()?;
                let shard = Shard { index: r.count()?, of: r.count()? };
                if shard.of == 0 || shard.index >= shard.of {
                    return None;
                }
                let limit = r.next()?;
                let limit = if limit < 0.0 { None } else { Some(r.counted(limit)?) };
                Message::Start { setup, shard, job: Job { limit, track_gradient: r.flag()? } }
            }
            EXAMPLE => {
                let tokens = r.rest().iter().map(|&v| counted(v)).collect::<Option<_>>()?;
                Message::Example(tokens)
            }
            COMMAND => Message::Command(match r.next()? {
                0.0 => Command::Run,
                1.0 => Command::Pause,
                2.0 => Command::Step,
                _ => return None,
            }),
            SHARE => {
                let (round, shard) = (r.count()? as u64, r.count()?);
                let kind = r.kind()??;
                let then = r.kind()?;
                let right = r.count()?;
                let step = if r.flag()? {
                    let loss = r.next()?;
                    let mut grads = model?.zeros_like();
                    grads.set_flat(r.rest()).then_some(())?;
                    Some((loss, grads))
                } else {
                    None
                };
                Message::Share(Share { round, shard, kind, partial: Partial { right, step }, then })
            }
            REPORT => {
                let (running, busy, heard) = (r.flag()?, r.flag()?, r.count()?);
                let setup = r.setup()?;
                let (steps, accuracy) = (r.count()?, r.next()?);
                let diverged = r.next()?;
                let diverged = if diverged < 0.0 { None } else { Some(Diverged { step: r.counted(diverged)? }) };
                let n = r.count()?;
                let history = (0..n)
                    .map(|_| Some(Point { step: r.count()?, loss: r.next()?, accuracy: r.next()? }))
                    .collect::<Option<_>>()?;
                let n = r.count()?;
                let gradients = (0..n).map(|_| Some((r.count()?, r.next()?))).collect::<Option<_>>()?;
                let n = r.next()?;
                let params = if n < 0.0 { None } else { Some(r.take(r.counted(n)?)?.to_vec()) };
                let tokens = r.next()?;
                let attention = if tokens < 0.0 {
                    None
                } else {
                    let tokens = (0..r.counted(tokens)?).map(|_| r.count()).collect::<Option<Vec<_>>>()?;
                    let (layers, heads, n) = (r.count()?, r.count()?, r.count()?);
                    let square =
                        |r: &mut Reader| Array2::from_shape_vec((n, n), r.take(n.checked_mul(n)?)?.to_vec()).ok();
                    let layer = |r: &mut Reader| (0..heads).map(|_| square(r)).collect::<Option<Vec<_>>>();
                    Some((tokens, (0..layers).map(|_| layer(&mut r)).collect::<Option<Vec<_>>>()?))
                };
                let progress = Progress { setup, steps, accuracy, history, diverged, gradients };
                Message::Report(Report { progress, running, busy, heard, params, attention })
            }
            SCORE => {
                let (number, slot, setup) = (r.count()?, r.count()?, r.setup()?);
                let replacement = *Replacement::ALL.get(r.count()?)?;
                let tracking = r.flag()?;
                let n = r.count()?;
                let params = r.take(n)?.to_vec();
                let sets = (0..r.count()?)
                    .map(|_| {
                        let n = r.count()?;
                        (0..n).map(|_| Some((r.count()?, r.count()?))).collect::<Option<Vec<_>>>()
                    })
                    .collect::<Option<Vec<_>>>()?;
                Message::Score(ScoreJob { number, slot, setup, params, replacement, sets, tracking })
            }
            SCORED => {
                let (number, slot, index, of) = (r.count()?, r.count()?, r.count()?, r.count()?);
                let scores = Scores { accuracy: r.next()?, loss: r.next()? };
                let layers = r.next()?;
                let tracking = if layers < 0.0 {
                    None
                } else {
                    let (layers, heads) = (r.counted(layers)?, r.count()?);
                    let mut grid =
                        || (0..layers).map(|_| r.take(heads).map(<[f64]>::to_vec)).collect::<Option<Vec<_>>>();
                    let previous = grid()?;
                    Some(Tracking { previous, answer: grid()? })
                };
                Message::Scored(Scored { number, slot, index, of, scores, tracking })
            }
            _ => return None,
        };
        r.finished().then_some(message)
    }
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

fn command_code(c: Command) -> f64 {
    match c {
        Command::Run => 0.0,
        Command::Pause => 1.0,
        Command::Step => 2.0,
    }
}

fn kind_code(k: Option<Kind>) -> f64 {
    match k {
        None => -1.0,
        Some(Kind::Step) => 0.0,
        Some(Kind::Settle) => 1.0,
    }
}

fn put_setup(out: &mut Vec<f64>, s: &Setup) {
    out.extend([s.task.index() as f64, s.d_model as f64, s.n_heads as f64, s.n_layers as f64, s.learning_rate]);
    out.extend([s.batch as f64, (s.seed >> 32) as f64, (s.seed & 0xFFFF_FFFF) as f64, flag(s.scaled), flag(s.mlp)]);
    out.extend([s.kv_heads.map_or(-1.0, |k| k as f64), s.positions.index() as f64]);
}

/// A whole number from 0 to 2³².
fn counted(v: f64) -> Option<usize> {
    (v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= 4_294_967_296.0).then_some(v as usize)
}

/// Reads numbers off a list, each checked for what it must be.
struct Reader<'a> {
    data: &'a [f64],
    at: usize,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Option<f64> {
        let v = *self.data.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn take(&mut self, n: usize) -> Option<&'a [f64]> {
        let slice = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn rest(&mut self) -> &'a [f64] {
        let rest = self.data.get(self.at..).unwrap_or_default();
        self.at = self.data.len();
        rest
    }

    fn finished(&self) -> bool {
        self.at == self.data.len()
    }

    fn counted(&self, v: f64) -> Option<usize> {
        counted(v)
    }

    fn count(&mut self) -> Option<usize> {
        let v = self.next()?;
        self.counted(v)
    }

    fn flag(&mut self) -> Option<bool> {
        match self.next()? {
            0.0 => Some(false),
            1.0 => Some(true),
            _ => None,
        }
    }

    /// A kind, or none (−1).
    fn kind(&mut self) -> Option<Option<Kind>> {
        match self.next()? {
            -1.0 => Some(None),
            0.0 => Some(Some(Kind::Step)),
            1.0 => Some(Some(Kind::Settle)),
            _ => None,
        }
    }

    fn setup(&mut self) -> Option<Setup> {
        let task = *Task::ALL.get(self.count()?)?;
        let (d_model, n_heads, n_layers, learning_rate) = (self.count()?, self.count()?, self.count()?, self.next()?);
        let (batch, hi, lo) = (self.count()?, self.count()? as u64, self.count()? as u64);
        let (scaled, mlp) = (self.flag()?, self.flag()?);
        let kv = self.next()?;
        let kv_heads = if kv < 0.0 { None } else { Some(self.counted(kv)?) };
        let positions = *Positions::ALL.get(self.count()?)?;
        let seed = (hi << 32) | lo;
        Some(Setup { task, d_model, n_heads, n_layers, learning_rate, batch, seed, scaled, mlp, kv_heads, positions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::session::Session;

    #[test]
    fn every_message_reads_back_as_written() {
        let setup = Setup { seed: u64::MAX - 5, mlp: true, n_layers: 2, ..Setup::default() };
        let grouped = Setup { n_heads: 4, kv_heads: Some(2), positions: Positions::Rotary, ..setup };
        let mut session = Session::new(setup).unwrap();
        for _ in 0..11 {
            session.step().unwrap();
        }
        let partial = session.partial(Shard { index: 1, of: 3 }, Kind::Step);
        let messages = [
            Message::Start { setup, shard: Shard { index: 2, of: 3 }, job: Job::EXPERIMENT },
            Message::Start { setup, shard: Shard::WHOLE, job: Job::default() },
            Message::Start { setup: grouped, shard: Shard::WHOLE, job: Job::default() },
            Message::Command(Command::Run),
            Message::Command(Command::Pause),
            Message::Command(Command::Step),
            Message::Share(Share { round: 7, shard: 1, kind: Kind::Step, partial, then: Some(Kind::Settle) }),
            Message::Share(Share {
                round: 8,
                shard: 0,
                kind: Kind::Settle,
                partial: Partial { right: 3, step: None },
                then: None,
            }),
            Message::Report(Report {
                progress: Progress { gradients: vec![(0, 0.25), (10, 0.5)], ..Progress::of(&session) },
                running: true,
                busy: false,
                heard: 3,
                params: Some(session.params.flat()),
                attention: Some((session.example(), session.weights(&session.example()))),
            }),
            Message::Report(Report {
                progress: Progress::of(&session),
                running: false,
                busy: true,
                heard: 0,
                params: None,
                attention: None,
            }),
            Message::Example(vec![3, 1, 4, 1, 5]),
            Message::Example(vec![]),
            Message::Score(ScoreJob {
                number: 9,
                slot: 1,
                setup,
                params: session.params.flat(),
                replacement: Replacement::Mean,
                sets: vec![vec![], vec![(0, 1)], vec![(0, 0), (1, 1)]],
                tracking: true,
            }),
            Message::Scored(Scored {
                number: 9,
                slot: 1,
                index: 2,
                of: 3,
                scores: Scores { accuracy: 0.5, loss: 1.25 },
                tracking: Some(Tracking { previous: vec![vec![0.9, 0.1]; 2], answer: vec![vec![0.2, 0.7]; 2] }),
            }),
            Message::Scored(Scored {
                number: 1,
                slot: 0,
                index: 0,
                of: 1,
                scores: Scores { accuracy: 1.0, loss: 0.0 },
                tracking: None,
            }),
        ];
        for m in messages {
            assert_eq!(Message::decode(&m.encode(), Some(&session.params)), Some(m));
        }
    }

    #[test]
    fn a_list_that_is_not_a_message_reads_as_none() {
        let setup = Setup::default();
        let start = Message::Start { setup, shard: Shard::WHOLE, job: Job::default() }.encode();
        let cut = &start[..start.len() - 1];
        let mut longer = start.clone();
        longer.push(0.0);
        let mut bad_shard = start.clone();
        bad_shard[13] = 1.0; // shard 1 of 1
        for data in
            [&[][..], &[9.0], cut, &longer, &bad_shard, &[COMMAND, 7.0], &[SHARE, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.5]]
        {
            assert_eq!(Message::decode(data, None), None, "{data:?}");
        }
    }
}
