//! Game objects (rule 200.8 / 109): a card or token in a zone, with its status.

use crate::ids::{CardId, ObjectId, PlayerId};
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CounterKind {
    PlusOnePlusOne,
    MinusOneMinusOne,
    Time,
    Mining,
    Charge,
    Age,
    Fade,
    /// A counter changing power and toughness other than +1/+1 and -1/-1 (+1/+0, +0/+1,
    /// -0/-1...): it adds its numbers like them, but state-based actions never remove it
    /// with another kind (420.5n / 704.5r name only +1/+1 and -1/-1 counters).
    Pt(i8, i8),
    Named(String),
}

impl CounterKind {
    /// What one counter of this kind adds to power and toughness.
    pub fn pt_change(&self) -> (i32, i32) {
        match self {
            CounterKind::PlusOnePlusOne => (1, 1),
            CounterKind::MinusOneMinusOne => (-1, -1),
            CounterKind::Pt(a, b) => (i32::from(*a), i32::from(*b)),
            _ => (0, 0),
        }
    }
}

impl fmt::Display for CounterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CounterKind::PlusOnePlusOne => f.write_str("+1/+1"),
            CounterKind::MinusOneMinusOne => f.write_str("-1/-1"),
            CounterKind::Time => f.write_str("time"),
            CounterKind::Mining => f.write_str("mining"),
            CounterKind::Charge => f.write_str("charge"),
            CounterKind::Age => f.write_str("age"),
            CounterKind::Fade => f.write_str("fade"),
            // Both numbers carry the counter's sign, as printed: "+1/+0", "-0/-1".
            CounterKind::Pt(a, b) => {
                let sign = if *a < 0 || *b < 0 { '-' } else { '+' };
                write!(f, "{sign}{}/{sign}{}", a.unsigned_abs(), b.unsigned_abs())
            }
            CounterKind::Named(n) => f.write_str(n),
        }
    }
}

impl FromStr for CounterKind {
    type Err = String;
    /// `+1/+1`, `time`, `spore`... (the grammar: [`crate::grammar::words::counter_kind`]).
    fn from_str(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::words::counter_kind, s)
    }
}

/// Counters on an object, kept sorted by kind so that equal states serialise equally.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Counters(pub Vec<(CounterKind, u32)>);

