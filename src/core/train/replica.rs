//! A run trained by a pool of replicas, one per worker, each computing its share of every batch
//! and of the held-out set (`session::Shard`). A round is a step (or only a waiting held-out
//! measurement): every replica sends its share to every other, and each, once it holds all of
//! them, sums them in shard order and takes the same Adam step, so the replicas stay equal.
//!
//! The first replica leads: the learner's commands (run, pause, one step) go to it alone, and
//! each share it sends says what the round after it will be (`Share::then`), so every replica
//! does the same rounds in the same order without a message more. Pure: the worker moves the
//! messages (`trainer::worker`); the tests move them in any order.

use super::session::{Diverged, Experiment, Kind, Partial, Progress, Session, Shard};
use super::Params;
use std::collections::BTreeMap;

/// What the learner asks of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Run,
    Pause,
    /// One step (when paused).
    Step,
}

/// What a run is for: the training view's run goes on while the learner lets it; a run of the
/// scaling experiment stops after `limit` steps and records its softmax gradient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Job {
    pub limit: Option<usize>,
    pub track_gradient: bool,
}

impl Job {
    /// A run of the scaling experiment.
    pub const EXPERIMENT: Job = Job { limit: Some(Experiment::STEPS), track_gradient: true };
}

/// One replica's share of a round, as the others receive it.
#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    pub round: u64,
    /// The sender's shard index.
    pub shard: usize,
    pub kind: Kind,
    pub partial: Partial,
    /// The leader's: what the round after this one is (`None`: none until it says).
    pub then: Option<Kind>,
}

/// A finished round: a step's loss (or the step the loss stopped being a number at), `None`
/// for a round that only measured.
pub type Finished = Option<Result<f64, Diverged>>;

/// One replica of a run.
pub struct Replica {
    session: Session,
    shard: Shard,
    job: Job,
    /// The round under way, or the next one.
    round: u64,
    /// Shares received, by round, in shard order.
    inbox: BTreeMap<u64, Vec<Option<Share>>>,
    /// What the round is, once known.
    next: Option<Kind>,
    /// This replica's share of the round is sent; it waits for the others'.
    sent: bool,
    /// The leader's: the learner wants it to train.
    running: bool,
    /// The leader's record of the softmax gradient, when the job tracks it.
    gradients: Vec<(usize, f64)>,
}

impl Replica {
    /// `shard` of a run that starts from `session`.
    pub fn new(session: Session, shard: Shard, job: Job) -> Self {
        let leads = shard.index == 0;
        let gradients = if leads && job.track_gradient { vec![(0, session.softmax_gradient())] } else { vec![] };
        Self {
            session,
            shard,
            job,
            round: 0,
            inbox: BTreeMap::new(),
            next: None,
            sent: false,
            running: false,
            gradients,
        }
    }

    /// The first replica leads.
    pub fn leads(&self) -> bool {
        self.shard.index == 0
    }

    /// Follow a learner's command (the leader's alone).
    pub fn command(&mut self, command: Command) {
        if !self.leads() {
            return;
        }
        match command {
            Command::Run => self.running = true,
            Command::Pause => self.running = false,
            Command::Step => {}
        }
        let idle = self.next.is_none() && !self.sent;
        if idle && command != Command::Pause && self.may_step() {
            self.next = Some(Kind::Step);
        }
    }

    /// Keep another replica's share (of this run's rounds to come).
    pub fn receive(&mut self, share: Share) {
        if share.round < self.round || share.shard >= self.shard.of {
            return;
        }
        let (of, round, slot) = (self.shard.of, share.round, share.shard);
        self.inbox.entry(round).or_insert_with(|| vec![None; of])[slot] = Some(share);
    }

    /// Compute this replica's share of the round, if what the round is is known and the share
    /// is not sent yet: the share to send to every other replica.
    pub fn work(&mut self) -> Option<Share> {
        if self.sent {
            return None;
        }
        let from_leader = || self.inbox.get(&self.round).and_then(|s| s[0].as_ref()).map(|s| s.kind);
        let kind = self.next.or_else(from_leader)?;
        let then = self.leads().then(|| self.plan_after(kind)).flatten();
        let partial = self.session.partial(self.shard, kind);
        let share = Share { round: self.round, shard: self.shard.index, kind, partial, then };
        self.receive(share.clone());
        self.sent = true;
        Some(share)
    }

