//! The grammar against every script: each effect, trigger, filter, cost... string of
//! `cards/scripts/*.toml` parses to exactly the value it parsed to before the grammar
//! (`snapshot.txt`, made by the hand-written parsers this module replaced), and bad input
//! gets a message that names the word.

use super::*;
use crate::abilities::{
    CopyCreature, StateCondition, StaticPrevention, TriggerCondition, TriggerEvent,
};
use crate::costs::Cost;
use crate::effects::Effect;
use crate::targets::{ObjectFilter, TargetSpec};

/// Every script string the grammar reads, as (kind, text).
fn script_strings() -> Vec<(&'static str, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/cards/scripts");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    assert!(files.len() >= 5, "scripts not found in {dir}");
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let value: toml::Value = toml::from_str(&text).unwrap_or(toml::Value::Boolean(false));
        walk(&value, "", &mut out);
    }
    out
}

/// The kinds of string, by the key they are written under.
const KEYS: &[(&str, &str)] = &[
    ("effects", "effect"),
    ("targets", "target"),
    ("when", "event"),
    ("if", "condition"),
    ("additional_cost", "additional_cost"),
    ("flashback", "cost"),
    ("morph", "cost"),
    ("affects", "filter"),
    ("enchant", "enchant"),
    ("pump", "pt"),
    ("per_counter", "counter"),
    ("enters_with", "enters_with"),
    ("prevent", "prevention"),
    ("copy_creature", "copy"),
    ("divided_damage", "divided"),
    ("buyback", "cost"),
    ("kicker", "kicker"),
    ("kicker_targets", "target"),
];

fn walk(v: &toml::Value, key: &str, out: &mut Vec<(&'static str, String)>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                walk(v, k, out);
            }
        }
        toml::Value::Array(a) => {
            for v in a {
                walk(v, key, out);
            }
        }
        toml::Value::String(s) => {
            if let Some((_, kind)) = KEYS.iter().find(|(k, _)| *k == key) {
                out.push((kind, s.clone()));
            }
        }
        _ => {}
    }
    // An ability's `cost` and `condition` (a card's own `cost` is a mana cost in facts).
    if let toml::Value::Table(t) = v
        && t.contains_key("cost")
        && (t.contains_key("effects") || t.contains_key("add"))
        && !t.contains_key("name")
    {
        if let Some(toml::Value::String(c)) = t.get("cost") {
            out.push(("cost", c.clone()));
        }
        if let Some(toml::Value::String(c)) = t.get("condition") {
            out.push(("activation_condition", c.clone()));
        }
    }
}

/// The value a string of that kind parses to, as the catalog reads it.
fn parse_new(kind: &str, s: &str) -> String {
    fn show<T: std::fmt::Debug>(r: Result<T, String>) -> String {
        match r {
            Ok(v) => format!("{v:?}"),
            Err(_) => "ERROR".into(),
        }
    }
    match kind {
        "effect" => show(Effect::parse(s)),
        "target" => show(TargetSpec::parse(s)),
        "event" => show(TriggerEvent::parse(s)),
        "condition" => show(TriggerCondition::parse(s)),
        "cost" => show(Cost::parse(s)),
        "additional_cost" => show(
            s.split('|')
                .map(|p| Cost::parse(p.trim()))
                .collect::<Result<Vec<_>, _>>(),
        ),
        "filter" => show(ObjectFilter::parse(s)),
        // "Enchant player" (Paradox Haze): the Aura's spell targets a player.
        "enchant" if s == "player" => show(TargetSpec::parse(s)),
        "enchant" => show(ObjectFilter::parse(s).and_then(|f| Ok((f, TargetSpec::parse(s)?)))),
        "pt" => show(parse_all(words::pt_change, s)),
        "counter" => show(parse_all(words::counter_kind, s)),
        "enters_with" => show(parse_all(events::enters_with, s)),
        "prevention" => show(StaticPrevention::parse(s)),
        "copy" => show(CopyCreature::parse(s)),
        "divided" => show(parse_all(filters::divided, s)),
        "activation_condition" => show(parse_all(events::activation_condition, s)),
        "kicker" => show(
            s.split(" and/or ")
                .map(|p| Cost::parse(p.trim()))
                .collect::<Result<Vec<_>, _>>(),
        ),
        other => format!("unknown kind {other}"),
    }
}