impl Counters {
    pub fn get(&self, k: &CounterKind) -> u32 {
        self.0.iter().find(|(kk, _)| kk == k).map_or(0, |(_, n)| *n)
    }
    pub fn add(&mut self, k: CounterKind, n: u32) {
        if n == 0 {
            return;
        }
        match self.0.iter_mut().find(|(kk, _)| *kk == k) {
            Some((_, m)) => *m += n,
            None => {
                self.0.push((k, n));
                self.0.sort();
            }
        }
    }
    /// Removes up to `n`; returns how many were removed.
    pub fn remove(&mut self, k: &CounterKind, n: u32) -> u32 {
        let Some(i) = self.0.iter().position(|(kk, _)| kk == k) else {
            return 0;
        };
        let taken = self.0[i].1.min(n);
        self.0[i].1 -= taken;
        if self.0[i].1 == 0 {
            self.0.remove(i);
        }
        taken
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One object. Indexed by its id's slot in [`crate::Game::objects`]; the id's generation
/// tells whether a reference is still current.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    pub id: ObjectId,
    pub card: CardId,
    pub owner: PlayerId,
    pub controller: PlayerId,
    pub zone: ZoneKind,
    #[serde(default, skip_serializing_if = "is_false")]
    pub tapped: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: u32,
    #[serde(default, skip_serializing_if = "Counters::is_empty")]
    pub counters: Counters,
    /// Rule 418.5e: when the object entered its zone (or, for Auras, became attached).
    pub timestamp: u32,
    /// The turn number in which its controller gained control of it (summoning sickness,
    /// 212.3d): it may attack or use {T} only if this is before the start of its
    /// controller's most recent turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub controlled_since: u32,
    /// The turn number in which it entered the battlefield (0: before the game's first
    /// turn or not on the battlefield): "entered the battlefield since your last turn
    /// ended" (Premature Burial, `entered_since_your_last_turn`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub entered_turn: u32,
    /// The game's clock (`Game::next_timestamp`) when its controller began to control it
    /// (echo: "came under your control since the beginning of your last upkeep").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub control_clock: u32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub token: bool,
    /// A token that left the battlefield and ceased to exist (S8): in no zone any more.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ceased: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<ObjectId>,
    /// The player an Aura with "enchant player" is attached to (Paradox Haze; 303.4 /
    /// 2014 303.4: an Aura may be attached to a player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_player: Option<crate::ids::PlayerId>,
    /// Damage from a deathtouch source since the last state-based check (modern S18).
    #[serde(default, skip_serializing_if = "is_false")]
    pub deathtouch_damage: bool,
    /// "As ~ enters the battlefield, choose a creature type" (Conspiracy): the choice, kept
    /// from the stack onto the battlefield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_type: Option<String>,
    /// "As ~ enters the battlefield, choose a color / an opponent / one of ..." (614.12,
    /// `as_enters.rs`): the choice, kept from the stack onto the battlefield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<Chosen>,
    /// The player who put it onto the battlefield, when not its owner (its controller apart
    /// from control-changing effects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered_under: Option<crate::ids::PlayerId>,
    /// Layer 1: it entered as a copy of this card (Vesuva); its copiable values are that
    /// card's (706.2 / 503 in 2006).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<crate::ids::CardId>,
    /// Vesuvan Shapeshifter's exception (706.9b): the copy also has "At the beginning of
    /// your upkeep, you may turn this creature face down" (part of its copiable values).
    #[serde(default, skip_serializing_if = "is_false")]
    pub copy_trigger: bool,
    /// How long its copy effect lasts.
    #[serde(
        default,
        skip_serializing_if = "crate::abilities::CopyUntil::is_as_entered"
    )]
    pub copy_until: crate::abilities::CopyUntil,
    /// Face down (502.26 / 702.36, 707): its copiable values are the face-down 2/2's
    /// (`Catalog::face_down`); only its controller may look at the card.
    #[serde(default, skip_serializing_if = "is_false")]
    pub face_down: bool,
    /// A spell cast with flashback (502.22a / 702.34a): if it would leave the stack, it is
    /// exiled instead (`Game::move_object_as`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub flashback: bool,
    /// A spell cast by suspend's last-counter trigger: a creature gains haste as it
    /// resolves (502.59a / 702.61a).
    #[serde(default, skip_serializing_if = "is_false")]
    pub suspend_cast: bool,
    /// The kicker costs paid for it as a spell (bit i: the i-th kicker cost; 502.21 /
    /// 702.32): kept as the spell becomes a permanent, lost on any other zone change.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub kicked: u8,
    /// The X chosen for its spell's costs (kicker {X}: Verdeloth the Ancient), kept like
    /// `kicked` as the spell becomes a permanent: its enters-the-battlefield abilities'
    /// X (2014 107.3m; `keywords/kicker.rs`).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub cast_x: u32,
    /// A spell whose buyback cost was paid (502.16 / 702.26).
    #[serde(default, skip_serializing_if = "is_false")]
    pub buyback: bool,
    /// A copy of a spell (706.10 / 2006 503): no card represents it; it ceases to exist as
    /// it leaves the stack (S16).
    #[serde(default, skip_serializing_if = "is_false")]
    pub spell_copy: bool,
    /// A card in exile that gained suspend from an effect (Delay, Jhoira of the Ghitu,
    /// Epochrasite; `keywords/time_counters.rs`): it has suspend's two triggered abilities
    /// while it stays in exile (lost on any zone change).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gained_suspend: bool,
    /// A spell cast from its owner's hand, kept as it becomes a permanent (only for cards
    /// whose text asks: Epochrasite's "if you didn't cast it from your hand").
    #[serde(default, skip_serializing_if = "is_false")]
    pub cast_from_hand: bool,
    /// A spell cast for its madness cost (502.24a / 702.34a), kept as it becomes a permanent:
    /// Grave Scrabbler's "if its madness cost was paid" (`keywords/madness.rs`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub madness_cast: bool,
    /// A split card cast as one of its halves (2006 505.2 / 2014 708.3): while it is a
    /// spell, only that half's characteristics exist (0 left, 1 right). Cleared as it
    /// leaves the stack (`keywords/split.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_half: Option<u8>,
    /// The P/T an effect created this token with ("create an X/X green Wurm creature token":
    /// Wurmcalling, `create_token ... pt=X`): part of its copiable values (2006 503.2 / 2014
    /// 706.2), in place of its definition's `*/*`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_pt: Option<(i32, i32)>,
    /// The `token_pt` of what it copies (a copy of such a token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_pt: Option<(i32, i32)>,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

impl Object {
    /// The card whose values it has: the face-down characteristics, its own card, or the
    /// card it copies (layer 1).
    pub fn face(&self) -> crate::ids::CardId {
        if self.face_down {
            crate::cards::Catalog::builtin().face_down()
        } else {
            self.face_up()
        }
    }
    /// The card it would be face up: its own, or the card it copies. Hidden from other
    /// players while it is face down.
    pub fn face_up(&self) -> crate::ids::CardId {
        match self.split_half {
            Some(h) => self.card.split_half(h),
            None => self.copy_of.unwrap_or(self.card),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_toughness_counters_parse_and_print_as_printed() {
        for (text, kind, change) in [
            ("+1/+0", CounterKind::Pt(1, 0), (1, 0)),
            ("+0/+1", CounterKind::Pt(0, 1), (0, 1)),
            ("-0/-1", CounterKind::Pt(0, -1), (0, -1)),
            ("+1/+1", CounterKind::PlusOnePlusOne, (1, 1)),
            ("-1/-1", CounterKind::MinusOneMinusOne, (-1, -1)),
        ] {
            let k: CounterKind = text.parse().expect(text);
            assert_eq!(k, kind, "{text}");
            assert_eq!(k.to_string(), text);
            assert_eq!(k.pt_change(), change, "{text}");
        }
        assert_eq!(CounterKind::Time.pt_change(), (0, 0));
        // Mixed signs are no counter of the block.
        assert!("+1/-1".parse::<CounterKind>().is_err());
        assert!("+1/".parse::<CounterKind>().is_err());
    }
}

/// A choice made as a permanent entered the battlefield (614.12; `as_enters.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chosen {
    /// "Choose a color" (Teferi's Moat, Pentarch Paladin).
    Color(crate::mana::Color),
    /// "Choose an opponent" (The Rack).
    Player(crate::ids::PlayerId),
    /// "Choose white Citizen, blue Camarid, ..." (Sarpadian Empires): the index of the
    /// option in the card's list.
    Option(u8),
}
