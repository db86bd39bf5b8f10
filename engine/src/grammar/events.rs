//! Trigger events (`when`), state triggers, intervening "if" conditions, and the other
//! small ability words: static prevention, copy abilities, activation conditions, the
//! counters a permanent enters with.

use super::filters::filter_after;
use super::words::{counter_kind, keyword, natural};
use super::{PResult, arg, fail_at, fail_here, item, table, word};
use crate::abilities::{
    CopyCreature, ObjectScope, PlayerScope, StateCondition, StaticPrevention, TriggerCondition,
    TriggerEvent,
};
use crate::object::CounterKind;
use winnow::combinator::{opt, preceded};
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::{literal, take_while};

/// The events that are one word.
const EVENT_WORDS: &[(&str, TriggerEvent)] = &[
    ("enters", TriggerEvent::Enters),
    ("dies", TriggerEvent::Dies),
    ("haunted_dies", TriggerEvent::HauntedDies),
    (
        "another_creature_enters",
        TriggerEvent::AnotherCreatureEnters,
    ),
    (
        "another_creature_enters_your_control",
        TriggerEvent::AnotherCreatureEntersYourControl,
    ),
    ("creature_enters", TriggerEvent::CreatureEnters),
    ("your_upkeep", TriggerEvent::YourUpkeep),
    ("your_draw_step", TriggerEvent::YourDrawStep),
    ("opponent_creature_dies", TriggerEvent::OpponentCreatureDies),
    (
        "enchanted_player_first_upkeep",
        TriggerEvent::EnchantedPlayerFirstUpkeep,
    ),
    ("each_upkeep", TriggerEvent::EachUpkeep),
    ("chosen_players_upkeep", TriggerEvent::ChosenPlayersUpkeep),
    (
        "enchanted_controllers_upkeep",
        TriggerEvent::EnchantedControllersUpkeep,
    ),
    ("each_end_step", TriggerEvent::EachEndStep),
    ("attacks", TriggerEvent::Attacks),
    ("creature_attacks", TriggerEvent::CreatureAttacks),
    (
        "attacks_and_isnt_blocked",
        TriggerEvent::AttacksAndIsntBlocked,
    ),
    ("blocks", TriggerEvent::Blocks),
    ("becomes_blocked", TriggerEvent::BecomesBlocked),
    (
        "blocks_or_becomes_blocked",
        TriggerEvent::BlocksOrBecomesBlocked,
    ),
    (
        "deals_combat_damage_to_player",
        TriggerEvent::DealsCombatDamageToPlayer,
    ),
    ("deals_damage_to_player", TriggerEvent::DealsDamageToPlayer),
    (
        "deals_damage_to_opponent",
        TriggerEvent::DealsDamageToOpponent,
    ),
    ("enchanted_deals_damage", TriggerEvent::EnchantedDealsDamage),
    (
        "enchanted_deals_damage_to_opponent",
        TriggerEvent::EnchantedDealsDamageToOpponent,
    ),
    ("dealt_damage", TriggerEvent::DealtDamage),
    (
        "put_into_graveyard_from_battlefield",
        TriggerEvent::PutIntoGraveyardFromBattlefield,
    ),
    ("enchanted_dies", TriggerEvent::EnchantedDies),
    (
        "you_cast_creature_spell",
        TriggerEvent::YouCastCreatureSpell,
    ),
    ("you_cast_spell", TriggerEvent::YouCastSpell),
    ("any_player_casts_spell", TriggerEvent::AnyPlayerCastsSpell),
    (
        "any_player_casts_spell_of_chosen_color",
        TriggerEvent::AnyPlayerCastsSpellOfChosenColor,
    ),
    ("opponent_casts_spell", TriggerEvent::OpponentCastsSpell),
    (
        "opponent_casts_creature_spell",
        TriggerEvent::OpponentCastsCreatureSpell,
    ),
    (
        "card_to_opponent_graveyard",
        TriggerEvent::CardToOpponentGraveyard,
    ),
    (
        "last_time_counter_removed",
        TriggerEvent::LastTimeCounterRemoved,
    ),
    (
        "becomes_target",
        TriggerEvent::BecomesTarget {
            opponent_spell: false,
        },
    ),
    (
        "becomes_blocked_by_creature",
        TriggerEvent::BecomesBlockedByCreature,
    ),
    (
        "becomes_target_of_opponent_spell",
        TriggerEvent::BecomesTarget {
            opponent_spell: true,
        },
    ),
    ("you_cycle", TriggerEvent::PlayerCycles(PlayerScope::You)),
    (
        "opponent_cycles",
        TriggerEvent::PlayerCycles(PlayerScope::Opponent),
    ),
    (
        "any_player_cycles",
        TriggerEvent::PlayerCycles(PlayerScope::AnyPlayer),
    ),
    (
        "creature_to_your_graveyard",
        TriggerEvent::CreatureToYourGraveyard,
    ),
    (
        "in_graveyard_another_creature_to_your_graveyard",
        TriggerEvent::InGraveyardAnotherCreatureToYourGraveyard,
    ),
    (
        "creature_dealt_damage_by_this_dies",
        TriggerEvent::CreatureDealtDamageByThisDies,
    ),
    ("leaves", TriggerEvent::LeavesBattlefield),
    (
        "put_into_your_graveyard_from_your_library",
        TriggerEvent::PutIntoYourGraveyardFromLibrary,
    ),
    (
        "your_creature_deals_combat_damage_to_player",
        TriggerEvent::YourCreatureDealsCombatDamageToPlayer,
    ),
    (
        "leaves_or_becomes_untapped",
        TriggerEvent::LeavesOrBecomesUntapped,
    ),
    ("turned_face_up", TriggerEvent::TurnedFaceUp),
    ("echo_paid", TriggerEvent::EchoPaid),
    ("discarded_by_opponent", TriggerEvent::DiscardedByOpponent),
    ("cast_this", TriggerEvent::CastThis),
    (
        "permanent_turned_face_up",
        TriggerEvent::PermanentTurnedFaceUp,
    ),
    ("you_gain_life", TriggerEvent::LifeGained(PlayerScope::You)),
    (
        "opponent_gains_life",
        TriggerEvent::LifeGained(PlayerScope::Opponent),
    ),
    (
        "any_player_gains_life",
        TriggerEvent::LifeGained(PlayerScope::AnyPlayer),
    ),
    ("you_lose_life", TriggerEvent::LifeLost(PlayerScope::You)),
    (
        "opponent_loses_life",
        TriggerEvent::LifeLost(PlayerScope::Opponent),
    ),
    (
        "any_player_loses_life",
        TriggerEvent::LifeLost(PlayerScope::AnyPlayer),
    ),
    ("you_draw", TriggerEvent::CardDrawn(PlayerScope::You)),
    (
        "opponent_draws",
        TriggerEvent::CardDrawn(PlayerScope::Opponent),
    ),
    (
        "any_player_draws",
        TriggerEvent::CardDrawn(PlayerScope::AnyPlayer),
    ),
    ("you_discard", TriggerEvent::CardDiscarded(PlayerScope::You)),
    (
        "opponent_discards",
        TriggerEvent::CardDiscarded(PlayerScope::Opponent),
    ),
    (
        "any_player_discards",
        TriggerEvent::CardDiscarded(PlayerScope::AnyPlayer),
    ),
];