fn snapshot_lines() -> Vec<String> {
    let mut lines: Vec<String> = script_strings()
        .into_iter()
        .map(|(kind, s)| format!("{kind} | {s} | {}", parse_new(kind, &s)))
        .collect();
    lines.sort();
    lines.dedup();
    lines
}

#[test]
fn every_script_string_parses_as_before() {
    let snapshot = include_str!("snapshot.txt");
    let want: Vec<&str> = snapshot.lines().collect();
    let got = snapshot_lines();
    assert!(got.len() > 250, "only {} script strings found", got.len());
    for line in &got {
        assert!(
            want.contains(&line.as_str()),
            "not as before (or not in snapshot.txt): {line}"
        );
        assert!(!line.ends_with("| ERROR"), "a script string fails: {line}");
    }
    for line in &want {
        assert!(got.iter().any(|g| g == line), "no longer found: {line}");
    }
}

#[test]
fn state_words_parse() {
    assert_eq!(
        StateCondition::parse("you_control_no land type:Island").map(|s| format!("{s:?}")),
        Ok(format!(
            "{:?}",
            StateCondition::YouControlNo(ObjectFilter {
                types_any: vec![crate::types::CardType::Land],
                subtype: Some("Island".into()),
                ..Default::default()
            })
        ))
    );
}

