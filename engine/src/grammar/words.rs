//! The small words effects are made of: numbers, amounts, player and object references,
//! damage recipients, P/T changes, colours, counter kinds, keywords.

use super::{PResult, Problem, item, table, word_end};
use crate::effects::{Amount, ObjRef, PlayerRef, Recipient};
use crate::keywords::Keyword;
use crate::mana::{Color, ColorSet};
use crate::object::CounterKind;
use crate::targets::{ObjectFilter, Relation};
use crate::types::CardType;
use winnow::ascii::{dec_int, dec_uint};
use winnow::combinator::{alt, cut_err, opt, separated, terminated};
use winnow::error::ErrMode;
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::{one_of, take_while};

/// `integer` (a whole number, maybe signed).
pub fn integer(i: &mut &str) -> PResult<i32> {
    terminated(dec_int, word_end)
        .context("a number")
        .parse_next(i)
}

/// A number that can't be negative.
pub fn natural(i: &mut &str) -> PResult<u32> {
    terminated(dec_uint, word_end)
        .context("a number")
        .parse_next(i)
}

const AMOUNT_WORDS: &[(&str, Amount)] = &[
    ("X", Amount::X),
    ("x", Amount::X),
    ("twice_X", Amount::TwiceX),
    ("creatures_you_control", Amount::CreaturesYouControl),
    ("attacking_creatures", Amount::AttackingCreatures),
    (
        "basic_land_types_you_control",
        Amount::BasicLandTypesYouControl,
    ),
    ("lands_you_control", Amount::LandsYouControl),
    ("blockers_beyond_first", Amount::BlockersBeyondFirst),
    ("blockers_of_it", Amount::BlockersOfIt),
    ("its_power", Amount::SubjectPower),
    ("this_power", Amount::SourcePower),
    ("its_mana_value", Amount::SubjectManaValue),
    ("that_much", Amount::ThatMuch),
    (
        "three_minus_that_players_hand",
        Amount::MinusThatPlayersHand(3),
    ),
    ("life_you_lost_this_turn", Amount::LifeYouLostThisTurn),
    ("life_lost_this_way", Amount::LifeLostThisWay),
    ("target_mana_value", Amount::TargetManaValue(0)),
    ("target_power", Amount::TargetPower(0)),
    (
        "target_power_plus_toughness",
        Amount::TargetPowerPlusToughness(0),
    ),
    (
        "creatures_target_controls",
        Amount::PerCreatureTargetPlayerControls(1),
    ),
    (
        "two_per_creature_target_controls",
        Amount::PerCreatureTargetPlayerControls(2),
    ),
];

/// `amount`.
pub fn amount(i: &mut &str) -> PResult<Amount> {
    let you_control = winnow::combinator::preceded(
        "you_control:",
        take_while(1.., |c: char| c.is_ascii_alphabetic() || c == '-'),
    )
    .map(|s: &str| Amount::YouControlSubtype(s.to_string()));
    alt((
        integer.map(Amount::Fixed),
        you_control,
        table("amount", AMOUNT_WORDS),
    ))
    .map_err(|e: ErrMode<Problem>| {
        e.map(|mut p| {
            p.expected.retain(|w| w != "x" && w != "a number");
            p.expected.insert(0, "a number".into());
            p.what = p.what.map(|_| "bad amount".to_string());
            p
        })
    })
    .parse_next(i)
}

const SLOTS: &[(&str, u8)] = &[
    ("target", 0),
    ("target1", 0),
    ("target2", 1),
    ("target3", 2),
];

/// `slot`: a target slot (0-based).
pub fn slot(i: &mut &str) -> PResult<u8> {
    table("target slot", SLOTS).parse_next(i)
}

const OBJECT_WORDS: &[(&str, ObjRef)] = &[
    ("this", ObjRef::This),
    ("it", ObjRef::Subject),
    ("linked", ObjRef::Linked),
    ("enchanted", ObjRef::Enchanted),
    ("target", ObjRef::Target(0)),
    ("target1", ObjRef::Target(0)),
    ("target2", ObjRef::Target(1)),
    ("target3", ObjRef::Target(2)),
];

