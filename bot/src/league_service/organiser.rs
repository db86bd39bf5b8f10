//! Organiser commands: nullify a match, award a forfeit, fix a result. Only the league's
//! creator and members with the server's Manage Server permission (`is_admin`, told by the
//! front end) may use them; each is recorded with who did it and why (`league_actions`).
//! Ratings follow the games the engine played: a forfeit or a fixed result leaves them as
//! they are, and a nullified match's games stop counting, so the format's ratings are
//! computed again from every recorded game that still counts ([`Service::recompute_ratings`]).

use super::{LeagueCtx, LeagueReply, refused};
use crate::league::definition::LeagueDef;
use crate::league::ratings::{self, Outcome, RatedGame};
use crate::service::{Result, Service, ServiceError};
use crate::storage::{Id, MatchRow, RatingRow};

/// What an organiser does to a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrganiserAction {
    /// The match no longer counts (nor does its game in progress).
    Nullify,
    /// `loser` loses the match by forfeit (recorded 0 - games to win).
    Forfeit { loser: Id },
    /// The result becomes these game wins and draws (from the match's first player's side).
    Fix {
        a_wins: u32,
        b_wins: u32,
        draws: u32,
    },
}

impl Service {
    fn check_organiser(l: &LeagueCtx, by: Id, is_admin: bool) -> Result<()> {
        if by == l.row.created_by || is_admin {
            Ok(())
        } else {
            refused(format!(
                "only the organisers of {} (its creator and members with Manage Server) can do that",
                l.def.name
            ))
        }
    }

    /// Applies an organiser's action to match `match_id`, recorded with `by` and `reason`.
    pub async fn league_organise(
        &self,
        league_id: Id,
        by: Id,
        is_admin: bool,
        match_id: Id,
        action: OrganiserAction,
        reason: &str,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        Self::check_organiser(&l, by, is_admin)?;
        let reason = reason.trim();
        if reason.is_empty() {
            return refused("say why (the reason is recorded with the change)");
        }
        let m = self
            .db
            .league_match(match_id)
            .await?
            .filter(|m| m.league_id == league_id)
            .ok_or_else(|| {
                ServiceError::Refused(format!("{} has no match {match_id}", l.def.name))
            })?;
        if m.status == "nullified" {
            return refused(format!("match {match_id} is nullified already"));
        }
        let gtw = i64::from(l.def.games_to_win());
        let mut after = m.clone();
        let (kind, what) = match action {
            OrganiserAction::Nullify => {
                after.status = "nullified".into();
                after.game_id = None;
                after.clock = None;
                ("nullify", "nullified".to_string())
            }
            OrganiserAction::Forfeit { loser } => {
                let Some(b) = m.b_user else {
                    return refused("a bye cannot be forfeited");
                };
                if loser != m.a_user && loser != b {
                    return refused(format!(
                        "{} is not playing in match {match_id}",
                        self.name_of(loser).await
                    ));
                }
                (after.a_wins, after.b_wins, after.draws) = if loser == m.a_user {
                    (0, gtw, 0)
                } else {
                    (gtw, 0, 0)
                };
                self.close(&mut after);
                (
                    "forfeit",
                    format!("a forfeit by {}", self.name_of(loser).await),
                )
            }
            OrganiserAction::Fix {
                a_wins,
                b_wins,
                draws,
            } => {
                if m.b_user.is_none() {
                    return refused("a bye has no result to fix");
                }
                let total = a_wins + b_wins + draws;
                if a_wins.max(b_wins) > l.def.games_to_win()
                    || total == 0
                    || total > l.def.best_of + 2
                {
                    return refused(format!(
                        "{a_wins}-{b_wins}-{draws} is not a result of a best-of-{} match",
                        l.def.best_of
                    ));
                }
                (after.a_wins, after.b_wins, after.draws) =
                    (i64::from(a_wins), i64::from(b_wins), i64::from(draws));
                self.close(&mut after);
                ("fix", format!("fixed to {a_wins}-{b_wins}-{draws}"))
            }
        };
        let detail = serde_json::json!({
            "before": { "status": m.status, "a_wins": m.a_wins, "b_wins": m.b_wins, "draws": m.draws },
            "after": { "status": after.status, "a_wins": after.a_wins, "b_wins": after.b_wins, "draws": after.draws },
        })
        .to_string();
        if !self
            .db
            .organiser_action(&after, &m.status, by, kind, reason, &detail, self.now())
            .await?
        {
            return refused("the match changed meanwhile; look again and retry");
        }
        let (an, bn) = (
            self.name_of(m.a_user).await,
            match m.b_user {
                Some(b) => self.name_of(b).await,
                None => "(bye)".into(),
            },
        );
        let who = self.name_of(by).await;
        // A forfeit during a game: the game ends as the forfeiting player's concession, so it
        // is not left waiting in the service (its result is the forfeit's, recorded above).
        let mut plans = Vec::new();
        if let (OrganiserAction::Forfeit { loser }, Some(g)) = (action, m.game_id) {
            match self.command(loser, g, "concede yes", None).await {
                Ok(plan) => plans.push(plan),
                Err(e) => {
                    tracing::warn!(game_id = g, error = %e, "the forfeited game was not conceded")
                }
            }
        }
        // A nullify during a game: the game ends without a result (status `nullified`), so it
        // is not left waiting in the service; a later command on it is refused with that word.
        let mut what = what;
        if let (OrganiserAction::Nullify, Some(g)) = (action, m.game_id)
            && self
                .db
                .set_status(g, "active", "nullified", self.now())
                .await?
        {
            what = format!("{what}; its game in progress (game {g}) ends without a result");
        }
        if action == OrganiserAction::Nullify && !self.db.league_games(match_id).await?.is_empty() {
            self.recompute_ratings(l.def.format.rating_key()).await?;
        }
        Ok(LeagueReply {
            league_id,
            text: format!(
                "{}: match {match_id} ({an} vs {bn}) {what} by {who}: {reason}.",
                l.def.name
            ),
            plans,
            choice: None,
            pings: std::iter::once(m.a_user).chain(m.b_user).collect(),
            standings: false,
        })
    }

