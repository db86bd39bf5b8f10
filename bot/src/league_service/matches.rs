//! Matches: finding the next opponent (queue, Swiss, round robin, challenge), starting each
//! game of a match with the right player going first, recording the engine's results,
//! ratings, pack triggers, clocks and claims.

use super::choice::{PendingChoice, PlayDraw, agent_draws, other_of};
use super::{LeagueCtx, LeagueReply, is_agent_external, refused};
use crate::decks;
use crate::league::boosters;
use crate::league::clocks::{DAY, GameClock, Phase, Span, describe};
use crate::league::definition::{LeagueFormat, PackTrigger, Schedule, swiss_rounds_for};
use crate::league::pairing::{self, ChallengeCheck, SwissPlayer, Waiting};
use crate::league::pool::{self, Pool};
use crate::league::ratings::{self, Outcome, Rating};
use crate::replay::StoredSetup;
use crate::service::{Plan, Result, Service, ServiceError};
use crate::storage::{
    GameRecord, Id, LeagueGameRow, MatchRow, MemberRow, NewGame, NewSeat, RatingRow,
};
use engine::{GameResult, PlayerId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The clock of a match's current game, with the game version it was last brought up to.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct StoredClock {
    pub clock: GameClock,
    pub version: i64,
    /// The running player was reminded of their clock (reset when the clock moves on).
    #[serde(default)]
    pub reminded: bool,
    /// The waiting player was told the running clock has run out and they may claim (reset
    /// when the clock moves on). Apart from `reminded`, so that a player reminded of their
    /// last day does not keep their opponent from being told.
    #[serde(default)]
    pub flag_told: bool,
}

/// A member's record from the matches that count (finished; nullified ones do not).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Matches begun or finished (not nullified): what counts toward the run's length.
    pub played: u32,
    /// Opponents met (not nullified).
    pub met: Vec<Id>,
    pub busy: bool,
}

/// A member's record over all their runs (`busy`: a match of theirs is in progress).
pub(crate) fn record_of(user: Id, matches: &[MatchRow]) -> Record {
    record_where(user, None, matches)
}

/// A member's record in run `run` (what its length, its pairings by record, its rematch
/// rule and its pack triggers count); `busy` is about that run too.
pub(crate) fn run_record(user: Id, run: i64, matches: &[MatchRow]) -> Record {
    record_where(user, Some(run), matches)
}

fn record_where(user: Id, run: Option<i64>, matches: &[MatchRow]) -> Record {
    let mut r = Record::default();
    let in_run = |x: i64| run.is_none_or(|r| r == x);
    for m in matches.iter().filter(|m| m.status != "nullified") {
        let (me_a, opp) = if m.a_user == user && in_run(m.a_run) {
            (true, m.b_user)
        } else if m.b_user == Some(user) && in_run(m.b_run) {
            (false, Some(m.a_user))
        } else {
            continue;
        };
        r.played += 1;
        if let Some(o) = opp {
            r.met.push(o);
        }
        if m.status == "active" {
            r.busy = true;
            continue;
        }
        let (mine, theirs) = if me_a {
            (m.a_wins, m.b_wins)
        } else {
            (m.b_wins, m.a_wins)
        };
        if opp.is_none() || mine > theirs {
            r.wins += 1;
        } else if mine < theirs {
            r.losses += 1;
        } else {
            r.draws += 1;
        }
    }
    r
}

/// What beginning the next game of a match did: started it, or asked its chooser to play
/// or draw (the question's text; the game starts with the answer).
pub(crate) enum Begun {
    Started(Plan),
    Asked(PendingChoice, String),
}

/// One recorded game and what followed it: the league's text, the next game's plan or the
/// question to its chooser, and who to notify.
pub(crate) struct Step {
    pub text: String,
    pub plan: Option<Plan>,
    pub choice: Option<PendingChoice>,
    pub pings: Vec<Id>,
}

#[derive(Serialize, Deserialize)]
struct SeatDeckJson {
    name: String,
    cards: Vec<String>,
}

/// MTR 2.2: a random player of the match chooses play or draw for game 1 (drawn from the
/// league's seed, the match's start and its players, so a replayed league chooses alike).
pub(crate) fn game_one_chooser(league_seed: u64, now: i64, a: Id, b: Option<Id>) -> Id {
    let mut rng = ChaCha8Rng::seed_from_u64(
        league_seed ^ (now as u64) ^ (a as u64) << 20 ^ b.unwrap_or(0) as u64,
    );
    match b {
        Some(b) if rng.random::<bool>() => b,
        _ => a,
    }
}

/// The deadline of `m`'s round, for scheduled rounds (Swiss, round robin; None for the
/// queue and challenges).
pub(crate) fn round_deadline(l: &LeagueCtx, m: &MatchRow) -> Option<i64> {
    if matches!(l.def.schedule, Schedule::Queue) {
        return None;
    }
    let round = u32::try_from(m.round.checked_sub(1)?).ok()?;
    Some(l.def.dates.round_deadline(round, l.def.clock.round_days))
}

