//! What players see of a league: the standings (Appendix C, with ratings beside them),
//! one member's history, and the scheduler's sweep (results of ended games, clock, play/draw
//! and round-deadline reminders, the closing notice, the end of the grace period, weekly
//! packs, final standings).

use super::matches::{record_of, run_record};
use super::{LeagueCtx, LeagueReply};
use crate::league::clocks::{DAY, Phase};
use crate::league::definition::{LeagueFormat, PackTrigger};
use crate::league::standings::{self, RunMatchRecord, percent};
use crate::service::{Result, Service};
use crate::storage::{Id, MatchRow};
use engine::GameResult;

/// One line of the standings as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct StandingLine {
    pub rank: usize,
    pub user: Id,
    pub name: String,
    pub points: u32,
    /// `W-L-D`.
    pub record: String,
    pub omw: f64,
    pub gwp: f64,
    pub ogw: f64,
    /// `1623` or `1500?` (provisional).
    pub rating: String,
    pub dropped: bool,
    /// The run shown (the member's best) and how many runs they have begun.
    pub run: u32,
    pub runs: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StandingsView {
    pub league_id: Id,
    pub title: String,
    pub lines: Vec<StandingLine>,
    /// A fixed-width table (fits a Discord embed: at most `MAX_LINES` lines).
    pub text: String,
}

/// Lines in the text table (Discord's embed description holds 4096 characters).
pub const MAX_LINES: usize = 40;

/// The matches that count, as Appendix C records between runs.
pub(crate) fn match_records(matches: &[MatchRow]) -> Vec<RunMatchRecord> {
    let run = |r: i64| u32::try_from(r).unwrap_or(1).max(1);
    matches
        .iter()
        .filter(|m| m.status == "finished")
        .map(|m| RunMatchRecord {
            a: (m.a_user, run(m.a_run)),
            b: m.b_user.map(|b| (b, run(m.b_run))),
            a_wins: u32::try_from(m.a_wins).unwrap_or(0),
            b_wins: u32::try_from(m.b_wins).unwrap_or(0),
            draws: u32::try_from(m.draws).unwrap_or(0),
        })
        .collect()
}

/// ` run 2 of 3` beside a member with several runs (the run their line is from).
fn run_mark(x: &StandingLine) -> String {
    if x.runs > 1 {
        format!(" run {} of {}", x.run, x.runs)
    } else {
        String::new()
    }
}

/// The standings as a fixed-width table under `title`: the first [`MAX_LINES`] lines, then
/// how many more there are (the image lists everyone), within an embed's 4096 characters.
pub(crate) fn standings_table(title: &str, lines: &[StandingLine]) -> String {
    let mut text =
        format!("{title}\n```\n  # Player           Pts W-L-D   OMW%   GW%    OGW%   Rating\n");
    for x in lines.iter().take(MAX_LINES) {
        let name: String = x.name.chars().take(16).collect();
        text.push_str(&format!(
            "{:>3} {:<16} {:>3} {:<7} {:>6} {:>6} {:>6} {}{}{}\n",
            x.rank,
            name,
            x.points,
            x.record,
            percent(x.omw).trim_end_matches('%'),
            percent(x.gwp).trim_end_matches('%'),
            percent(x.ogw).trim_end_matches('%'),
            x.rating,
            run_mark(x),
            if x.dropped { " (dropped)" } else { "" }
        ));
    }
    if lines.len() > MAX_LINES {
        text.push_str(&format!("... and {} more\n", lines.len() - MAX_LINES));
    }
    text.push_str("```");
    text
}

impl Service {
    pub async fn league_standings(&self, league_id: Id) -> Result<StandingsView> {
        let l = self.league_ctx(league_id).await?;
        let members = self.db.members(league_id).await?;
        let matches = self.db.league_matches(league_id).await?;
        // MTR 2.10: a player who drops before playing a match did not take part.
        let players: Vec<(Id, u32, bool)> = members
            .iter()
            .filter(|m| m.dropped_at.is_none() || record_of(m.user_id, &matches).played > 0)
            .map(|m| {
                (
                    m.user_id,
                    u32::try_from(m.run).unwrap_or(1),
                    m.dropped_at.is_some(),
                )
            })
            .collect();
        let table = standings::best_runs(&players, &match_records(&matches), l.def.best_of > 1);
        let format = l.def.format.rating_key();
        let now = self.now();
        let mut lines = Vec::new();
        for r in table {
            let s = r.line;
            let rating = self.rating_of(s.player, format).await?.at(now).display();
            lines.push(StandingLine {
                rank: s.rank,
                user: s.player,
                name: self.name_of(s.player).await,
                points: s.match_points,
                record: format!("{}-{}-{}", s.wins, s.losses, s.draws),
                omw: s.omw,
                gwp: s.gwp,
                ogw: s.ogw,
                rating,
                dropped: s.dropped,
                run: r.run,
                runs: r.runs,
            });
        }
        let finished = matches.iter().filter(|m| m.status == "finished").count();
        let several = lines.iter().any(|x| x.runs > 1);
        let title = format!(
            "{} standings{} ({finished} matches{})",
            l.def.name,
            if l.row.status == "final" {
                ", final"
            } else {
                ""
            },
            if several {
                "; each player's best run"
            } else {
                ""
            }
        );
        let text = standings_table(&title, &lines);
        Ok(StandingsView {
            league_id,
            title,
            lines,
            text,
        })
    }

