//! Pairing: the MTGO-style queue ("play my next league match"), Swiss rounds, round robin,
//! and the validation of a challenge between two members.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

pub type PlayerId = i64;

/// A member waiting in the queue for their next match of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub player: PlayerId,
    pub wins: u32,
    pub losses: u32,
    /// Opponents already met in this run.
    pub met: Vec<PlayerId>,
}

/// The queue: the opponent for `me` among those waiting (in the order they started
/// waiting): someone with the same record who has not been met this run, else the nearest
/// record (then the longest wait). None: nobody suitable is waiting yet.
pub fn queue_opponent(me: &Waiting, waiting: &[Waiting]) -> Option<PlayerId> {
    let dist = |w: &Waiting| {
        (i64::from(w.wins) - i64::from(me.wins)).abs()
            + (i64::from(w.losses) - i64::from(me.losses)).abs()
    };
    waiting
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            w.player != me.player && !me.met.contains(&w.player) && !w.met.contains(&me.player)
        })
        .min_by_key(|(i, w)| (dist(w), *i))
        .map(|(_, w)| w.player)
}

/// A player as the Swiss pairing sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissPlayer {
    pub player: PlayerId,
    pub points: u32,
    pub had_bye: bool,
    pub opponents: Vec<PlayerId>,
}

/// One pairing of a round: `(a, None)` is a bye.
pub type Pairing = (PlayerId, Option<PlayerId>);

/// Pairs a Swiss round. Round 1 (everyone at 0 with no opponents) is random from `seed`;
/// later rounds pair players of equal (or nearest) points who have not met, from the top
/// down, backtracking when a player is left without a legal opponent. With an odd number of
/// players the bye goes to a player among the lowest scores who has not had one. Only when
/// no pairing without a rematch exists are rematches allowed (`rematches` in the result).
pub fn swiss_round(players: &[SwissPlayer], seed: u64) -> (Vec<Pairing>, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<&SwissPlayer> = players.iter().collect();
    // Shuffle first so that equal scores are in a random order, then sort by points.
    order.shuffle(&mut rng);
    order.sort_by_key(|p| std::cmp::Reverse(p.points));
    let mut pairs = Vec::new();
    if order.len() % 2 == 1 {
        // The lowest score without a bye; ties among them by the shuffled order.
        let i = (0..order.len())
            .rev()
            .filter(|i| !order[*i].had_bye)
            .min_by_key(|i| (order[*i].points, std::cmp::Reverse(*i)))
            .unwrap_or(order.len() - 1);
        pairs.push((order.remove(i).player, None));
    }
    let ids: Vec<PlayerId> = order.iter().map(|p| p.player).collect();
    let met: HashSet<(PlayerId, PlayerId)> = order
        .iter()
        .flat_map(|p| p.opponents.iter().map(move |o| (p.player, *o)))
        .collect();
    let mut budget = 200_000u32;
    let mut out = Vec::new();
    if pair_down(&ids, &met, &mut out, &mut budget) {
        pairs.extend(out.into_iter().map(|(a, b)| (a, Some(b))));
        return (pairs, false);
    }
    // No pairing avoids a rematch: pair in order.
    pairs.extend(ids.chunks(2).map(|c| (c[0], c.get(1).copied())));
    (pairs, true)
}

fn pair_down(
    ids: &[PlayerId],
    met: &HashSet<(PlayerId, PlayerId)>,
    out: &mut Vec<(PlayerId, PlayerId)>,
    budget: &mut u32,
) -> bool {
    let Some((&first, rest)) = ids.split_first() else {
        return true;
    };
    for (j, &b) in rest.iter().enumerate() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if met.contains(&(first, b)) || met.contains(&(b, first)) {
            continue;
        }
        let others: Vec<PlayerId> = rest
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != j)
            .map(|(_, p)| *p)
            .collect();
        out.push((first, b));
        if pair_down(&others, met, out, budget) {
            return true;
        }
        out.pop();
    }
    false
}

