//! Play or draw (Magic Tournament Rules 2.2): a random player of the match chooses for
//! game 1, the loser of each game for the next (after a drawn game, the same player). The
//! chooser is asked before each game ("play first" or "draw first") and the game waits
//! for the answer, stored on the match (`choice_game`). A standing answer (`prefer play`,
//! `prefer draw`) answers for them; `prefer ask` asks again. A member played by the
//! random agent answers at once, at random from the league's seed.
//!
//! The question does not hold a match forever: its chooser has [`choice_window`] to answer
//! (their vacation days not counted), is reminded halfway, and when the time has run out the
//! league sweep applies the default the question announced: the chooser plays first.

use super::{LeagueCtx, LeagueReply, refused};
use crate::league::clocks::{ClockRules, DAY, charged, describe};
use crate::service::{Result, Service, ServiceError};
use crate::storage::{Id, MatchRow};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A member's standing answer when they choose to play or draw (stored as `play_draw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayDraw {
    /// Asked before each game they choose for (a newcomer's default).
    Ask,
    /// Always play first.
    Play,
    /// Always draw first.
    Draw,
}

impl PlayDraw {
    /// The stored value (`ask`, `play`, `draw`); anything else reads as `Ask`, so an
    /// unreadable preference only ever asks.
    pub fn from_stored(s: &str) -> PlayDraw {
        match s {
            "play" => PlayDraw::Play,
            "draw" => PlayDraw::Draw,
            _ => PlayDraw::Ask,
        }
    }

    /// The value stored for this answer.
    pub fn stored(self) -> &'static str {
        match self {
            PlayDraw::Ask => "ask",
            PlayDraw::Play => "play",
            PlayDraw::Draw => "draw",
        }
    }
}

/// A play/draw question waiting for its chooser: game `game_no` of match `match_id` starts
/// when `chooser` answers. Front ends offer the answers (Discord: two buttons).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingChoice {
    pub league_id: Id,
    pub match_id: Id,
    pub game_no: i64,
    pub chooser: Id,
}

/// The answer of a chooser played by the random agent: drawn from the league's seed, the
/// match and the game, so a replayed league chooses alike. True: draw first.
pub(crate) fn agent_draws(league_seed: u64, match_id: Id, game_no: i64) -> bool {
    let mut rng = ChaCha8Rng::seed_from_u64(
        league_seed ^ 0x504C_4159_4452_4157 ^ (match_id as u64).rotate_left(24) ^ game_no as u64,
    );
    rng.random::<bool>()
}

/// How long a chooser has to answer the play/draw question before they play first: one
/// day, or the whole bank of a game's clock if that is shorter.
pub(crate) fn choice_window(rules: &ClockRules) -> i64 {
    rules.bank.clamp(0, DAY)
}

/// The other player of a (non-bye) match.
pub(crate) fn other_of(m: &MatchRow, user: Id) -> Id {
    if user == m.a_user {
        m.b_user.unwrap_or(m.a_user)
    } else {
        m.a_user
    }
}

impl Service {
    /// The question to `m`'s chooser before game `game_no`, as the league says it.
    pub(crate) async fn choice_question(
        &self,
        l: &LeagueCtx,
        m: &MatchRow,
        game_no: i64,
    ) -> String {
        let b = m.b_user.unwrap_or(m.a_user);
        let (an, bn) = (self.name_of(m.a_user).await, self.name_of(b).await);
        let chooser = self.name_of(m.chooser.unwrap_or(m.a_user)).await;
        format!(
            "{}: game {game_no} of {an} vs {bn} ({an} {}-{} {bn}): {chooser} chooses to play or draw first (`play first` or `draw first`); the game starts with the answer. Without an answer within {}, {chooser} plays first.",
            l.def.name,
            m.a_wins,
            m.b_wins,
            describe(choice_window(&l.def.clock))
        )
    }

    /// The sweep over `l`'s pending play/draw questions: a chooser halfway through their
    /// time is reminded once; one whose time has run out plays first, as the question
    /// said, and the game starts.
    pub(crate) async fn choice_deadlines(&self, l: &LeagueCtx) -> Result<Vec<LeagueReply>> {
        let mut out = Vec::new();
        let window = choice_window(&l.def.clock);
        let now = self.now();
        for m in self.db.league_matches(l.row.id).await? {
            let (Some(game_no), Some(asked), None) = (m.choice_game, m.choice_asked_at, m.game_id)
            else {
                continue;
            };
            if m.status != "active" || m.b_user.is_none() {
                continue;
            }
            let chooser = m.chooser.unwrap_or(m.a_user);
            let vac = self.vacations_of(l.row.id, chooser).await?;
            let used = charged(asked, now, &vac);
            let name = self.name_of(chooser).await;
            if used >= window {
                if !self.db.take_choice(m.id, game_no).await? {
                    continue;
                }
                let mut m = m.clone();
                m.choice_game = None;
                let plan = match self.start_match_game(l, &mut m, game_no, chooser).await {
                    Ok(plan) => plan,
                    Err(e) => {
                        // The game could not start: the question stays, and is asked anew.
                        self.db.ask_choice(m.id, game_no, now).await?;
                        tracing::warn!(match_id = m.id, error = %e, "default play/draw failed");
                        continue;
                    }
                };
                let mut r = self.after_start(l, plan).await?;
                r.text = format!(
                    "{}: {name} did not choose to play or draw within {}, so {name} plays first in game {game_no}.\n{}",
                    l.def.name,
                    describe(window),
                    r.text
                );
                r.pings.extend([chooser, other_of(&m, chooser)]);
                out.push(r);
            } else if used * 2 >= window && self.db.set_choice_reminded(m.id, game_no).await? {
                let mut r = LeagueReply::text(
                    l.row.id,
                    format!(
                        "{}: {name}, game {game_no} of your match waits for you to choose (`play first` or `draw first`); without an answer within {}, you play first.",
                        l.def.name,
                        describe(window - used)
                    ),
                );
                r.pings.push(chooser);
                r.choice = Some(PendingChoice {
                    league_id: l.row.id,
                    match_id: m.id,
                    game_no,
                    chooser,
                });
                out.push(r);
            }
        }
        Ok(out)
    }

