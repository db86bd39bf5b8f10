//! A card's facts and rulings as text (`card NAME` in any game, `/mtg card` on Discord).
//!
//! The rulings are the official ones from MTGJSON, generated into `bot/data/rulings.tsv`
//! by `tools/gen_rulings.py` and embedded in the binary.

use engine::{CardDef, Catalog};

const RULINGS: &str = include_str!("../data/rulings.tsv");

/// The rulings of a card by its exact name: (date, text), oldest first.
pub fn rulings(name: &str) -> Vec<(&'static str, &'static str)> {
    RULINGS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let (n, d, t) = (parts.next()?, parts.next()?, parts.next()?);
            (n == name).then_some((d, t))
        })
        .collect()
}

/// The card a player means: the exact name, else the closest suggestion. Err: what to say.
pub fn find(name: &str) -> Result<&'static CardDef, String> {
    let cat = Catalog::builtin();
    let name = name.trim();
    if name.is_empty() {
        return Err("name a card: `card Lightning Axe`".into());
    }
    if let Some(d) = cat.by_name(name) {
        return Ok(d);
    }
    let near = cat.suggest(name, 5);
    let q = crate::grammar::norm(name);
    let prefixed: Vec<&&CardDef> = near
        .iter()
        .filter(|d| crate::grammar::norm(&d.name).starts_with(&q))
        .collect();
    if let [one] = prefixed.as_slice() {
        return Ok(one);
    }
    // A typo: the one name nearest by edits, when it is clearly the nearest.
    let mut by_distance: Vec<(usize, &&CardDef)> = near
        .iter()
        .map(|d| {
            (
                crate::grammar::edit_distance(&crate::grammar::norm(&d.name), &q),
                d,
            )
        })
        .collect();
    by_distance.sort_by_key(|x| x.0);
    if let [(d0, best), rest @ ..] = by_distance.as_slice()
        && *d0 <= 1 + q.chars().count() / 5
        && rest.first().is_none_or(|(d1, _)| d1 > d0)
    {
        return Ok(best);
    }
    match near.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "there is no card called `{}` in the Time Spiral block",
            crate::grammar::short(name)
        )),
        many => Err(format!(
            "`{}` could be {}: say which",
            crate::grammar::short(name),
            many.iter()
                .map(|d| d.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Name, cost, type line, text, P/T, sets, whether the engine plays it, then at most
/// `max_rulings` rulings (with how many more there are).
pub fn describe(def: &CardDef, max_rulings: usize) -> String {
    let cost = def
        .mana_cost
        .as_ref()
        .map_or_else(|| "no mana cost".to_string(), |c| c.to_string());
    let mut s = format!("{} · {cost} · {}\n", def.name, def.type_line());
    if !def.text.is_empty() {
        s.push_str(&def.text);
        s.push('\n');
    }
    if let (Some(p), Some(t)) = (&def.power, &def.toughness) {
        s.push_str(&format!("{p}/{t}\n"));
    }
    s.push_str(&format!("{} · {}\n", def.sets.join(", "), def.rarity));
    if let engine::cards::Support::Unsupported(why) = &def.support {
        s.push_str(&format!(
            "Not playable yet: the rules engine does not support it ({why}), so it can't be put in a deck.\n"
        ));
    }
    let r = rulings(&def.name);
    if r.is_empty() {
        s.push_str("No official rulings.\n");
    } else {
        s.push_str("Rulings:\n");
        for (d, t) in r.iter().take(max_rulings) {
            s.push_str(&format!("- {d}: {t}\n"));
        }
        if r.len() > max_rulings {
            s.push_str(&format!(
                "- … and {} more ruling{}\n",
                r.len() - max_rulings,
                if r.len() - max_rulings == 1 { "" } else { "s" }
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_with_its_facts_and_rulings() {
        let d = find("lightning axe").expect("found");
        let text = describe(d, 10);
        assert!(
            text.starts_with("Lightning Axe · {R} · Instant\n"),
            "{text}"
        );
        assert!(text.contains("discard a card or pay {5}"), "{text}");
        let cavalry = find("Cavalry Master").expect("found");
        let text = describe(cavalry, 1);
        assert!(text.contains("3/3"), "{text}");
        assert!(
            text.contains(
                "Rulings:\n- 2006-09-25: Cavalry Master adds only one instance of flanking"
            ),
            "{text}"
        );
        assert!(text.contains("… and 1 more ruling"), "{text}");
    }

    #[test]
    fn unknown_and_ambiguous_names_are_said() {
        let e = find("Frobnicator of Doom").unwrap_err();
        assert!(e.contains("no card called"), "{e}");
        assert!(find("").is_err());
        assert_eq!(
            find("scarwod treefolk").map(|d| d.name.as_str()),
            Ok("Scarwood Treefolk")
        );
    }
}
