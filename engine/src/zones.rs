//! Zones (rule 217 / modern 400): library, hand, battlefield, graveyard, stack, exile.
//!
//! Library, hand and graveyard belong to a player; the battlefield, stack and exile are
//! shared. Moving an object between zones makes it a new object ([`crate::ids::ObjectId`]).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ZoneKind {
    Library,
    Hand,
    Battlefield,
    Graveyard,
    Stack,
    Exile,
}

impl ZoneKind {
    /// Hidden zones (217.1b): cards there are not visible to everyone.
    pub fn is_hidden(self) -> bool {
        matches!(self, ZoneKind::Library | ZoneKind::Hand)
    }
    pub fn name(self) -> &'static str {
        match self {
            ZoneKind::Library => "library",
            ZoneKind::Hand => "hand",
            ZoneKind::Battlefield => "battlefield",
            ZoneKind::Graveyard => "graveyard",
            ZoneKind::Stack => "stack",
            ZoneKind::Exile => "exile",
        }
    }
}

impl fmt::Display for ZoneKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where an object goes in an ordered zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Position {
    Top,
    Bottom,
}
