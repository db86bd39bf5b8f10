//! Deck lists: plain-text import (`4 Lightning Axe`, MTGO `SB:` lines, Arena `Deck` /
//! `Sideboard` headers and `(SET) 123` suffixes tolerated), validation for constructed and
//! limited play with every problem named, and the ready-made decks of supported cards.

use engine::cards::Support;
use engine::{CardId, Catalog};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a deck is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// 60+ cards, at most 4 of each card other than basic lands, sideboard of 0 or 15 at most.
    Constructed,
    /// 40+ cards, any number of copies.
    Limited,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Constructed => "constructed",
            Format::Limited => "limited",
        }
    }
    pub fn parse(s: &str) -> Result<Format, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "constructed" | "standard" | "casual" => Ok(Format::Constructed),
            "limited" | "sealed" | "draft" => Ok(Format::Limited),
            other => Err(format!(
                "unknown format `{other}`: choose constructed or limited"
            )),
        }
    }
}

/// One line of a list, resolved to a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub count: u32,
    pub name: String,
}

/// A parsed deck: card names are the catalog's spelling.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Deck {
    pub name: String,
    pub main: Vec<Entry>,
    pub sideboard: Vec<Entry>,
}

/// Everything wrong with a list, each problem on its own line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckErrors(pub Vec<String>);

impl fmt::Display for DeckErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the deck list has {} problem{}:",
            self.0.len(),
            if self.0.len() == 1 { "" } else { "s" }
        )?;
        for p in &self.0 {
            write!(f, "\n- {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DeckErrors {}

impl Deck {
    pub fn main_count(&self) -> u32 {
        self.main.iter().map(|e| e.count).sum()
    }
    pub fn sideboard_count(&self) -> u32 {
        self.sideboard.iter().map(|e| e.count).sum()
    }

    /// The main deck as card ids, in list order (the engine shuffles).
    pub fn card_ids(&self) -> Result<Vec<CardId>, DeckErrors> {
        let cat = Catalog::builtin();
        let mut out = Vec::new();
        let mut problems = Vec::new();
        for e in &self.main {
            match cat.by_name(&e.name) {
                Some(def) => out.extend(std::iter::repeat_n(def.id, e.count as usize)),
                None => problems.push(format!("unknown card `{}`", e.name)),
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(DeckErrors(problems))
        }
    }

    /// The main deck as a flat list of names (stored with a game so it can be rebuilt).
    pub fn flat_names(&self) -> Vec<String> {
        self.main
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.name.clone(), e.count as usize))
            .collect()
    }

    /// Checks the deck for `format`; every problem is named.
    pub fn validate(&self, format: Format) -> Result<(), DeckErrors> {
        let cat = Catalog::builtin();
        let mut problems = Vec::new();
        let main = self.main_count();
        let (min, label) = match format {
            Format::Constructed => (60, "constructed"),
            Format::Limited => (40, "limited"),
        };
        if main < min {
            problems.push(format!(
                "the main deck has {main} cards; a {label} deck needs at least {min}"
            ));
        }
        if format == Format::Constructed {
            let side = self.sideboard_count();
            if side > 15 {
                problems.push(format!(
                    "the sideboard has {side} cards; at most 15 are allowed"
                ));
            }
            let mut totals: Vec<(String, u32)> = Vec::new();
            for e in self.main.iter().chain(&self.sideboard) {
                match totals.iter_mut().find(|(n, _)| *n == e.name) {
                    Some((_, c)) => *c += e.count,
                    None => totals.push((e.name.clone(), e.count)),
                }
            }
            for (name, count) in totals {
                let basic = cat
                    .by_name(&name)
                    .is_some_and(|d| d.supertypes.contains(&engine::cards::Supertype::Basic));
                if count > 4 && !basic {
                    problems.push(format!(
                        "{count} copies of {name}; at most 4 of a card other than basic lands"
                    ));
                }
            }
        }
        for e in self.main.iter().chain(&self.sideboard) {
            match cat.by_name(&e.name) {
                None => problems.push(format!("unknown card `{}`", e.name)),
                Some(def) => match &def.support {
                    Support::Supported => {}
                    Support::TestOnly => {
                        problems.push(format!("{} is a test card and cannot be played", def.name))
                    }
                    Support::Token => problems.push(format!("{} is a token, not a card", def.name)),
                    Support::Unsupported(why) => {
                        problems.push(format!("{} is not supported yet ({why})", def.name))
                    }
                },
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(DeckErrors(problems))
        }
    }
}

/// Strips an Arena/MTGO set suffix: `Lightning Axe (TSP) 154`, `Forest [TSP]`, `*F*`.
fn strip_printing(name: &str) -> &str {
    let mut n = name.trim();
    if let Some(i) = n.find(" (").or_else(|| n.find(" [")) {
        n = &n[..i];
    }
    n.trim_end_matches("*F*").trim()
}

/// Splits `4 Lightning Axe`, `4x Lightning Axe`, `Lightning Axe x4`, `Lightning Axe`.
fn split_count(line: &str) -> Result<(u32, &str), String> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let num = first.strip_suffix(['x', 'X']).unwrap_or(first);
    if !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
        let n: u32 = num
            .parse()
            .map_err(|_| format!("`{first}` is not a sensible number of copies"))?;
        if rest.trim().is_empty() {
            return Err(format!("`{line}` has a count but no card name"));
        }
        return Ok((n, rest.trim()));
    }
    if let Some((name, tail)) = line.rsplit_once(char::is_whitespace) {
        let t = tail.strip_prefix(['x', 'X']).unwrap_or("");
        if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
            let n: u32 = t
                .parse()
                .map_err(|_| format!("`{tail}` is not a sensible number of copies"))?;
            return Ok((n, name.trim()));
        }
    }
    Ok((1, line))
}

