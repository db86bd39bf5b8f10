//! Standings per the Magic Tournament Rules, Appendix C.
//!
//! Match points: win 3, draw 1, loss 0; a bye is a match win. Game points: game won 3,
//! drawn 1, lost 0 (an unfinished game is recorded as a draw by whoever records it; an
//! unplayed game is worth nothing). A bye is recorded as a 2-0 win (1-0 in best-of-one).
//!
//! Match-win % = match points / (3 × rounds played), game-win % = game points / (3 × games
//! played), each raised to 0.33 when lower. Opponents' match-win % is the *average* of each
//! opponent's (already floored) match-win %, leaving out byes; opponents' game-win %
//! likewise. Order: match points, OMW%, GW%, OGW%; then the lower member id (a stable order
//! for exact ties). A player who drops keeps their record and still counts in their
//! opponents' figures.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The lowest value any percentage can take: Appendix C says 0.33 (not one third, so a
/// 0.25 becomes 0.33 and a 1-2 record's 0.333 stays as it is).
pub const FLOOR: f64 = 0.33;

/// A member of the standings, by id.
pub type PlayerId = i64;

/// One match as recorded: `b: None` is a bye for `a`. Game wins and draws from `a`'s side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub a: PlayerId,
    pub b: Option<PlayerId>,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
}

impl MatchRecord {
    pub fn bye(a: PlayerId, games_to_win: u32) -> MatchRecord {
        MatchRecord {
            a,
            b: None,
            a_wins: games_to_win,
            b_wins: 0,
            draws: 0,
        }
    }

    pub fn new(a: PlayerId, b: PlayerId, a_wins: u32, b_wins: u32, draws: u32) -> MatchRecord {
        MatchRecord {
            a,
            b: Some(b),
            a_wins,
            b_wins,
            draws,
        }
    }

    /// Match points for `a` and `b`.
    pub fn match_points(&self) -> (u32, u32) {
        match self.b {
            None => (3, 0),
            Some(_) => match self.a_wins.cmp(&self.b_wins) {
                std::cmp::Ordering::Greater => (3, 0),
                std::cmp::Ordering::Less => (0, 3),
                std::cmp::Ordering::Equal => (1, 1),
            },
        }
    }

    /// Game points for `a` and `b`.
    pub fn game_points(&self) -> (u32, u32) {
        (3 * self.a_wins + self.draws, 3 * self.b_wins + self.draws)
    }

    pub fn games(&self) -> u32 {
        self.a_wins + self.b_wins + self.draws
    }
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub rank: usize,
    pub player: PlayerId,
    pub match_points: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub byes: u32,
    pub rounds: u32,
    pub game_points: u32,
    pub games: u32,
    /// Own match-win % (floored).
    pub mwp: f64,
    pub omw: f64,
    pub gwp: f64,
    pub ogw: f64,
    pub dropped: bool,
}

#[derive(Debug, Default, Clone)]
struct Acc {
    mp: u32,
    w: u32,
    l: u32,
    d: u32,
    byes: u32,
    rounds: u32,
    gp: u32,
    games: u32,
    opponents: Vec<PlayerId>,
}

/// `x / y` raised to the floor (a player with no rounds has the floor).
pub fn floored(x: u32, y: u32) -> f64 {
    if y == 0 {
        return FLOOR;
    }
    (f64::from(x) / f64::from(y)).max(FLOOR)
}

/// A number for comparing percentages without float noise (nine decimals).
fn key(x: f64) -> i64 {
    (x * 1e9).round() as i64
}