    /// The leader's plan for the round after one of `kind`, made as it sends its share: a step
    /// while the learner lets it train; else, after a step, a measurement (the one a measuring
    /// step leaves waiting, or of the model the run comes to rest with, so the accuracy shown
    /// at rest is that model's); else nothing until the next command.
    fn plan_after(&self, kind: Kind) -> Option<Kind> {
        let steps = self.session.steps + usize::from(kind == Kind::Step);
        let may_step = self.job.limit.is_none_or(|limit| steps < limit);
        if self.running && may_step {
            Some(Kind::Step)
        } else if kind == Kind::Step {
            Some(Kind::Settle)
        } else {
            None
        }
    }

    /// Whether another step may be taken (the loss is a number, the job's steps not all taken).
    fn may_step(&self) -> bool {
        self.session.diverged.is_none() && self.job.limit.is_none_or(|limit| self.session.steps < limit)
    }

    /// Finish the round once every share is in.
    pub fn complete(&mut self) -> Option<Finished> {
        if !self.sent || self.inbox.get(&self.round)?.iter().any(Option::is_none) {
            return None;
        }
        let shares: Vec<Share> = self.inbox.remove(&self.round)?.into_iter().flatten().collect();
        let then = shares[0].then;
        let partials: Vec<Partial> = shares.into_iter().map(|s| s.partial).collect();
        let finished = self.session.apply(&partials);
        if self.leads() && self.job.track_gradient && matches!(finished, Some(Ok(_))) {
            let steps = self.session.steps;
            if Experiment::records_gradient(steps) {
                self.gradients.push((steps, self.session.softmax_gradient()));
            }
        }
        self.round += 1;
        self.sent = false;
        self.next = then.filter(|&k| k == Kind::Settle || self.may_step());
        // Every replica hears the same plan, so all leave the same measurement waiting.
        if self.next == Some(Kind::Settle) {
            self.session.measure_at_rest();
        }
        // A run asked for after the leader's share had said "nothing": the leader's next share
        // tells the others.
        if self.next.is_none() && self.leads() && self.running && self.may_step() {
            self.next = Some(Kind::Step);
        }
        Some(finished)
    }

    /// Whether it has a round to do or under way.
    pub fn busy(&self) -> bool {
        self.sent || self.next.is_some()
    }

    /// The leader's: whether the learner wants it to train (and it still can).
    pub fn running(&self) -> bool {
        self.running && self.may_step()
    }

    /// The run as the page shows it.
    pub fn progress(&self) -> Progress {
        Progress { gradients: self.gradients.clone(), ..Progress::of(&self.session) }
    }

    /// Every head's attention on `tokens` with the model as it is now, `[layer][head]`; none
    /// for tokens the model cannot read (an id outside its vocabulary, more than its context).
    pub fn attention(&self, tokens: &[usize]) -> Vec<Vec<ndarray::Array2<f64>>> {
        let config = &self.session.config;
        let readable = !tokens.is_empty() && tokens.len() <= config.context && tokens.iter().all(|&t| t < config.vocab);
        if readable {
            self.session.weights(tokens)
        } else {
            vec![]
        }
    }

    /// The model as it is now.
    pub fn params(&self) -> &Params {
        &self.session.params
    }