/// The events that take a value after a colon, each with its rule.
/// A rule for the value of an event word.
type EventRule = fn(&mut &str) -> PResult<TriggerEvent>;

const EVENT_PREFIXES: &[(&str, EventRule)] = &[
    ("state:", |i| state.map(TriggerEvent::State).parse_next(i)),
    ("you_cast_spell:", you_cast_spell),
    ("any_player_casts_spell:", |i| {
        super::words::colour_name
            .map(TriggerEvent::AnyPlayerCastsSpellOfColor)
            .parse_next(i)
    }),
    ("subtype_enters:", |i| {
        subtype_word.map(TriggerEvent::SubtypeEnters).parse_next(i)
    }),
    ("subtype_deals_damage:", |i| {
        subtype_word
            .map(TriggerEvent::SubtypeDealsDamage)
            .parse_next(i)
    }),
    ("blocks_or_becomes_blocked_by_nontype:", |i| {
        subtype_word
            .map(TriggerEvent::BlocksOrBecomesBlockedByNonSubtype)
            .parse_next(i)
    }),
    ("blocks_or_becomes_blocked_by_noncolor:", |i| {
        super::words::colour_name
            .map(TriggerEvent::BlocksOrBecomesBlockedByNonColor)
            .parse_next(i)
    }),
    ("subtype_becomes_blocked:", |i| {
        subtype_word
            .map(TriggerEvent::SubtypeBecomesBlocked)
            .parse_next(i)
    }),
    ("becomes_tapped:", |i| {
        scope.map(TriggerEvent::BecomesTapped).parse_next(i)
    }),
    ("becomes_untapped:", |i| {
        scope.map(TriggerEvent::BecomesUntapped).parse_next(i)
    }),
    ("counters_put_on:", |i| {
        counters_on
            .map(|(on, kind)| TriggerEvent::CountersPut { on, kind })
            .parse_next(i)
    }),
    ("counters_removed_from:", |i| {
        counters_on
            .map(|(on, kind)| TriggerEvent::CountersRemoved { on, kind })
            .parse_next(i)
    }),
    ("your_creature_with:", your_creature_with_attacks),
    ("in_graveyard_creature_enters_your_control:", |i| {
        super::words::pt_change
            .map(|(p, t)| TriggerEvent::InGraveyardCreatureEntersYourControl(p, t))
            .parse_next(i)
    }),
    (
        "another_your_creature_type:",
        another_of_subtype_becomes_blocked,
    ),
];

