//! The auto-payer: chooses which mana sources to activate for a cost.
//!
//! Mana already in the pool is spent first. The rest is a bipartite matching between the
//! cost's symbols and the untapped sources (each source makes one mana): coloured symbols
//! first, then hybrid, then generic, each trying sources in preference order (no drawback
//! first, then the least flexible), with augmenting paths (Kuhn's algorithm) so that a
//! payment is always found when one exists. It taps exactly as many sources as there are
//! symbols left to pay, and keeps the most flexible sources free. Generic symbols are
//! paid first from the sources whose colours the cards left in hand need least
//! (`Game::hand_demand` in casting): a player paying {1}{R}{R} with three Mountains and two Forests
//! keeps a Mountain for the red spell still in hand.

use super::{Color, ManaPool, ManaType, PayableCost};
use crate::ids::ObjectId;

/// How much each colour (indexed by `Color as usize`) is wanted by cards a player still
/// holds: the coloured symbols of their mana costs.
pub type Demand = [u32; 5];

/// One permanent that can make mana, with the abilities it could use.
#[derive(Debug, Clone)]
pub struct ManaSource {
    pub permanent: ObjectId,
    /// (ability index, mana type it would make, penalty) choices; one may be used.
    /// Inline for up to six choices (any colour or colourless), so listing a player's
    /// sources allocates once, not once per land.
    pub choices: smallvec::SmallVec<[(u8, ManaType, u32); 6]>,
}

impl ManaSource {
    fn best_for(&self, allowed: &dyn Fn(ManaType) -> bool) -> Option<(u8, ManaType, u32)> {
        self.choices
            .iter()
            .copied()
            .filter(|(_, t, _)| allowed(*t))
            .min_by_key(|(_, _, p)| *p)
    }
    /// How much the cards in hand want the colours this source makes (the most wanted).
    fn wanted(&self, demand: &Demand) -> u32 {
        self.choices
            .iter()
            .map(|(_, t, _)| match t {
                ManaType::Colored(c) => demand[*c as usize],
                ManaType::Colorless => 0,
            })
            .max()
            .unwrap_or(0)
    }
    /// How many different types of mana the source can make (counted without a list: a
    /// source has a handful of choices at most).
    fn flexibility(&self) -> usize {
        let c = &self.choices;
        (0..c.len())
            .filter(|&i| !c[..i].iter().any(|x| x.1 == c[i].1))
            .count()
    }
}

/// One activation in a payment plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedActivation {
    pub permanent: ObjectId,
    pub ability: u8,
    pub mana: ManaType,
}

#[derive(Clone, Copy)]
enum Sym {
    Colored(Color),
    Hybrid(Color, Color),
    Generic,
}

impl Sym {
    fn allows(self, t: ManaType) -> bool {
        match (self, t) {
            (Sym::Generic, _) => true,
            (Sym::Colored(c), ManaType::Colored(d)) => c == d,
            (Sym::Hybrid(a, b), ManaType::Colored(d)) => a == d || b == d,
            _ => false,
        }
    }
}

/// What the pool can't pay of `cost` (the pool is not changed).
pub fn remaining_after_pool(pool: &ManaPool, cost: &PayableCost) -> PayableCost {
    let mut p = pool.0;
    let mut rest = PayableCost::default();
    for c in Color::ALL {
        let need = cost.colored[c as usize];
        let take = need.min(p[c as usize]);
        p[c as usize] -= take;
        rest.colored[c as usize] = need - take;
    }
    for &(a, b) in &cost.hybrid {
        if p[a as usize] > 0 {
            p[a as usize] -= 1;
        } else if p[b as usize] > 0 {
            p[b as usize] -= 1;
        } else {
            rest.hybrid.push((a, b));
        }
    }
    let mut generic = cost.generic;
    for v in p.iter_mut() {
        let take = generic.min(*v);
        *v -= take;
        generic -= take;
    }
    rest.generic = generic;
    rest
}

/// Finds activations that, with the pool, pay `cost`; None if no assignment exists.
pub fn solve(
    pool: &ManaPool,
    sources: &[ManaSource],
    cost: &PayableCost,
) -> Option<Vec<PlannedActivation>> {
    solve_keeping(pool, sources, cost, &[0; 5])
}