/// Computes the standings of `players` (all members, dropped ones included, flagged by
/// `dropped`) from `matches`. `game_ties`: use GW% and OGW% as tiebreakers (best-of-one
/// leagues may skip them).
pub fn standings(
    players: &[(PlayerId, bool)],
    matches: &[MatchRecord],
    game_ties: bool,
) -> Vec<Line> {
    let mut acc: HashMap<PlayerId, Acc> = players.iter().map(|p| (p.0, Acc::default())).collect();
    for m in matches {
        let (mpa, mpb) = m.match_points();
        let (gpa, gpb) = m.game_points();
        let sides: Vec<(PlayerId, Option<PlayerId>, u32, u32, u32, u32)> = match m.b {
            None => vec![(m.a, None, mpa, gpa, m.a_wins, 0)],
            Some(b) => vec![
                (m.a, Some(b), mpa, gpa, m.a_wins, m.b_wins),
                (b, Some(m.a), mpb, gpb, m.b_wins, m.a_wins),
            ],
        };
        for (p, opp, mp, gp, won, lost) in sides {
            let e = acc.entry(p).or_default();
            e.mp += mp;
            e.rounds += 1;
            e.gp += gp;
            e.games += won + lost + m.draws;
            match opp {
                None => {
                    e.byes += 1;
                    e.w += 1;
                }
                Some(o) => {
                    e.opponents.push(o);
                    match mp {
                        3 => e.w += 1,
                        1 => e.d += 1,
                        _ => e.l += 1,
                    }
                }
            }
        }
    }
    let mwp: HashMap<PlayerId, f64> = acc
        .iter()
        .map(|(p, a)| (*p, floored(a.mp, 3 * a.rounds)))
        .collect();
    let gwp: HashMap<PlayerId, f64> = acc
        .iter()
        .map(|(p, a)| (*p, floored(a.gp, 3 * a.games)))
        .collect();
    let avg = |a: &Acc, of: &HashMap<PlayerId, f64>| {
        if a.opponents.is_empty() {
            return FLOOR;
        }
        a.opponents
            .iter()
            .map(|o| of.get(o).copied().unwrap_or(FLOOR))
            .sum::<f64>()
            / a.opponents.len() as f64
    };
    let dropped: HashMap<PlayerId, bool> = players.iter().copied().collect();
    let mut lines: Vec<Line> = acc
        .iter()
        .map(|(p, a)| Line {
            rank: 0,
            player: *p,
            match_points: a.mp,
            wins: a.w,
            losses: a.l,
            draws: a.d,
            byes: a.byes,
            rounds: a.rounds,
            game_points: a.gp,
            games: a.games,
            mwp: mwp[p],
            omw: avg(a, &mwp),
            gwp: gwp[p],
            ogw: avg(a, &gwp),
            dropped: dropped.get(p).copied().unwrap_or(false),
        })
        .collect();
    lines.sort_by(|x, y| {
        let k = |l: &Line| {
            if game_ties {
                (l.match_points, key(l.omw), key(l.gwp), key(l.ogw))
            } else {
                (l.match_points, key(l.omw), 0, 0)
            }
        };
        k(y).cmp(&k(x)).then(x.player.cmp(&y.player))
    });
    for (i, l) in lines.iter_mut().enumerate() {
        l.rank = i + 1;
    }
    lines
}

/// A match between runs (MTGO leagues: a member may play several runs, one after another):
/// each side is (player, run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunMatchRecord {
    pub a: (PlayerId, u32),
    pub b: Option<(PlayerId, u32)>,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
}

/// A player's line of a league with runs: their best run, and how many they have.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLine {
    /// `line.player` is the player; ranks count players, not runs.
    pub line: Line,
    pub run: u32,
    pub runs: u32,
}

/// Standings of a league whose members play runs: every run is an entry of its own (as each
/// MTGO league entry is), so a run's record, match-win % and game-win % are its own, and an
/// opponent's figures are those of the run in which they met (Appendix C within each run's
/// field). Each player is shown once, by their best run (the entry ranked highest: points,
/// then the tiebreakers); ranks are renumbered over players. `players`: (player, runs
/// begun, dropped). With one run each this is [`standings`].
pub fn best_runs(
    players: &[(PlayerId, u32, bool)],
    matches: &[RunMatchRecord],
    game_ties: bool,
) -> Vec<RunLine> {
    use std::collections::BTreeSet;
    let mut keys: BTreeSet<(PlayerId, u32)> = players
        .iter()
        .flat_map(|(p, runs, _)| (1..=(*runs).max(1)).map(move |r| (*p, r)))
        .collect();
    for m in matches {
        keys.insert(m.a);
        keys.extend(m.b);
    }
    // Entry ids in (player, run) order: exact ties still fall to the lower player id.
    let ids: HashMap<(PlayerId, u32), PlayerId> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (*k, i as PlayerId + 1))
        .collect();
    let owner: HashMap<PlayerId, (PlayerId, u32)> = ids.iter().map(|(k, id)| (*id, *k)).collect();
    let dropped: HashMap<PlayerId, bool> = players.iter().map(|p| (p.0, p.2)).collect();
    let entries: Vec<(PlayerId, bool)> = keys
        .iter()
        .map(|k| (ids[k], dropped.get(&k.0).copied().unwrap_or(false)))
        .collect();
    let records: Vec<MatchRecord> = matches
        .iter()
        .map(|m| MatchRecord {
            a: ids[&m.a],
            b: m.b.map(|b| ids[&b]),
            a_wins: m.a_wins,
            b_wins: m.b_wins,
            draws: m.draws,
        })
        .collect();
    let runs: HashMap<PlayerId, u32> = keys.iter().fold(HashMap::new(), |mut acc, (p, r)| {
        let e = acc.entry(*p).or_insert(0);
        *e = (*e).max(*r);
        acc
    });
    let mut out: Vec<RunLine> = Vec::new();
    for mut line in standings(&entries, &records, game_ties) {
        let (player, run) = owner[&line.player];
        if out.iter().any(|x| x.line.player == player) {
            continue;
        }
        line.player = player;
        line.rank = out.len() + 1;
        out.push(RunLine {
            line,
            run,
            runs: runs.get(&player).copied().unwrap_or(1),
        });
    }
    out
}

