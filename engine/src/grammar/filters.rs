//! Object filters (`creature nonwhite you_control`) and target descriptions (`any`,
//! `spell`, `card_in_graveyard`, a permanent filter, with a chooser).

use super::{PResult, fail_at, is_line_word, is_option_word, next_word, words};
use crate::mana::Color;
use crate::targets::{ObjectFilter, Relation, TargetKind, TargetSpec};
use crate::types::CardType;
use winnow::ascii::space1;
use winnow::combinator::cut_err;
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::take_while;

/// `filter_word`, added to `f`.
pub fn filter_word<'a>(i: &mut &'a str, f: &mut ObjectFilter) -> PResult<()> {
    let start = i.checkpoint();
    let w = take_while(1.., |c: char| !c.is_whitespace() && c != ',').parse_next(i)?;
    take_while(0.., ',').parse_next(i)?;
    let bad = |i: &mut &'a str, what: String| -> PResult<()> {
        fail_at(
            i,
            &start,
            what,
            &[
                "a card type, a colour, nonX, tapped, untapped, basic, attacking, attacking_or_blocking, entered_since_your_last_turn, token, other, face_down, with_aura, toughness<=N, power>=N, pt:P/T, mana_value:X, mana_value<=N, type:SUBTYPE, type:A|B, nontype:SUBTYPE, with:KEYWORD, without:KEYWORD, or_with:KEYWORD, or_type:SUBTYPE, targets_permanent_you_control, text_changeable:WORD, you_control, opponent_controls or that_player_controls",
            ],
        )
    };
    if w.eq_ignore_ascii_case("or") || w.eq_ignore_ascii_case("permanent") {
        return Ok(());
    }
    if let Some(c) = Color::ALL.into_iter().find(|c| c.name() == w) {
        f.colors_any.insert(c);
        return Ok(());
    }
    if let Ok(t) = w.parse::<CardType>() {
        f.types_any.push(t);
        return Ok(());
    }
    if w == "nonbasic" {
        f.nonbasic = true;
        return Ok(());
    }
    if let Some(rest) = w.strip_prefix("non") {
        if let Some(sub) = rest.strip_prefix("type:").filter(|s| !s.is_empty()) {
            f.not_subtype = Some(sub.to_string());
        } else if let Ok(t) = rest.parse::<CardType>() {
            f.types_none.push(t);
        } else if let Some(c) = Color::from_name(rest) {
            f.not_colors.insert(c);
        } else {
            return bad(i, format!("unknown filter word `{w}`"));
        }
        return Ok(());
    }
    match w {
        "tapped" => f.tapped = Some(true),
        "untapped" => f.tapped = Some(false),
        "basic" => f.basic = true,
        "attacking" => f.attacking = true,
        "token" => f.token = true,
        "other" => f.other = true,
        "face_down" => f.face_down = true,
        "mana_value:X" => f.mana_value_x = true,
        "with_aura" => f.with_aura = true,
        "attacking_or_blocking" => f.attacking_or_blocking = true,
        "entered_since_your_last_turn" => f.entered_since_your_last_turn = true,
        "blocked_by_this" => f.blocked_by_source = true,
        "chosen_color" => f.chosen_color = true,
        "targets_permanent_you_control" => f.targets_your_permanent = true,
        "you_control" => f.controller = Some(Relation::You),
        "opponent_controls" => f.controller = Some(Relation::Opponent),
        "that_player_controls" => f.controller = Some(Relation::ThatPlayer),
        _ => return filter_word_with_value(i, &start, w, f),
    }
    Ok(())
}