    /// Its shard.
    pub fn shard(&self) -> Shard {
        self.shard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::train::session::Setup;

    /// `of` replicas with their messages in flight, delivered in a random order.
    struct Pool {
        replicas: Vec<Replica>,
        in_flight: Vec<(usize, Share)>,
        rng: SplitMix64,
    }

    impl Pool {
        fn new(setup: Setup, of: usize, job: Job, seed: u64) -> Self {
            let replicas =
                (0..of).map(|index| Replica::new(Session::new(setup).unwrap(), Shard { index, of }, job)).collect();
            Self { replicas, in_flight: vec![], rng: SplitMix64::new(seed) }
        }

        /// Do one thing: a replica works or completes, or one message arrives. `false` when
        /// nothing is left to do.
        fn tick(&mut self) -> bool {
            let of = self.replicas.len();
            let mut choices: Vec<usize> = (0..of).collect();
            if !self.in_flight.is_empty() {
                choices.push(of);
            }
            let pick = choices[(self.rng.next_u64() % choices.len() as u64) as usize];
            if pick == of {
                let k = (self.rng.next_u64() % self.in_flight.len() as u64) as usize;
                let (to, share) = self.in_flight.swap_remove(k);
                self.replicas[to].receive(share);
                return true;
            }
            let r = &mut self.replicas[pick];
            if let Some(share) = r.work() {
                for to in (0..of).filter(|&to| to != pick) {
                    self.in_flight.push((to, share.clone()));
                }
            }
            r.complete();
            true
        }

        fn settled(&self) -> bool {
            self.in_flight.is_empty() && self.replicas.iter().all(|r| !r.busy())
        }

        fn run_until(&mut self, done: impl Fn(&Pool) -> bool) {
            for _ in 0..1_000_000 {
                if done(self) {
                    return;
                }
                self.tick();
            }
            panic!("the pool never got there");
        }
    }

    #[test]
    fn a_pool_trains_as_one_run_whatever_order_its_messages_arrive_in() {
        let setup = Setup { batch: 9, ..Setup::default() };
        let mut alone = Session::new(setup).unwrap();
        for _ in 0..23 {
            alone.step().unwrap();
        }
        // At rest, the accuracy is of the model at step 23, between two measuring points.
        alone.measure_now();
        for (of, seed) in [(1, 1), (2, 2), (3, 3), (4, 4)] {
            let mut pool = Pool::new(setup, of, Job::default(), seed);
            pool.replicas[0].command(Command::Run);
            pool.run_until(|p| p.replicas[0].progress().steps >= 20);
            pool.replicas[0].command(Command::Pause);
            pool.run_until(Pool::settled);
            // Pausing lets the step already promised finish, and its measurement.
            let steps = pool.replicas[0].progress().steps;
            assert!((20..=22).contains(&steps), "{of} workers paused at step {steps}");
            while pool.replicas[0].progress().steps < 23 {
                pool.replicas[0].command(Command::Step);
                pool.run_until(Pool::settled);
            }
            let mut reference = Session::new(setup).unwrap();
            for _ in 0..23 {
                reference.step().unwrap();
            }
            for r in &pool.replicas {
                let (got, want) = (r.progress(), Progress::of(&alone));
                assert_eq!(
                    (got.steps, got.accuracy, got.history.len()),
                    (want.steps, want.accuracy, want.history.len())
                );
                let worst =
                    r.params().flat().iter().zip(alone.params.flat()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
                assert!(worst < 1e-9, "{of} workers: weights differ by {worst}");
            }
            assert!(!pool.replicas[0].running());
        }
    }

    #[test]
    fn a_run_at_rest_shows_the_accuracy_of_the_model_it_rests_with() {
        let setup = Setup { batch: 9, ..Setup::default() };
        let mut pool = Pool::new(setup, 2, Job::default(), 11);
        for _ in 0..3 {
            pool.replicas[0].command(Command::Step);
            pool.run_until(Pool::settled);
        }
        for r in &pool.replicas {
            let p = r.progress();
            let own = super::super::accuracy(r.params(), &r.session.config, r.session.held_out());
            assert_eq!((p.steps, r.session.measured(), p.accuracy), (3, 3, own), "step 3 is not a measuring point");
            assert_eq!(p.history.len(), 3, "a point per step, no more");
        }
    }

    #[test]
    fn one_step_at_a_time_measures_where_a_run_would() {
        let mut pool = Pool::new(Setup::default(), 2, Job::default(), 5);
        pool.replicas[0].command(Command::Step);
        pool.run_until(Pool::settled);
        let p = pool.replicas[0].progress();
        assert_eq!((p.steps, p.history.len()), (1, 1), "the first step's point, with its accuracy");
    }

    #[test]
    fn an_experiment_run_stops_at_its_limit_and_records_the_softmax_gradient() {
        let setup = Experiment::setups(Setup { batch: 4, ..Setup::default() })[1];
        let mut pool = Pool::new(setup, 2, Job { limit: Some(30), track_gradient: true }, 7);
        pool.replicas[0].command(Command::Run);
        pool.run_until(Pool::settled);
        let p = pool.replicas[0].progress();
        assert_eq!(p.steps, 30);
        assert_eq!(p.history.last().map(|h| h.step), Some(30), "the last step measured");
        assert_eq!(p.gradients.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 10, 20, 30]);
        assert!(!pool.replicas[0].running());
    }
}