    /// One member's league: record, rating, build, pool size, every match and game.
    pub async fn league_me(&self, league_id: Id, user: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        let matches = self.db.league_matches(league_id).await?;
        let r = run_record(user, m.run, &matches);
        let rating = self
            .rating_of(user, l.def.format.rating_key())
            .await?
            .at(self.now());
        let mut s = format!(
            "{} in {}: {}{}-{}-{} ({} of {} matches), rating {} ({} games)",
            self.name_of(user).await,
            l.def.name,
            if m.run > 1 {
                format!("run {}: ", m.run)
            } else {
                String::new()
            },
            r.wins,
            r.losses,
            r.draws,
            r.played,
            l.def.matches_per_run,
            rating.display(),
            rating.games
        );
        if let Some(d) = &m.deck_name {
            s.push_str(&format!(", playing `{d}`"));
        }
        if let Ok(pool) = self.member_pool(&l, &m).await {
            s.push_str(&format!(", pool of {} packs", pool.packs.len()));
        }
        s.push_str(&format!(", {} vacation days left", m.vacation_days_left));
        if m.dropped_at.is_some() {
            s.push_str(" (dropped)");
        }
        s.push('\n');
        s.push_str(&self.past_runs_text(&l, &m, &matches).await?);
        for x in matches
            .iter()
            .filter(|x| x.a_user == user || x.b_user == Some(user))
        {
            let Some(opp) = (if x.a_user == user {
                x.b_user
            } else {
                Some(x.a_user)
            }) else {
                s.push_str(&format!("match {}: bye ({})\n", x.id, x.status));
                continue;
            };
            let (mine, theirs) = if x.a_user == user {
                (x.a_wins, x.b_wins)
            } else {
                (x.b_wins, x.a_wins)
            };
            let my_run = if x.a_user == user { x.a_run } else { x.b_run };
            s.push_str(&format!(
                "match {}{} vs {}: {mine}-{theirs}{} ({})",
                x.id,
                if m.run > 1 {
                    format!(" (run {my_run})")
                } else {
                    String::new()
                },
                self.name_of(opp).await,
                if x.draws > 0 {
                    format!("-{}", x.draws)
                } else {
                    String::new()
                },
                x.status
            ));
            let games = self.db.league_games(x.id).await?;
            let g: Vec<String> = games
                .iter()
                .map(|g| format!("game {} (#{}): {}", g.game_no, g.game_id, g.reason))
                .collect();
            if !g.is_empty() {
                s.push_str(&format!(": {}", g.join("; ")));
            }
            if let Some(n) = &x.note {
                s.push_str(&format!(" [{n}]"));
            }
            s.push('\n');
        }
        Ok(LeagueReply::text(league_id, s))
    }

    /// The scheduler's sweep over open leagues: records ended games the front end did not
    /// report, gives weekly packs, ends matches left unfinished after the grace period (the
    /// game in progress counts as a draw, Appendix C) and posts the final standings.
    pub async fn league_tick(&self) -> Result<Vec<LeagueReply>> {
        let mut out = Vec::new();
        for row in self.db.open_leagues().await? {
            // One unreadable league does not stop the others.
            match self.league_tick_one(row.id).await {
                Ok(mut r) => out.append(&mut r),
                Err(e) => tracing::warn!(league_id = row.id, error = %e, "league sweep failed"),
            }
        }
        Ok(out)
    }

