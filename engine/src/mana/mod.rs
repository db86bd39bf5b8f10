//! Mana: colours, mana symbols and costs (rule 104.3, 203), mana pools (300.3 / Δ1-Δ2).
//!
//! The payment solver that chooses sources for a cost lives in [`autopay`].

pub mod autopay;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The five colours, in WUBRG order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Color {
    W,
    U,
    B,
    R,
    G,
}

impl Color {
    pub const ALL: [Color; 5] = [Color::W, Color::U, Color::B, Color::R, Color::G];

    pub fn name(self) -> &'static str {
        match self {
            Color::W => "white",
            Color::U => "blue",
            Color::B => "black",
            Color::R => "red",
            Color::G => "green",
        }
    }
    pub fn letter(self) -> char {
        match self {
            Color::W => 'W',
            Color::U => 'U',
            Color::B => 'B',
            Color::R => 'R',
            Color::G => 'G',
        }
    }
    pub fn from_letter(c: char) -> Option<Color> {
        match c.to_ascii_uppercase() {
            'W' => Some(Color::W),
            'U' => Some(Color::U),
            'B' => Some(Color::B),
            'R' => Some(Color::R),
            'G' => Some(Color::G),
            _ => None,
        }
    }
    pub fn from_name(s: &str) -> Option<Color> {
        let s = s.trim().to_ascii_lowercase();
        if s.chars().count() == 1 {
            return s.chars().next().and_then(Color::from_letter);
        }
        Color::ALL.into_iter().find(|c| c.name() == s)
    }
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of colours (an object's colour, the colours a source can make).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ColorSet(pub u8);

impl ColorSet {
    pub const NONE: ColorSet = ColorSet(0);
    pub const ALL: ColorSet = ColorSet(0b11111);
    pub fn single(c: Color) -> Self {
        ColorSet(c.bit())
    }
    pub fn contains(self, c: Color) -> bool {
        self.0 & c.bit() != 0
    }
    pub fn insert(&mut self, c: Color) {
        self.0 |= c.bit();
    }
    /// For serde's `skip_serializing_if`.
    pub fn is_none_set(&self) -> bool {
        self.0 == 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    pub fn iter(self) -> impl Iterator<Item = Color> {
        Color::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl FromIterator<Color> for ColorSet {
    fn from_iter<I: IntoIterator<Item = Color>>(iter: I) -> Self {
        let mut s = ColorSet::NONE;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// One unit of mana: a colour or colorless (rule 104.3d: numerals in "add" effects are colorless).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ManaType {
    Colored(Color),
    Colorless,
}

impl fmt::Display for ManaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManaType::Colored(c) => write!(f, "{{{}}}", c.letter()),
            ManaType::Colorless => f.write_str("{C}"),
        }
    }
}

/// A symbol in a mana cost (104.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ManaSymbol {
    Generic(u32),
    Colored(Color),
    Hybrid(Color, Color),
    X,
}

/// A mana cost as printed ("{2}{R}{R}"). `None` on a card means the card has no mana cost
/// at all (Δ24), which is different from `{0}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ManaCost {
    /// Inline up to four symbols (most costs), so copying a cost allocates nothing.
    pub symbols: smallvec::SmallVec<[ManaSymbol; 4]>,
}

impl ManaCost {
    pub fn generic(n: u32) -> Self {
        ManaCost {
            symbols: if n > 0 {
                smallvec::smallvec![ManaSymbol::Generic(n)]
            } else {
                smallvec::SmallVec::new()
            },
        }
    }
    /// Converted mana cost (X counts as 0 off the stack, 203.3).
    pub fn converted(&self) -> u32 {
        self.symbols
            .iter()
            .map(|s| match s {
                ManaSymbol::Generic(n) => *n,
                ManaSymbol::Colored(_) | ManaSymbol::Hybrid(..) => 1,
                ManaSymbol::X => 0,
            })
            .sum()
    }
    pub fn has_x(&self) -> bool {
        self.symbols.contains(&ManaSymbol::X)
    }
    /// The colours of the symbols (203.2: an object's colour comes from its mana cost).
    pub fn colors(&self) -> ColorSet {
        let mut set = ColorSet::NONE;
        for s in &self.symbols {
            match s {
                ManaSymbol::Colored(c) => set.insert(*c),
                ManaSymbol::Hybrid(a, b) => {
                    set.insert(*a);
                    set.insert(*b)
                }
                _ => {}
            }
        }
        set
    }
    /// The cost with X replaced by a number and extra generic added: what is actually paid.
    pub fn to_payable(&self, x: u32) -> PayableCost {
        let mut p = PayableCost::default();
        for s in &self.symbols {
            match *s {
                ManaSymbol::Generic(n) => p.generic += n,
                ManaSymbol::Colored(c) => p.colored[c as usize] += 1,
                ManaSymbol::Hybrid(a, b) => p.hybrid.push((a, b)),
                ManaSymbol::X => p.generic += x,
            }
        }
        p
    }
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}

