//! `spellstack league-sim`: a whole league played by random agents through the service
//! (create, join with sealed pools and automatic builds, play every match, standings), used
//! by the CLI and by the end-to-end test.
//!
//! The agents answer every play/draw question (MTR 2.2) at random from the league's seed,
//! the match and the game (`choice::agent_draws`, answered as the question is asked), so
//! the same seed plays the same league again.

use super::view::StandingsView;
use crate::league::definition::LeagueSetup;
use crate::service::{Result, Service, ServiceError};
use crate::storage::Id;

#[derive(Debug, Clone)]
pub struct SimOptions {
    pub players: usize,
    /// `6 TSP`, or None for constructed with the ready-made decks.
    pub product: Option<String>,
    /// `swiss` (default), `swiss N`, `queue`, `round robin`.
    pub schedule: String,
    pub best_of: u32,
    pub matches_per_run: Option<u32>,
    /// Makes the agents' names (external ids) unique in a shared database.
    pub tag: String,
    /// The league's seed: None takes `LEAGUE_SIM_SEED` from the environment, else a random
    /// one. The seed used is in the report (and its first log line): the same seed on a fresh
    /// database plays the same league again.
    pub seed: Option<u64>,
}

/// The seed of a simulated league: `o.seed`, else `LEAGUE_SIM_SEED`, else a random one.
pub fn sim_seed(o: &SimOptions) -> u64 {
    use rand::RngExt;
    o.seed
        .or_else(|| {
            std::env::var("LEAGUE_SIM_SEED")
                .ok()
                .and_then(|s| s.trim().parse().ok())
        })
        .unwrap_or_else(|| rand::rng().random())
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            players: 8,
            product: Some("6 TSP".into()),
            schedule: "swiss".into(),
            best_of: 3,
            matches_per_run: None,
            tag: "sim".into(),
            seed: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SimReport {
    pub league_id: Id,
    /// The league's seed (`LEAGUE_SIM_SEED=...` plays it again on a fresh database).
    pub seed: u64,
    pub players: Vec<Id>,
    pub matches: usize,
    pub games: usize,
    pub standings: StandingsView,
    /// Every league message, in order.
    pub log: Vec<String>,
}

/// Plays a whole league: everyone asks to play in turn until a full pass starts nothing.
pub async fn simulate(svc: &Service, o: &SimOptions) -> Result<SimReport> {
    if !(2..=64).contains(&o.players) {
        return Err(ServiceError::Refused("2 to 64 players".into()));
    }
    let mut players = Vec::new();
    for i in 1..=o.players {
        players.push(
            svc.user(
                &format!("agent:league-{}-{i}", o.tag),
                &format!("Agent {i}"),
            )
            .await?,
        );
    }
    let seed = sim_seed(o);
    let setup = LeagueSetup {
        seed: Some(seed),
        name: format!("Simulated league {}", o.tag),
        product: o.product.clone(),
        best_of: Some(o.best_of),
        matches_per_run: o.matches_per_run,
        schedule: Some(o.schedule.clone()),
        ..Default::default()
    };
    let created = svc.league_create(players[0], &setup, 0, None).await?;
    let league = created.league_id;
    let mut log = vec![
        format!("league seed {seed} (LEAGUE_SIM_SEED={seed})"),
        created.text,
    ];
    let ready = ["red", "green", "white", "blue", "black"];
    for (i, p) in players.iter().enumerate() {
        let deck = crate::service::DeckChoice::Ready(ready[i % ready.len()].into());
        let r = svc.league_join(league, *p, Some(&deck)).await?;
        log.push(r.text.lines().next().unwrap_or_default().to_string());
    }
    // Each pass lets every player ask to play; a pass that records nothing new (no match
    // created, no game played) ends the league if no match is active, and is a bug if one
    // is: that match can never finish, and the report says why.
    let mut progress = (0, 0);
    loop {
        let mut refusals = Vec::new();
        for p in &players {
            match svc.league_play(league, *p, None).await {
                Ok(r) => {
                    if !r.text.is_empty() {
                        log.push(r.text);
                    }
                }
                Err(ServiceError::Refused(why)) => refusals.push((*p, why)),
                Err(e) => return Err(e),
            }
        }
        let after = svc.db.league_matches(league).await?;
        let now = (after.len(), svc.db.league_games_of(league).await?.len());
        let active = after.iter().any(|m| m.status == "active");
        if now != progress {
            progress = now;
            continue;
        }
        if !active {
            break;
        }
        return Err(ServiceError::Refused(format!(
            "league seed {seed}: {}",
            stuck_report(svc, &after, &refusals).await
        )));
    }
    let matches = svc.db.league_matches(league).await?;
    let games = svc.db.league_games_of(league).await?.len();
    let standings = svc.league_standings(league).await?;
    Ok(SimReport {
        league_id: league,
        seed,
        players,
        matches: matches.len(),
        games,
        standings,
        log,
    })
}

/// Why the active matches of a league that stopped making progress cannot go on: each one's
/// game, the decision it waits for, and what the engine says to the agent's answer; the
/// players' refusals of the last pass.
async fn stuck_report(
    svc: &Service,
    matches: &[crate::storage::MatchRow],
    refusals: &[(Id, String)],
) -> String {
    let mut out = vec!["the league stopped making progress with matches still active:".to_string()];
    for m in matches.iter().filter(|m| m.status == "active") {
        let Some(g) = m.game_id else {
            out.push(format!("match {} has no game running", m.id));
            continue;
        };
        let loaded = match svc.load(g).await {
            Ok(l) => l,
            Err(e) => {
                out.push(format!("match {}: game {g} cannot be loaded: {e}", m.id));
                continue;
            }
        };
        let game = &loaded.game;
        let Some(pending) = game.pending() else {
            out.push(format!(
                "match {}: game {g} (result {:?}) waits for nobody",
                m.id, game.result
            ));
            continue;
        };
        let p = pending.player;
        let answer = crate::service::agent_answer(game, p, (loaded.row.version as u64) << 20);
        let outcome = match game.clone().submit(p, answer.clone()) {
            Ok(_) => "accepted (the automatic loop stopped early)".to_string(),
            Err(e) => format!("refused: {e}"),
        };
        let refused_legal: Vec<String> = game
            .legal_answers(p)
            .into_iter()
            .filter_map(|a| {
                let e = game.clone().submit(p, a.clone()).err()?;
                Some(format!("{a:?}: {e}"))
            })
            .collect();
        out.push(format!(
            "match {}: game {g} version {} turn {} {:?}: {} must {} ({:?}); the agent's answer {answer:?} is {outcome}; listed answers the engine refuses: {refused_legal:?}",
            m.id,
            loaded.row.version,
            game.turn,
            game.step,
            game.player(p).name,
            pending.decision.describe(),
            pending.decision,
        ));
    }
    for (u, why) in refusals {
        out.push(format!("player {u} was refused: {why}"));
    }
    out.join("\n")
}