/// Parses a deck list. Unknown or unsupported cards, zero counts and lines that make no
/// sense are each reported (by line number) and nothing is returned until all are fixed.
pub fn parse(name: &str, text: &str) -> Result<Deck, DeckErrors> {
    let cat = Catalog::builtin();
    let mut deck = Deck {
        name: name.trim().to_string(),
        ..Default::default()
    };
    let mut problems = Vec::new();
    let mut in_side = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let mut line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let header = lower.trim_end_matches(':');
        if matches!(header, "sideboard" | "side" | "sb") {
            in_side = true;
            continue;
        }
        if matches!(
            header,
            "deck" | "main" | "maindeck" | "main deck" | "companion" | "commander" | "about"
        ) {
            in_side = false;
            continue;
        }
        if lower.starts_with("name ") {
            continue;
        }
        let mut side = in_side;
        if lower.starts_with("sb:") {
            side = true;
            line = line[3..].trim();
        }
        let (count, name) = match split_count(line) {
            Ok(x) => x,
            Err(e) => {
                problems.push(format!("line {lineno}: {e}"));
                continue;
            }
        };
        let name = strip_printing(name);
        if count == 0 {
            problems.push(format!("line {lineno}: 0 copies of {name}"));
            continue;
        }
        if count > 250 {
            problems.push(format!(
                "line {lineno}: {count} copies of {name} is too many"
            ));
            continue;
        }
        let Some(def) = cat.by_name(name) else {
            let hint = cat
                .suggest(name, 3)
                .iter()
                .map(|d| d.name.clone())
                .collect::<Vec<_>>();
            if hint.is_empty() {
                problems.push(format!("line {lineno}: unknown card `{name}`"));
            } else {
                problems.push(format!(
                    "line {lineno}: unknown card `{name}` (did you mean {}?)",
                    hint.join(", ")
                ));
            }
            continue;
        };
        match &def.support {
            Support::Supported => {}
            Support::TestOnly => {
                problems.push(format!(
                    "line {lineno}: {} is a test card and cannot be played",
                    def.name
                ));
                continue;
            }
            Support::Token => {
                problems.push(format!(
                    "line {lineno}: {} is a token, not a card",
                    def.name
                ));
                continue;
            }
            Support::Unsupported(why) => {
                let alt = cat
                    .suggest(name, 8)
                    .into_iter()
                    .filter(|d| d.is_supported() && d.id != def.id)
                    .map(|d| d.name.clone())
                    .take(2)
                    .collect::<Vec<_>>();
                let alt = if alt.is_empty() {
                    String::new()
                } else {
                    format!("; supported cards with similar names: {}", alt.join(", "))
                };
                problems.push(format!(
                    "line {lineno}: {} is not supported yet ({why}){alt}",
                    def.name
                ));
                continue;
            }
        }
        let list = if side {
            &mut deck.sideboard
        } else {
            &mut deck.main
        };
        match list.iter_mut().find(|e| e.name == def.name) {
            Some(e) => e.count += count,
            None => list.push(Entry {
                count,
                name: def.name.clone(),
            }),
        }
    }
    if deck.main.is_empty() && problems.is_empty() {
        problems.push("the list has no cards in its main deck".into());
    }
    if problems.is_empty() {
        Ok(deck)
    } else {
        Err(DeckErrors(problems))
    }
}

