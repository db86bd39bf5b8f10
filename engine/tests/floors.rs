//! The engine's floors (ARCHITECTURE.md): the vocabulary modules import no rules procedure.
//! A source check, so a new `use crate::game::...` in a low module fails here with the line.

use std::path::Path;

/// Floor 1: plain vocabulary.
const LOW: &[&str] = &[
    "ids.rs",
    "zones.rs",
    "object.rs",
    "types.rs",
    "steps.rs",
    "mana/mod.rs",
    "mana/autopay.rs",
    "memo.rs",
    "keywords/mod.rs",
    "targets.rs",
    "costs.rs",
    "effects.rs",
    "abilities.rs",
    "events.rs",
    "decision.rs",
    "ruleset.rs",
    "cards/mod.rs",
    "cards/script.rs",
    "grammar/mod.rs",
    "grammar/words.rs",
    "grammar/filters.rs",
    "grammar/effects.rs",
    "grammar/events.rs",
    "grammar/costs.rs",
];

/// Everything above floor 1.
const HIGH: &[&str] = &[
    "game",
    "layers",
    "targeting",
    "turn",
    "priority",
    "casting",
    "stack",
    "resolve",
    "sba",
    "combat",
    "triggers",
    "replacement",
    "play_permission",
    "copy",
    "loops",
    "view",
    "agent",
    "scenario",
];

/// The lines of a module's own code (not its unit tests, not comments) that name a module
/// above floor 1, or a keyword mechanic's procedures (`keywords::morph`...).
fn violations(file: &str, text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let high = HIGH.iter().any(|h| {
            line.contains(&format!("crate::{h}::"))
                || line.contains(&format!("crate::{h};"))
                || line.contains(&format!("crate::{h}}}"))
        });
        let mechanic = line.contains("crate::keywords::") && !line.contains("keywords::Keyword");
        if high || mechanic {
            found.push(format!("{file}:{}: {line}", n + 1));
        }
    }
    found
}

#[test]
fn vocabulary_modules_import_no_rules_procedure() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in LOW {
        let text = std::fs::read_to_string(src.join(file)).expect("a floor-1 module");
        found.extend(violations(file, &text));
    }
    assert!(
        found.is_empty(),
        "floor-1 modules import rules procedures:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_imports_and_paths_but_not_comments_or_tests() {
    let text = "use crate::ids::ObjectId;\n\
                /// see [`crate::game::Game`]\n\
                use crate::game::Game;\n\
                fn f() { crate::keywords::morph::x(); }\n\
                use crate::keywords::Keyword;\n\
                #[cfg(test)]\n\
                mod tests { use crate::game::Game; }\n";
    let v = violations("x.rs", text);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(v[0].starts_with("x.rs:3:"));
    assert!(v[1].starts_with("x.rs:4:"));
}
