//! Costs: `{1}{R}, {T}, discard a card, sacrifice this, pay 2 life, remove a mining
//! counter`, `remove x storage counters`. Cost words are read in any case (a filter in a cost is read in lower case).

use super::filters::filter_after;
use super::words::{counter_kind, natural};
use super::{PResult, arg, fail_at, fail_here, next_word, word};
use crate::costs::{Cost, CostPart};
use crate::mana::ManaCost;
use crate::targets::Relation;
use winnow::ascii::{space0, space1};
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::take_while;

/// `cost`, over text already in lower case.
pub fn cost(i: &mut &str) -> PResult<Cost> {
    let mut cost = Cost::default();
    loop {
        space0.parse_next(i)?;
        let start = i.checkpoint();
        let part = take_while(0.., |c: char| c != ',').parse_next(i)?;
        let body = part.trim_end();
        if body.is_empty() {
            return fail_at(i, &start, "empty part in the cost", &["a cost part"]);
        }
        // The part is read on its own, so its filter ends at the comma; a problem is
        // reported where it is in the part.
        let mut within = body;
        if let Err(e) = cost_part(&mut within, &mut cost) {
            *i = within;
            return Err(e);
        }
        if !within.trim().is_empty() {
            *i = within.trim_start();
            let w = i.split_whitespace().next().unwrap_or("");
            return fail_here(format!("unexpected `{w}`"), &["`,` and the next cost part"]);
        }
        if i.is_empty() {
            return Ok(cost);
        }
        ','.parse_next(i)?;
    }
}

/// `cost_part`, added to `cost`.
fn cost_part(i: &mut &str, cost: &mut Cost) -> PResult<()> {
    if i.starts_with('{') && *i != "{t}" && *i != "{q}" {
        let m = take_while(1.., |c: char| c != ',')
            .try_map(|s: &str| s.trim_end().parse::<ManaCost>())
            .parse_next(i)?;
        match &mut cost.mana {
            Some(existing) => existing.symbols.extend(m.symbols),
            None => cost.mana = Some(m),
        }
        return Ok(());
    }
    let start = i.checkpoint();
    let verb = word.parse_next(i)?;
    let part = match verb {
        "{t}" => {
            cost.tap = true;
            return Ok(());
        }
        "{q}" => {
            cost.untap = true;
            return Ok(());
        }
        "sacrifice" => sacrifice(i)?,
        "exile" => exile(i)?,
        "discard" => discard(i)?,
        "tap" => tap_untapped(i)?,
        "return" => return_to_hand(i)?,
        "pay" => {
            let n = arg("an amount of life", natural).parse_next(i)?;
            literal_word(i, &["life"])?;
            CostPart::PayLife(n)
        }
        "put" => {
            // "Put a -0/-1 counter on ~" (Wall of Roots).
            literal_word(i, &["a"])?;
            let kind = arg("a counter kind", counter_kind).parse_next(i)?;
            for w in ["counter", "on", "this"] {
                literal_word(i, &[w])?;
            }
            CostPart::PutCounterOnThis(kind)
        }
        "remove" if next_word(i) == Some("x") => {
            (space1, "x").parse_next(i)?;
            let kind = arg("a counter kind", counter_kind).parse_next(i)?;
            literal_word(i, &["counters"])?;
            CostPart::RemoveXCounters(kind)
        }
        "remove" => {
            let n = arg("a count", count).parse_next(i)?;
            let kind = arg("a counter kind", counter_kind).parse_next(i)?;
            literal_word(i, &["counter", "counters"])?;
            if n == 1 && next_word(i) == Some("from") {
                // Rift Elemental: "from a permanent you control or suspended card you own".
                for w in [
                    "from",
                    "a",
                    "permanent",
                    "you",
                    "control",
                    "or",
                    "suspended",
                    "card",
                    "you",
                    "own",
                ] {
                    literal_word(i, &[w])?;
                }
                CostPart::RemoveCounterFromYours(kind)
            } else {
                CostPart::RemoveCounters(kind, n)
            }
        }
        w => {
            return fail_at(
                i,
                &start,
                format!("unknown cost part `{w}`"),
                &[
                    "{MANA}, {T}, {Q}, sacrifice, exile, discard, tap, return, pay N life, remove N KIND counter, put a KIND counter on this",
                ],
            );
        }
    };
    cost.parts.push(part);
    Ok(())
}