/// Whether some activations pay `cost` with the pool: the matching of [`solve`] alone, in
/// board order (whether a full matching exists doesn't depend on the order tried), without
/// choosing which sources to keep or building a plan. Asked at every priority stop for
/// every card a player might cast.
pub fn payable(pool: &ManaPool, sources: &[ManaSource], cost: &PayableCost) -> bool {
    let syms = symbols_after_pool(pool, cost);
    if syms.is_empty() {
        return true;
    }
    if syms.len() > sources.len() {
        return false;
    }
    let order: Vec<usize> = (0..sources.len()).collect();
    let orders = Orders {
        colored: &order,
        generic: &order,
    };
    let mut owner: Vec<Option<usize>> = vec![None; sources.len()];
    let mut seen = vec![false; sources.len()];
    (0..syms.len()).all(|s| {
        seen.fill(false);
        augment(s, &syms, sources, &orders, &mut owner, &mut seen)
    })
}

/// The symbols left to pay once the pool has paid what it can: coloured, hybrid, generic.
fn symbols_after_pool(pool: &ManaPool, cost: &PayableCost) -> Vec<Sym> {
    let rest = remaining_after_pool(pool, cost);
    let mut syms: Vec<Sym> = Vec::new();
    for c in Color::ALL {
        for _ in 0..rest.colored[c as usize] {
            syms.push(Sym::Colored(c));
        }
    }
    syms.extend(rest.hybrid.iter().map(|&(a, b)| Sym::Hybrid(a, b)));
    syms.extend((0..rest.generic).map(|_| Sym::Generic));
    syms
}

/// [`solve`], paying generic symbols with the sources `demand` (the cards left in hand)
/// wants least, so that coloured sources stay for what the player still holds.
pub fn solve_keeping(
    pool: &ManaPool,
    sources: &[ManaSource],
    cost: &PayableCost,
    demand: &Demand,
) -> Option<Vec<PlannedActivation>> {
    let syms = symbols_after_pool(pool, cost);
    if syms.is_empty() {
        return Some(Vec::new());
    }
    if syms.len() > sources.len() {
        return None;
    }
    // Preference order of sources: lowest penalty, then least flexible, then board order.
    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by_key(|&i| {
        let min_pen = sources[i]
            .choices
            .iter()
            .map(|c| c.2)
            .min()
            .unwrap_or(u32::MAX);
        (min_pen, sources[i].flexibility(), i)
    });
    // Generic symbols: the sources the hand wants least first, then as above.
    let mut generic_order = order.clone();
    generic_order.sort_by_key(|&i| {
        let min_pen = sources[i]
            .choices
            .iter()
            .map(|c| c.2)
            .min()
            .unwrap_or(u32::MAX);
        (
            min_pen,
            sources[i].wanted(demand),
            sources[i].flexibility(),
            i,
        )
    });
    let orders = Orders {
        colored: &order,
        generic: &generic_order,
    };
    let mut owner: Vec<Option<usize>> = vec![None; sources.len()]; // source -> symbol
    for s in 0..syms.len() {
        let mut seen = vec![false; sources.len()];
        if !augment(s, &syms, sources, &orders, &mut owner, &mut seen) {
            return None;
        }
    }
    let mut plan = Vec::new();
    for (src, sym) in owner.iter().enumerate() {
        if let Some(sym) = sym {
            let allowed = |t: ManaType| syms[*sym].allows(t);
            let (ability, mana, _) = sources[src].best_for(&allowed)?;
            plan.push(PlannedActivation {
                permanent: sources[src].permanent,
                ability,
                mana,
            });
        }
    }
    Some(plan)
}

/// The preference orders of sources: for coloured and hybrid symbols, and for generic ones.
struct Orders<'a> {
    colored: &'a [usize],
    generic: &'a [usize],
}