/// `event`.
pub fn event(i: &mut &str) -> PResult<TriggerEvent> {
    let start = i.checkpoint();
    for (prefix, rule) in EVENT_PREFIXES {
        if i.starts_with(prefix) {
            literal(*prefix).parse_next(i)?;
            return winnow::combinator::cut_err(rule).parse_next(i);
        }
    }
    let w = word.parse_next(i)?;
    match EVENT_WORDS.iter().find(|(k, _)| *k == w) {
        Some((_, e)) => Ok(e.clone()),
        None => {
            let mut known: Vec<&str> = EVENT_WORDS.iter().map(|(k, _)| *k).collect();
            known.extend(EVENT_PREFIXES.iter().map(|(p, _)| *p));
            fail_at(i, &start, format!("unknown trigger event `{w}`"), &known)
        }
    }
}

const SCOPES: &[(&str, ObjectScope)] = &[
    ("this", ObjectScope::This),
    ("creature", ObjectScope::AnyCreature),
    ("your_creature", ObjectScope::CreatureYouControl),
    ("attached", ObjectScope::Attached),
];

/// `scope`: this, creature, your_creature, attached.
fn scope(i: &mut &str) -> PResult<ObjectScope> {
    take_while(1.., |c: char| c != ':' && !c.is_whitespace())
        .verify_map(|w: &str| SCOPES.iter().find(|(k, _)| *k == w).map(|(_, s)| *s))
        .context("this, creature, your_creature or attached")
        .parse_next(i)
}

/// `scope [":" counter_kind]`.
fn counters_on(i: &mut &str) -> PResult<(ObjectScope, Option<CounterKind>)> {
    (scope, opt(preceded(':', counter_kind))).parse_next(i)
}

/// `keyword "_attacks"`.
fn your_creature_with_attacks(i: &mut &str) -> PResult<TriggerEvent> {
    let start = i.checkpoint();
    let w = word.parse_next(i)?;
    let Some(k) = w.strip_suffix("_attacks") else {
        return fail_at(i, &start, "expected KEYWORD_attacks", &["KEYWORD_attacks"]);
    };
    let mut k = k;
    let kw = keyword
        .parse_next(&mut k)
        .inspect_err(|_| i.reset(&start))?;
    Ok(TriggerEvent::YourCreatureWithKeywordAttacks(kw))
}

/// `subtype "_becomes_blocked"`.
fn another_of_subtype_becomes_blocked(i: &mut &str) -> PResult<TriggerEvent> {
    let start = i.checkpoint();
    let t = take_while(0.., |c: char| c.is_ascii_alphabetic() || c == '-').parse_next(i)?;
    if t.is_empty() || !i.starts_with("_becomes_blocked") {
        return fail_at(
            i,
            &start,
            "expected another_your_creature_type:SUBTYPE_becomes_blocked",
            &["SUBTYPE_becomes_blocked"],
        );
    }
    literal("_becomes_blocked").parse_next(i)?;
    Ok(TriggerEvent::AnotherOfSubtypeYouControlBecomesBlocked(
        t.to_string(),
    ))
}

