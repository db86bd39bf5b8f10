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

    #[test]
    fn game_points_of_the_worked_examples() {
        // leagues.md / Appendix C: 2-0 gives 6 and 0; 2-1 gives 6 and 3; 2-0-1 gives 7 and 1.
        assert_eq!(MatchRecord::new(1, 2, 2, 0, 0).game_points(), (6, 0));
        assert_eq!(MatchRecord::new(1, 2, 2, 1, 0).game_points(), (6, 3));
        assert_eq!(MatchRecord::new(1, 2, 2, 0, 1).game_points(), (7, 1));
        assert_eq!(MatchRecord::new(1, 2, 1, 1, 1).match_points(), (1, 1));
        assert_eq!(MatchRecord::bye(1, 2).match_points(), (3, 0));
    }

    /// Appendix C's match-win table, an 8-round tournament that only the first player
    /// completed: 5-2-1 is 16 match points over 8 rounds, 16/24 = 0.667; 1-3-0, then
    /// withdraws, is 3/12 = 0.25, so 0.33 is used; 3-2-0 including a first-round bye, then
    /// withdraws, is 9/15 = 0.60 (the bye is a round won in the player's own figures).
    #[test]
    fn match_win_percentages_of_the_appendix_c_table() {
        let me = 1;
        let one_player = |results: &[(u32, u32, u32)], bye: bool, dropped: bool| {
            let mut m = Vec::new();
            if bye {
                m.push(MatchRecord::bye(me, 2));
            }
            for (i, (a, b, d)) in results.iter().enumerate() {
                m.push(MatchRecord::new(me, 10 + i as i64, *a, *b, *d));
            }
            let players: Vec<(PlayerId, bool)> = std::iter::once((me, dropped))
                .chain((10..10 + results.len() as i64).map(|p| (p, false)))
                .collect();
            standings(&players, &m, true)
                .into_iter()
                .find(|l| l.player == me)
                .expect("line")
        };
        let won = (2, 0, 0);
        let lost = (0, 2, 0);
        let drew = (1, 1, 0);
        let l = one_player(&[won, won, won, won, won, lost, lost, drew], false, false);
        assert_eq!((l.wins, l.losses, l.draws, l.match_points), (5, 2, 1, 16));
        assert_eq!(l.rounds, 8);
        assert!(close(l.mwp, 16.0 / 24.0), "{}", l.mwp);
        assert_eq!(percent(l.mwp), "66.67%");

        let l = one_player(&[won, lost, lost, lost], false, true);
        assert_eq!((l.match_points, l.rounds), (3, 4));
        assert!(close(l.mwp, 0.33), "0.25 is raised to 0.33: {}", l.mwp);
        assert_eq!(percent(l.mwp), "33.00%");

        let l = one_player(&[won, won, lost, lost], true, true);
        assert_eq!((l.wins, l.losses, l.byes), (3, 2, 1));
        assert_eq!((l.match_points, l.rounds), (9, 5));
        assert!(close(l.mwp, 0.60) && l.dropped, "{}", l.mwp);

        // The floor is 0.33, not a third: a 1-2 record keeps its 0.333.
        let l = one_player(&[won, lost, lost], false, false);
        assert!(close(l.mwp, 1.0 / 3.0), "{}", l.mwp);
        // And the match-points examples: 6-2-0 is 18, 4-2-2 is 14.
        let l = one_player(&[won, won, won, won, won, won, lost, lost], false, false);
        assert_eq!(l.match_points, 18);
        let l = one_player(&[won, won, won, won, lost, lost, drew, drew], false, false);
        assert_eq!(l.match_points, 14);
    }

    /// Game-win %: 2-0, 2-1, 1-2, 0-2 and a 1-1-1 draw: won 6, lost 6, drew 1 of 13 games,
    /// 19 game points, 19/39 = 0.487; a player who won 1 game of 8 has 3/24, raised to 0.33.
    #[test]
    fn game_win_percentages() {
        let me = 1;
        let m = vec![
            MatchRecord::new(me, 2, 2, 0, 0),
            MatchRecord::new(me, 3, 2, 1, 0),
            MatchRecord::new(me, 4, 1, 2, 0),
            MatchRecord::new(me, 5, 0, 2, 0),
            MatchRecord::new(me, 6, 1, 1, 1),
        ];
        let players: Vec<(PlayerId, bool)> = (1..=6).map(|p| (p, false)).collect();
        let s = standings(&players, &m, true);
        let l = s.iter().find(|l| l.player == me).expect("line");
        assert_eq!((l.game_points, l.games), (19, 13));
        assert!(close(l.gwp, 19.0 / 39.0));
        let p5 = s.iter().find(|l| l.player == 5).expect("line");
        // Player 5 won 2-0: 6 of 6.
        assert!(close(p5.gwp, 1.0));
        let m = vec![
            MatchRecord::new(1, 2, 0, 2, 0),
            MatchRecord::new(1, 3, 1, 2, 0),
            MatchRecord::new(1, 4, 0, 2, 0),
        ];
        let s = standings(&players, &m, true);
        let l = s.iter().find(|l| l.player == 1).expect("line");
        assert_eq!((l.game_points, l.games), (3, 7));
        assert!(close(l.gwp, FLOOR));
    }

    /// Opponents' match-win % averages each opponent's floored percentage; it does not pool
    /// their points (the pitfall leagues.md warns of), and a bye is left out.
    #[test]
    fn opponents_percentages_average_floored_values_and_skip_byes() {
        // Player 1: bye in round 1, then beats 2 and loses to 3.
        // Player 2 loses every match it plays (0-3 over three rounds): 0/9 -> 0.33.
        // Player 3 wins all three: 9/9 = 1.0.
        let m = vec![
            MatchRecord::bye(1, 2),
            MatchRecord::new(1, 2, 2, 0, 0),
            MatchRecord::new(3, 1, 2, 1, 0),
            MatchRecord::new(3, 2, 2, 0, 0),
            MatchRecord::new(3, 4, 2, 0, 0),
            MatchRecord::new(4, 2, 2, 0, 0),
        ];
        let players: Vec<(PlayerId, bool)> = (1..=4).map(|p| (p, false)).collect();
        let s = standings(&players, &m, true);
        let one = s.iter().find(|l| l.player == 1).expect("line");
        assert_eq!((one.rounds, one.byes, one.match_points), (3, 1, 6));
        // The average of 0.33 and 1.0, not pooled (3 points / 18 = 0.167) nor with the bye.
        assert!(close(one.omw, (FLOOR + 1.0) / 2.0), "{}", one.omw);
        // Game-win: player 2 has 0 of 18 game points (floored); player 3 has 18 of 21.
        let three = s.iter().find(|l| l.player == 3).expect("line");
        assert_eq!((three.game_points, three.games), (18, 7));
        assert!(close(one.ogw, (FLOOR + 18.0 / 21.0) / 2.0), "{}", one.ogw);
        // The bye counts as a 2-0 win in player 1's own figures: 6 + 6 + 3 of 7 games.
        assert_eq!((one.game_points, one.games), (15, 7));
        assert_eq!(s[0].player, 3);
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

    #[test]
    fn a_player_without_rounds_sits_at_the_floor() {
        let s = standings(&[(7, false)], &[], true);
        assert_eq!(s.len(), 1);
        assert!(close(s[0].mwp, FLOOR) && close(s[0].omw, FLOOR));
        assert_eq!(s[0].rank, 1);
    }
}