    /// Computes every rating of `format` again from the recorded games that count (those of
    /// matches not nullified, in every league of that format), in the order they ended, as
    /// they were rated when played: each game at its own time, so idle days count the same.
    pub async fn recompute_ratings(&self, format: &str) -> Result<()> {
        let mut games: Vec<(i64, Id, RatedGame)> = Vec::new();
        for row in self.db.all_leagues().await? {
            let def: LeagueDef = match serde_json::from_str(&row.def) {
                Ok(d) => d,
                Err(e) => {
                    tracing::warn!(league = row.id, error = %e, "unreadable league left out of the ratings");
                    continue;
                }
            };
            if def.format.rating_key() != format {
                continue;
            }
            let matches = self.db.league_matches(row.id).await?;
            for g in self.db.league_games_of(row.id).await? {
                let Some(m) = matches.iter().find(|m| m.id == g.match_id) else {
                    continue;
                };
                let Some(b) = m.b_user.filter(|_| m.status != "nullified") else {
                    continue;
                };
                let outcome = match g.winner {
                    Some(w) if w == m.a_user => Outcome::Win,
                    Some(_) => Outcome::Loss,
                    None => Outcome::Draw,
                };
                let rated = RatedGame {
                    a: m.a_user,
                    b,
                    outcome,
                    at: g.finished_at,
                };
                games.push((g.finished_at, g.game_id, rated));
            }
        }
        games.sort_by_key(|(at, game, _)| (*at, *game));
        let rated: Vec<RatedGame> = games.into_iter().map(|(_, _, g)| g).collect();
        let rows: Vec<RatingRow> = ratings::replay(&rated)
            .into_iter()
            .map(|(user_id, r)| RatingRow {
                user_id,
                format: format.into(),
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: i64::from(r.games),
                last_played: r.last_played,
            })
            .collect();
        self.db.replace_ratings(format, &rows).await?;
        Ok(())
    }

    fn close(&self, m: &mut MatchRow) {
        m.status = "finished".into();
        m.game_id = None;
        m.clock = None;
        m.finished_at = Some(self.now());
    }

    /// The organiser log of a league.
    pub async fn league_log(&self, league_id: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let mut lines = Vec::new();
        for a in self.db.league_actions(league_id).await? {
            lines.push(format!(
                "#{} {} match {}: {} by {} ({})",
                a.id,
                a.kind,
                a.match_id.map_or("-".into(), |m| m.to_string()),
                a.reason,
                self.name_of(a.by_user).await,
                a.detail
            ));
        }
        if lines.is_empty() {
            lines.push(format!("{}: no organiser actions", l.def.name));
        }
        Ok(LeagueReply::text(league_id, lines.join("\n")))
    }
}