/// `you_cast_spell:TYPE[_or_TYPE]`: "whenever you cast an instant or sorcery spell".
fn you_cast_spell(i: &mut &str) -> PResult<TriggerEvent> {
    let start = i.checkpoint();
    let w = super::item.parse_next(i)?;
    let mut types = Vec::new();
    for t in w.split("_or_") {
        match t.parse::<crate::types::CardType>() {
            Ok(t) => types.push(t),
            Err(_) => {
                return fail_at(
                    i,
                    &start,
                    format!("`{t}` is not a card type"),
                    &["TYPE", "TYPE_or_TYPE"],
                );
            }
        }
    }
    Ok(match types.as_slice() {
        [one] => TriggerEvent::YouCastSpellOfType(*one),
        _ => TriggerEvent::YouCastSpellOfTypes(types),
    })
}

/// A subtype after a colon (`Sliver`).
fn subtype_word(i: &mut &str) -> PResult<String> {
    let start = i.checkpoint();
    let t = take_while(0.., |c: char| c.is_ascii_alphabetic() || c == '-').parse_next(i)?;
    if t.is_empty() {
        return fail_at(i, &start, "expected a subtype", &["SUBTYPE"]);
    }
    Ok(t.to_string())
}

/// `state`.
pub fn state(i: &mut &str) -> PResult<StateCondition> {
    let start = i.checkpoint();
    match word.parse_next(i)? {
        "you_control_at_least" => {
            let n = arg("a number", natural).parse_next(i)?;
            let f = filter_after(&[]).parse_next(i)?;
            if f == Default::default() {
                return fail_here("missing what you control", &["a filter"]);
            }
            Ok(StateCondition::YouControlAtLeast(n, f))
        }
        "you_control_no" => {
            let f = filter_after(&[]).parse_next(i)?;
            if f == Default::default() {
                return fail_here("missing what you control", &["a filter"]);
            }
            Ok(StateCondition::YouControlNo(f))
        }
        "you_have_no_cards_in_hand" => Ok(StateCondition::YouHaveNoCardsInHand),
        w => fail_at(
            i,
            &start,
            format!("unknown state `{w}`"),
            &[
                "you_control_at_least N FILTER",
                "you_control_no FILTER",
                "you_have_no_cards_in_hand",
            ],
        ),
    }
}

const CONDITIONS: &[(&str, TriggerCondition)] = &[
    (
        "no_creatures_on_battlefield",
        TriggerCondition::NoCreaturesOnBattlefield,
    ),
    (
        "nothing_else_and_empty_hand",
        TriggerCondition::NothingElseAndEmptyHand,
    ),
    ("kicked", TriggerCondition::Kicked(None)),
    ("kicked_a", TriggerCondition::Kicked(Some(0))),
    ("kicked_b", TriggerCondition::Kicked(Some(1))),
    ("had_no_time_counters", TriggerCondition::HadNoTimeCounters),
    ("cast_from_hand", TriggerCondition::CastFromHand),
    ("madness_paid", TriggerCondition::MadnessPaid),
    ("suspended", TriggerCondition::Suspended),
    ("while_exiled", TriggerCondition::WhileExiled),
    ("is_enchantment", TriggerCondition::IsEnchantment),
    (
        "you_control_no_tapped_lands",
        TriggerCondition::YouControlNoTappedLands,
    ),
    (
        "no_arrowhead_counters",
        TriggerCondition::NoArrowheadCounters,
    ),
    (
        "dealt_damage_to_opponent_this_turn",
        TriggerCondition::DealtDamageToOpponentThisTurn,
    ),
    ("tapped_and_linked", TriggerCondition::TappedAndLinked),
    ("linked", TriggerCondition::Linked),
    (
        "defending_player_controls_no_black_permanents",
        TriggerCondition::DefenderControlsNoBlack,
    ),
    ("is_creature", TriggerCondition::IsCreature),
    ("was_creature", TriggerCondition::WasCreature),
];