    /// The member's pending play/draw question, if one waits for them.
    pub async fn league_pending_choice(
        &self,
        league_id: Id,
        user: Id,
    ) -> Result<Option<PendingChoice>> {
        let matches = self.db.league_matches(league_id).await?;
        Ok(matches.iter().find_map(|m| {
            let game_no = m.choice_game?;
            (m.status == "active" && m.game_id.is_none() && m.chooser == Some(user)).then_some(
                PendingChoice {
                    league_id,
                    match_id: m.id,
                    game_no,
                    chooser: user,
                },
            )
        }))
    }

    /// The chooser's answer (`draw`: draw first): the game starts with the chosen player
    /// first. `asked`: the (match, game) the answer was offered for (a button), refused
    /// once that game has started. Refused, changing nothing: a non-member, no question
    /// pending, the other player answering, a stale button, a second answer.
    pub async fn league_choose(
        &self,
        league_id: Id,
        user: Id,
        draw: bool,
        asked: Option<(Id, i64)>,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        self.member_or_refuse(&l, user).await?;
        let matches = self.db.league_matches(league_id).await?;
        let mine = matches
            .iter()
            .find(|m| m.status == "active" && (m.a_user == user || m.b_user == Some(user)));
        if let Some((match_id, game_no)) = asked
            && mine.is_none_or(|m| m.id != match_id || m.choice_game != Some(game_no))
        {
            return refused(format!(
                "this choice was for game {game_no} of match {match_id}, which is no longer waiting for it (it has started, or the match is over): nothing changed"
            ));
        }
        let Some(m) = mine else {
            return refused(format!(
                "you have no league match in progress in {}: there is nothing to choose",
                l.def.name
            ));
        };
        let Some(game_no) = m.choice_game else {
            return refused(match m.game_id {
                Some(g) => format!(
                    "your match's game is already being played (game {g}): play or draw is chosen before a game begins"
                ),
                None => "no play/draw choice is waiting in your match: `play` starts its next game"
                    .into(),
            });
        };
        let chooser = m.chooser.unwrap_or(m.a_user);
        if chooser != user {
            return refused(format!(
                "{} chooses to play or draw in game {game_no}, not you: the game starts when they answer",
                self.name_of(chooser).await
            ));
        }
        if !self.db.take_choice(m.id, game_no).await? {
            return refused("that choice has just been made; look at the match again");
        }
        let mut m = m.clone();
        m.choice_game = None;
        let first = if draw { other_of(&m, user) } else { user };
        match self.start_match_game(&l, &mut m, game_no, first).await {
            Ok(plan) => {
                let mut r = self.after_start(&l, plan).await?;
                r.pings.push(other_of(&m, user));
                Ok(r)
            }
            Err(e) => {
                // The game could not start (a deck gone bad, say): the question stays.
                self.db.ask_choice(m.id, game_no, self.now()).await?;
                Err(e)
            }
        }
    }

    /// The member's standing answer when they choose (MTR 2.2): ask each time, always play
    /// first or always draw first.
    pub async fn league_prefer(
        &self,
        league_id: Id,
        user: Id,
        answer: PlayDraw,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        self.member_or_refuse(&l, user).await?;
        self.db
            .set_play_draw(league_id, user, answer.stored())
            .await?;
        Ok(LeagueReply::text(
            league_id,
            match answer {
                PlayDraw::Ask => {
                    "When you choose, you will be asked before each game: play first or draw first."
                        .to_string()
                }
                PlayDraw::Play | PlayDraw::Draw => format!(
                    "When you choose, you will {} first without being asked (`prefer ask` to be asked again).",
                    if answer == PlayDraw::Draw {
                        "draw"
                    } else {
                        "play"
                    }
                ),
            },
        ))
    }

    /// What `play` says to a member whose match waits for a play/draw answer: the question
    /// again to its chooser (with the answers offered); a refusal to the other player.
    pub(crate) async fn pending_choice_reply(
        &self,
        l: &LeagueCtx,
        m: &MatchRow,
        user: Id,
        game_no: i64,
    ) -> Result<LeagueReply> {
        let chooser = m.chooser.unwrap_or(m.a_user);
        if chooser != user {
            return Err(ServiceError::Refused(format!(
                "{} chooses to play or draw in game {game_no} first: the game starts when they answer",
                self.name_of(chooser).await
            )));
        }
        let mut r = LeagueReply::text(l.row.id, self.choice_question(l, m, game_no).await);
        r.choice = Some(PendingChoice {
            league_id: l.row.id,
            match_id: m.id,
            game_no,
            chooser,
        });
        Ok(r)
    }
}