    /// The sweep of one league (see [`Service::league_tick`]).
    pub async fn league_tick_one(&self, league_id: Id) -> Result<Vec<LeagueReply>> {
        let mut out = Vec::new();
        let l = self.league_ctx(league_id).await?;
        let row = l.row.clone();
        if row.status != "open" {
            return Ok(out);
        }
        let now = self.now();
        let matches = self.db.league_matches(row.id).await?;
        for m in matches.iter().filter(|m| m.status == "active") {
            let Some(g) = m.game_id else { continue };
            let r = self.league_after(g).await?;
            if !r.text.is_empty() || !r.plans.is_empty() {
                out.push(r);
            }
        }
        self.weekly_packs(&l, now, &mut out).await?;
        if matches!(
            l.phase(now),
            Phase::Open | Phase::EntriesClosed | Phase::Grace
        ) {
            out.extend(self.clock_reminders(&l).await?);
            out.extend(self.choice_deadlines(&l).await?);
            out.extend(self.round_deadline_reminders(&l).await?);
        }
        if l.def.dates.closing_soon(now) && self.db.set_closing_reminded(row.id).await? {
            out.extend(self.closing_reminder(&l).await?);
        }
        if l.phase(now) == Phase::Over {
            for m in self
                .db
                .league_matches(row.id)
                .await?
                .iter()
                .filter(|m| m.status == "active")
            {
                if let Some(g) = m.game_id {
                    let step = self
                        .record_result(
                            &l,
                            m,
                            g,
                            GameResult::Draw,
                            "unfinished at the league's end",
                            false,
                        )
                        .await?;
                    out.push(LeagueReply {
                        league_id: row.id,
                        text: step.text,
                        pings: step.pings,
                        ..Default::default()
                    });
                } else {
                    // Between games (a play/draw question may be waiting): the match ends
                    // with its score, its question withdrawn, and its players are told.
                    let mut after = m.clone();
                    after.status = "finished".into();
                    after.finished_at = Some(now);
                    after.note = Some("unfinished at the league's end".into());
                    if self.db.update_match(&after, "active").await? {
                        out.push(self.unfinished_notice(&l, m).await);
                    }
                }
            }
            if self.db.set_league_status(row.id, "open", "final").await? {
                let v = self.league_standings(row.id).await?;
                let pings = v.lines.iter().map(|x| x.user).collect();
                out.push(LeagueReply {
                    league_id: row.id,
                    text: format!("Final standings:\n{}", v.text),
                    plans: Vec::new(),
                    choice: None,
                    pings,
                    standings: true,
                });
            }
        }
        Ok(out)
    }

    /// What the players of match `m` are told when the league's end finds it between games
    /// (its score stands; a play/draw question still waiting is withdrawn).
    async fn unfinished_notice(&self, l: &LeagueCtx, m: &MatchRow) -> LeagueReply {
        let an = self.name_of(m.a_user).await;
        let bn = match m.b_user {
            Some(b) => self.name_of(b).await,
            None => "(bye)".into(),
        };
        let waiting = match m.choice_game {
            Some(g) => format!(
                " while {} had not yet chosen to play or draw in game {g}",
                self.name_of(m.chooser.unwrap_or(m.a_user)).await
            ),
            None => String::new(),
        };
        LeagueReply {
            league_id: l.row.id,
            text: format!(
                "{}: match {} ({an} vs {bn}) was unfinished at the league's end{waiting}: it stands at {an} {}-{} {bn}{}.",
                l.def.name,
                m.id,
                m.a_wins,
                m.b_wins,
                if m.a_wins == m.b_wins { ", a draw" } else { "" }
            ),
            pings: std::iter::once(m.a_user).chain(m.b_user).collect(),
            ..Default::default()
        }
    }

    /// "The league closes in 48 h and you have N matches left", to each member with some.
    async fn closing_reminder(&self, l: &LeagueCtx) -> Result<Option<LeagueReply>> {
        let matches = self.db.league_matches(l.row.id).await?;
        let mut lines = Vec::new();
        let mut pings = Vec::new();
        for m in self.db.members(l.row.id).await? {
            if m.dropped_at.is_some() {
                continue;
            }
            let r = run_record(m.user_id, m.run, &matches);
            let left = match l.def.schedule {
                crate::league::definition::Schedule::Queue
                    if !l.def.run_over(r.played, r.losses) =>
                {
                    l.def.matches_per_run.saturating_sub(r.played) + u32::from(r.busy)
                }
                crate::league::definition::Schedule::Queue => 0,
                _ => u32::from(r.busy),
            };
            if left > 0 {
                lines.push(format!("{}: {left}", self.name_of(m.user_id).await));
                pings.push(m.user_id);
            }
        }
        if lines.is_empty() {
            return Ok(None);
        }
        Ok(Some(LeagueReply {
            league_id: l.row.id,
            text: format!(
                "{} closes in 48 hours. Matches left: {}.",
                l.def.name,
                lines.join(", ")
            ),
            plans: Vec::new(),
            choice: None,
            pings,
            standings: false,
        }))
    }