/// A round robin by the circle method: every pair meets once; with an odd number of
/// players one sits out (a bye) each round. Returns the rounds in order.
pub fn round_robin(players: &[PlayerId]) -> Vec<Vec<Pairing>> {
    if players.len() < 2 {
        return Vec::new();
    }
    let mut seats: Vec<Option<PlayerId>> = players.iter().copied().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let mut rounds = Vec::new();
    for _ in 0..n - 1 {
        let mut round = Vec::new();
        for i in 0..n / 2 {
            match (seats[i], seats[n - 1 - i]) {
                (Some(a), Some(b)) => round.push((a, Some(b))),
                (Some(a), None) | (None, Some(a)) => round.push((a, None)),
                (None, None) => {}
            }
        }
        rounds.push(round);
        // Keep seat 0, rotate the others.
        let last = seats.remove(n - 1);
        seats.insert(1, last);
    }
    rounds
}

/// What a challenge needs to know about the two members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeCheck<'a> {
    pub me: PlayerId,
    pub opponent: PlayerId,
    /// Active members of the league (not dropped).
    pub members: &'a [PlayerId],
    /// Opponents `me` has met in the current run.
    pub met: &'a [PlayerId],
    /// Whether repeat opponents are refused within a run.
    pub no_rematch: bool,
    /// Members with a league match in progress.
    pub busy: &'a [PlayerId],
}