/// ` WORD`: one of these fixed words next.
fn literal_word(i: &mut &str, words: &[&'static str]) -> PResult<()> {
    if let Some(w) = next_word(i)
        && words.contains(&w)
    {
        (space1, word).parse_next(i)?;
        return Ok(());
    }
    *i = i.trim_start();
    fail_here(format!("expected `{}`", words.join("` or `")), words)
}

/// `count`: a, an, one, two, three or a number.
fn count(i: &mut &str) -> PResult<u32> {
    let start = i.checkpoint();
    match word.parse_next(i)? {
        "a" | "an" | "one" => Ok(1),
        "two" => Ok(2),
        "three" => Ok(3),
        _ => {
            i.reset(&start);
            natural
                .context("a, an, one, two, three or a number")
                .parse_next(i)
        }
    }
}

/// `sacrifice this` | `sacrifice COUNT FILTER`.
fn sacrifice(i: &mut &str) -> PResult<CostPart> {
    if next_word(i) == Some("this") {
        (space1, "this").parse_next(i)?;
        return Ok(CostPart::SacrificeThis);
    }
    let n = arg("a count", count).parse_next(i)?;
    let f = filter_after(&[]).parse_next(i)?;
    Ok(CostPart::Sacrifice(f, n))
}

/// `exile this` | `exile COUNT FILTER (card|cards) from a graveyard`.
fn exile(i: &mut &str) -> PResult<CostPart> {
    if next_word(i) == Some("this") {
        (space1, "this").parse_next(i)?;
        return Ok(CostPart::ExileThis);
    }
    let n = arg("a count", count).parse_next(i)?;
    let f = filter_after(&["card", "cards"]).parse_next(i)?;
    literal_word(i, &["card", "cards"])?;
    literal_word(i, &["from"])?;
    if next_word(i) == Some("your") {
        // Jhoira of the Ghitu: "exile a nonland card from your hand".
        for w in ["your", "hand"] {
            literal_word(i, &[w])?;
        }
        return Ok(CostPart::ExileFromHand(f, n));
    }
    for w in ["a", "graveyard"] {
        literal_word(i, &[w])?;
    }
    Ok(CostPart::ExileFromGraveyard(f, n))
}

/// `discard this card` | `discard x cards` | `discard another card named this` |
/// `discard COUNT (card|cards) [at random]`.
fn discard(i: &mut &str) -> PResult<CostPart> {
    if next_word(i) == Some("another") {
        for w in ["another", "card", "named", "this"] {
            literal_word(i, &[w])?;
        }
        return Ok(CostPart::DiscardSameName);
    }
    if next_word(i) == Some("this") {
        (space1, "this").parse_next(i)?;
        literal_word(i, &["card"])?;
        return Ok(CostPart::DiscardThis);
    }
    if next_word(i) == Some("x") {
        (space1, "x").parse_next(i)?;
        literal_word(i, &["cards"])?;
        return Ok(CostPart::DiscardX);
    }
    let n = arg("a count", count).parse_next(i)?;
    literal_word(i, &["card", "cards"])?;
    if next_word(i) == Some("at") {
        literal_word(i, &["at"])?;
        literal_word(i, &["random"])?;
        return Ok(CostPart::DiscardRandom(n));
    }
    Ok(CostPart::Discard(n))
}

/// `return COUNT SUBTYPEs you control to their owner's hand`, as printed (Fathom Seer's
/// "Morph—Return two Islands you control to their owner's hand"): the subtype is the plural
/// word without its `s`.
///
/// `return a SUBTYPE you control to its owner's hand` (Scryb Ranger's "Return a Forest you
/// control to its owner's hand").
fn return_to_hand(i: &mut &str) -> PResult<CostPart> {
    if next_word(i) == Some("this") {
        // "Return ~ to its owner's hand" (Ovinomancer).
        for w in ["this", "to", "its", "owner's", "hand"] {
            literal_word(i, &[w])?;
        }
        return Ok(CostPart::ReturnThis);
    }
    let n = arg("a count", count).parse_next(i)?;
    let start = i.checkpoint();
    if n > 1 && next_word(i) == Some("basic") {
        // "Return three basic lands you control to their owner's hand" (Ovinomancer).
        for w in [
            "basic", "lands", "you", "control", "to", "their", "owner's", "hand",
        ] {
            literal_word(i, &[w])?;
        }
        let f = crate::targets::ObjectFilter {
            types_any: vec![crate::types::CardType::Land],
            basic: true,
            controller: Some(Relation::You),
            ..Default::default()
        };
        return Ok(CostPart::ReturnToHand(f, n));
    }
    if n == 1 {
        let subtype = arg("a subtype", word).parse_next(i)?;
        let f = crate::targets::ObjectFilter {
            subtype: Some(subtype.to_string()),
            controller: Some(Relation::You),
            ..Default::default()
        };
        for w in ["you", "control", "to", "its", "owner's", "hand"] {
            literal_word(i, &[w])?;
        }
        return Ok(CostPart::ReturnToHand(f, n));
    }
    let plural = arg("a subtype, plural", word).parse_next(i)?;
    let Some(subtype) = plural.strip_suffix('s').filter(|s| !s.is_empty()) else {
        return fail_at(
            i,
            &start,
            format!("`{plural}` is not a plural subtype"),
            &["islands"],
        );
    };
    let f = crate::targets::ObjectFilter {
        subtype: Some(subtype.to_string()),
        controller: Some(Relation::You),
        ..Default::default()
    };
    for w in ["you", "control", "to", "their", "owner's", "hand"] {
        literal_word(i, &[w])?;
    }
    Ok(CostPart::ReturnToHand(f, n))
}

/// `tap COUNT untapped FILTER` (permanents you control; not {T}).
fn tap_untapped(i: &mut &str) -> PResult<CostPart> {
    let n = arg("a count", count).parse_next(i)?;
    literal_word(i, &["untapped"])?;
    let mut f = filter_after(&[]).parse_next(i)?;
    f.tapped = Some(false);
    f.controller = Some(Relation::You);
    Ok(CostPart::TapUntapped(f, n))
}