/// The filter words with a value: `toughness<=N`, `power>=N`, `type:S`, `with:K`,
/// `without:K`, `text_changeable:W`.
fn filter_word_with_value<'a>(
    i: &mut &'a str,
    start: &<&'a str as Stream>::Checkpoint,
    w: &'a str,
    f: &mut ObjectFilter,
) -> PResult<()> {
    let value = |prefix: &str| w.strip_prefix(prefix);
    if let Some(n) = value("toughness<=") {
        let mut rest = n;
        match words::integer.parse_next(&mut rest) {
            Ok(n) if rest.is_empty() => f.max_toughness = Some(n),
            _ => return fail_at(i, start, format!("bad number in `{w}`"), &["toughness<=N"]),
        }
    } else if let Some(n) = value("power>=") {
        let mut rest = n;
        match words::integer.parse_next(&mut rest) {
            Ok(n) if rest.is_empty() => f.min_power = Some(n),
            _ => return fail_at(i, start, format!("bad number in `{w}`"), &["power>=N"]),
        }
    } else if let Some(pt) = value("pt:") {
        let mut rest = pt;
        match words::pt_change.parse_next(&mut rest) {
            Ok(pt) if rest.is_empty() => f.exact_pt = Some(pt),
            _ => return fail_at(i, start, format!("bad P/T in `{w}`"), &["pt:P/T"]),
        }
    } else if let Some(s) = value("type:") {
        if s.contains('|') {
            f.subtypes_any = s.split('|').map(str::to_string).collect();
            if f.subtypes_any.iter().any(String::is_empty) {
                return fail_at(i, start, format!("empty subtype in `{w}`"), &["type:A|B"]);
            }
        } else {
            f.subtype = Some(s.to_string());
        }
    } else if let Some(n) = value("mana_value<=") {
        let mut rest = n;
        match words::natural.parse_next(&mut rest) {
            Ok(n) if rest.is_empty() => f.max_mana_value = Some(n),
            _ => return fail_at(i, start, format!("bad number in `{w}`"), &["mana_value<=N"]),
        }
    } else if let Some(k) = value("or_with:") {
        match k.parse() {
            Ok(k) => f.or_keyword = Some(k),
            Err(e) => return fail_at(i, start, format!("`{w}`: {e}"), &["or_with:KEYWORD"]),
        }
    } else if let Some(s) = value("or_type:").filter(|s| !s.is_empty()) {
        f.or_subtypes = true;
        f.subtypes_any = vec![s.to_string()];
    } else if let Some(k) = value("with:") {
        match k.parse() {
            Ok(k) => f.keyword = Some(k),
            Err(e) => return fail_at(i, start, format!("`{w}`: {e}"), &["with:KEYWORD"]),
        }
    } else if let Some(k) = value("without:") {
        match k.parse() {
            Ok(k) => f.without_keyword = Some(k),
            Err(e) => return fail_at(i, start, format!("`{w}`: {e}"), &["without:KEYWORD"]),
        }
    } else if let Some(word) = value("text_changeable:") {
        match word.parse() {
            Ok(t) => f.text_changeable = Some(t),
            Err(e) => return fail_at(i, start, e, &["text_changeable:WORD"]),
        }
    } else {
        return fail_at(
            i,
            start,
            format!("unknown filter word `{w}`"),
            &[
                "a card type, a colour, nonX, tapped, untapped, basic, attacking, attacking_or_blocking, entered_since_your_last_turn, token, other, face_down, with_aura, toughness<=N, power>=N, pt:P/T, mana_value:X, mana_value<=N, type:SUBTYPE, type:A|B, nontype:SUBTYPE, with:KEYWORD, without:KEYWORD, or_with:KEYWORD, or_type:SUBTYPE, targets_permanent_you_control, text_changeable:WORD, you_control, opponent_controls or that_player_controls",
            ],
        );
    }
    Ok(())
}

/// `{ SP filter_word }` after a verb: stops before an option, `&&`, `||`, `if_spent=`, one
/// of `stop` or the end.
pub fn filter_after<'s>(
    stop: &'s [&'s str],
) -> impl FnMut(&mut &str) -> PResult<ObjectFilter> + 's {
    move |i: &mut &str| {
        let mut f = ObjectFilter::default();
        while let Some(w) = next_word(i) {
            if is_option_word(w) || is_line_word(w) || stop.contains(&w) {
                break;
            }
            space1.parse_next(i)?;
            cut_err(|i: &mut &str| filter_word(i, &mut f)).parse_next(i)?;
        }
        Ok(f)
    }
}

/// `filter`: a whole text of filter words (`affects`, `enchant`), maybe empty.
pub fn filter(i: &mut &str) -> PResult<ObjectFilter> {
    filter_until(&[]).parse_next(i)
}

/// `filter` as the first words of a text, stopping before one of `stop`.
pub fn filter_until<'s>(
    stop: &'s [&'s str],
) -> impl FnMut(&mut &str) -> PResult<ObjectFilter> + 's {
    move |i: &mut &str| {
        let mut f = ObjectFilter::default();
        let first = take_while(0.., |c: char| !c.is_whitespace())
            .parse_peek(*i)?
            .1;
        if first.is_empty() || stop.contains(&first) {
            return Ok(f);
        }
        cut_err(|i: &mut &str| filter_word(i, &mut f)).parse_next(i)?;
        let more = filter_after(stop).parse_next(i)?;
        merge(&mut f, more);
        Ok(f)
    }
}