impl fmt::Display for ManaCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.symbols.is_empty() {
            return f.write_str("{0}");
        }
        for s in &self.symbols {
            match s {
                ManaSymbol::Generic(n) => write!(f, "{{{n}}}")?,
                ManaSymbol::Colored(c) => write!(f, "{{{}}}", c.letter())?,
                ManaSymbol::Hybrid(a, b) => write!(f, "{{{}/{}}}", a.letter(), b.letter())?,
                ManaSymbol::X => f.write_str("{X}")?,
            }
        }
        Ok(())
    }
}

impl FromStr for ManaCost {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut symbols = Vec::new();
        let mut rest = s.trim();
        while !rest.is_empty() {
            let Some(stripped) = rest.strip_prefix('{') else {
                return Err(format!("mana cost `{s}`: expected `{{` at `{rest}`"));
            };
            let Some(end) = stripped.find('}') else {
                return Err(format!("mana cost `{s}`: missing `}}`"));
            };
            let inner = &stripped[..end];
            rest = stripped[end + 1..].trim_start();
            let sym = if let Ok(n) = inner.parse::<u32>() {
                ManaSymbol::Generic(n)
            } else if inner.eq_ignore_ascii_case("x") {
                ManaSymbol::X
            } else if let Some((a, b)) = inner.split_once('/') {
                let (Some(a), Some(b)) = (
                    a.chars().next().and_then(Color::from_letter),
                    b.chars().next().and_then(Color::from_letter),
                ) else {
                    return Err(format!("mana cost `{s}`: bad hybrid symbol {{{inner}}}"));
                };
                ManaSymbol::Hybrid(a, b)
            } else if inner.len() == 1 {
                match inner.chars().next().and_then(Color::from_letter) {
                    Some(c) => ManaSymbol::Colored(c),
                    None => return Err(format!("mana cost `{s}`: unknown symbol {{{inner}}}")),
                }
            } else {
                return Err(format!("mana cost `{s}`: unknown symbol {{{inner}}}"));
            };
            // Merge consecutive generic symbols ("{1}{1}" is {2}).
            match (symbols.last_mut(), sym) {
                (Some(ManaSymbol::Generic(a)), ManaSymbol::Generic(b)) => *a += b,
                _ => symbols.push(sym),
            }
        }
        symbols.retain(|s| *s != ManaSymbol::Generic(0));
        Ok(ManaCost {
            symbols: symbols.into(),
        })
    }
}

impl TryFrom<String> for ManaCost {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<ManaCost> for String {
    fn from(c: ManaCost) -> String {
        c.to_string()
    }
}

/// A cost with X fixed: what remains to be paid.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PayableCost {
    pub colored: [u32; 5],
    pub hybrid: Vec<(Color, Color)>,
    pub generic: u32,
}

impl PayableCost {
    pub fn total(&self) -> u32 {
        self.colored.iter().sum::<u32>() + self.hybrid.len() as u32 + self.generic
    }
    pub fn is_zero(&self) -> bool {
        self.total() == 0
    }
    pub fn add(&mut self, other: &PayableCost) {
        for i in 0..5 {
            self.colored[i] += other.colored[i];
        }
        self.hybrid.extend(other.hybrid.iter().copied());
        self.generic += other.generic;
    }
}

impl fmt::Display for PayableCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("{0}");
        }
        if self.generic > 0 {
            write!(f, "{{{}}}", self.generic)?;
        }
        for (a, b) in &self.hybrid {
            write!(f, "{{{}/{}}}", a.letter(), b.letter())?;
        }
        for c in Color::ALL {
            for _ in 0..self.colored[c as usize] {
                write!(f, "{{{}}}", c.letter())?;
            }
        }
        Ok(())
    }
}

