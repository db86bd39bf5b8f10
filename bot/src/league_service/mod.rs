//! League commands of the service, shared by the terminal and Discord: create, join, drop,
//! pool, deck builds, play (the next match), new runs, standings, me, vacations, claims, and the
//! organiser's nullify / forfeit / fix (each recorded with who and why).
//!
//! Matches are games of the engine: when a league game ends, [`Service::league_after`]
//! records the engine's result (never a player's report), rates the game, and either starts
//! the next game of the match (the loser of the game chooses to play or draw, MTR 2.2) or
//! closes the match. Bad input is refused with a message and changes nothing.

pub mod choice;
pub mod matches;
pub mod organiser;
pub mod runs;
pub mod sim;
pub mod view;
pub mod words;

#[cfg(test)]
mod scripted_tests;
#[cfg(test)]
mod tests;

use crate::decks::{self, Format};
use crate::league::boosters;
use crate::league::clocks::{Phase, Span};
use crate::league::definition::{LeagueDef, LeagueFormat, LeagueSetup};
use crate::league::pool::{self, Pool};
use crate::service::{AGENT_ID, DeckChoice, Plan, Result, Service, ServiceError};
use crate::storage::{Id, LeagueRow, MemberRow};
use rand::RngExt;

/// What a league command produced: text for the asker (or the league channel), the plans
/// of games it started (for the front end to deliver), who to notify, a play/draw
/// question now waiting for its chooser (front ends offer its two answers), and whether the
/// text is the standings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeagueReply {
    pub league_id: Id,
    pub text: String,
    pub plans: Vec<Plan>,
    pub pings: Vec<Id>,
    pub choice: Option<choice::PendingChoice>,
    /// The text is the league's standings table (the final standings, posted when the
    /// league ends): front ends show it as the standings (Discord: an embed and the image,
    /// not a message cut at 2000 characters).
    pub standings: bool,
}

impl LeagueReply {
    fn text(league_id: Id, text: impl Into<String>) -> LeagueReply {
        LeagueReply {
            league_id,
            text: text.into(),
            ..Default::default()
        }
    }
}

fn refused<T>(msg: impl Into<String>) -> Result<T> {
    Err(ServiceError::Refused(msg.into()))
}

/// A league as loaded: its row and its definition.
#[derive(Debug, Clone)]
pub struct LeagueCtx {
    pub row: LeagueRow,
    pub def: LeagueDef,
}

impl LeagueCtx {
    pub fn phase(&self, now: i64) -> Phase {
        self.def.dates.phase(now, self.def.clock.grace)
    }
    pub fn is_sealed(&self) -> bool {
        matches!(self.def.format, LeagueFormat::Sealed { .. })
    }
}

/// A member is played by the random agent (the league simulation, tests).
pub(crate) fn is_agent_external(external_id: &str) -> bool {
    external_id == AGENT_ID || external_id.starts_with("agent:")
}

/// A time as days from now (`in 2.5 days`, `1.0 days ago`): no calendar needed.
pub(crate) fn in_days(now: i64, t: i64) -> String {
    let d = (t - now) as f64 / 86_400.0;
    if d >= 0.0 {
        format!("in {d:.1} days")
    } else {
        format!("{:.1} days ago", -d)
    }
}

/// A date as UTC and as days from now (`2026-12-20 18:00 UTC, in 2.5 days`).
pub(crate) fn when(now: i64, t: i64) -> String {
    format!("{} ({})", crate::league::clocks::utc(t), in_days(now, t))
}

impl Service {
    pub(crate) async fn name_of(&self, user: Id) -> String {
        match self.db.user(user).await {
            Ok(Some(u)) => u.name,
            _ => format!("user {user}"),
        }
    }

    pub async fn league_ctx(&self, league_id: Id) -> Result<LeagueCtx> {
        let row = self
            .db
            .league(league_id)
            .await?
            .ok_or_else(|| ServiceError::Refused(format!("there is no league {league_id}")))?;
        let def: LeagueDef = serde_json::from_str(&row.def).map_err(|e| ServiceError::Corrupt {
            id: league_id,
            why: format!("the league's settings are unreadable: {e}"),
        })?;
        Ok(LeagueCtx { row, def })
    }