    /// `Weekly` pack trigger: by week N of the league every member has N extra packs.
    async fn weekly_packs(
        &self,
        l: &LeagueCtx,
        now: i64,
        out: &mut Vec<LeagueReply>,
    ) -> Result<()> {
        let LeagueFormat::Sealed { product } = &l.def.format else {
            return Ok(());
        };
        if !l.def.pack_triggers.contains(&PackTrigger::Weekly)
            || matches!(l.phase(now), Phase::Grace | Phase::Over)
        {
            return Ok(());
        }
        let weeks = ((now - l.def.dates.starts_at).max(0) / (7 * DAY)) as usize;
        let sets = product.pack_sets();
        for m in self.db.members(l.row.id).await? {
            if m.dropped_at.is_some() {
                continue;
            }
            let Ok(pool) = self.member_pool(l, &m).await else {
                continue;
            };
            // By week N a member has at least N packs beyond the product (packs from other
            // triggers count toward it).
            let extra = pool.packs.len().saturating_sub(sets.len());
            if extra < weeks {
                let set = sets.first().copied().unwrap_or("TSP");
                let text = self.grant_pack(l, m.user_id, set).await?;
                out.push(LeagueReply {
                    league_id: l.row.id,
                    text,
                    plans: Vec::new(),
                    choice: None,
                    pings: vec![m.user_id],
                    standings: false,
                });
            }
        }
        Ok(())
    }
}

/// The renderer's scene of a sealed pool (`title`: e.g. "Ann's pool · 6 TSP").
pub fn pool_scene(pool: &crate::league::pool::Pool, title: &str) -> render::league::PoolScene {
    let cat = engine::Catalog::builtin();
    render::league::PoolScene {
        title: title.to_string(),
        cards: pool
            .cards()
            .into_iter()
            .map(|c| render::league::PoolEntry {
                face: cat.by_name(&c.name).map_or_else(
                    || render::CardFace {
                        name: c.name.clone(),
                        ..Default::default()
                    },
                    crate::scene::face_of_def,
                ),
                count: c.count,
                playable: c.playable,
            })
            .collect(),
    }
}

/// The renderer's scene of the standings.
pub fn standings_scene(v: &StandingsView) -> render::league::StandingsScene {
    render::league::StandingsScene {
        title: v.title.clone(),
        header: [
            "#", "Player", "Pts", "W-L-D", "OMW%", "GW%", "OGW%", "Rating",
        ]
        .map(String::from)
        .to_vec(),
        rows: v
            .lines
            .iter()
            .map(|l| render::league::StandingsRow {
                cells: vec![
                    l.rank.to_string(),
                    format!(
                        "{}{}{}",
                        l.name,
                        run_mark(l),
                        if l.dropped { " (dropped)" } else { "" }
                    ),
                    l.points.to_string(),
                    l.record.clone(),
                    percent(l.omw).trim_end_matches('%').to_string(),
                    percent(l.gwp).trim_end_matches('%').to_string(),
                    percent(l.ogw).trim_end_matches('%').to_string(),
                    l.rating.clone(),
                ],
                dimmed: l.dropped,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widest line the table can hold: a long name, a long record, a provisional rating
    /// of four digits, a run mark and the dropped mark.
    fn widest(rank: usize) -> StandingLine {
        StandingLine {
            rank,
            user: rank as Id,
            name: "Ö".repeat(60),
            points: 999,
            record: "30-30-30".into(),
            omw: 1.0,
            gwp: 1.0,
            ogw: 1.0,
            rating: "2999?".into(),
            dropped: true,
            run: 99,
            runs: 99,
        }
    }

    /// With many players the table stops at [`MAX_LINES`] lines and says how many more
    /// there are, and even the widest lines under the longest title fit an embed (4096
    /// characters; the Discord adapter cuts the description at 4000 without the title).
    #[test]
    fn the_standings_table_stops_at_forty_lines_within_an_embed() {
        let title = format!(
            "{} standings, final (99999 matches; each player's best run)",
            "L".repeat(60)
        );
        let lines: Vec<StandingLine> = (1..=250).map(widest).collect();
        let text = standings_table(&title, &lines);
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("(dropped)")).collect();
        assert_eq!(rows.len(), MAX_LINES);
        assert!(
            rows[0].starts_with("  1 ÖÖÖÖÖÖÖÖÖÖÖÖÖÖÖÖ 999"),
            "{}",
            rows[0]
        );
        assert!(
            rows[MAX_LINES - 1].starts_with(" 40 "),
            "{}",
            rows[MAX_LINES - 1]
        );
        assert!(text.contains("... and 210 more\n```"), "{text}");
        assert!(text.ends_with("```"));
        assert!(text.chars().count() <= 4096, "{}", text.chars().count());
        let description = text.trim_start_matches(&title).trim();
        assert!(description.chars().count() <= 4000);
        // Forty lines or fewer: no cut, no "more" line.
        let text = standings_table(&title, &lines[..MAX_LINES]);
        assert!(!text.contains("more"));
        assert_eq!(
            text.lines().filter(|l| l.contains("(dropped)")).count(),
            MAX_LINES
        );
    }
}