/// A player's mana pool: amounts by type (five colours then colorless).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ManaPool(pub [u32; 6]);

impl ManaPool {
    fn idx(t: ManaType) -> usize {
        match t {
            ManaType::Colored(c) => c as usize,
            ManaType::Colorless => 5,
        }
    }
    pub fn add(&mut self, t: ManaType, n: u32) {
        self.0[Self::idx(t)] += n;
    }
    pub fn get(&self, t: ManaType) -> u32 {
        self.0[Self::idx(t)]
    }
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
    pub fn clear(&mut self) -> u32 {
        let t = self.total();
        self.0 = [0; 6];
        t
    }
    pub fn types() -> [ManaType; 6] {
        [
            ManaType::Colored(Color::W),
            ManaType::Colored(Color::U),
            ManaType::Colored(Color::B),
            ManaType::Colored(Color::R),
            ManaType::Colored(Color::G),
            ManaType::Colorless,
        ]
    }

    /// Pays `cost` from the pool if it can, choosing which mana to spend so that payment
    /// succeeds whenever any choice would (hybrid and generic take what colored symbols
    /// do not need). Returns false and leaves the pool unchanged otherwise.
    pub fn try_pay(&mut self, cost: &PayableCost) -> bool {
        let mut pool = self.0;
        for c in Color::ALL {
            let need = cost.colored[c as usize];
            if pool[c as usize] < need {
                return false;
            }
            pool[c as usize] -= need;
        }
        // Hybrid: pay each with whichever allowed colour has more left (small, exact enough:
        // try both orders by backtracking).
        fn hybrid(pool: &mut [u32; 6], hs: &[(Color, Color)]) -> bool {
            let Some(((a, b), rest)) = hs.split_first() else {
                return true;
            };
            for c in [*a, *b] {
                if pool[c as usize] > 0 {
                    pool[c as usize] -= 1;
                    if hybrid(pool, rest) {
                        return true;
                    }
                    pool[c as usize] += 1;
                }
            }
            false
        }
        if !hybrid(&mut pool, &cost.hybrid) {
            return false;
        }
        let mut generic = cost.generic;
        // Generic: colorless first, then the colours with the most left.
        let take = generic.min(pool[5]);
        pool[5] -= take;
        generic -= take;
        while generic > 0 {
            let Some(i) = (0..5).filter(|i| pool[*i] > 0).max_by_key(|i| pool[*i]) else {
                return false;
            };
            pool[i] -= 1;
            generic -= 1;
        }
        self.0 = pool;
        true
    }
}

impl fmt::Display for ManaPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("empty");
        }
        for t in Self::types() {
            for _ in 0..self.get(t) {
                write!(f, "{t}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_costs() {
        let c: ManaCost = "{2}{R}{R}".parse().unwrap();
        assert_eq!(c.converted(), 4);
        assert_eq!(c.to_string(), "{2}{R}{R}");
        let h: ManaCost = "{X}{G/W}{G/W}".parse().unwrap();
        assert_eq!(h.converted(), 2);
        assert!(h.has_x());
        assert!(h.colors().contains(Color::W));
        assert!("{Q}".parse::<ManaCost>().is_err());
        assert!("2R".parse::<ManaCost>().is_err());
    }

    #[test]
    fn pool_pays_generic_with_leftovers_not_needed_for_colors() {
        let mut pool = ManaPool::default();
        pool.add(ManaType::Colored(Color::R), 1);
        pool.add(ManaType::Colored(Color::G), 1);
        let cost = "{1}{G}".parse::<ManaCost>().unwrap().to_payable(0);
        assert!(pool.try_pay(&cost));
        assert!(pool.is_empty());
        let mut pool = ManaPool::default();
        pool.add(ManaType::Colored(Color::G), 1);
        let cost = "{R}".parse::<ManaCost>().unwrap().to_payable(0);
        assert!(!pool.try_pay(&cost));
        assert_eq!(pool.total(), 1, "failed payment leaves the pool unchanged");
    }

    #[test]
    fn hybrid_payment_backtracks() {
        let mut pool = ManaPool::default();
        pool.add(ManaType::Colored(Color::G), 1);
        pool.add(ManaType::Colored(Color::W), 1);
        let cost = "{G/W}{W}".parse::<ManaCost>().unwrap().to_payable(0);
        assert!(pool.try_pay(&cost));
    }
}