fn augment(
    s: usize,
    syms: &[Sym],
    sources: &[ManaSource],
    orders: &Orders,
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    let sym = syms[s];
    let order = match sym {
        Sym::Generic => orders.generic,
        _ => orders.colored,
    };
    let fits = |src: usize| sources[src].best_for(&|t| sym.allows(t)).is_some();
    // A free source first (in preference order), so that nothing is moved needlessly...
    for &src in order {
        if owner[src].is_none() && fits(src) {
            owner[src] = Some(s);
            return true;
        }
    }
    // ...then an augmenting path through sources already assigned.
    for &src in order {
        if seen[src] || !fits(src) {
            continue;
        }
        seen[src] = true;
        if let Some(other) = owner[src]
            && augment(other, syms, sources, orders, owner, seen)
        {
            owner[src] = Some(s);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mana::ManaCost;

    fn src(slot: u16, types: &[ManaType], pen: u32) -> ManaSource {
        ManaSource {
            permanent: ObjectId::new(slot, 0),
            choices: types.iter().map(|t| (0, *t, pen)).collect(),
        }
    }
    const R: ManaType = ManaType::Colored(Color::R);
    const G: ManaType = ManaType::Colored(Color::G);

    #[test]
    fn keeps_the_flexible_source_free() {
        // {1}{G} with Forest, Mountain and a dual R/G: the dual stays untapped.
        let sources = vec![src(0, &[R, G], 0), src(1, &[G], 0), src(2, &[R], 0)];
        let cost = "{1}{G}".parse::<ManaCost>().unwrap().to_payable(0);
        let plan = solve(&ManaPool::default(), &sources, &cost).unwrap();
        assert_eq!(plan.len(), 2);
        assert!(
            plan.iter().all(|p| p.permanent != ObjectId::new(0, 0)),
            "{plan:?}"
        );
    }

    #[test]
    fn finds_a_payment_when_greedy_would_fail() {
        // {R}{G}: the dual must pay R (the only other source makes G).
        let sources = vec![src(0, &[R, G], 0), src(1, &[G], 0)];
        let cost = "{R}{G}".parse::<ManaCost>().unwrap().to_payable(0);
        assert_eq!(
            solve(&ManaPool::default(), &sources, &cost).unwrap().len(),
            2
        );
        let cost = "{R}{R}".parse::<ManaCost>().unwrap().to_payable(0);
        assert!(solve(&ManaPool::default(), &sources, &cost).is_none());
    }

    #[test]
    fn prefers_sources_without_drawbacks() {
        let sources = vec![src(0, &[G], 10), src(1, &[G], 0)];
        let cost = "{G}".parse::<ManaCost>().unwrap().to_payable(0);
        let plan = solve(&ManaPool::default(), &sources, &cost).unwrap();
        assert_eq!(plan[0].permanent, ObjectId::new(1, 0));
    }

    #[test]
    fn generic_mana_comes_from_the_colours_the_hand_needs_least() {
        // {1}{R}{R} with three Mountains and two Forests, a red card left in hand: the
        // generic is paid by a Forest and a Mountain stays untapped.
        let sources = vec![
            src(0, &[R], 0),
            src(1, &[R], 0),
            src(2, &[R], 0),
            src(3, &[G], 0),
            src(4, &[G], 0),
        ];
        let cost = "{1}{R}{R}".parse::<ManaCost>().unwrap().to_payable(0);
        let mut red_in_hand = [0; 5];
        red_in_hand[Color::R as usize] = 1;
        let plan = solve_keeping(&ManaPool::default(), &sources, &cost, &red_in_hand).unwrap();
        let tapped: Vec<u16> = plan.iter().map(|p| p.permanent.slot() as u16).collect();
        assert_eq!(plan.len(), 3);
        assert!(tapped.contains(&3) || tapped.contains(&4), "{tapped:?}");
        // With green wanted instead, the Mountains pay.
        let mut green_in_hand = [0; 5];
        green_in_hand[Color::G as usize] = 2;
        let plan = solve_keeping(&ManaPool::default(), &sources, &cost, &green_in_hand).unwrap();
        assert!(plan.iter().all(|p| p.permanent.slot() < 3), "{plan:?}");
    }

    #[test]
    fn spends_the_pool_first() {
        let mut pool = ManaPool::default();
        pool.add(G, 1);
        let sources = vec![src(0, &[G], 0)];
        let cost = "{G}".parse::<ManaCost>().unwrap().to_payable(0);
        assert!(solve(&pool, &sources, &cost).unwrap().is_empty());
    }
}