/// Validates a challenge to a member; the refusal says why in player words.
pub fn check_challenge(c: &ChallengeCheck<'_>, opponent_name: &str) -> Result<(), String> {
    if c.me == c.opponent {
        return Err("you cannot challenge yourself".into());
    }
    if !c.members.contains(&c.me) {
        return Err("you are not playing in this league".into());
    }
    if !c.members.contains(&c.opponent) {
        return Err(format!("{opponent_name} is not playing in this league"));
    }
    if c.no_rematch && c.met.contains(&c.opponent) {
        return Err(format!(
            "you have already played {opponent_name} in this run; choose someone you have not met"
        ));
    }
    if c.busy.contains(&c.me) {
        return Err("finish your league match in progress first".into());
    }
    if c.busy.contains(&c.opponent) {
        return Err(format!("{opponent_name} is in a league match already"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(player: PlayerId, wins: u32, losses: u32, met: &[PlayerId]) -> Waiting {
        Waiting {
            player,
            wins,
            losses,
            met: met.to_vec(),
        }
    }

    #[test]
    fn the_queue_prefers_the_same_record_and_never_a_repeat() {
        let me = w(1, 2, 1, &[2]);
        let waiting = vec![
            w(2, 2, 1, &[1]),
            w(3, 0, 3, &[]),
            w(4, 2, 1, &[]),
            w(5, 3, 0, &[]),
        ];
        assert_eq!(queue_opponent(&me, &waiting), Some(4));
        // Without 4 (and 2 already met), the nearest record left: 3 (0-3).
        assert_eq!(queue_opponent(&me, &waiting[..2]), Some(3));
        let waiting = vec![w(5, 3, 0, &[]), w(3, 1, 2, &[])];
        assert_eq!(
            queue_opponent(&me, &waiting),
            Some(5),
            "equal distance: longest wait"
        );
        assert_eq!(queue_opponent(&me, &[w(2, 2, 1, &[])]), None);
        assert_eq!(queue_opponent(&me, std::slice::from_ref(&me)), None);
    }

    fn sp(player: PlayerId, points: u32, had_bye: bool, opponents: &[PlayerId]) -> SwissPlayer {
        SwissPlayer {
            player,
            points,
            had_bye,
            opponents: opponents.to_vec(),
        }
    }

    #[test]
    fn swiss_round_one_is_random_and_complete() {
        let players: Vec<SwissPlayer> = (1..=8).map(|p| sp(p, 0, false, &[])).collect();
        let (a, re) = swiss_round(&players, 1);
        assert!(!re);
        assert_eq!(a.len(), 4);
        let mut seen: Vec<PlayerId> = a.iter().flat_map(|(x, y)| [*x, y.unwrap_or(0)]).collect();
        seen.sort();
        assert_eq!(seen, (1..=8).collect::<Vec<_>>());
        assert_eq!(swiss_round(&players, 1).0, a, "same seed, same pairings");
        assert!((2..20).any(|s| swiss_round(&players, s).0 != a));
    }

    #[test]
    fn swiss_pairs_equal_points_without_rematches() {
        // After round 1: 1 beat 2, 3 beat 4, 5 beat 6, 7 beat 8.
        let players = vec![
            sp(1, 3, false, &[2]),
            sp(2, 0, false, &[1]),
            sp(3, 3, false, &[4]),
            sp(4, 0, false, &[3]),
            sp(5, 3, false, &[6]),
            sp(6, 0, false, &[5]),
            sp(7, 3, false, &[8]),
            sp(8, 0, false, &[7]),
        ];
        for seed in 0..20 {
            let (pairs, re) = swiss_round(&players, seed);
            assert!(!re);
            for (a, b) in pairs {
                let b = b.expect("even field");
                let pa = players.iter().find(|p| p.player == a).expect("a");
                let pb = players.iter().find(|p| p.player == b).expect("b");
                assert_eq!(pa.points, pb.points, "winners meet winners");
                assert!(!pa.opponents.contains(&b));
            }
        }
    }

    #[test]
    fn the_bye_goes_to_the_lowest_score_without_one() {
        let players = vec![
            sp(1, 6, false, &[]),
            sp(2, 3, false, &[]),
            sp(3, 0, true, &[]),
            sp(4, 0, false, &[]),
            sp(5, 3, false, &[]),
        ];
        let (pairs, _) = swiss_round(&players, 3);
        assert!(pairs.contains(&(4, None)), "{pairs:?}");
        assert_eq!(pairs.iter().filter(|p| p.1.is_none()).count(), 1);
    }

    #[test]
    fn swiss_backtracks_and_allows_rematches_only_when_forced() {
        // 1 has met 2 and 3; a greedy top-down pairing (1-2 refused, 1-3 refused, 1-4)
        // works; but if 1 has met everyone, a rematch is the only way.
        let players = vec![
            sp(1, 3, false, &[2, 3]),
            sp(2, 3, false, &[1]),
            sp(3, 0, false, &[1]),
            sp(4, 0, false, &[]),
        ];
        let (pairs, re) = swiss_round(&players, 0);
        assert!(!re);
        assert!(pairs.contains(&(1, Some(4))) || pairs.contains(&(4, Some(1))));
        let players = vec![
            sp(1, 3, false, &[2, 3, 4]),
            sp(2, 3, false, &[1]),
            sp(3, 0, false, &[1]),
            sp(4, 0, false, &[1]),
        ];
        let (pairs, re) = swiss_round(&players, 0);
        assert!(re);
        assert_eq!(pairs.len(), 2);
    }

    #[test]
    fn round_robin_meets_everyone_once() {
        for n in 2..=9 {
            let players: Vec<PlayerId> = (1..=n).collect();
            let rounds = round_robin(&players);
            let mut met = HashSet::new();
            for r in &rounds {
                let mut in_round = HashSet::new();
                for (a, b) in r {
                    assert!(in_round.insert(*a));
                    if let Some(b) = b {
                        assert!(in_round.insert(*b));
                        assert!(met.insert((*a.min(b), *a.max(b))), "{a} and {b} meet twice");
                    }
                }
            }
            assert_eq!(met.len() as i64, n * (n - 1) / 2, "{n} players");
        }
        assert!(round_robin(&[1]).is_empty());
    }

    #[test]
    fn challenges_are_validated() {
        let members = [1, 2, 3];
        let c =
            |me, opponent, met: &'static [PlayerId], busy: &'static [PlayerId]| ChallengeCheck {
                me,
                opponent,
                members: &members,
                met,
                no_rematch: true,
                busy,
            };
        assert!(check_challenge(&c(1, 2, &[], &[]), "Bo").is_ok());
        let e = check_challenge(&c(1, 9, &[], &[]), "Zed").unwrap_err();
        assert!(e.contains("Zed is not playing"), "{e}");
        let e = check_challenge(&c(1, 2, &[2], &[]), "Bo").unwrap_err();
        assert!(e.contains("already played Bo"), "{e}");
        assert!(check_challenge(&c(1, 1, &[], &[]), "me").is_err());
        assert!(check_challenge(&c(9, 1, &[], &[]), "Al").is_err());
        assert!(check_challenge(&c(1, 2, &[], &[2]), "Bo").is_err());
        let mut free = c(1, 2, &[2], &[]);
        free.no_rematch = false;
        assert!(check_challenge(&free, "Bo").is_ok());
    }
}