/// A percentage as the Tournament Rules print them (`66.67%`).
pub fn percent(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn with_runs_each_player_shows_their_best_run_and_opponents_count_per_run() {
        // One run each: the same table as `standings`.
        let plain = [
            MatchRecord::new(1, 2, 2, 0, 0),
            MatchRecord::new(3, 1, 2, 1, 0),
            MatchRecord::new(2, 3, 2, 1, 0),
        ];
        let players = [(1, false), (2, false), (3, false)];
        let want = standings(&players, &plain, true);
        let run_matches: Vec<RunMatchRecord> = plain
            .iter()
            .map(|m| RunMatchRecord {
                a: (m.a, 1),
                b: m.b.map(|b| (b, 1)),
                a_wins: m.a_wins,
                b_wins: m.b_wins,
                draws: m.draws,
            })
            .collect();
        let got = best_runs(
            &[(1, 1, false), (2, 1, false), (3, 1, false)],
            &run_matches,
            true,
        );
        assert_eq!(got.iter().map(|x| x.line.clone()).collect::<Vec<_>>(), want);
        // Player 1's run 1 lost both; run 2 won both (against 2's run 1 and 3's run 1):
        // run 2 is shown, 1's points are run 2's alone (6, not 6 + 0).
        let r = |a: (i64, u32), b: (i64, u32), aw, bw| RunMatchRecord {
            a,
            b: Some(b),
            a_wins: aw,
            b_wins: bw,
            draws: 0,
        };
        let ms = [
            r((1, 1), (2, 1), 0, 2),
            r((1, 1), (3, 1), 1, 2),
            r((1, 2), (2, 1), 2, 0),
            r((1, 2), (3, 1), 2, 1),
        ];
        let got = best_runs(&[(1, 2, false), (2, 1, false), (3, 1, true)], &ms, true);
        assert_eq!(got.len(), 3, "one line per player");
        let one = got.iter().find(|x| x.line.player == 1).expect("1");
        assert_eq!((one.run, one.runs), (2, 2));
        assert_eq!(
            (one.line.match_points, one.line.wins, one.line.losses),
            (6, 2, 0)
        );
        // Run 2's opponents: 2 (1 win of 2 = 50%) and 3 (1 win of 2 = 50%).
        assert!(close(one.line.omw, 0.5), "{}", one.line.omw);
        // 2 and 3 each met run 1 (0 points: floored 33%) and run 2 (100%).
        let two = got.iter().find(|x| x.line.player == 2).expect("2");
        assert!(close(two.line.omw, (FLOOR + 1.0) / 2.0), "{}", two.line.omw);
        assert_eq!(got[0].line.player, 1);
        assert_eq!(
            got.iter().map(|x| x.line.rank).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert!(
            got.iter()
                .find(|x| x.line.player == 3)
                .expect("3")
                .line
                .dropped
        );
        // A run begun with no matches yet does not hide the better one.
        let got = best_runs(&[(1, 3, false), (2, 1, false), (3, 1, false)], &ms, true);
        let one = got.iter().find(|x| x.line.player == 1).expect("1");
        assert_eq!((one.run, one.runs), (2, 3));
    }

    // ----- MTR Appendix C, one test per worked example ----------------------------------
    //
    // The match points, game points and match-win examples are quoted from "MTR Appendix C
    // — Tiebreaker Explanation" (blogs.magicjudges.org/rules/mtr-appendix-c, the same text
    // as mtg.wiki's "Tiebreaker" page). The game-win and opponents' sentences are Appendix
    // C's definitions as quoted from the MTR (2023 and 2026 editions) in public code; their
    // worked examples were not among the stored copies of Appendix C, so those tests name
    // the source of their numbers (an explanation quoted in a public issue, or our own).

    /// The line of player `me` after `matches` (every other player met is a member too).
    fn line_of(me: PlayerId, matches: &[MatchRecord], dropped: bool) -> Line {
        let mut players: Vec<(PlayerId, bool)> = vec![(me, dropped)];
        for m in matches {
            for p in std::iter::once(m.a).chain(m.b) {
                if !players.iter().any(|x| x.0 == p) {
                    players.push((p, false));
                }
            }
        }
        standings(&players, matches, true)
            .into_iter()
            .find(|l| l.player == me)
            .expect("line")
    }

    /// `me`'s matches, one opponent each (10, 11, ...): `(won, lost, drawn)` games from
    /// `me`'s side, after `byes` byes.
    fn rounds_of(me: PlayerId, byes: usize, results: &[(u32, u32, u32)]) -> Vec<MatchRecord> {
        let mut m: Vec<MatchRecord> = (0..byes).map(|_| MatchRecord::bye(me, 2)).collect();
        for (i, (a, b, d)) in results.iter().enumerate() {
            m.push(MatchRecord::new(me, 10 + i as i64, *a, *b, *d));
        }
        m
    }

    const WON: (u32, u32, u32) = (2, 0, 0);
    const LOST: (u32, u32, u32) = (0, 2, 0);
    const DREW: (u32, u32, u32) = (1, 1, 0);

    /// Appendix C, Match Points: "A player's record is 6–2–0 (Wins–Losses–Draws). That
    /// player has 18 match points (6*3, 2*0, 0*1)."
    #[test]
    fn appendix_c_match_points_6_2_0_is_18() {
        let l = line_of(
            1,
            &rounds_of(1, 0, &[WON, WON, WON, WON, WON, WON, LOST, LOST]),
            false,
        );
        assert_eq!((l.wins, l.losses, l.draws), (6, 2, 0));
        assert_eq!(l.match_points, 18);
    }

    /// Appendix C, Match Points: "A player's record is 4–2–2. That player has 14 match
    /// points (4*3, 2*0, 2*1)."
    #[test]
    fn appendix_c_match_points_4_2_2_is_14() {
        let l = line_of(
            1,
            &rounds_of(1, 0, &[WON, WON, WON, WON, LOST, LOST, DREW, DREW]),
            false,
        );
        assert_eq!((l.wins, l.losses, l.draws), (4, 2, 2));
        assert_eq!(l.match_points, 14);
    }

    /// Appendix C, Match Points: "Players receiving byes are considered to have won the
    /// match."
    #[test]
    fn appendix_c_a_bye_is_a_match_win() {
        assert_eq!(MatchRecord::bye(1, 2).match_points(), (3, 0));
        let l = line_of(1, &rounds_of(1, 1, &[]), false);
        assert_eq!((l.wins, l.byes, l.match_points), (1, 1, 3));
    }

    /// Appendix C, Game Points: "A player wins a match 2–0–0, so they earn 6 game points
    /// and their opponent receives 0 game points from the match."
    #[test]
    fn appendix_c_game_points_2_0_0() {
        assert_eq!(MatchRecord::new(1, 2, 2, 0, 0).game_points(), (6, 0));
    }

    /// Appendix C, Game Points: "A player wins a match 2–1–0, so they earn 6 game points
    /// and their opponent earns 3 game points from the match."
    #[test]
    fn appendix_c_game_points_2_1_0() {
        assert_eq!(MatchRecord::new(1, 2, 2, 1, 0).game_points(), (6, 3));
    }

    /// Appendix C, Game Points: "A player wins a match 2–0–1, so they earn 7 game points
    /// and their opponent earns 1 game point from the match."
    #[test]
    fn appendix_c_game_points_2_0_1() {
        let m = MatchRecord::new(1, 2, 2, 0, 1);
        assert_eq!(m.game_points(), (7, 1));
        assert_eq!(m.match_points(), (3, 0));
    }

    /// Appendix C, Match-win percentage ("These three players competed in an 8-round
    /// tournament, although only the first player completed all rounds."): "5-2-1 | 16 | 8 |
    /// 16/(8*3) = 0.667".
    #[test]
    fn appendix_c_match_win_5_2_1_over_8_rounds_is_0_667() {
        let l = line_of(
            1,
            &rounds_of(1, 0, &[WON, WON, WON, WON, WON, LOST, LOST, DREW]),
            false,
        );
        assert_eq!((l.wins, l.losses, l.draws), (5, 2, 1));
        assert_eq!((l.match_points, l.rounds), (16, 8));
        assert!(close(l.mwp, 16.0 / 24.0), "{}", l.mwp);
        assert_eq!(format!("{:.3}", l.mwp), "0.667");
    }

    /// Appendix C, Match-win percentage: "1-3-0, then withdraws | 3 | 4 | 3/(4*3) = 0.25,
    /// so 0.33 is used".
    #[test]
    fn appendix_c_match_win_1_3_0_then_withdraws_is_raised_to_0_33() {
        let l = line_of(1, &rounds_of(1, 0, &[WON, LOST, LOST, LOST]), true);
        assert_eq!((l.wins, l.losses, l.draws), (1, 3, 0));
        assert_eq!((l.match_points, l.rounds), (3, 4));
        assert!(close(l.mwp, 0.33), "0.25 is raised to 0.33: {}", l.mwp);
        assert!(l.dropped);
        // The floor is 0.33, not a third: a 1-2 record keeps its 0.333.
        let l = line_of(1, &rounds_of(1, 0, &[WON, LOST, LOST]), false);
        assert!(close(l.mwp, 1.0 / 3.0), "{}", l.mwp);
    }

    /// Appendix C, Match-win percentage: "3-2-0, including a first-round bye, then
    /// withdraws | 9 | 5 | 9/(5*3) = 0.60" (the bye is a round won in the player's own
    /// figures).
    #[test]
    fn appendix_c_match_win_3_2_0_with_a_bye_then_withdraws_is_0_60() {
        let l = line_of(1, &rounds_of(1, 1, &[WON, WON, LOST, LOST]), true);
        assert_eq!((l.wins, l.losses, l.draws, l.byes), (3, 2, 0, 1));
        assert_eq!((l.match_points, l.rounds), (9, 5));
        assert!(close(l.mwp, 0.60), "{}", l.mwp);
        assert!(l.dropped);
    }

    /// Game-win percentage (Appendix C: "the total number of game points they earned
    /// divided by the total game points possible (generally, 3 times the number of games
    /// played)"). Example from the OMW explanation quoted in PennyDreadfulMTG/
    /// Penny-Dreadful-Tools#880: a player who "went 5–1 [10–4 in games]" has 30 game points
    /// of 42, 30/42 = 0.714.
    #[test]
    fn game_win_10_4_in_games_is_30_of_42() {
        let (won21, lost02) = ((2, 1, 0), LOST);
        let l = line_of(
            1,
            &rounds_of(1, 0, &[WON, WON, lost02, won21, won21, WON]),
            false,
        );
        assert_eq!((l.wins, l.losses), (5, 1));
        assert_eq!((l.game_points, l.games), (30, 14));
        assert!(close(l.gwp, 30.0 / 42.0), "{}", l.gwp);
        assert_eq!(format!("{:.3}", l.gwp), "0.714");
    }

    /// Game-win percentage counts drawn games (1 point each) and every game played: 2-0,
    /// 2-1, 1-2, 0-2 and 1-1-1 are 19 game points over 13 games, 19/39 = 0.487.
    #[test]
    fn game_win_counts_drawn_games() {
        let l = line_of(
            1,
            &rounds_of(1, 0, &[WON, (2, 1, 0), (1, 2, 0), LOST, (1, 1, 1)]),
            false,
        );
        assert_eq!((l.game_points, l.games), (19, 13));
        assert!(close(l.gwp, 19.0 / 39.0), "{}", l.gwp);
    }

    /// Appendix C, Game-win percentage: "Again, use 0.33 if the actual game-win
    /// percentage is lower than that." 0-2, 1-2, 0-2 is 3 game points of 21: 0.143, raised
    /// to 0.33.
    #[test]
    fn game_win_below_0_33_is_raised_to_0_33() {
        let l = line_of(1, &rounds_of(1, 0, &[LOST, (1, 2, 0), LOST]), false);
        assert_eq!((l.game_points, l.games), (3, 7));
        assert!(close(l.gwp, FLOOR), "{}", l.gwp);
    }

    /// Opponents' match-win percentage, the example quoted in PennyDreadfulMTG/
    /// Penny-Dreadful-Tools#880: "a player (who went 5–1 [10–4 in games], losing in Round 3)
    /// in a six-round event played against players who went 0–2, 4–2, 3–3, 4–2, 3–3, and
    /// 4–2 would have an OMW of: (.33 (raised from 0) + .66 + .5 + .66 + .5 + .66) ÷ 6 Which
    /// gives an OMW% of 55.17%." The source truncates 4/6 to .66; unrounded, the same
    /// average is (0.33 + 3 × 0.667 + 2 × 0.5) / 6 = 0.555 (55.50%).
    #[test]
    fn opponents_match_win_averages_each_opponents_floored_percentage() {
        let me = 1;
        // Round by round: me vs opponents 11..=16 (me lost round 3 to 13).
        let mut m = vec![
            MatchRecord::new(me, 11, 2, 0, 0),
            MatchRecord::new(me, 12, 2, 0, 0),
            MatchRecord::new(13, me, 2, 0, 0),
            MatchRecord::new(me, 14, 2, 1, 0),
            MatchRecord::new(me, 15, 2, 1, 0),
            MatchRecord::new(me, 16, 2, 0, 0),
        ];
        // The rest of each opponent's record, against players met by nobody else
        // (100, 101, ...): (opponent, wins, losses) still to add.
        let rest = [
            (11, 0, 1),
            (12, 4, 1),
            (13, 2, 3),
            (14, 4, 1),
            (15, 3, 2),
            (16, 4, 1),
        ];
        let mut filler = 100;
        for (o, w, l) in rest {
            for _ in 0..w {
                m.push(MatchRecord::new(o, filler, 2, 0, 0));
                filler += 1;
            }
            for _ in 0..l {
                m.push(MatchRecord::new(filler, o, 2, 0, 0));
                filler += 1;
            }
        }
        let players: Vec<(PlayerId, bool)> = std::iter::once((me, false))
            .chain((11..=16).map(|p| (p, p == 11)))
            .chain((100..filler).map(|p| (p, false)))
            .collect();
        let s = standings(&players, &m, true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        let records: Vec<(u32, u32)> = (11..=16).map(|p| (find(p).wins, find(p).losses)).collect();
        assert_eq!(
            records,
            vec![(0, 2), (4, 2), (3, 3), (4, 2), (3, 3), (4, 2)]
        );
        let l = find(me);
        assert_eq!((l.wins, l.losses, l.game_points, l.games), (5, 1, 30, 14));
        assert!(close(find(11).mwp, FLOOR), "0-2 is raised to 0.33");
        let want = (FLOOR + 3.0 * (4.0 / 6.0) + 2.0 * 0.5) / 6.0;
        assert!(close(l.omw, want), "{} vs {want}", l.omw);
        assert_eq!(percent(l.omw), "55.50%");
        // With the source's truncated .66 the same average is its 55.17%.
        assert_eq!(percent((FLOOR + 3.0 * 0.66 + 2.0 * 0.5) / 6.0), "55.17%");
    }

    /// Opponents' match-win % (leagues.md, Appendix C: "the average match-win percentage of
    /// each opponent that player faced (ignoring those rounds for which the player received
    /// a bye)"): player 1 has a bye, beats 2 (0-3 over three rounds: 0/9, raised to 0.33)
    /// and loses to 3 (3-0: 9/9 = 1.0). OMW% = (0.33 + 1.0) / 2 = 0.665, neither pooled
    /// (3 points of 18 = 0.167) nor with the bye as an opponent.
    #[test]
    fn opponents_match_win_leaves_byes_out_and_does_not_pool_points() {
        let s = bye_field();
        let one = s.iter().find(|l| l.player == 1).expect("line");
        assert_eq!((one.rounds, one.byes, one.match_points), (3, 1, 6));
        assert!(close(one.omw, (FLOOR + 1.0) / 2.0), "{}", one.omw);
        assert_eq!(s[0].player, 3);
    }

    /// Opponents' game-win % (Appendix C: "simply the average game-win percentage of all
    /// that player's opponents. And, as with opponents' match-win percentage, each opponent
    /// has a minimum game-win percentage of 0.33."): in the same field, player 2 has 0 of
    /// 18 game points (0.33) and player 3 has 18 of 21, so player 1's OGW% is
    /// (0.33 + 0.857) / 2 = 0.594; player 1's own 15 of 21 counts the bye as a 2-0 win.
    #[test]
    fn opponents_game_win_averages_floored_percentages_without_byes() {
        let s = bye_field();
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        assert_eq!((find(2).game_points, find(2).games), (0, 6));
        assert!(close(find(2).gwp, FLOOR));
        assert_eq!((find(3).game_points, find(3).games), (18, 7));
        let one = find(1);
        assert!(close(one.ogw, (FLOOR + 18.0 / 21.0) / 2.0), "{}", one.ogw);
        assert_eq!((one.game_points, one.games), (15, 7));
    }

    /// Player 1: bye in round 1, then beats 2 (2-0) and loses to 3 (1-2). Player 2 loses
    /// all three of its matches; player 3 wins all three.
    fn bye_field() -> Vec<Line> {
        let m = vec![
            MatchRecord::bye(1, 2),
            MatchRecord::new(1, 2, 2, 0, 0),
            MatchRecord::new(3, 1, 2, 1, 0),
            MatchRecord::new(3, 2, 2, 0, 0),
            MatchRecord::new(3, 4, 2, 0, 0),
            MatchRecord::new(4, 2, 2, 0, 0),
        ];
        let players: Vec<(PlayerId, bool)> = (1..=4).map(|p| (p, false)).collect();
        standings(&players, &m, true)
    }

    #[test]
    fn tiebreakers_order_equal_points_and_drops_still_count() {
        // 1 and 2 both finish 1-1. 1 lost to 3 (2-0) and beat 4; 2 lost to 4 and beat 3.
        // 4 dropped after its two matches but keeps its record.
        let m = vec![
            MatchRecord::new(3, 1, 2, 0, 0),
            MatchRecord::new(1, 4, 2, 1, 0),
            MatchRecord::new(4, 2, 2, 0, 0),
            MatchRecord::new(2, 3, 2, 0, 0),
            MatchRecord::new(3, 5, 2, 0, 0),
        ];
        let players = vec![(1, false), (2, false), (3, false), (4, true), (5, false)];
        let s = standings(&players, &m, true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        // 3: beat 1 and 5, lost to 2: 6 of 9 = 0.667. 4: 1-1 = 0.5.
        assert!(close(find(1).omw, (6.0 / 9.0 + 0.5) / 2.0));
        assert!(close(find(2).omw, (0.5 + 6.0 / 9.0) / 2.0));
        // Equal OMW%: game-win % decides. 1: 2-0 loss, 2-1 win: 6 of 15 = 0.4;
        // 2: 0-2 loss, 2-0 win: 6 of 12 = 0.5.
        assert!(close(find(1).gwp, 0.4) && close(find(2).gwp, 0.5));
        assert!(find(2).rank < find(1).rank);
        assert!(find(4).dropped);
        // Without game tiebreakers the exact tie falls back to the member id.
        let s = standings(&players, &m, false);
        let r = |p| s.iter().find(|l| l.player == p).expect("line").rank;
        assert!(r(1) < r(2));
    }

    // ----- the Appendix C facts of spec/leagues.md, each quoted verbatim ----------------

    /// leagues.md: "Game points: game won 3, drawn 1, lost 0; an unfinished game counts as a
    /// draw, an unplayed game is worth 0." A match stopped at 1-0 (the league ended during
    /// game 2) is recorded 1-0-1: 4 game points to 1, over two games; game 3 was never
    /// played and counts nowhere (the winner's GW% is 4 of 6, not 4 of 9).
    #[test]
    fn leagues_md_an_unfinished_game_is_a_draw_and_an_unplayed_game_is_worth_0() {
        let m = MatchRecord::new(1, 2, 1, 0, 1);
        assert_eq!(m.game_points(), (4, 1));
        assert_eq!(m.games(), 2);
        assert_eq!(m.match_points(), (3, 0));
        let s = standings(&[(1, false), (2, false)], &[m], true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        assert_eq!((find(1).game_points, find(1).games), (4, 2));
        assert!(close(find(1).gwp, 4.0 / 6.0), "{}", find(1).gwp);
        // 1 of 6 is 0.167, raised to 0.33.
        assert!(close(find(2).gwp, FLOOR), "{}", find(2).gwp);
        // A match whose only game was unfinished: 0-0-1, a drawn match, 1 point each.
        let d = MatchRecord::new(1, 2, 0, 0, 1);
        assert_eq!(
            (d.match_points(), d.game_points(), d.games()),
            ((1, 1), (1, 1), 1)
        );
    }

    /// leagues.md: "A 2-0 win gives 6 and 0; 2-1 gives 6 and 3; 2-0-1 gives 7 and 1."
    #[test]
    fn leagues_md_game_points_of_2_0_2_1_and_2_0_1() {
        assert_eq!(MatchRecord::new(1, 2, 2, 0, 0).game_points(), (6, 0));
        assert_eq!(MatchRecord::new(1, 2, 2, 1, 0).game_points(), (6, 3));
        assert_eq!(MatchRecord::new(1, 2, 2, 0, 1).game_points(), (7, 1));
    }

    /// leagues.md: "Match points: win 3, draw 1, loss 0; a bye counts as a match win."
    #[test]
    fn leagues_md_match_points_win_3_draw_1_loss_0_bye_a_win() {
        assert_eq!(MatchRecord::new(1, 2, 2, 1, 0).match_points(), (3, 0));
        assert_eq!(MatchRecord::new(1, 2, 1, 2, 0).match_points(), (0, 3));
        assert_eq!(MatchRecord::new(1, 2, 1, 1, 1).match_points(), (1, 1));
        assert_eq!(MatchRecord::bye(1, 2).match_points(), (3, 0));
    }

    /// leagues.md: "Order: match points, then OMW%, then GW%, then OGW%." OMW% comes
    /// before GW%: player 1 (2-0 over a 0-2 opponent: OMW% 0.33, GW% 1.0) ranks below
    /// player 2 (2-1 over a 1-1 opponent: OMW% 0.5, GW% 0.667), both on 3 points.
    #[test]
    fn leagues_md_omw_comes_before_gw() {
        let m = vec![
            MatchRecord::new(1, 3, 2, 0, 0),
            MatchRecord::new(5, 3, 2, 0, 0),
            MatchRecord::new(2, 4, 2, 1, 0),
            MatchRecord::new(4, 6, 2, 0, 0),
        ];
        let players: Vec<(PlayerId, bool)> = (1..=6).map(|p| (p, false)).collect();
        let s = standings(&players, &m, true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        assert_eq!((find(1).match_points, find(2).match_points), (3, 3));
        assert!(close(find(1).omw, FLOOR) && close(find(2).omw, 0.5));
        assert!(close(find(1).gwp, 1.0) && close(find(2).gwp, 6.0 / 9.0));
        assert!(find(2).rank < find(1).rank, "{s:#?}");
    }

    /// leagues.md: "Order: match points, then OMW%, then GW%, then OGW%. Single-game
    /// matches may skip game-based tiebreakers." Players 1 and 2 are equal on points (3),
    /// OMW% (0.5) and GW% (1.0); OGW% decides: 2's opponent 3 has GW% 6/12 = 0.5, 1's
    /// opponent 4 has 6/15 = 0.4, so 2 ranks first although 1 has the lower id. Without game
    /// tiebreakers (best of one) the exact tie falls to the lower id.
    #[test]
    fn leagues_md_ogw_decides_after_gw_and_best_of_one_may_skip_it() {
        let m = vec![
            MatchRecord::new(2, 3, 2, 0, 0),
            MatchRecord::new(3, 5, 2, 0, 0),
            MatchRecord::new(1, 4, 2, 0, 0),
            MatchRecord::new(4, 6, 2, 1, 0),
        ];
        let players: Vec<(PlayerId, bool)> = (1..=6).map(|p| (p, false)).collect();
        let s = standings(&players, &m, true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        for p in [1, 2] {
            assert_eq!(find(p).match_points, 3);
            assert!(close(find(p).omw, 0.5) && close(find(p).gwp, 1.0), "{p}");
        }
        assert!(close(find(2).ogw, 0.5) && close(find(1).ogw, 0.4));
        assert!(find(2).rank < find(1).rank, "{s:#?}");
        let s = standings(&players, &m, false);
        let r = |p| s.iter().find(|l| l.player == p).expect("line").rank;
        assert!(r(1) < r(2));
    }

    /// leagues.md: "A player who drops keeps their record; it still counts in their
    /// opponents' OMW%." Player 3 went 2-0 and dropped: still in the standings with 6
    /// points, flagged, and player 1 (who lost to 3) has 3's 1.0 in their OMW%.
    #[test]
    fn leagues_md_a_dropped_player_keeps_their_record_and_counts_for_opponents() {
        let m = vec![
            MatchRecord::new(3, 1, 2, 0, 0),
            MatchRecord::new(3, 2, 2, 1, 0),
            MatchRecord::new(1, 2, 2, 0, 0),
        ];
        let s = standings(&[(1, false), (2, false), (3, true)], &m, true);
        let find = |p| s.iter().find(|l| l.player == p).expect("line");
        assert_eq!(
            (find(3).match_points, find(3).wins, find(3).dropped),
            (6, 2, true)
        );
        // 1's opponents: 3 (6 of 6 = 1.0) and 2 (0 of 6, raised to 0.33).
        assert!(close(find(1).omw, (1.0 + FLOOR) / 2.0), "{}", find(1).omw);
    }

    #[test]
    fn a_player_without_rounds_sits_at_the_floor() {
        let s = standings(&[(7, false)], &[], true);
        assert_eq!(s.len(), 1);
        assert!(close(s[0].mwp, FLOOR) && close(s[0].omw, FLOOR));
        assert_eq!(s[0].rank, 1);
    }
}
