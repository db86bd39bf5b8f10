//! Ratings: Glicko-2 (the `skillratings` crate), one rating per format, updated after
//! every game (not every match), separate from league points.
//!
//! A new player starts at 1500 with deviation 350. Before each game, each player's
//! deviation grows by one Glicko-2 rating period for every whole day since their last game
//! (`skillratings::glicko2::decay_deviation`, capped at 350), as lichess does for
//! correspondence play. A rating is provisional, shown with "?", while its deviation is above
//! 110.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// One rating period of idle time.
pub const PERIOD_SECS: i64 = 86_400;
/// Above this deviation a rating is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    /// When the player's last rated game ended (Unix seconds).
    pub last_played: Option<i64>,
}

impl Default for Rating {
    fn default() -> Self {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: 0,
            last_played: None,
        }
    }
}

/// A game's result from the first player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Rating {
    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// `1623` or `1500?`.
    pub fn display(&self) -> String {
        format!(
            "{}{}",
            self.rating.round() as i64,
            if self.provisional() { "?" } else { "" }
        )
    }

    /// The rating as it stands at `now`: the deviation grown by one period per whole idle day.
    pub fn at(&self, now: i64) -> Rating {
        let Some(last) = self.last_played else {
            return *self;
        };
        let periods = ((now - last).max(0) / PERIOD_SECS).min(10_000);
        let mut g = self.glicko();
        for _ in 0..periods {
            if g.deviation >= 350.0 {
                break;
            }
            g = decay_deviation(&g);
        }
        Rating {
            deviation: g.deviation,
            ..*self
        }
    }
}

/// Rates one game between `a` and `b` ending at `now`.
pub fn rate_game(a: &Rating, b: &Rating, outcome: Outcome, now: i64) -> (Rating, Rating) {
    let (a0, b0) = (a.at(now), b.at(now));
    let o = match outcome {
        Outcome::Win => Outcomes::WIN,
        Outcome::Loss => Outcomes::LOSS,
        Outcome::Draw => Outcomes::DRAW,
    };
    let (na, nb) = glicko2(&a0.glicko(), &b0.glicko(), &o, &Glicko2Config::new());
    let wrap = |g: Glicko2Rating, old: &Rating| Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: old.games + 1,
        last_played: Some(now),
    };
    (wrap(na, a), wrap(nb, b))
}

/// One rated game: the two players, the result from `a`'s side, when it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    pub a: i64,
    pub b: i64,
    pub outcome: Outcome,
    pub at: i64,
}

/// Every player's rating after `games`, in order, from new ratings: what the ratings are when
/// exactly these games count (an organiser's nullified match leaves its games out).
pub fn replay(games: &[RatedGame]) -> std::collections::BTreeMap<i64, Rating> {
    let mut out: std::collections::BTreeMap<i64, Rating> = Default::default();
    for g in games {
        let ra = out.get(&g.a).copied().unwrap_or_default();
        let rb = out.get(&g.b).copied().unwrap_or_default();
        let (na, nb) = rate_game(&ra, &rb, g.outcome, g.at);
        out.insert(g.a, na);
        out.insert(g.b, nb);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaying_games_is_rating_them_one_by_one() {
        let games = [
            RatedGame {
                a: 1,
                b: 2,
                outcome: Outcome::Win,
                at: 10,
            },
            RatedGame {
                a: 2,
                b: 3,
                outcome: Outcome::Draw,
                at: 20 + PERIOD_SECS * 3,
            },
            RatedGame {
                a: 3,
                b: 1,
                outcome: Outcome::Loss,
                at: 30 + PERIOD_SECS * 3,
            },
        ];
        let r = replay(&games);
        let (a, b) = rate_game(&Rating::default(), &Rating::default(), Outcome::Win, 10);
        let (b, c) = rate_game(&b, &Rating::default(), Outcome::Draw, 20 + PERIOD_SECS * 3);
        let (c, a) = rate_game(&c, &a, Outcome::Loss, 30 + PERIOD_SECS * 3);
        assert_eq!((r[&1], r[&2], r[&3]), (a, b, c));
        assert_eq!(r[&1].games, 2);
        // Without the first game, player 1 has only the last one.
        let r = replay(&games[1..]);
        assert_eq!(r[&1].games, 1);
        assert!(replay(&[]).is_empty());
    }

    #[test]
    fn a_first_win_matches_the_glicko2_reference() {
        // skillratings' own example: two new players, player one wins: 1662 / 1338, 290.
        let (a, b) = rate_game(&Rating::default(), &Rating::default(), Outcome::Win, 10);
        assert_eq!(a.rating.round(), 1662.0);
        assert_eq!(b.rating.round(), 1338.0);
        assert_eq!(a.deviation.round(), 290.0);
        assert_eq!((a.games, a.last_played), (1, Some(10)));
        assert!(a.provisional());
        assert_eq!(a.display(), "1662?");
    }

    #[test]
    fn deviation_grows_with_idle_days_and_draws_are_symmetric() {
        let mut a = Rating::default();
        let mut b = Rating::default();
        for i in 0..30 {
            let o = if i % 3 == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            (a, b) = rate_game(&a, &b, o, 1000 + i);
        }
        assert!(!a.provisional(), "30 games: {}", a.deviation);
        assert!(a.rating > b.rating);
        assert!(!a.display().ends_with('?'));
        let later = a.at(1000 + 400 * PERIOD_SECS);
        assert!(later.deviation > a.deviation + 50.0);
        assert!(later.provisional());
        assert_eq!(later.rating, a.rating);
        // Less than a day idle changes nothing.
        assert_eq!(a.at(1029 + PERIOD_SECS - 100).deviation, a.deviation);
        let (x, y) = rate_game(&Rating::default(), &Rating::default(), Outcome::Draw, 5);
        assert!((x.rating - 1500.0).abs() < 1e-9 && (y.rating - 1500.0).abs() < 1e-9);
        assert!(x.deviation < 350.0);
    }
}
