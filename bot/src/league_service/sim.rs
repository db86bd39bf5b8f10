//! `spellstack league-sim`: a whole league played by random agents through the service
//! (create, join with sealed pools and automatic builds, play every match, standings), used
//! by the CLI and by the end-to-end test.

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
        }
    }
}

#[derive(Debug, Clone)]
pub struct SimReport {
    pub league_id: Id,
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
    let setup = LeagueSetup {
        name: format!("Simulated league {}", o.tag),
        product: o.product.clone(),
        best_of: Some(o.best_of),
        matches_per_run: o.matches_per_run,
        schedule: Some(o.schedule.clone()),
        ..Default::default()
    };
    let created = svc.league_create(players[0], &setup, 0, None).await?;
    let league = created.league_id;
    let mut log = vec![created.text];
    let ready = ["red", "green", "white", "blue", "black"];
    for (i, p) in players.iter().enumerate() {
        let deck = crate::service::DeckChoice::Ready(ready[i % ready.len()].into());
        let r = svc.league_join(league, *p, Some(&deck)).await?;
        log.push(r.text.lines().next().unwrap_or_default().to_string());
    }
    let mut guard = 0;
    loop {
        guard += 1;
        let before = svc.db.league_matches(league).await?.len();
        for p in &players {
            match svc.league_play(league, *p, None).await {
                Ok(r) => {
                    if !r.text.is_empty() {
                        log.push(r.text);
                    }
                }
                Err(ServiceError::Refused(_)) => {}
                Err(e) => return Err(e),
            }
        }
        let after = svc.db.league_matches(league).await?;
        let active = after.iter().any(|m| m.status == "active");
        if (after.len() == before && !active) || guard > 200 {
            break;
        }
    }
    let matches = svc.db.league_matches(league).await?;
    let games = svc.db.league_games_of(league).await?.len();
    let standings = svc.league_standings(league).await?;
    Ok(SimReport {
        league_id: league,
        players,
        matches: matches.len(),
        games,
        standings,
        log,
    })
}