/// `object`.
pub fn object(i: &mut &str) -> PResult<ObjRef> {
    table("object", OBJECT_WORDS).parse_next(i)
}

/// Whether a word names an object (so it ends a list of types before it).
pub(crate) fn is_object_word(w: &str) -> bool {
    OBJECT_WORDS.iter().any(|(k, _)| *k == w)
}

const PLAYER_WORDS: &[(&str, PlayerRef)] = &[
    ("you", PlayerRef::You),
    ("each_player", PlayerRef::EachPlayer),
    ("each_opponent", PlayerRef::EachOpponent),
    ("target_controller", PlayerRef::TargetController(0)),
    ("that_player", PlayerRef::SubjectPlayer),
    ("chosen_player", PlayerRef::ChosenPlayer),
    ("target", PlayerRef::Target(0)),
    ("target1", PlayerRef::Target(0)),
    ("target2", PlayerRef::Target(1)),
    ("target3", PlayerRef::Target(2)),
];

/// `player`.
pub fn player(i: &mut &str) -> PResult<PlayerRef> {
    table("player", PLAYER_WORDS).parse_next(i)
}

/// `recipient`.
pub fn recipient(i: &mut &str) -> PResult<Recipient> {
    let creatures = || ObjectFilter::of_type(CardType::Creature);
    let start = i.checkpoint();
    let w = item.parse_next(i)?;
    if let Some((_, n)) = SLOTS.iter().find(|(k, _)| *k == w) {
        return Ok(Recipient::Target(*n));
    }
    match w {
        "each_creature_you_control" => {
            let mut f = creatures();
            f.controller = Some(Relation::You);
            return Ok(Recipient::EachCreature(f));
        }
        "each_creature_blocking_it" => return Ok(Recipient::EachCreatureBlocking(ObjRef::Subject)),
        "each_creature" => return Ok(Recipient::EachCreature(creatures())),
        "each_attacking_creature" => {
            let mut f = creatures();
            f.attacking = true;
            return Ok(Recipient::EachCreature(f));
        }
        "this" => return Ok(Recipient::Object(ObjRef::This)),
        _ => {}
    }
    let with = w.strip_prefix("each_creature_with:").map(|k| (k, true));
    let without = w.strip_prefix("each_creature_without:").map(|k| (k, false));
    if let Some((k, has)) = with.or(without) {
        let mut f = creatures();
        let k = k.parse().map_err(|e: String| {
            i.reset(&start);
            ErrMode::Cut(Problem {
                what: Some(e),
                expected: vec![],
            })
        })?;
        if has {
            f.keyword = Some(k);
        } else {
            f.without_keyword = Some(k);
        }
        return Ok(Recipient::EachCreature(f));
    }
    i.reset(&start);
    player
        .map(Recipient::Player)
        .map_err(|e: ErrMode<Problem>| {
            e.map(|mut p| {
                p.what = Some(format!("unknown damage recipient `{w}`"));
                p.expected.extend(
                    [
                        "each_creature",
                        "each_creature_you_control",
                        "each_creature_with:KEYWORD",
                        "each_creature_without:KEYWORD",
                        "each_creature_blocking_it",
                    ]
                    .map(String::from),
                );
                p
            })
        })
        .parse_next(i)
}

/// `recipients`.
pub fn recipients(i: &mut &str) -> PResult<Vec<Recipient>> {
    separated(1.., cut_err(recipient), ',').parse_next(i)
}

/// `signed`: an integer with an optional `+`.
fn signed(i: &mut &str) -> PResult<i32> {
    (
        opt(one_of(['+', '-'])),
        take_while(1.., |c: char| c.is_ascii_digit()),
    )
        .take()
        .try_map(|s: &str| {
            s.trim_start_matches('+')
                .parse::<i32>()
                .map_err(|e| e.to_string())
        })
        .parse_next(i)
}