fn game_seed(league_seed: u64, match_id: Id, game_no: i64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(
        league_seed ^ (match_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game_no as u64,
    );
    rng.random()
}

impl Service {
    /// The member's deck for the next game of match `match_id`: the deck they sideboarded
    /// to for this match, else the build in use (not yet checked against the pool).
    pub(crate) async fn match_deck(
        &self,
        l: &LeagueCtx,
        m: &MemberRow,
        match_id: Id,
    ) -> Result<decks::Deck> {
        let who = self.name_of(m.user_id).await;
        let name = m
            .deck_name
            .clone()
            .ok_or_else(|| ServiceError::Deck(format!("{who} has no deck chosen yet")))?;
        if m.side_match == Some(match_id)
            && let Some(list) = &m.side_list
        {
            return decks::parse(&name, list)
                .map_err(|e| ServiceError::Deck(format!("{who}'s sideboarded deck: {e}")));
        }
        let builds = self.db.league_decks(l.row.id, m.user_id).await?;
        let b = builds
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| ServiceError::Deck(format!("{who}'s build `{name}` is gone")))?;
        decks::parse(&b.name, &b.list).map_err(|e| ServiceError::Deck(format!("{who}: {e}")))
    }

    /// The member's deck for the next game of match `match_id` ([`Service::match_deck`]),
    /// checked against the pool.
    async fn member_deck(
        &self,
        l: &LeagueCtx,
        m: &MemberRow,
        match_id: Id,
    ) -> Result<SeatDeckJson> {
        let who = self.name_of(m.user_id).await;
        let name = m.deck_name.clone().unwrap_or_default();
        let deck = self.match_deck(l, m, match_id).await?;
        if matches!(l.def.format, LeagueFormat::Sealed { .. }) {
            let pool = self.member_pool(l, m).await?;
            pool::check_deck(&pool, &deck).map_err(|p| {
                ServiceError::Deck(format!("{who}'s build `{name}`: {}", p.join("; ")))
            })?;
        }
        Ok(SeatDeckJson {
            name: deck.name.clone(),
            cards: deck.flat_names(),
        })
    }

    /// Begins the next game of an active match (MTR 2.2): its chooser (a random player in
    /// game 1, the loser of the previous game after) decides who plays first. A standing
    /// answer (`prefer play|draw`) starts the game at once, as does a chooser played by the
    /// random agent (at random from the league's seed); anyone else is asked, and the match
    /// waits for their answer ([`Service::league_choose`]).
    pub(crate) async fn begin_match_game(&self, l: &LeagueCtx, m: &mut MatchRow) -> Result<Begun> {
        m.b_user
            .ok_or_else(|| ServiceError::Refused("a bye has no games".into()))?;
        let game_no = self.db.league_games(m.id).await?.len() as i64 + 1;
        let chooser = m.chooser.unwrap_or(m.a_user);
        let chooser_m = self
            .db
            .member(l.row.id, chooser)
            .await?
            .ok_or_else(|| ServiceError::Refused("the chooser left the league".into()))?;
        let ext = self
            .db
            .user(chooser)
            .await?
            .map(|u| u.external_id)
            .unwrap_or_default();
        let draw = match PlayDraw::from_stored(&chooser_m.play_draw) {
            PlayDraw::Play => false,
            PlayDraw::Draw => true,
            PlayDraw::Ask if is_agent_external(&ext) => agent_draws(l.row.seed, m.id, game_no),
            PlayDraw::Ask => {
                if !self.db.ask_choice(m.id, game_no, self.now()).await? {
                    return refused("the match changed meanwhile; try again");
                }
                m.choice_game = Some(game_no);
                let question = self.choice_question(l, m, game_no).await;
                let pending = PendingChoice {
                    league_id: l.row.id,
                    match_id: m.id,
                    game_no,
                    chooser,
                };
                return Ok(Begun::Asked(pending, question));
            }
        };
        let first = if draw { other_of(m, chooser) } else { chooser };
        Ok(Begun::Started(
            self.start_match_game(l, m, game_no, first).await?,
        ))
    }

    /// Starts game `game_no` of an active match with `first` playing first (as its chooser
    /// decided).
    pub(crate) async fn start_match_game(
        &self,
        l: &LeagueCtx,
        m: &mut MatchRow,
        game_no: i64,
        first: Id,
    ) -> Result<Plan> {
        let b = m
            .b_user
            .ok_or_else(|| ServiceError::Refused("a bye has no games".into()))?;
        let players = [m.a_user, b];
        let chooser = m.chooser.unwrap_or(m.a_user);
        let mut seats = Vec::new();
        for u in players {
            let mem = self
                .db
                .member(l.row.id, u)
                .await?
                .ok_or_else(|| ServiceError::Refused("a player left the league".into()))?;
            let deck = self.member_deck(l, &mem, m.id).await?;
            let ext = self
                .db
                .user(u)
                .await?
                .map(|x| x.external_id)
                .unwrap_or_default();
            seats.push(NewSeat {
                user_id: u,
                deck: Some(
                    serde_json::to_string(&deck)
                        .map_err(|e| ServiceError::Refused(e.to_string()))?,
                ),
                accepted: true,
                is_agent: is_agent_external(&ext),
            });
        }
        let now = self.now();
        let game_id = self
            .db
            .create_game(
                &NewGame {
                    status: "challenge".into(),
                    ruleset: l.def.ruleset.name().into(),
                    seed: game_seed(l.row.seed, m.id, game_no),
                    created_by: chooser,
                    guild_id: (l.row.guild_id != 0).then_some(l.row.guild_id),
                    channel_id: l.row.channel_id,
                    thread_id: None,
                    now,
                },
                &seats,
            )
            .await?;
        let before = m.status.clone();
        m.game_id = Some(game_id);
        m.clock = None;
        if !self.db.update_match(m, &before).await? {
            return refused("the match changed meanwhile; try again");
        }
        let first_seat = u8::from(first == b);
        let mut plan = self.start_with(game_id, Some(first_seat)).await?;
        let (ca, cb) = (self.name_of(m.a_user).await, self.name_of(b).await);
        let chooser_name = self.name_of(chooser).await;
        plan.public.insert(
            0,
            format!(
                "{}: game {game_no} of {ca} vs {cb} ({ca} {}-{} {cb}); {chooser_name} chose to {} first.",
                l.def.name,
                m.a_wins,
                m.b_wins,
                if first == chooser { "play" } else { "draw" }
            ),
        );
        if !plan.finished {
            self.league_touch_clock(l, m.id, game_id).await?;
        }
        Ok(plan)
    }

    /// `play`: the member's next league match. With `opponent`: a challenge to a member not
    /// met this run. Without: the scheduled pairing (Swiss, round robin) or the queue.
    pub async fn league_play(
        &self,
        league_id: Id,
        user: Id,
        opponent: Option<Id>,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let me = self.db.member(league_id, user).await?.ok_or_else(|| {
            ServiceError::Refused(format!("you are not playing in league {}", l.def.name))
        })?;
        let matches = self.db.league_matches(league_id).await?;
        // A match of mine that has no game running (a new pairing, or between games).
        if let Some(m) = matches
            .iter()
            .find(|m| m.status == "active" && (m.a_user == user || m.b_user == Some(user)))
        {
            if let Some(g) = m.game_id {
                return refused(format!("your league match is in progress: game {g}"));
            }
            if opponent.is_some() {
                return refused("finish your league match in progress first");
            }
            if let Some(game_no) = m.choice_game {
                return self.pending_choice_reply(&l, m, user, game_no).await;
            }
            let mut m = m.clone();
            let begun = self.begin_match_game(&l, &mut m).await?;
            return self.after_begin(&l, begun).await;
        }
        if me.dropped_at.is_some() {
            return refused(format!("you dropped from {}", l.def.name));
        }
        match l.phase(self.now()) {
            Phase::Open | Phase::EntriesClosed => {}
            Phase::NotStarted => return refused(format!("{} has not started yet", l.def.name)),
            Phase::Grace | Phase::Over => {
                return refused(format!(
                    "{} has ended; only matches in progress can be finished",
                    l.def.name
                ));
            }
        }
        let rec = run_record(user, me.run, &matches);
        if let Some(o) = opponent {
            if !matches!(l.def.schedule, Schedule::Queue) {
                return refused(format!(
                    "{} pairs its rounds itself: `play` without an opponent starts your pairing",
                    l.def.name
                ));
            }
            return self.league_challenge(&l, user, o, &rec).await;
        }
        match l.def.schedule {
            Schedule::Queue => self.league_queue(&l, &me, &rec, &matches).await,
            Schedule::Swiss { .. } | Schedule::RoundRobin => {
                let reply = self.league_pair_round(&l).await?;
                if reply.text.is_empty() {
                    return refused(self.no_pairing_text(&l).await?);
                }
                // Paired now: start my match if I have one.
                let matches = self.db.league_matches(league_id).await?;
                if matches.iter().any(|m| {
                    m.status == "active"
                        && m.game_id.is_none()
                        && (m.a_user == user || m.b_user == Some(user))
                }) {
                    let mut r = Box::pin(self.league_play(league_id, user, None)).await?;
                    r.text = format!("{}\n{}", reply.text, r.text);
                    return Ok(r);
                }
                Ok(reply)
            }
        }
    }

    /// Why `play` found no pairing in a scheduled league: a round still being played, too
    /// few players left, or every round played.
    async fn no_pairing_text(&self, l: &LeagueCtx) -> Result<String> {
        let matches = self.db.league_matches(l.row.id).await?;
        if matches.iter().any(|m| m.status == "active") {
            return Ok("your next pairing is not out yet: the round is still being played".into());
        }
        let active = self
            .db
            .members(l.row.id)
            .await?
            .iter()
            .filter(|m| m.dropped_at.is_none())
            .count();
        let rounds = matches.iter().map(|m| m.round).max().unwrap_or(0);
        Ok(if active < 2 {
            format!(
                "too few players are left in {} to pair another round",
                l.def.name
            )
        } else {
            format!(
                "every round of {} has been played ({rounds}): see the standings",
                l.def.name
            )
        })
    }

    /// The reply to a match's next game begun: the game started, or the question to its
    /// chooser (who is notified).
    async fn after_begin(&self, l: &LeagueCtx, begun: Begun) -> Result<LeagueReply> {
        match begun {
            Begun::Started(plan) => self.after_start(l, plan).await,
            Begun::Asked(choice, question) => {
                let mut r = LeagueReply::text(l.row.id, question);
                r.pings.push(choice.chooser);
                r.choice = Some(choice);
                Ok(r)
            }
        }
    }

    pub(crate) async fn after_start(&self, l: &LeagueCtx, plan: Plan) -> Result<LeagueReply> {
        let mut reply =
            LeagueReply::text(l.row.id, plan.public.first().cloned().unwrap_or_default());
        let finished = plan.finished.then_some(plan.game_id);
        reply.plans.push(plan);
        if let Some(g) = finished {
            let more = self.league_after(g).await?;
            reply.text = format!("{}\n{}", reply.text, more.text).trim().to_string();
            reply.plans.extend(more.plans);
            reply.pings.extend(more.pings);
        }
        Ok(reply)
    }

    async fn new_match(&self, l: &LeagueCtx, a: Id, b: Option<Id>, round: i64) -> Result<MatchRow> {
        let now = self.now();
        let chooser = game_one_chooser(l.row.seed, now, a, b);
        let bye = b.is_none();
        let run_of = |u: Option<Id>| async move {
            match u {
                Some(u) => self
                    .db
                    .member(l.row.id, u)
                    .await
                    .map(|m| m.map_or(1, |m| m.run)),
                None => Ok(1),
            }
        };
        let (a_run, b_run) = (run_of(Some(a)).await?, run_of(b).await?);
        let mut m = MatchRow {
            id: 0,
            league_id: l.row.id,
            round,
            a_user: a,
            b_user: b,
            status: if bye {
                "finished".into()
            } else {
                "active".into()
            },
            a_wins: if bye {
                i64::from(l.def.games_to_win())
            } else {
                0
            },
            b_wins: 0,
            draws: 0,
            game_id: None,
            chooser: Some(chooser),
            choice_game: None,
            choice_asked_at: None,
            choice_reminded: false,
            clock: None,
            note: bye.then(|| "bye".to_string()),
            created_at: now,
            finished_at: bye.then_some(now),
            a_run,
            b_run,
        };
        m.id = self.db.create_match(&m).await?;
        Ok(m)
    }

    async fn league_challenge(
        &self,
        l: &LeagueCtx,
        user: Id,
        opp: Id,
        rec: &Record,
    ) -> Result<LeagueReply> {
        let members = self.db.members(l.row.id).await?;
        let active: Vec<Id> = members
            .iter()
            .filter(|m| m.dropped_at.is_none())
            .map(|m| m.user_id)
            .collect();
        let matches = self.db.league_matches(l.row.id).await?;
        let busy: Vec<Id> = active
            .iter()
            .copied()
            .filter(|u| record_of(*u, &matches).busy)
            .collect();
        let name = self.name_of(opp).await;
        pairing::check_challenge(
            &ChallengeCheck {
                me: user,
                opponent: opp,
                members: &active,
                met: &rec.met,
                no_rematch: l.def.no_rematch,
                busy: &busy,
            },
            &name,
        )
        .map_err(ServiceError::Refused)?;
        if l.def.run_over(rec.played, rec.losses) {
            return refused(self.run_over_text(l, rec));
        }
        let orun = members
            .iter()
            .find(|m| m.user_id == opp)
            .map_or(1, |m| m.run);
        let orec = run_record(opp, orun, &matches);
        if l.def.run_over(orec.played, orec.losses) {
            return refused(format!("{name}'s run is complete"));
        }
        // No repeat opponent within a run: within theirs either (a new run of mine does
        // not make me a new opponent for someone still in the run where we met).
        if l.def.no_rematch && orec.met.contains(&user) {
            return refused(format!(
                "{name} has already played you in their run; choose someone they have not met"
            ));
        }
        let mut m = self.new_match(l, user, Some(opp), 0).await?;
        let begun = self.begin_match_game(l, &mut m).await?;
        let mut r = self.after_begin(l, begun).await?;
        r.pings.push(opp);
        Ok(r)
    }

    async fn league_queue(
        &self,
        l: &LeagueCtx,
        me: &MemberRow,
        rec: &Record,
        matches: &[MatchRow],
    ) -> Result<LeagueReply> {
        if l.def.run_over(rec.played, rec.losses) {
            return refused(self.run_over_text(l, rec));
        }
        let members = self.db.members(l.row.id).await?;
        let mut waiting: Vec<&MemberRow> = members
            .iter()
            .filter(|m| m.user_id != me.user_id && m.dropped_at.is_none() && m.queued_at.is_some())
            .collect();
        waiting.sort_by_key(|m| (m.queued_at, m.user_id));
        let others: Vec<Waiting> = waiting
            .iter()
            .filter(|m| {
                let r = run_record(m.user_id, m.run, matches);
                !record_of(m.user_id, matches).busy && !l.def.run_over(r.played, r.losses)
            })
            .map(|m| {
                let r = run_record(m.user_id, m.run, matches);
                Waiting {
                    player: m.user_id,
                    wins: r.wins,
                    losses: r.losses,
                    met: if l.def.no_rematch { r.met } else { Vec::new() },
                }
            })
            .collect();
        let mine = Waiting {
            player: me.user_id,
            wins: rec.wins,
            losses: rec.losses,
            met: if l.def.no_rematch {
                rec.met.clone()
            } else {
                Vec::new()
            },
        };
        match pairing::queue_opponent(&mine, &others) {
            Some(o) => {
                let mut m = self.new_match(l, o, Some(me.user_id), 0).await?;
                let begun = self.begin_match_game(l, &mut m).await?;
                let mut r = self.after_begin(l, begun).await?;
                r.pings.push(o);
                Ok(r)
            }
            None => {
                if me.queued_at.is_none() {
                    self.db
                        .set_queued(l.row.id, me.user_id, Some(self.now()))
                        .await?;
                }
                Ok(LeagueReply::text(
                    l.row.id,
                    format!(
                        "You are in the queue of {} ({}-{}); your match starts when an opponent you have not met asks to play.",
                        l.def.name, rec.wins, rec.losses
                    ),
                ))
            }
        }
    }

    /// Pairs the next Swiss or round-robin round when the last one is over (byes finished at
    /// once). Returns an empty text when the round in progress is not over or all rounds are
    /// played.
    pub async fn league_pair_round(&self, l: &LeagueCtx) -> Result<LeagueReply> {
        let matches = self.db.league_matches(l.row.id).await?;
        let last = matches.iter().map(|m| m.round).max().unwrap_or(0);
        if matches
            .iter()
            .any(|m| m.round == last && m.status == "active")
        {
            return Ok(LeagueReply::text(l.row.id, ""));
        }
        let members = self.db.members(l.row.id).await?;
        let active: Vec<Id> = members
            .iter()
            .filter(|m| m.dropped_at.is_none())
            .map(|m| m.user_id)
            .collect();
        let first_round: Vec<Id> = {
            let mut v: Vec<Id> = matches
                .iter()
                .filter(|m| m.round == 1)
                .flat_map(|m| std::iter::once(m.a_user).chain(m.b_user))
                .collect();
            v.sort();
            v
        };
        let next = last + 1;
        let pairs: Vec<(Id, Option<Id>)> = match l.def.schedule {
            Schedule::Swiss { rounds } => {
                let total = if rounds == 0 {
                    swiss_rounds_for(if last == 0 {
                        active.len()
                    } else {
                        first_round.len()
                    })
                } else {
                    rounds
                };
                if next > i64::from(total) || active.len() < 2 {
                    return Ok(LeagueReply::text(l.row.id, ""));
                }
                let players: Vec<SwissPlayer> = active
                    .iter()
                    .map(|u| {
                        let r = record_of(*u, &matches);
                        let had_bye = matches.iter().any(|m| {
                            m.a_user == *u && m.b_user.is_none() && m.status != "nullified"
                        });
                        SwissPlayer {
                            player: *u,
                            points: 3 * r.wins + r.draws,
                            had_bye,
                            opponents: r.met,
                        }
                    })
                    .collect();
                pairing::swiss_round(&players, l.row.seed ^ next as u64).0
            }
            Schedule::RoundRobin => {
                // The same circle every round: the field of round 1 in member id order (the
                // join order would give round 1 a different circle from the later rounds,
                // and pairs would meet twice).
                let base = if last == 0 {
                    let mut v = active.clone();
                    v.sort();
                    v
                } else {
                    first_round.clone()
                };
                let rounds = pairing::round_robin(&base);
                let Some(round) = rounds.get(last as usize) else {
                    return Ok(LeagueReply::text(l.row.id, ""));
                };
                // A dropped player's opponent has a bye.
                round
                    .iter()
                    .filter_map(|(a, b)| {
                        let (a_in, b_in) =
                            (active.contains(a), b.is_some_and(|b| active.contains(&b)));
                        match (a_in, b_in) {
                            (true, true) => Some((*a, *b)),
                            (true, false) => Some((*a, None)),
                            (false, true) => b.map(|b| (b, None)),
                            (false, false) => None,
                        }
                    })
                    .collect()
            }
            Schedule::Queue => return Ok(LeagueReply::text(l.row.id, "")),
        };
        let deadline = l
            .def
            .dates
            .round_deadline(u32::try_from(next - 1).unwrap_or(0), l.def.clock.round_days);
        let mut lines = vec![format!(
            "{}: round {next} pairings (play by {}):",
            l.def.name,
            super::in_days(self.now(), deadline)
        )];
        let mut pings = Vec::new();
        for (a, b) in pairs {
            self.new_match(l, a, b, next).await?;
            let an = self.name_of(a).await;
            match b {
                Some(b) => {
                    lines.push(format!("{an} vs {}", self.name_of(b).await));
                    pings.extend([a, b]);
                }
                None => lines.push(format!("{an} has a bye")),
            }
        }
        Ok(LeagueReply {
            league_id: l.row.id,
            text: lines.join("\n"),
            pings,
            ..Default::default()
        })
    }

    /// After a command in a game: if it is a league game, bring its clock up to date, and
    /// when it has ended record the result and go on with the match (its next game, or its
    /// end). Games played out by agents are followed to the end of the match.
    pub async fn league_after(&self, game_id: Id) -> Result<LeagueReply> {
        let mut reply = LeagueReply::default();
        let mut next = Some(game_id);
        while let Some(g) = next.take() {
            let Some(m) = self.db.match_of_game(g).await? else {
                break;
            };
            let l = self.league_ctx(m.league_id).await?;
            reply.league_id = l.row.id;
            let loaded = self.load(g).await?;
            let Some(result) = loaded.game.result else {
                self.league_touch_clock(&l, m.id, g).await?;
                break;
            };
            let step = self.record_result(&l, &m, g, result, "won", false).await?;
            if !step.text.is_empty() {
                reply.text = format!("{}\n{}", reply.text, step.text).trim().to_string();
            }
            reply.pings.extend(step.pings);
            reply.choice = step.choice.or(reply.choice);
            if let Some(plan) = step.plan {
                if plan.finished {
                    next = Some(plan.game_id);
                }
                reply.plans.push(plan);
            }
        }
        Ok(reply)
    }

    /// The match goes on after a recorded game (`text`): its next game begun, started or
    /// with its chooser asked to play or draw (the question joins the text).
    async fn next_game_step(&self, l: &LeagueCtx, after: &MatchRow, text: String) -> Result<Step> {
        let mut next = after.clone();
        let mut step = Step {
            text,
            plan: None,
            choice: None,
            pings: std::iter::once(after.a_user).chain(after.b_user).collect(),
        };
        match self.begin_match_game(l, &mut next).await? {
            Begun::Started(plan) => step.plan = Some(plan),
            Begun::Asked(choice, question) => {
                step.text = format!("{}\n{question}", step.text);
                step.choice = Some(choice);
            }
        }
        Ok(step)
    }

    /// Records one ended game of `m` and goes on: the next game begun (started, or its
    /// chooser asked), or the match closed.
    pub(crate) async fn record_result(
        &self,
        l: &LeagueCtx,
        m: &MatchRow,
        game_id: Id,
        result: GameResult,
        how: &str,
        end_match: bool,
    ) -> Result<Step> {
        let b = m
            .b_user
            .ok_or_else(|| ServiceError::Refused("a bye has no games".into()))?;
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let setup: Option<StoredSetup> = row
            .setup
            .as_deref()
            .and_then(|s| serde_json::from_str(s).ok());
        let seat_user = |p: PlayerId| if p.0 == 0 { m.a_user } else { b };
        let first_user = setup
            .and_then(|s| s.first_player)
            .map_or(m.a_user, |p| seat_user(PlayerId(p)));
        let winner = match result {
            GameResult::Won(p) => Some(seat_user(p)),
            GameResult::Draw => None,
        };
        let games = self.db.league_games(m.id).await?;
        let game_no = games.len() as i64 + 1;
        let now = self.now();
        let mut after = m.clone();
        match winner {
            Some(w) if w == m.a_user => after.a_wins += 1,
            Some(_) => after.b_wins += 1,
            None => after.draws += 1,
        }
        let gtw = i64::from(l.def.games_to_win());
        // After the grace period no new game begins: the match ends with its score.
        // A game claimed at the round's deadline ends the match too (`end_match`).
        let decided = after.a_wins >= gtw
            || after.b_wins >= gtw
            || game_no >= i64::from(l.def.best_of)
            || l.phase(now) == Phase::Over
            || end_match;
        after.game_id = None;
        after.clock = None;
        // MTR 2.2: the loser of the game chooses for the next; after a draw, the same player.
        after.chooser = match winner {
            Some(w) => Some(if w == m.a_user { b } else { m.a_user }),
            None => m.chooser,
        };
        if decided {
            after.status = "finished".into();
            after.finished_at = Some(now);
        }
        let format = l.def.format.rating_key();
        let ra = self.rating_of(m.a_user, format).await?;
        let rb = self.rating_of(b, format).await?;
        let outcome = match winner {
            Some(w) if w == m.a_user => Outcome::Win,
            Some(_) => Outcome::Loss,
            None => Outcome::Draw,
        };
        let (na, nb) = ratings::rate_game(&ra, &rb, outcome, now);
        let row_of = |u: Id, r: &Rating| RatingRow {
            user_id: u,
            format: format.into(),
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: i64::from(r.games),
            last_played: r.last_played,
        };
        let reason = match winner {
            Some(w) => format!("{} {how}", self.name_of(w).await),
            None => "draw".to_string(),
        };
        let rec = GameRecord {
            game: LeagueGameRow {
                match_id: m.id,
                game_no,
                game_id,
                first_user,
                winner,
                draw: winner.is_none(),
                reason: reason.clone(),
                finished_at: now,
            },
            after: after.clone(),
            expected_status: "active".into(),
            ratings: vec![row_of(m.a_user, &na), row_of(b, &nb)],
        };
        if !self.db.record_game(&rec).await? {
            return Ok(Step {
                text: String::new(),
                plan: None,
                choice: None,
                pings: Vec::new(),
            });
        }
        let (an, bn) = (self.name_of(m.a_user).await, self.name_of(b).await);
        let mut text = format!(
            "{}: game {game_no}: {reason} ({an} {} - {} {bn}{}).",
            l.def.name,
            after.a_wins,
            after.b_wins,
            if after.draws > 0 {
                format!(", {} drawn", after.draws)
            } else {
                String::new()
            }
        );
        if !decided {
            return self.next_game_step(l, &after, text).await;
        }
        text.push_str(&format!(
            " Match over: {an} {}-{} {bn}.",
            after.a_wins, after.b_wins
        ));
        let loser = match after.a_wins.cmp(&after.b_wins) {
            std::cmp::Ordering::Greater => Some(b),
            std::cmp::Ordering::Less => Some(m.a_user),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(line) = self.pack_triggers(l, loser).await? {
            text.push_str(&format!(" {line}"));
        }
        if !matches!(l.def.schedule, Schedule::Queue) {
            let r = self.league_pair_round(l).await?;
            if !r.text.is_empty() {
                text.push_str(&format!("\n{}", r.text));
            }
        }
        Ok(Step {
            text,
            plan: None,
            choice: None,
            pings: vec![m.a_user, b],
        })
    }

    pub(crate) async fn rating_of(&self, user: Id, format: &str) -> Result<Rating> {
        Ok(match self.db.rating(user, format).await? {
            Some(r) => Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: u32::try_from(r.games).unwrap_or(0),
                last_played: r.last_played,
            },
            None => Rating::default(),
        })
    }

    /// The loser's pack (`Loser`, `PerLosses`): a new pack opened from its own stored seed.
    async fn pack_triggers(&self, l: &LeagueCtx, loser: Option<Id>) -> Result<Option<String>> {
        let LeagueFormat::Sealed { product } = &l.def.format else {
            return Ok(None);
        };
        let Some(loser) = loser else { return Ok(None) };
        let matches = self.db.league_matches(l.row.id).await?;
        let run = self.db.member(l.row.id, loser).await?.map_or(1, |m| m.run);
        let losses = run_record(loser, run, &matches).losses;
        let due = l.def.pack_triggers.iter().any(|t| match t {
            PackTrigger::Loser => true,
            PackTrigger::PerLosses(n) => losses > 0 && losses.is_multiple_of(*n),
            PackTrigger::Weekly => false,
        });
        if !due {
            return Ok(None);
        }
        self.grant_pack(
            l,
            loser,
            product.pack_sets().first().copied().unwrap_or("TSP"),
        )
        .await
        .map(Some)
    }

    pub(crate) async fn grant_pack(&self, l: &LeagueCtx, user: Id, set: &str) -> Result<String> {
        let m = self
            .db
            .member(l.row.id, user)
            .await?
            .ok_or_else(|| ServiceError::Refused("not a member".into()))?;
        let mut pool: Pool = self.member_pool(l, &m).await?;
        let seed = boosters::pack_seed(
            boosters::run_seed(l.row.seed, u64::try_from(m.run).unwrap_or(1)),
            user as u64,
            pool.packs.len() as u64,
        );
        let pack = pool.add(set, seed).map_err(ServiceError::Refused)?.clone();
        let json =
            serde_json::to_string(&pool).map_err(|e| ServiceError::Refused(e.to_string()))?;
        self.db.set_member_pool(l.row.id, user, &json).await?;
        let names: Vec<&str> = pack.cards.iter().map(|c| c.name.as_str()).collect();
        Ok(format!(
            "{} opens a {set} pack: {}.",
            self.name_of(user).await,
            names.join(", ")
        ))
    }

    pub(crate) async fn vacations_of(&self, league: Id, user: Id) -> Result<Vec<Span>> {
        Ok(self
            .db
            .member(league, user)
            .await?
            .and_then(|m| serde_json::from_str(&m.vacations).ok())
            .unwrap_or_default())
    }

    /// Brings the game clock of a match up to the game's current version.
    async fn league_touch_clock(&self, l: &LeagueCtx, match_id: Id, game_id: Id) -> Result<()> {
        let Some(m) = self.db.league_match(match_id).await? else {
            return Ok(());
        };
        let loaded = self.load(game_id).await?;
        let pending = loaded.game.pending().map(|p| p.player.index());
        let now = self.now();
        let mut stored = match m
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<StoredClock>(c).ok())
        {
            Some(s) => s,
            None => StoredClock {
                clock: GameClock::new(&l.def.clock, now, pending),
                version: loaded.row.version,
                reminded: false,
                flag_told: false,
            },
        };
        if stored.version != loaded.row.version || stored.clock.running != pending {
            let running_user = stored
                .clock
                .running
                .and_then(|s| loaded.seats.get(s))
                .map(|s| s.user_id);
            let vac = match running_user {
                Some(u) => self.vacations_of(l.row.id, u).await?,
                None => Vec::new(),
            };
            let answered = stored.version != loaded.row.version;
            stored.clock.advance(now, pending, answered, &vac);
            stored.version = loaded.row.version;
            stored.reminded = false;
            stored.flag_told = false;
        }
        self.store_clock(&m, &stored).await?;
        // The league clock times a league game, not the service's per-decision deadline
        // (whose expiries answer for a player and forfeit after a few): no deadline is kept.
        if loaded.row.deadline.is_some() {
            self.db.clear_deadline(game_id).await?;
        }
        Ok(())
    }

    async fn store_clock(&self, m: &MatchRow, stored: &StoredClock) -> Result<()> {
        let mut after = m.clone();
        after.clock =
            Some(serde_json::to_string(stored).map_err(|e| ServiceError::Refused(e.to_string()))?);
        if after.clock != m.clock {
            self.db.update_match(&after, &m.status).await?;
        }
        Ok(())
    }

    /// Clock reminders of the league's games in progress: the running player when less than
    /// a day is left, and the waiting player when the clock has run out (they may claim).
    pub(crate) async fn clock_reminders(&self, l: &LeagueCtx) -> Result<Vec<LeagueReply>> {
        let mut out = Vec::new();
        for m in self.db.league_matches(l.row.id).await? {
            let (Some(g), Some(b)) = (m.game_id, m.b_user) else {
                continue;
            };
            if m.status != "active" {
                continue;
            }
            self.league_touch_clock(l, m.id, g).await?;
            let Some(m) = self.db.league_match(m.id).await? else {
                continue;
            };
            let Some(mut stored) = m
                .clock
                .as_deref()
                .and_then(|c| serde_json::from_str::<StoredClock>(c).ok())
            else {
                continue;
            };
            let Some(seat) = stored.clock.running else {
                continue;
            };
            let (runner, waiter) = if seat == 0 {
                (m.a_user, b)
            } else {
                (b, m.a_user)
            };
            let vac = self.vacations_of(l.row.id, runner).await?;
            let left = stored.clock.remaining_at(seat, self.now(), &vac);
            let text = if left <= 0 {
                if stored.flag_told {
                    continue;
                }
                format!(
                    "{}: {}'s clock in game {g} has run out; {} may claim the game (`league claim`).",
                    l.def.name,
                    self.name_of(runner).await,
                    self.name_of(waiter).await
                )
            } else if left <= crate::league::clocks::DAY {
                if stored.reminded {
                    continue;
                }
                format!(
                    "{}: {} has {} left on their clock in game {g}.",
                    l.def.name,
                    self.name_of(runner).await,
                    describe(left)
                )
            } else {
                continue;
            };
            if left <= 0 {
                stored.flag_told = true;
            } else {
                stored.reminded = true;
            }
            self.store_clock(&m, &stored).await?;
            out.push(LeagueReply {
                league_id: l.row.id,
                text,
                plans: Vec::new(),
                choice: None,
                pings: vec![if left <= 0 { waiter } else { runner }],
                standings: false,
            });
        }
        Ok(out)
    }

    /// Round-deadline reminders (Swiss, round robin): once a day or less is left before the
    /// deadline of a match's round and the match is still being played, both its players
    /// are told, once, with what happens at the deadline (the player who waits may claim).
    pub(crate) async fn round_deadline_reminders(&self, l: &LeagueCtx) -> Result<Vec<LeagueReply>> {
        let mut out = Vec::new();
        let now = self.now();
        for m in self.db.league_matches(l.row.id).await? {
            let (Some(b), Some(deadline)) = (m.b_user, round_deadline(l, &m)) else {
                continue;
            };
            if m.status != "active" || now >= deadline || deadline - now > DAY {
                continue;
            }
            if !self.db.set_deadline_reminded(m.id).await? {
                continue;
            }
            let (an, bn) = (self.name_of(m.a_user).await, self.name_of(b).await);
            let state = match m.game_id {
                Some(g) => format!("game {g} is being played"),
                None => "no game is being played".into(),
            };
            out.push(LeagueReply {
                league_id: l.row.id,
                text: format!(
                    "{}: round {}'s deadline is in {} ({}): {an} vs {bn} stands at {}-{} and {state}. After it, a player waiting for their opponent may claim the game (`league claim`), and a match with no game in progress ends with its score.",
                    l.def.name,
                    m.round,
                    describe(deadline - now),
                    crate::league::clocks::utc(deadline),
                    m.a_wins,
                    m.b_wins
                ),
                pings: vec![m.a_user, b],
                ..Default::default()
            });
        }
        Ok(out)
    }

    /// The waiting player claims the game whose opponent's clock ran out: the flagged
    /// player forfeits the game (never silently: only on this claim). After the deadline of
    /// the match's round (Swiss, round robin) the waiting player may claim too, whatever the
    /// clocks say: the player the game waits for forfeits it and the match ends with its
    /// score; a match with no game in progress then ends with its score.
    pub async fn league_claim(&self, league_id: Id, user: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let matches = self.db.league_matches(league_id).await?;
        let Some(m) = matches
            .iter()
            .find(|m| m.status == "active" && (m.a_user == user || m.b_user == Some(user)))
        else {
            return refused("you have no league match in progress");
        };
        let now = self.now();
        let overdue = round_deadline(&l, m).filter(|d| now > *d);
        let Some(g) = m.game_id else {
            if overdue.is_some() {
                return self.end_at_deadline(&l, m, user).await;
            }
            return refused("no game of your match is being played");
        };
        self.league_touch_clock(&l, m.id, g).await?;
        let m = self
            .db
            .league_match(m.id)
            .await?
            .ok_or_else(|| ServiceError::Refused("the match is gone".into()))?;
        let my_seat = usize::from(m.b_user == Some(user));
        let other = if my_seat == 0 {
            m.b_user.unwrap_or(m.a_user)
        } else {
            m.a_user
        };
        let vac = self.vacations_of(league_id, other).await?;
        let on_time = match m
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<StoredClock>(c).ok())
        {
            Some(stored) => stored.clock.claim(my_seat, now, &vac),
            None => Err("this game has no clock".to_string()),
        };
        let loaded = self.load(g).await?;
        let (loser_seat, how) = match (on_time, overdue) {
            (Ok(seat), _) => (seat, "claimed the game on time"),
            (Err(why), None) => return refused(why),
            (Err(_), Some(_)) => match loaded.game.pending().map(|p| p.player.index()) {
                Some(seat) if seat != my_seat => (seat, "claimed the game at the round's deadline"),
                Some(_) => {
                    return refused(format!(
                        "round {}'s deadline has passed, but the game waits for you: make your move (the player who waits may claim)",
                        m.round
                    ));
                }
                None => return refused("the game waits for nobody"),
            },
        };
        let mut game = loaded.game.clone();
        game.submit(PlayerId(loser_seat as u8), engine::Answer::Concede)
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        let result = game
            .result
            .ok_or_else(|| ServiceError::Refused("the claim did not end the game".into()))?;
        // The game is ended in the service as the flagged player's concession.
        let loser_user = if loser_seat == 0 {
            m.a_user
        } else {
            m.b_user.unwrap_or(m.a_user)
        };
        self.command(loser_user, g, "concede yes", None).await?;
        let step = self
            .record_result(&l, &m, g, result, how, overdue.is_some())
            .await?;
        let why = if overdue.is_some() {
            format!("round {}'s deadline has passed", m.round)
        } else {
            format!("{} ran out of time", self.name_of(loser_user).await)
        };
        let mut reply = LeagueReply::text(league_id, format!("{why}: {}", step.text));
        reply.pings = step.pings;
        reply.choice = step.choice;
        reply.plans.extend(step.plan);
        Ok(reply)
    }

    /// A claim after the round's deadline in a match with no game in progress: the match
    /// ends with its score (a draw when level), and the next round is paired when it can be.
    async fn end_at_deadline(&self, l: &LeagueCtx, m: &MatchRow, by: Id) -> Result<LeagueReply> {
        let Some(b) = m.b_user else {
            return refused("a bye has no games");
        };
        let now = self.now();
        let mut after = m.clone();
        after.status = "finished".into();
        after.finished_at = Some(now);
        after.clock = None;
        after.note = Some(format!(
            "ended at round {}'s deadline, claimed by {}",
            m.round,
            self.name_of(by).await
        ));
        if !self.db.update_match(&after, "active").await? {
            return refused("the match changed meanwhile; look again and retry");
        }
        let (an, bn) = (self.name_of(m.a_user).await, self.name_of(b).await);
        let mut text = format!(
            "{}: round {}'s deadline has passed with no game in progress: match over, {an} {}-{} {bn}.",
            l.def.name, m.round, m.a_wins, m.b_wins
        );
        let r = self.league_pair_round(l).await?;
        if !r.text.is_empty() {
            text.push_str(&format!("\n{}", r.text));
        }
        let mut reply = LeagueReply::text(l.row.id, text);
        reply.pings = vec![m.a_user, b];
        reply.pings.extend(r.pings);
        Ok(reply)
    }

    /// Time remaining on both clocks of the member's current game.
    pub async fn league_clock(&self, league_id: Id, user: Id) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let matches = self.db.league_matches(league_id).await?;
        let Some(m) = matches
            .iter()
            .find(|m| m.status == "active" && (m.a_user == user || m.b_user == Some(user)))
        else {
            return refused("you have no league match in progress");
        };
        let Some(g) = m.game_id else {
            return refused("no game of your match is being played");
        };
        self.league_touch_clock(&l, m.id, g).await?;
        let m = self
            .db
            .league_match(m.id)
            .await?
            .ok_or_else(|| ServiceError::Refused("the match is gone".into()))?;
        let Some(stored) = m
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<StoredClock>(c).ok())
        else {
            return refused("this game has no clock");
        };
        let now = self.now();
        let mut parts = Vec::new();
        for (seat, u) in [(0, Some(m.a_user)), (1, m.b_user)] {
            let Some(u) = u else { continue };
            let vac = self.vacations_of(league_id, u).await?;
            let left = stored.clock.remaining_at(seat, now, &vac);
            let run = if stored.clock.running == Some(seat) {
                " (running)"
            } else {
                ""
            };
            parts.push(format!(
                "{}: {}{run}",
                self.name_of(u).await,
                describe(left)
            ));
        }
        Ok(LeagueReply::text(league_id, parts.join(" · ")))
    }
}

#[cfg(test)]
mod tests {
    use super::game_one_chooser;

    /// Game 1's chooser is either player, about half the time each, over many matches of
    /// one league; the same match chooses alike; a bye's player is its own chooser.
    #[test]
    fn game_one_chooser_is_either_player_at_random() {
        let mut b_chose = 0;
        let n = 2000;
        for i in 0..n {
            let (a, b) = (10 + i % 37, 100 + i / 37);
            let c = game_one_chooser(0xDEC0DE, 1_000_000 + i * 61, a, Some(b));
            assert!(c == a || c == b);
            assert_eq!(
                c,
                game_one_chooser(0xDEC0DE, 1_000_000 + i * 61, a, Some(b))
            );
            b_chose += i64::from(c == b);
        }
        // Binomial(2000, 0.5): the standard deviation is about 22; 5 of them either way.
        assert!((b_chose - n / 2).abs() < 112, "{b_chose} of {n}");
        assert_eq!(game_one_chooser(1, 2, 3, None), 3);
    }
}