/// `condition`: an intervening "if" clause.
pub fn condition(i: &mut &str) -> PResult<TriggerCondition> {
    // `creature_cards_in_graveyard>=4`: "if you have four or more creature cards in your
    // graveyard" (Pit Keeper).
    if let Some(rest) = i.strip_prefix("creature_cards_in_graveyard>=") {
        *i = rest;
        return winnow::combinator::cut_err(natural)
            .map(TriggerCondition::CreatureCardsInGraveyardAtLeast)
            .parse_next(i);
    }
    winnow::combinator::cut_err(table("condition", CONDITIONS)).parse_next(i)
}

/// `prevention = "spell_damage" SP integer | "from_creatures_to_this" | "by_enchanted"
/// | "all_to_this_remove_plus1_counter"`.
pub fn static_prevention(i: &mut &str) -> PResult<StaticPrevention> {
    let start = i.checkpoint();
    match word.parse_next(i)? {
        "spell_damage" => arg("a number", natural)
            .map(StaticPrevention::SpellDamage)
            .parse_next(i),
        "from_creatures_to_this" => Ok(StaticPrevention::FromCreaturesToThis),
        "by_enchanted" => Ok(StaticPrevention::ByEnchanted),
        "all_to_this_remove_plus1_counter" => Ok(StaticPrevention::AllToThisRemovingPlusOneCounter),
        w => fail_at(
            i,
            &start,
            format!("unknown prevention `{w}`"),
            &[
                "spell_damage N",
                "from_creatures_to_this",
                "by_enchanted",
                "all_to_this_remove_plus1_counter",
            ],
        ),
    }
}

const COPIES: &[(&str, CopyCreature)] = &[
    ("clone", CopyCreature::Clone),
    ("shapeshifter", CopyCreature::Shapeshifter),
];

/// `copy_creature = "clone" | "shapeshifter"`.
pub fn copy_creature(i: &mut &str) -> PResult<CopyCreature> {
    winnow::combinator::cut_err(table("copy ability", COPIES)).parse_next(i)
}

/// `enters_with = (integer | "other_spells_this_turn" | "you_control:" subtype) SP
/// counter_kind [SP "if_kicked"]`:
/// `3 mining`, `3 time if_kicked`, `other_spells_this_turn +1/+1`.
pub fn enters_with(i: &mut &str) -> PResult<crate::cards::EntersWith> {
    use crate::cards::EntersCount;
    let count = winnow::combinator::alt((
        "other_spells_this_turn".value(EntersCount::OtherSpellsThisTurn),
        winnow::combinator::preceded(
            "you_control:",
            take_while(1.., |c: char| c.is_ascii_alphabetic() || c == '-'),
        )
        .map(|t: &str| EntersCount::YouControl(t.to_string())),
        natural.map(EntersCount::Fixed),
    ))
    .parse_next(i);
    let count = match count {
        Ok(c) => c,
        Err(_) => {
            return fail_here(
                "a number of counters",
                &["N", "other_spells_this_turn", "you_control:SUBTYPE"],
            );
        }
    };
    let kind = arg("a counter kind", counter_kind).parse_next(i)?;
    let mut if_kicked = false;
    if super::next_word(i).is_some() {
        let start = i.checkpoint();
        match arg("if_kicked", item).parse_next(i)? {
            "if_kicked" => if_kicked = true,
            w => return fail_at(i, &start, format!("unexpected `{w}`"), &["if_kicked"]),
        }
    }
    Ok(crate::cards::EntersWith {
        kind,
        count,
        if_kicked,
    })
}

/// `activation_condition = "hand_size_exactly" SP integer | "hellbent"` (no cards in hand)
/// `| "this_is_creature"` ("activate only if ~ is a creature": Chronatog Totem).
pub fn activation_condition(i: &mut &str) -> PResult<crate::cards::ActivationCondition> {
    use crate::cards::ActivationCondition as C;
    let start = i.checkpoint();
    match item.parse_next(i)? {
        "hand_size_exactly" => arg("a number", natural)
            .map(C::HandSizeExactly)
            .parse_next(i),
        // Hellbent's "activate only if you have no cards in hand" (`keywords/hellbent.rs`).
        "hellbent" => Ok(C::HandSizeExactly(0)),
        "this_is_creature" => Ok(C::SourceIsCreature),
        w => fail_at(
            i,
            &start,
            format!("unknown condition `{w}`"),
            &["hand_size_exactly N", "hellbent", "this_is_creature"],
        ),
    }
}