/// The words of `b` added to `a` (as if they had followed in one list).
fn merge(a: &mut ObjectFilter, b: ObjectFilter) {
    a.types_any.extend(b.types_any);
    a.types_none.extend(b.types_none);
    if b.subtype.is_some() {
        a.subtype = b.subtype;
    }
    if b.not_subtype.is_some() {
        a.not_subtype = b.not_subtype;
    }
    a.exact_pt = b.exact_pt.or(a.exact_pt);
    for c in b.not_colors.iter() {
        a.not_colors.insert(c);
    }
    for c in b.colors_any.iter() {
        a.colors_any.insert(c);
    }
    a.tapped = b.tapped.or(a.tapped);
    a.max_toughness = b.max_toughness.or(a.max_toughness);
    a.controller = b.controller.or(a.controller);
    a.keyword = b.keyword.or(a.keyword);
    a.without_keyword = b.without_keyword.or(a.without_keyword);
    a.min_power = b.min_power.or(a.min_power);
    a.mana_value_x |= b.mana_value_x;
    a.attacking_or_blocking |= b.attacking_or_blocking;
    a.entered_since_your_last_turn |= b.entered_since_your_last_turn;
    a.max_mana_value = b.max_mana_value.or(a.max_mana_value);
    a.or_keyword = b.or_keyword.or(a.or_keyword);
    if !b.subtypes_any.is_empty() {
        a.subtypes_any = b.subtypes_any;
    }
    a.with_aura |= b.with_aura;
    a.basic |= b.basic;
    a.nonbasic |= b.nonbasic;
    a.attacking |= b.attacking;
    a.token |= b.token;
    a.other |= b.other;
    a.face_down |= b.face_down;
    a.blocked_by_source |= b.blocked_by_source;
    a.chosen_color |= b.chosen_color;
    a.text_changeable = b.text_changeable.or(a.text_changeable);
}

const CHOOSERS: &[&str] = &["chosen_by_opponent", "chosen_by_its_controller"];

/// `target`.
pub fn target(i: &mut &str) -> PResult<TargetSpec> {
    let start = i.checkpoint();
    let first = take_while(0.., |c: char| !c.is_whitespace()).parse_next(i)?;
    let kind = match first {
        "" => {
            return fail_at(
                i,
                &start,
                "empty target description",
                &["a target description"],
            );
        }
        "any" => TargetKind::Any,
        "player" => TargetKind::Player,
        "opponent" => TargetKind::Opponent,
        "activated_or_triggered_ability" => TargetKind::Ability,
        "activated_ability" => TargetKind::ActivatedAbility,
        "card_in_exile" => TargetKind::ExiledCard,
        "spell_or_permanent" => TargetKind::SpellOrPermanent,
        "spell_or_ability_with_single_target" => TargetKind::SingleTargetSpellOrAbility,
        "spell_targeting_single_creature" => TargetKind::SpellTargetingSingleCreature,
        "spell" => TargetKind::Spell(filter_after(CHOOSERS).parse_next(i)?),
        "card_in_graveyard" => {
            let at = i.checkpoint();
            let f = filter_after(CHOOSERS).parse_next(i)?;
            if f.tapped.is_some()
                || f.attacking
                || f.controller.is_some()
                || f.face_down
                || f.token
                || f.other
            {
                return fail_at(
                    i,
                    &at,
                    "a card in a graveyard is only filtered by its characteristics",
                    &["card types, colours, type:SUBTYPE, with:KEYWORD"],
                );
            }
            TargetKind::GraveyardCard(f)
        }
        "card_in_target_players_graveyard" => {
            TargetKind::CardInTargetPlayersGraveyard(filter_after(CHOOSERS).parse_next(i)?)
        }
        "card_in_your_graveyard" => {
            TargetKind::CardInYourGraveyard(filter_after(CHOOSERS).parse_next(i)?)
        }
        "permanent_or_suspended_card" => {
            let with_time_counter = next_word(i) == Some("with_time_counter");
            if with_time_counter {
                (space1, "with_time_counter").parse_next(i)?;
            }
            TargetKind::PermanentOrSuspended {
                filter: filter_after(CHOOSERS).parse_next(i)?,
                with_time_counter,
            }
        }
        _ => {
            i.reset(&start);
            TargetKind::Permanent(filter_until(CHOOSERS).parse_next(i)?)
        }
    };
    let mut spec = TargetSpec {
        kind,
        chosen_by_opponent: false,
        chosen_by_its_controller: false,
    };
    while next_word(i).is_some() {
        space1.parse_next(i)?;
        let at = i.checkpoint();
        match super::word.parse_next(i)? {
            "chosen_by_opponent" => spec.chosen_by_opponent = true,
            "chosen_by_its_controller" => spec.chosen_by_its_controller = true,
            w => return fail_at(i, &at, format!("unexpected `{w}`"), CHOOSERS),
        }
    }
    Ok(spec)
}

/// `divided = ("X" | positive integer) SP target`: "N damage divided as you choose among
/// any number of <targets>".
pub fn divided(i: &mut &str) -> PResult<crate::cards::DividedDamage> {
    use crate::effects::Amount;
    let start = i.checkpoint();
    let amount = match super::item.parse_next(i)? {
        "X" | "x" => Amount::X,
        _ => {
            i.reset(&start);
            match words::integer.parse_next(i) {
                Ok(n) if n > 0 => Amount::Fixed(n),
                _ => {
                    return fail_at(
                        i,
                        &start,
                        "a positive number or X",
                        &["N TARGETS", "X TARGETS"],
                    );
                }
            }
        }
    };
    space1.parse_next(i)?;
    let spec = cut_err(target).parse_next(i)?;
    Ok(crate::cards::DividedDamage { amount, spec })
}
