//! `spellstack db-bench`: the cost of one answer round trip (load the game row and parse
//! the snapshot, apply one answer, serialise and commit with the log row) on the configured
//! database. Prints p50 / p99 / max.

use crate::decks;
use crate::replay;
use crate::service::{DeckChoice, Service, agent_answer};
use crate::storage::{Commit, NewAction};
use std::time::Instant;

#[derive(Debug, Clone)]
pub struct BenchReport {
    pub backend: &'static str,
    pub answers: usize,
    pub games: usize,
    pub p50_us: u128,
    pub p99_us: u128,
    pub max_us: u128,
    pub mean_snapshot_bytes: usize,
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{{\"backend\":\"{}\",\"answers\":{},\"games\":{},\"p50_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\"mean_snapshot_bytes\":{}}}",
            self.backend,
            self.answers,
            self.games,
            self.p50_us as f64 / 1000.0,
            self.p99_us as f64 / 1000.0,
            self.max_us as f64 / 1000.0,
            self.mean_snapshot_bytes
        )
    }
}

pub async fn run(svc: &Service, answers: usize) -> anyhow::Result<BenchReport> {
    let a = svc.user("bench:alice", "Alice").await?;
    let b = svc.user("bench:bob", "Bob").await?;
    let mut times = Vec::with_capacity(answers);
    let mut games = 0;
    let mut bytes = 0usize;
    let mut game_id = None;
    let deck_a = DeckChoice::Ready(decks::READY[0].key.into());
    let deck_b = DeckChoice::Ready(decks::READY[1].key.into());
    while times.len() < answers {
        let id = match game_id {
            Some(id) => id,
            None => {
                let plan = svc
                    .challenge(a, &deck_a, &[b], None, Default::default())
                    .await?;
                svc.accept(b, plan.game_id, &deck_b).await?;
                games += 1;
                game_id = Some(plan.game_id);
                plan.game_id
            }
        };
        let t0 = Instant::now();
        let loaded = svc.load(id).await?;
        let Some(p) = loaded.game.pending().map(|p| p.player) else {
            game_id = None;
            continue;
        };
        let mut game = loaded.game.clone();
        let answer = agent_answer(&game, p, loaded.row.version as u64);
        game.submit(p, answer.clone())?;
        let snapshot = game.to_json()?;
        bytes += snapshot.len();
        let status = if game.result.is_some() {
            "finished"
        } else {
            "active"
        };
        let commit = Commit {
            game_id: id,
            expected_version: loaded.row.version,
            actions: vec![NewAction {
                seat: Some(i64::from(p.0)),
                kind: "answer".into(),
                answer: Some(serde_json::to_string(&answer)?),
                state_hash: replay::hash_i64(&game),
            }],
            snapshot,
            status: status.into(),
            deadline: None,
            timeouts: Vec::new(),
            now: svc.now(),
        };
        svc.db.commit(&commit).await?;
        times.push(t0.elapsed().as_micros());
        if game.result.is_some() {
            game_id = None;
        }
    }
    times.sort_unstable();
    let pct = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    Ok(BenchReport {
        backend: svc.db.backend(),
        answers,
        games,
        p50_us: pct(0.50),
        p99_us: pct(0.99),
        max_us: *times.last().unwrap_or(&0),
        mean_snapshot_bytes: bytes / answers.max(1),
    })
}