/// Writes a deck back as a plain list (round-trips through [`parse`]).
pub fn to_text(deck: &Deck) -> String {
    let mut s = String::new();
    for e in &deck.main {
        s.push_str(&format!("{} {}\n", e.count, e.name));
    }
    if !deck.sideboard.is_empty() {
        s.push_str("\nSideboard\n");
        for e in &deck.sideboard {
            s.push_str(&format!("{} {}\n", e.count, e.name));
        }
    }
    s
}

/// A deck shipped with the bot so that a newcomer can play at once.
#[derive(Debug, Clone, Copy)]
pub struct ReadyDeck {
    pub key: &'static str,
    pub title: &'static str,
    pub list: &'static str,
}

pub const READY: &[ReadyDeck] = &[
    ReadyDeck {
        key: "red",
        title: "Red-Green Axe",
        list: include_str!("../decks/red.txt"),
    },
    ReadyDeck {
        key: "green",
        title: "Green Growth",
        list: include_str!("../decks/green.txt"),
    },
    ReadyDeck {
        key: "white",
        title: "White Weenie",
        list: include_str!("../decks/white.txt"),
    },
    ReadyDeck {
        key: "blue",
        title: "Blue Skies",
        list: include_str!("../decks/blue.txt"),
    },
    ReadyDeck {
        key: "black",
        title: "Black-White Rebels",
        list: include_str!("../decks/black.txt"),
    },
    ReadyDeck {
        key: "morph",
        title: "Blue-Red Morph",
        list: include_str!("../decks/morph.txt"),
    },
    ReadyDeck {
        key: "suspend",
        title: "Blue-Red Suspend",
        list: include_str!("../decks/suspend.txt"),
    },
];

/// A ready-made deck by key or title (case-insensitive, prefix allowed).
pub fn ready(name: &str) -> Option<&'static ReadyDeck> {
    let q = name.trim().to_ascii_lowercase();
    READY
        .iter()
        .find(|d| d.key == q || d.title.to_ascii_lowercase() == q)
        .or_else(|| {
            READY
                .iter()
                .find(|d| d.key.starts_with(&q) || d.title.to_ascii_lowercase().starts_with(&q))
        })
}