fn err_of<T: std::fmt::Debug>(r: Result<T, String>) -> String {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn an_unknown_word_is_named_with_its_column() {
    let e = err_of(Effect::parse("explode 3"));
    assert!(
        e.starts_with("column 1, at `explode`: unknown effect `explode`"),
        "{e}"
    );
    assert!(e.contains("damage"), "lists the effects: {e}");
    let e = err_of(Effect::parse("destroy_all creature dragons"));
    assert!(
        e.starts_with("column 22, at `dragons`: unknown filter word `dragons`"),
        "{e}"
    );
    let e = err_of(Effect::parse("draw 2 whom=target"));
    assert!(
        e.starts_with("column 8, at `whom=target`: `whom=target` is not an option of `draw`"),
        "{e}"
    );
    assert!(e.contains("who=PLAYER"), "{e}");
    let e = err_of(Effect::parse("damage 2 to=target,the_moon"));
    assert!(
        e.contains("at `the_moon`: unknown damage recipient `the_moon`"),
        "{e}"
    );
    let e = err_of(TriggerEvent::parse("becomes_tapped:everything"));
    assert!(e.starts_with("column 16, at `everything`"), "{e}");
    assert!(
        e.contains("this, creature, your_creature or attached"),
        "{e}"
    );
    let e = err_of(TriggerEvent::parse("the_moon_rises"));
    assert!(e.contains("unknown trigger event `the_moon_rises`"), "{e}");
    let e = err_of(Cost::parse("{T}, dance a jig"));
    assert!(
        e.starts_with("column 6, at `dance`: unknown cost part `dance`"),
        "{e}"
    );
    let e = err_of(TargetSpec::parse("creature with:teleporting"));
    assert!(e.contains("at `with:teleporting`"), "{e}");
    assert!(e.contains("unsupported keyword"), "{e}");
}

#[test]
fn a_missing_argument_is_named() {
    let e = err_of(Effect::parse("damage 3"));
    assert!(e.contains("at the end: `damage` needs to=RECIPIENT"), "{e}");
    let e = err_of(Effect::parse("draw"));
    assert_eq!(
        e,
        "column 5, at the end: missing an amount; expected an amount"
    );
    let e = err_of(Effect::parse("damage to=target"));
    assert!(
        e.starts_with("column 8, at `to=target`: missing an amount"),
        "{e}"
    );
    let e = err_of(Effect::parse("pump +1/+1"));
    assert!(e.contains("at the end: missing an object"), "{e}");
    let e = err_of(Effect::parse("may_pay {2} && search creature"));
    assert!(e.contains("takes effects that ask nothing more"), "{e}");
    let e = err_of(Effect::parse("if_cast_in_main_phase draw 1"));
    assert!(e.contains("B is what happens otherwise"), "{e}");
    let e = err_of(Cost::parse("{1}, discard a"));
    assert!(e.contains("at the end: expected `card` or `cards`"), "{e}");
}

#[test]
fn a_bad_number_is_named() {
    let e = err_of(Effect::parse("damage three to=target"));
    assert!(e.starts_with("column 8, at `three`"), "{e}");
    assert!(e.contains("a number"), "{e}");
    let e = err_of(Effect::parse("pump +one/+1 target"));
    assert!(e.starts_with("column 6, at `+one/+1`"), "{e}");
    assert!(e.contains("P/T"), "{e}");
    let e = err_of(TargetSpec::parse("creature toughness<=two"));
    assert!(
        e.contains("at `toughness<=two`: bad number in `toughness<=two`"),
        "{e}"
    );
    let e = err_of(TriggerEvent::parse(
        "state:you_control_at_least many type:Thrull",
    ));
    assert!(e.contains("at `many`"), "{e}");
    let e = err_of(Cost::parse("pay lots life"));
    assert!(e.starts_with("column 5, at `lots`"), "{e}");
    let e = err_of(Effect::parse("counter target unless_pays=some"));
    assert!(e.contains("at `some`"), "{e}");
}

#[test]
fn compound_lines_keep_their_parts() {
    let e = Effect::parse("may damage 1 to=target && prevent_combat_damage_from this");
    assert!(
        matches!(&e, Ok(Effect::May { effects, text }) if effects.len() == 2 && text == "damage 1 to=target"),
        "{e:?}"
    );
    let e = Effect::parse("gain 2 if_spent=R");
    assert!(matches!(e, Ok(Effect::IfSpent { .. })), "{e:?}");
    let e = Effect::parse("sacrifice it && damage 4 to=each_creature_blocking_it from=it");
    assert!(
        matches!(&e, Ok(Effect::SacrificeThen { then, .. }) if then.len() == 1),
        "{e:?}"
    );
}

#[test]
fn card_family_words_parse_and_refuse() {
    let f = ObjectFilter::parse("creature without:flying power>=4")
        .map(|f| (f.without_keyword, f.min_power));
    assert_eq!(f, Ok((Some(crate::keywords::Keyword::Flying), Some(4))));
    let e = err_of(ObjectFilter::parse("creature power>=big"));
    assert!(e.contains("power>=big"), "{e}");
    let e = err_of(ObjectFilter::parse("creature without:wings"));
    assert!(e.contains("without:wings"), "{e}");
    let w = crate::grammar::parse_all(crate::grammar::events::enters_with, "3 time if_kicked");
    assert!(
        matches!(&w, Ok(c) if c.if_kicked && c.count == crate::cards::EntersCount::Fixed(3)),
        "{w:?}"
    );
    let e = err_of(crate::grammar::parse_all(
        crate::grammar::events::enters_with,
        "3 time if_paid",
    ));
    assert!(e.contains("if_paid"), "{e}");
    let e =
        Effect::parse("if_you_control_at_most 4 land && search basic land to=battlefield tapped");
    assert!(
        matches!(&e, Ok(Effect::IfYouControlAtMost { at_most: 4, .. })),
        "{e:?}"
    );
    let e = err_of(Effect::parse("if_you_control_at_most 4 land"));
    assert!(e.contains("&& EFFECT"), "{e}");
    assert!(matches!(
        Effect::parse("counter target unless_pays=X"),
        Ok(Effect::CounterUnlessPays {
            generic: crate::effects::Amount::X,
            ..
        })
    ));
}

/// Rewrites `snapshot.txt` from the scripts as they are now: run it after adding script
/// strings (`cargo test -p spellstack-engine --lib write_grammar_snapshot -- --ignored`),
/// then read the diff: only the new strings' lines may change.
#[test]
#[ignore]
fn write_grammar_snapshot() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/grammar/snapshot.txt");
    let mut text = snapshot_lines().join("\n");
    text.push('\n');
    std::fs::write(path, text).expect("snapshot.txt is writable");
}
