//! Card types, supertypes and basic land types (rules 205, 212; 2014: 205): the vocabulary of
//! the type line. A leaf module: it imports nothing of the rules procedures.

use crate::mana::Color;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardType {
    Artifact,
    Creature,
    Enchantment,
    Instant,
    Land,
    Sorcery,
    Tribal,
    Planeswalker,
}

impl CardType {
    pub fn name(self) -> &'static str {
        match self {
            CardType::Artifact => "Artifact",
            CardType::Creature => "Creature",
            CardType::Enchantment => "Enchantment",
            CardType::Instant => "Instant",
            CardType::Land => "Land",
            CardType::Sorcery => "Sorcery",
            CardType::Tribal => "Tribal",
            CardType::Planeswalker => "Planeswalker",
        }
    }
    /// Rule 214.1: the permanent types.
    pub fn is_permanent_type(self) -> bool {
        !matches!(
            self,
            CardType::Instant | CardType::Sorcery | CardType::Tribal
        )
    }
}

impl FromStr for CardType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "artifact" => CardType::Artifact,
            "creature" => CardType::Creature,
            "enchantment" => CardType::Enchantment,
            "instant" => CardType::Instant,
            "land" => CardType::Land,
            "sorcery" => CardType::Sorcery,
            "tribal" => CardType::Tribal,
            "planeswalker" => CardType::Planeswalker,
            _ => return Err(format!("unknown card type `{s}`")),
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Supertype {
    Basic,
    Legendary,
    Snow,
    World,
}

impl FromStr for Supertype {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "basic" => Supertype::Basic,
            "legendary" => Supertype::Legendary,
            "snow" => Supertype::Snow,
            "world" => Supertype::World,
            _ => return Err(format!("unknown supertype `{s}`")),
        })
    }
}

/// The basic land types and their colours, in colour order (212.6d).
pub const BASIC_LAND_TYPES: [(&str, Color); 5] = [
    ("Plains", Color::W),
    ("Island", Color::U),
    ("Swamp", Color::B),
    ("Mountain", Color::R),
    ("Forest", Color::G),
];

/// A word a text-changing effect replaces (layer 3): a colour word or a basic land type
/// (named by its colour: Plains is W).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextWord {
    Color(Color),
    LandType(Color),
}

impl std::fmt::Display for TextWord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextWord::Color(c) => f.write_str(c.name()),
            TextWord::LandType(c) => f.write_str(land_type_of(*c)),
        }
    }
}

impl std::str::FromStr for TextWord {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some((_, c)) = BASIC_LAND_TYPES
            .iter()
            .find(|(t, _)| t.eq_ignore_ascii_case(s))
        {
            return Ok(TextWord::LandType(*c));
        }
        match Color::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
        {
            Some(c) => Ok(TextWord::Color(c)),
            None => Err(format!(
                "`{s}` is neither a colour word nor a basic land type"
            )),
        }
    }
}

/// The basic land type of a colour (Plains for W).
pub fn land_type_of(c: Color) -> &'static str {
    BASIC_LAND_TYPES
        .iter()
        .find(|(_, col)| *col == c)
        .map_or("", |(t, _)| t)
}