/// `pt_change`: `+2/+0`, `-3/+0`, `4/4`.
pub fn pt_change(i: &mut &str) -> PResult<(i32, i32)> {
    let start = i.checkpoint();
    terminated((signed, '/', signed), word_end)
        .map(|(p, _, t)| (p, t))
        .parse_next(i)
        .or_else(|_| {
            i.reset(&start);
            let w = item.parse_peek(*i).map(|(_, w)| w).unwrap_or("");
            super::fail_here(format!("bad P/T change `{w}`"), &["a P/T like +1/+1"])
        })
}

/// `colour_letter`: W, U, B, R or G (either case).
pub fn colour_letter(i: &mut &str) -> PResult<Color> {
    one_of(|c: char| Color::from_letter(c).is_some())
        .map(|c: char| Color::from_letter(c).unwrap_or(Color::W))
        .context("a colour letter (W, U, B, R, G)")
        .parse_next(i)
}

/// `colours`: letters, e.g. `W` or `UR`.
pub fn colours(i: &mut &str) -> PResult<ColorSet> {
    terminated(
        winnow::combinator::repeat(1.., colour_letter).fold(
            || ColorSet::NONE,
            |mut s, c| {
                s.insert(c);
                s
            },
        ),
        word_end,
    )
    .context("colour letters (W, U, B, R, G)")
    .parse_next(i)
}

/// A colour word or letter (`R`, `red`), as `if_spent=` takes it.
pub fn colour_name(i: &mut &str) -> PResult<Color> {
    item.verify_map(Color::from_name)
        .context("a colour (W, U, B, R, G)")
        .parse_next(i)
}

/// `counter_kind`: `+1/+1`, `-1/-1`, `time`, `spore`... (any case; any other word of
/// letters names a kind of its own).
/// `+1/+0`, `+0/+1`, `-0/-1`...: a power/toughness counter other than +1/+1 and -1/-1,
/// both numbers with the same sign (as printed).
fn pt_counter(w: &str) -> Option<CounterKind> {
    let sign = match w.as_bytes().first()? {
        b'+' => 1i8,
        b'-' => -1i8,
        _ => return None,
    };
    let (a, b) = w[1..].split_once('/')?;
    let b = b.strip_prefix(if sign > 0 { '+' } else { '-' })?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|c| c.is_ascii_digit()))
            .then(|| s.parse::<i8>().ok())
            .flatten()
    };
    let (a, b) = (sign * number(a)?, sign * number(b)?);
    Some(match (a, b) {
        (1, 1) => CounterKind::PlusOnePlusOne,
        (-1, -1) => CounterKind::MinusOneMinusOne,
        _ => CounterKind::Pt(a, b),
    })
}

pub fn counter_kind(i: &mut &str) -> PResult<CounterKind> {
    let start = i.checkpoint();
    let w = take_while(1.., |c: char| !c.is_whitespace() && c != ',' && c != ':')
        .context("a counter kind")
        .parse_next(i)?;
    let lower = w.to_ascii_lowercase();
    if let Some(pt) = pt_counter(&lower) {
        return Ok(pt);
    }
    Ok(match lower.as_str() {
        "+1/+1" | "plus1" => CounterKind::PlusOnePlusOne,
        "-1/-1" | "minus1" => CounterKind::MinusOneMinusOne,
        "time" => CounterKind::Time,
        "mining" => CounterKind::Mining,
        "charge" => CounterKind::Charge,
        "age" => CounterKind::Age,
        "fade" => CounterKind::Fade,
        other if other.chars().all(|c| c.is_ascii_alphabetic()) => {
            CounterKind::Named(other.to_string())
        }
        _ => {
            return super::fail_at(
                i,
                &start,
                format!("unknown counter kind `{w}`"),
                &[
                    "+1/+1",
                    "-1/-1",
                    "+1/+0, -0/-1...",
                    "a word of letters (time, spore...)",
                ],
            );
        }
    })
}

/// `keyword`: a keyword's name, `_` or `-` for spaces (`first_strike`, `can't_block`).
pub fn keyword(i: &mut &str) -> PResult<Keyword> {
    item.try_map(str::parse::<Keyword>)
        .context("a keyword")
        .parse_next(i)
}

/// `card_type`.
pub fn card_type(i: &mut &str) -> PResult<CardType> {
    item.try_map(str::parse::<CardType>)
        .context("a card type")
        .parse_next(i)
}