    /// A league of a server by name (case-insensitive), or the newest open one when no
    /// name is given.
    pub async fn league_find(&self, guild: i64, name: Option<&str>) -> Result<LeagueCtx> {
        let all = self.db.leagues_in(guild).await?;
        let found = match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(n) => all
                .iter()
                .find(|l| l.name.eq_ignore_ascii_case(n))
                .ok_or_else(|| {
                    let names: Vec<&str> = all.iter().map(|l| l.name.as_str()).collect();
                    ServiceError::Refused(if names.is_empty() {
                        format!("there is no league called `{n}` here (no leagues yet)")
                    } else {
                        format!("there is no league called `{n}` here: {}", names.join(", "))
                    })
                })?,
            None => all
                .iter()
                .find(|l| l.status == "open")
                .or(all.first())
                .ok_or_else(|| {
                    ServiceError::Refused("there is no league here yet: create one first".into())
                })?,
        };
        self.league_ctx(found.id).await
    }

    /// Creates a league (`guild` 0 outside Discord). Says what share of a sealed product
    /// the engine plays.
    pub async fn league_create(
        &self,
        by: Id,
        setup: &LeagueSetup,
        guild: i64,
        channel: Option<i64>,
    ) -> Result<LeagueReply> {
        let ruleset = self
            .cfg
            .ruleset()
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        let def = setup
            .validate(self.now(), ruleset)
            .map_err(ServiceError::Refused)?;
        let json = serde_json::to_string(&def).map_err(|e| ServiceError::Refused(e.to_string()))?;
        let seed: u64 = setup.seed.unwrap_or_else(|| rand::rng().random());
        let Some(id) = self
            .db
            .create_league(&def.name, guild, channel, by, &json, seed, self.now())
            .await?
        else {
            return refused(format!(
                "there is already a league called `{}` here",
                def.name
            ));
        };
        let now = self.now();
        let d = &def.dates;
        Ok(LeagueReply::text(
            id,
            format!(
                "League {id} created. {}\nStarts {}, entries close {}, ends {}. Join with `league join`.",
                def.describe(),
                when(now, d.starts_at),
                when(now, d.entries_close_at),
                when(now, d.ends_at)
            ),
        ))
    }

    async fn member_or_refuse(&self, l: &LeagueCtx, user: Id) -> Result<MemberRow> {
        self.db.member(l.row.id, user).await?.ok_or_else(|| {
            ServiceError::Refused(format!("you are not playing in league {}", l.def.name))
        })
    }

    /// Joins a league. Sealed: the pool is opened from seeded packs (every seed stored) and
    /// an automatic build `auto` is saved as a start. Constructed: `deck` is registered and
    /// locked for the run.
    pub async fn league_join(
        &self,
        league_id: Id,
        user: Id,
        deck: Option<&DeckChoice>,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let now = self.now();
        match l.phase(now) {
            Phase::NotStarted | Phase::Open => {}
            Phase::EntriesClosed => {
                return refused(format!("entries to {} are closed", l.def.name));
            }
            Phase::Grace | Phase::Over => return refused(format!("{} has ended", l.def.name)),
        }
        if let Some(m) = self.db.member(league_id, user).await? {
            return refused(if m.dropped_at.is_some() {
                format!(
                    "you dropped from {}; a dropped player cannot rejoin",
                    l.def.name
                )
            } else {
                format!("you are already playing in {}", l.def.name)
            });
        }
        let vacation = i64::from(l.def.clock.vacation_days);
        match &l.def.format {
            LeagueFormat::Sealed { product } => {
                let sets = product.pack_sets();
                let seeds: Vec<u64> = (0..sets.len() as u64)
                    .map(|i| boosters::pack_seed(l.row.seed, user as u64, i))
                    .collect();
                let pool = Pool::open(&sets, &seeds).map_err(ServiceError::Refused)?;
                let json = serde_json::to_string(&pool)
                    .map_err(|e| ServiceError::Refused(e.to_string()))?;
                if !self
                    .db
                    .add_member(league_id, user, Some(&json), vacation, now)
                    .await?
                {
                    return refused(format!("you are already playing in {}", l.def.name));
                }
                let auto = pool::auto_build(&pool, "auto");
                self.db
                    .save_league_deck(league_id, user, "auto", &decks::to_text(&auto), now)
                    .await?;
                self.db.set_member_deck(league_id, user, "auto").await?;
                Ok(LeagueReply::text(
                    league_id,
                    format!(
                        "You joined {}. Your pool ({product}):\n{}An automatic build `auto` is ready; save your own with `league deck save NAME` and a list.",
                        l.def.name,
                        pool.describe()
                    ),
                ))
            }
            LeagueFormat::Constructed => {
                let Some(choice) = deck else {
                    return refused(
                        "a constructed league needs your deck at entry (it is locked for the run)",
                    );
                };
                let d = self.league_resolve_constructed(user, choice).await?;
                if !self
                    .db
                    .add_member(league_id, user, None, vacation, now)
                    .await?
                {
                    return refused(format!("you are already playing in {}", l.def.name));
                }
                self.db
                    .save_league_deck(league_id, user, "registered", &decks::to_text(&d), now)
                    .await?;
                self.db
                    .set_member_deck(league_id, user, "registered")
                    .await?;
                Ok(LeagueReply::text(
                    league_id,
                    format!(
                        "You joined {} with {} ({} cards), locked for the run.",
                        l.def.name,
                        d.name,
                        d.main_count()
                    ),
                ))
            }
        }
    }

    async fn league_resolve_constructed(
        &self,
        user: Id,
        choice: &DeckChoice,
    ) -> Result<decks::Deck> {
        let d = match choice {
            DeckChoice::Ready(key) => decks::ready(key)
                .ok_or_else(|| ServiceError::Deck(format!("no ready-made deck `{key}`")))?
                .deck(),
            DeckChoice::Saved(name) => {
                let row = self.db.deck_by_name(user, name).await?.ok_or_else(|| {
                    ServiceError::Deck(format!("you have no saved deck called `{name}`"))
                })?;
                decks::parse(&row.name, &row.list)
            }
            DeckChoice::List { name, text, .. } => decks::parse(name, text),
        }
        .map_err(|e| ServiceError::Deck(e.to_string()))?;
        d.validate(Format::Constructed)
            .map_err(|e| ServiceError::Deck(e.to_string()))?;
        Ok(d)
    }

    /// Drops from a league: the record stays (and counts in opponents' tiebreakers); a match
    /// in progress goes on until it ends.
    pub async fn league_drop(&self, league_id: Id, user: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        if m.dropped_at.is_some() {
            return refused(format!("you have already dropped from {}", l.def.name));
        }
        if matches!(l.phase(self.now()), Phase::Grace | Phase::Over) {
            return refused(format!(
                "{} has ended; there is nothing to drop from",
                l.def.name
            ));
        }
        if !self.db.drop_member(league_id, user, self.now()).await? {
            return refused("you have already dropped");
        }
        Ok(LeagueReply::text(
            league_id,
            format!(
                "You dropped from {}. Your record stays in the standings.",
                l.def.name
            ),
        ))
    }

    pub(crate) async fn member_pool(&self, l: &LeagueCtx, m: &MemberRow) -> Result<Pool> {
        let text = m
            .pool
            .as_deref()
            .ok_or_else(|| ServiceError::Refused(format!("{} has no sealed pools", l.def.name)))?;
        serde_json::from_str(text).map_err(|e| ServiceError::Corrupt {
            id: l.row.id,
            why: format!("a pool is unreadable: {e}"),
        })
    }

    /// The member's pool (playable cards and those not playable yet, marked).
    pub async fn league_pool(&self, league_id: Id, user: Id) -> Result<(LeagueReply, Pool)> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        let pool = self.member_pool(&l, &m).await?;
        Ok((LeagueReply::text(league_id, pool.describe()), pool))
    }

    /// Saves a named build of the member's pool (checked against it), and plays it next.
    /// Constructed decks are locked.
    pub async fn league_deck_save(
        &self,
        league_id: Id,
        user: Id,
        name: &str,
        list: &str,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        if !l.is_sealed() {
            return refused("a constructed deck is locked for the run");
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return refused("a build needs a name of 1 to 40 characters");
        }
        let pool = self.member_pool(&l, &m).await?;
        let mut deck = decks::parse(name, list).map_err(|e| ServiceError::Deck(e.to_string()))?;
        pool::check_deck(&pool, &deck).map_err(|p| {
            ServiceError::Deck(format!(
                "the build has {} problem{}:\n- {}",
                p.len(),
                if p.len() == 1 { "" } else { "s" },
                p.join("\n- ")
            ))
        })?;
        deck.sideboard = pool::sideboard(&pool, &deck);
        self.db
            .save_league_deck(league_id, user, name, &decks::to_text(&deck), self.now())
            .await?;
        self.db.set_member_deck(league_id, user, name).await?;
        self.db.set_sideboard(league_id, user, None).await?;
        Ok(LeagueReply::text(
            league_id,
            format!(
                "Build `{name}` saved ({} cards, {} in the sideboard); you play it from your next game.",
                deck.main_count(),
                deck.sideboard_count()
            ),
        ))
    }

    /// Chooses which saved build to play from the next game (sideboarding between games of
    /// a match is choosing another build).
    pub async fn league_deck_use(
        &self,
        league_id: Id,
        user: Id,
        name: &str,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        self.member_or_refuse(&l, user).await?;
        if !l.is_sealed() {
            return refused("a constructed deck is locked for the run");
        }
        let builds = self.db.league_decks(league_id, user).await?;
        let Some(b) = builds
            .iter()
            .find(|b| b.name.eq_ignore_ascii_case(name.trim()))
        else {
            let names: Vec<&str> = builds.iter().map(|b| b.name.as_str()).collect();
            return refused(format!(
                "you have no build called `{}`: {}",
                name.trim(),
                names.join(", ")
            ));
        };
        self.db.set_member_deck(league_id, user, &b.name).await?;
        self.db.set_sideboard(league_id, user, None).await?;
        Ok(LeagueReply::text(
            league_id,
            format!("You play `{}` from your next game.", b.name),
        ))
    }

    /// Sideboarding in a match (sealed): the cards of `out` leave the deck and those of
    /// `into` come in from the rest of the pool (basic lands in any number), from the next
    /// game of the member's match in progress until the match ends (then the build in use
    /// comes back); changes add up. `reset` undoes them; with nothing to change, the deck and
    /// the rest of the pool are listed. Like `deck use`, a change made while a game is being
    /// played applies from the next game.
    pub async fn league_sideboard(
        &self,
        league_id: Id,
        user: Id,
        out: &[(u32, String)],
        into: &[(u32, String)],
        reset: bool,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        if !l.is_sealed() {
            return refused("a constructed deck is locked for the run, its sideboard too");
        }
        let matches = self.db.league_matches(league_id).await?;
        let Some(cur) = matches
            .iter()
            .find(|x| x.status == "active" && (x.a_user == user || x.b_user == Some(user)))
        else {
            return refused(
                "sideboarding is between the games of a match, and you have no match in progress: change your build with `deck save` or `deck use`",
            );
        };
        let next_game =
            self.db.league_games(cur.id).await?.len() + 1 + usize::from(cur.game_id.is_some());
        let build = m.deck_name.clone().unwrap_or_default();
        if reset {
            self.db.set_sideboard(league_id, user, None).await?;
            return Ok(LeagueReply::text(
                league_id,
                format!("No sideboarding: you play `{build}` from game {next_game}."),
            ));
        }
        let deck = self.match_deck(&l, &m, cur.id).await?;
        let pool = self.member_pool(&l, &m).await?;
        if out.is_empty() && into.is_empty() {
            let list = |v: &[decks::Entry]| {
                v.iter()
                    .map(|e| format!("{} {}", e.count, e.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Ok(LeagueReply::text(
                league_id,
                format!(
                    "Your deck for game {next_game} ({} cards): {}\nThe rest of your pool: {} (basic lands: any number). Swap with `sideboard out CARD in CARD`.",
                    deck.main_count(),
                    list(&deck.main),
                    list(&pool::sideboard(&pool, &deck))
                ),
            ));
        }
        let new = pool::side(&pool, &deck, out, into).map_err(|p| {
            ServiceError::Deck(format!(
                "that sideboarding has {} problem{} (nothing changed):\n- {}",
                p.len(),
                if p.len() == 1 { "" } else { "s" },
                p.join("\n- ")
            ))
        })?;
        let text = decks::to_text(&new);
        self.db
            .set_sideboard(league_id, user, Some((text.as_str(), cur.id)))
            .await?;
        let said = |v: &[(u32, String)]| {
            v.iter()
                .map(|(n, c)| format!("{n} {}", c.trim()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        Ok(LeagueReply::text(
            league_id,
            format!(
                "Sideboarded for match {} from game {next_game}: out {}, in {} ({} cards). `{build}` comes back after the match.",
                cur.id,
                if out.is_empty() {
                    "nothing".into()
                } else {
                    said(out)
                },
                if into.is_empty() {
                    "nothing".into()
                } else {
                    said(into)
                },
                new.main_count()
            ),
        ))
    }

    /// The member's builds, the one in use marked.
    pub async fn league_decks(&self, league_id: Id, user: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        let builds = self.db.league_decks(league_id, user).await?;
        let mut s = String::new();
        for b in &builds {
            let count = decks::parse(&b.name, &b.list).map_or(0, |d| d.main_count());
            let mark = if m.deck_name.as_deref() == Some(b.name.as_str()) {
                " (in use)"
            } else {
                ""
            };
            s.push_str(&format!("`{}`: {count} cards{mark}\n", b.name));
        }
        if s.is_empty() {
            s = "no builds yet".into();
        }
        Ok(LeagueReply::text(league_id, s))
    }

    /// Takes vacation days: the member's game clocks stop for them.
    pub async fn league_vacation(&self, league_id: Id, user: Id, days: u32) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.member_or_refuse(&l, user).await?;
        let left = u32::try_from(m.vacation_days_left).unwrap_or(0);
        let span = crate::league::clocks::take_vacation(left, days, self.now())
            .map_err(ServiceError::Refused)?;
        let mut spans: Vec<Span> = serde_json::from_str(&m.vacations).unwrap_or_default();
        spans.push(span);
        let json =
            serde_json::to_string(&spans).map_err(|e| ServiceError::Refused(e.to_string()))?;
        self.db
            .set_vacations(league_id, user, &json, i64::from(left - days))
            .await?;
        Ok(LeagueReply::text(
            league_id,
            format!(
                "Vacation: your clocks stop for {days} day{}; {} left.",
                if days == 1 { "" } else { "s" },
                left - days
            ),
        ))
    }
}

impl Service {
    /// A member of league `l` by name (case-insensitive).
    async fn member_by_name(&self, l: &LeagueCtx, name: &str) -> Result<Id> {
        for m in self.db.members(l.row.id).await? {
            if self
                .name_of(m.user_id)
                .await
                .eq_ignore_ascii_case(name.trim())
            {
                return Ok(m.user_id);
            }
        }
        refused(format!(
            "nobody called `{}` plays in {}",
            name.trim(),
            l.def.name
        ))
    }

    /// Runs typed league words (`words::parse`) for `user` in server `guild` (0 outside
    /// Discord); `league`: its name (default: the newest open league there).
    pub async fn league_words(
        &self,
        user: Id,
        guild: i64,
        league: Option<&str>,
        text: &str,
        is_admin: bool,
    ) -> Result<LeagueReply> {
        use words::LeagueWords as W;
        let w = words::parse(text).map_err(ServiceError::Refused)?;
        match &w {
            W::Create(setup) => return self.league_create(user, setup, guild, None).await,
            W::Help => return Ok(LeagueReply::text(0, words::HELP)),
            _ => {}
        }
        let l = self.league_find(guild, league).await?;
        let id = l.row.id;
        match w {
            W::Create(_) | W::Help => refused("handled above"),
            W::Join { deck } => {
                let choice = deck.map(DeckChoice::Ready);
                self.league_join(id, user, choice.as_ref()).await
            }
            W::Drop => self.league_drop(id, user).await,
            W::Run { deck } => {
                let choice = deck.map(DeckChoice::Ready);
                self.league_new_run(id, user, choice.as_ref()).await
            }
            W::Pool => Ok(self.league_pool(id, user).await?.0),
            W::Decks => self.league_decks(id, user).await,
            W::DeckSave { name, list } => self.league_deck_save(id, user, &name, &list).await,
            W::DeckUse(name) => self.league_deck_use(id, user, &name).await,
            W::Sideboard { out, into, reset } => {
                self.league_sideboard(id, user, &out, &into, reset).await
            }
            W::Play { opponent } => {
                let opp = match opponent {
                    Some(n) => Some(self.member_by_name(&l, &n).await?),
                    None => None,
                };
                self.league_play(id, user, opp).await
            }
            W::Standings => {
                let v = self.league_standings(id).await?;
                Ok(LeagueReply::text(id, v.text))
            }
            W::Me => self.league_me(id, user).await,
            W::Clock => self.league_clock(id, user).await,
            W::Claim => self.league_claim(id, user).await,
            W::Vacation(days) => self.league_vacation(id, user, days).await,
            W::Prefer(answer) => self.league_prefer(id, user, answer).await,
            W::Choose { draw } => self.league_choose(id, user, draw, None).await,
            W::Organise {
                match_id,
                action,
                reason,
            } => {
                let loser = match &action {
                    words::OrganiserWordsAction::Forfeit { loser } => {
                        Some(self.member_by_name(&l, loser).await?)
                    }
                    _ => None,
                };
                let action = action
                    .resolve(loser)
                    .ok_or_else(|| ServiceError::Refused("name who forfeits".into()))?;
                self.league_organise(id, user, is_admin, match_id, action, &reason)
                    .await
            }
            W::Log => self.league_log(id).await,
        }
    }
}