impl ReadyDeck {
    pub fn deck(&self) -> Result<Deck, DeckErrors> {
        parse(self.title, self.list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ready_deck_validates() {
        assert!(READY.len() >= 4);
        for d in READY {
            let deck = d.deck().unwrap_or_else(|e| panic!("{}: {e}", d.key));
            deck.validate(Format::Constructed)
                .unwrap_or_else(|e| panic!("{}: {e}", d.key));
            let ids = deck.card_ids().unwrap_or_else(|e| panic!("{}: {e}", d.key));
            assert!(ids.len() >= 60);
            assert!(ready(d.key).is_some());
        }
    }

    #[test]
    fn supported_cards_listing() {
        // `cargo test -p spellstack supported_cards_listing -- --nocapture` lists the cards
        // the ready-made decks may use.
        let names: Vec<&str> = Catalog::builtin()
            .supported()
            .map(|c| c.name.as_str())
            .collect();
        for c in Catalog::builtin().supported() {
            println!(
                "{} | {} | {}",
                c.name,
                c.mana_cost
                    .as_ref()
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                c.type_line()
            );
        }
        println!("{} supported cards", names.len());
        assert!(names.contains(&"Forest"));
    }

    #[test]
    fn parses_plain_mtgo_and_arena_lists() {
        let text = "Deck\n20 Mountain (TSP) 295\n4x Forest\nIsland x3\n\n// comment\n# comment\nSB: 2 Plains\nSideboard\n1 Swamp\n";
        let d = parse("mix", text).expect("parses");
        assert_eq!(
            d.main,
            vec![
                Entry {
                    count: 20,
                    name: "Mountain".into()
                },
                Entry {
                    count: 4,
                    name: "Forest".into()
                },
                Entry {
                    count: 3,
                    name: "Island".into()
                },
            ]
        );
        assert_eq!(d.sideboard_count(), 3);
        let again = parse("mix", &to_text(&d)).expect("round trip");
        assert_eq!(again, d);
    }

    #[test]
    fn malformed_lists_name_every_problem() {
        let text = "0 Forest\n4 Mountian\nSB:\n3\n4 Nonexistent Card Of Doom\n";
        let e = parse("bad", text).unwrap_err();
        let all = e.to_string();
        assert!(all.contains("line 1: 0 copies of Forest"), "{all}");
        assert!(
            all.contains("line 2: unknown card `Mountian` (did you mean Mountain"),
            "{all}"
        );
        assert!(all.contains("line 4"), "{all}");
        assert!(all.contains("Nonexistent Card Of Doom"), "{all}");
        assert!(parse("empty", "\n\n").is_err());
    }

    #[test]
    fn unsupported_cards_are_refused_by_name() {
        let cat = Catalog::builtin();
        if let Some(card) = cat
            .cards()
            .iter()
            .find(|c| matches!(c.support, Support::Unsupported(_)))
        {
            let e = parse("x", &format!("4 {}\n56 Forest", card.name)).unwrap_err();
            assert!(
                e.to_string()
                    .contains(&format!("{} is not supported yet", card.name)),
                "{e}"
            );
        }
    }

    #[test]
    fn validation_counts_and_copies() {
        let d = parse("small", "30 Forest").expect("parses");
        let e = d.validate(Format::Constructed).unwrap_err().to_string();
        assert!(e.contains("30 cards") && e.contains("at least 60"), "{e}");
        assert!(d.validate(Format::Limited).is_err());
        assert!(
            parse("ok", "40 Forest")
                .expect("parses")
                .validate(Format::Limited)
                .is_ok()
        );
        // Basic lands are exempt from the 4-copy rule.
        assert!(
            parse("ok", "60 Forest")
                .expect("parses")
                .validate(Format::Constructed)
                .is_ok()
        );
        let cat = Catalog::builtin();
        if let Some(card) = cat
            .supported()
            .find(|c| !c.supertypes.contains(&engine::cards::Supertype::Basic))
        {
            let d = parse("many", &format!("5 {}\n55 Forest", card.name)).expect("parses");
            let e = d.validate(Format::Constructed).unwrap_err().to_string();
            assert!(e.contains(&format!("5 copies of {}", card.name)), "{e}");
        }
        let big_side = parse("side", "60 Forest\nSideboard\n16 Island").expect("parses");
        assert!(
            big_side
                .validate(Format::Constructed)
                .unwrap_err()
                .to_string()
                .contains("sideboard has 16")
        );
    }
}
