//! Plain-text rendering of what one player may see: the board (from an engine [`View`]) and
//! the events of an answer (redacted for the viewer). Used by every front end.

use engine::events::{Event, LossReason};
use engine::view::View;
use engine::{CardId, Catalog, Game, GameResult, ObjectId, PlayerId, Target};

fn player_name(view: &View, p: PlayerId) -> String {
    view.players
        .get(p.index())
        .map_or_else(|| p.to_string(), |x| x.name.clone())
}

/// Groups equal labels: `Forest ×3, Mountain`.
fn grouped(labels: impl Iterator<Item = String>) -> String {
    let mut out: Vec<(String, usize)> = Vec::new();
    for l in labels {
        match out.iter_mut().find(|(x, _)| *x == l) {
            Some((_, n)) => *n += 1,
            None => out.push((l, 1)),
        }
    }
    if out.is_empty() {
        return "nothing".into();
    }
    out.into_iter()
        .map(|(l, n)| if n > 1 { format!("{l} ×{n}") } else { l })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A permanent in words: name, P/T and what sets it apart (tapped, damage, counters...).
/// Same-named permanents that do not all read alike carry their count on the battlefield
/// (`Ashcoat Bear 3 of 6`), as the menus and `/mtg play` name them.
fn permanent_label(view: &View, x: &engine::view::PermanentView) -> String {
    // `count`: ` 3 of 6`, then a colon before the P/T (`Ashcoat Bear 3 of 6: 2/2`).
    let label = |x: &engine::view::PermanentView, count: Option<String>| {
        let mut l = x.name.clone();
        if let Some(c) = &count {
            l.push_str(c);
        }
        if let (Some(pw), Some(t)) = (x.power, x.toughness) {
            let colon = if count.is_some() { ":" } else { "" };
            l.push_str(&format!("{colon} {pw}/{t}"));
        }
        let mut notes = Vec::new();
        if x.tapped {
            notes.push("tapped".to_string());
        }
        if x.damage > 0 {
            notes.push(format!("{} damage", x.damage));
        }
        for (k, n) in &x.counters {
            notes.push(format!("{n} {k}"));
        }
        if let Some(c) = &x.chosen {
            notes.push(format!("chose {c}"));
        }
        if x.attacking.is_some() {
            notes.push("attacking".into());
        }
        if x.blocking.is_some() {
            notes.push("blocking".into());
        }
        if x.summoning_sick {
            notes.push("new".into());
        }
        if !notes.is_empty() {
            l.push_str(&format!(" ({})", notes.join(", ")));
        }
        l
    };
    let same: Vec<&engine::view::PermanentView> = view
        .battlefield
        .iter()
        .filter(|y| y.name == x.name)
        .collect();
    let alike = same.iter().all(|y| label(y, None) == label(x, None));
    match same.iter().position(|y| y.id == x.id) {
        Some(i) if !alike => label(x, Some(format!(" {} of {}", i + 1, same.len()))),
        _ => label(x, None),
    }
}

/// The board as `view.viewer` sees it.
pub fn board(view: &View) -> String {
    let mut s = String::new();
    let active = player_name(view, view.active);
    s.push_str(&format!(
        "Turn {} · {}'s {} · {} rules\n",
        view.turn,
        active,
        view.step.name(),
        view.ruleset
    ));
    for p in &view.players {
        let you = if view.viewer == Some(p.id) {
            " (you)"
        } else {
            ""
        };
        let lost = if p.lost { " — out of the game" } else { "" };
        s.push_str(&format!(
            "{}{you}: {} life{}, {} in hand, {} in library{}{lost}\n",
            p.name,
            p.life,
            if p.poison > 0 {
                format!(", {} poison", p.poison)
            } else {
                String::new()
            },
            p.hand_count,
            p.library_count,
            if p.mana_pool.is_empty() || p.mana_pool == "0" || p.mana_pool == "{}" {
                String::new()
            } else {
                format!(", pool {}", p.mana_pool)
            },
        ));
        let perms = view
            .battlefield
            .iter()
            .filter(|x| x.controller == p.id)
            .map(|x| permanent_label(view, x));
        s.push_str(&format!("  battlefield: {}\n", grouped(perms)));
        if !p.graveyard.is_empty() {
            s.push_str(&format!(
                "  graveyard: {}\n",
                grouped(p.graveyard.iter().map(|c| match &c.flashback {
                    Some(cost) => format!("{} (flashback {cost})", c.name),
                    None => c.name.clone(),
                }))
            ));
        }
    }
    if !view.stack.is_empty() {
        s.push_str("Stack (top first):\n");
        for it in &view.stack {
            let mut targets = if it.targets.is_empty() {
                String::new()
            } else {
                format!(" → {}", it.targets.join(", "))
            };
            if !it.division.is_empty() {
                targets.push_str(&format!(" (damage: {})", it.division.join(", ")));
            }
            if it.is_ability && it.name == "Combat damage" && it.division.is_empty() {
                // Classic: combat damage waits on the stack; who deals what to whom.
                s.push_str(&format!(
                    "  Combat damage: {}\n",
                    if it.targets.is_empty() {
                        "none".to_string()
                    } else {
                        it.targets.join("; ")
                    }
                ));
                continue;
            }
            s.push_str(&format!(
                "  {}{}{} ({}){targets}\n",
                it.name,
                if it.is_ability { "'s ability" } else { "" },
                if it.flashback { " (flashback)" } else { "" },
                player_name(view, it.controller)
            ));
        }
    }
    if !view.effects.is_empty() {
        s.push_str("Effects:\n");
        for e in &view.effects {
            s.push_str(&format!("  {e}\n"));
        }
    }
    if !view.exile.is_empty() {
        s.push_str(&format!(
            "Exile: {}\n",
            grouped(view.exile.iter().map(|c| match c.suspended {
                Some(n) => format!(
                    "{} (suspended, {n} time counter{})",
                    c.name,
                    if n == 1 { "" } else { "s" }
                ),
                None => c.name.clone(),
            }))
        ));
    }
    if let Some(me) = view.viewer.and_then(|v| view.players.get(v.index()))
        && let Some(hand) = &me.hand
    {
        s.push_str(&format!(
            "Your hand: {}\n",
            grouped(hand.iter().map(|c| c.name.clone()))
        ));
    }
    match (&view.result, &view.pending) {
        (Some(r), _) => s.push_str(&result_line(view, r)),
        (None, Some(p)) => {
            let who = if view.viewer == Some(p.player) {
                "You".to_string()
            } else {
                player_name(view, p.player)
            };
            s.push_str(&format!("Waiting for {who}: {}\n", p.description));
        }
        (None, None) => {}
    }
    s
}

pub fn result_line(view: &View, r: &GameResult) -> String {
    match r {
        GameResult::Won(p) => format!("Game over: {} wins.\n", player_name(view, *p)),
        GameResult::Draw => match view.draw_reason {
            Some(reason) => format!("Game over: a draw ({}).\n", reason.describe(view.ruleset)),
            None => "Game over: a draw.\n".into(),
        },
    }
}

/// `line` with a capital first letter ("your Bear deals ..." → "Your Bear deals ...").
fn capitalised(line: String) -> String {
    let mut c = line.chars();
    match c.next() {
        Some(f) if f.is_lowercase() => f.to_uppercase().chain(c).collect(),
        _ => line,
    }
}

/// Why a player lost, in player words (`you`: said to that player).
pub fn loss_words(reason: &LossReason, you: bool) -> &'static str {
    match (reason, you) {
        (LossReason::ZeroLife, false) => "has 0 or less life and loses the game",
        (LossReason::ZeroLife, true) => "have 0 or less life and lose the game",
        (LossReason::DrewFromEmptyLibrary, false) => {
            "had to draw from an empty library and loses the game"
        }
        (LossReason::DrewFromEmptyLibrary, true) => {
            "had to draw from an empty library and lose the game"
        }
        (LossReason::Poison, false) => "has ten or more poison counters and loses the game",
        (LossReason::Poison, true) => "have ten or more poison counters and lose the game",
        (LossReason::Conceded, false) => "concedes",
        (LossReason::Conceded, true) => "concede",
        (LossReason::CardEffect, false) => "loses the game (a card says so)",
        (LossReason::CardEffect, true) => "lose the game (a card says so)",
    }
}

/// One line per event worth telling, as `viewer` may see it (None: everyone): `you` for
/// the viewer, whose creature is whose in combat, "X's ability" for abilities.
pub fn events(game: &Game, viewer: Option<PlayerId>, events: &[Event]) -> Vec<String> {
    let cat = Catalog::builtin();
    let pn = |p: PlayerId| game.player(p).name.clone();
    // The subject of a sentence: "You" for the viewer.
    let who = |p: PlayerId| {
        if Some(p) == viewer {
            "You".to_string()
        } else {
            pn(p)
        }
    };
    let verb = |p: PlayerId, you: &str, them: &str| {
        if Some(p) == viewer {
            you.to_string()
        } else {
            them.to_string()
        }
    };
    // Face-down objects as `viewer` may see them (hidden information, 707.2).
    let obj = |id| game.seen_name(id, viewer);
    // "your Scarwood Treefolk", "Bob's Scarwood Treefolk".
    let whose = |id: ObjectId| match game.obj(id).map(|o| o.controller) {
        Some(c) if Some(c) == viewer => format!("your {}", obj(id)),
        Some(c) => format!("{}'s {}", pn(c), obj(id)),
        None => obj(id),
    };
    let tgt = |t: &Target| match t {
        Target::Player(p) if Some(*p) == viewer => "you".to_string(),
        Target::Player(p) => pn(*p),
        Target::Object(id) => obj(*id),
        Target::Ability(_) => game.describe_target(*t),
    };
    let targeting = |targets: &[Target]| {
        if targets.is_empty() {
            String::new()
        } else {
            format!(
                " targeting {}",
                targets.iter().map(&tgt).collect::<Vec<_>>().join(", ")
            )
        }
    };
    let mut out = Vec::new();
    // Cards that left the stack since the last resolution: a spell resolving leaves it, an
    // ability's card does not.
    let mut left_stack: Vec<CardId> = Vec::new();
    // Where the lines of the object now resolving begin: "X resolves." goes before what it
    // did (the engine tells the resolution after its effects).
    let mut mark = 0;
    for e in events {
        let e = e.redacted_for(viewer);
        if matches!(e, Event::StepBegan(_)) {
            mark = out.len();
        }
        let line = match &e {
            Event::TurnBegan { turn, player } => format!("— Turn {turn}: {} —", pn(*player)),
            Event::Skipped { player, what } => format!(
                "{} {} {}.",
                who(*player),
                verb(*player, "skip", "skips"),
                what.name()
            ),
            Event::Mulliganed {
                player,
                new_hand_size,
            } => format!(
                "{} {} to {new_hand_size}.",
                who(*player),
                verb(*player, "mulligan", "mulligans")
            ),
            Event::Kept(p) => format!("{} {}.", who(*p), verb(*p, "keep", "keeps")),
            Event::Drew {
                player,
                card: Some(c),
            } if Some(*player) == viewer => format!("You draw {}.", obj(*c)),
            Event::LandPlayed { player, land } => format!(
                "{} {} {}.",
                who(*player),
                verb(*player, "play", "plays"),
                obj(*land)
            ),
            Event::SpellCast {
                player,
                card,
                targets,
                ..
            } => {
                let t = targeting(targets);
                format!(
                    "{} {} {}{t}.",
                    who(*player),
                    verb(*player, "cast", "casts"),
                    cat.get(*card).name
                )
            }
            Event::AbilityActivated {
                player,
                card,
                targets,
                ..
            } => {
                let t = targeting(targets);
                format!(
                    "{} {} {}'s ability{t}.",
                    who(*player),
                    verb(*player, "activate", "activates"),
                    cat.get(*card).name
                )
            }
            Event::TargetChanged {
                card,
                spell,
                target,
                ..
            } => format!(
                "{}{} now targets {}.",
                cat.get(*card).name,
                if spell.is_some() { "" } else { "'s ability" },
                tgt(target)
            ),
            Event::TriggerPut { card, targets, .. } if !targets.is_empty() => {
                format!(
                    "{}'s ability triggers{}.",
                    cat.get(*card).name,
                    targeting(targets)
                )
            }
            Event::ZoneChanged {
                card,
                from: engine::zones::ZoneKind::Stack,
                ..
            } => {
                left_stack.push(*card);
                continue;
            }
            Event::Resolved { card, .. } => {
                let name = &cat.get(*card).name;
                let spell = left_stack.contains(card);
                left_stack.clear();
                let line = if spell {
                    format!("{name} resolves.")
                } else {
                    format!("{name}'s ability resolves.")
                };
                out.insert(mark.min(out.len()), line);
                mark = out.len();
                continue;
            }
            Event::Countered { card, by_rules } => {
                left_stack.clear();
                format!(
                    "{} is countered{}.",
                    cat.get(*card).name,
                    if *by_rules {
                        " (no legal target left)"
                    } else {
                        ""
                    }
                )
            }
            Event::Damage {
                source,
                target,
                amount,
                combat,
            } => format!(
                "{} deals {amount}{} damage to {}.",
                if *combat {
                    whose(*source)
                } else {
                    obj(*source)
                },
                if *combat { " combat" } else { "" },
                match target {
                    Target::Object(id) if *combat => whose(*id),
                    t => tgt(t),
                }
            ),
            Event::LifeChanged { player, from, to } => {
                if Some(*player) == viewer {
                    format!("Your life: {from} → {to}.")
                } else {
                    format!("{}'s life: {from} → {to}.", pn(*player))
                }
            }
            Event::ManaBurn { player, amount } => format!(
                "{} {} {amount} mana burn.",
                who(*player),
                verb(*player, "take", "takes")
            ),
            Event::Destroyed(id) => format!("{} is destroyed.", whose(*id)),
            Event::TurnedFaceDown { card, .. } => {
                format!("{} is turned face down.", cat.get(*card).name)
            }
            Event::TurnedFaceUp {
                card, controller, ..
            } => format!(
                "{} {} {} face up.",
                who(*controller),
                verb(*controller, "turn", "turns"),
                cat.get(*card).name
            ),
            Event::Attached {
                object,
                to: Some(to),
            } => format!("{} is attached to {}.", whose(*object), whose(*to)),
            Event::Attached { object, to: None } => {
                format!("{} becomes unattached.", whose(*object))
            }
            Event::BeganOnBattlefield {
                player,
                card,
                exiled,
                ..
            } => format!(
                "{} {} the game with {} on the battlefield (a luck counter on it){}.",
                who(*player),
                verb(*player, "begin", "begins"),
                cat.get(*card).name,
                match exiled {
                    Some(x) => format!(
                        ", exiling {} from {} hand",
                        cat.get(*x).name,
                        if Some(*player) == viewer {
                            "your"
                        } else {
                            "their"
                        }
                    ),
                    None => String::new(),
                }
            ),
            Event::Suspended {
                player, card, time, ..
            } => format!(
                "{} {} {} ({time} time counter{}).",
                who(*player),
                verb(*player, "suspend", "suspends"),
                cat.get(*card).name,
                if *time == 1 { "" } else { "s" }
            ),
            Event::SuspendedCastImpossible {
                player,
                card,
                reason,
            } => format!(
                "{} {} can't be cast ({reason}); it stays exiled.",
                if Some(*player) == viewer {
                    "Your".to_string()
                } else {
                    format!("{}'s", pn(*player))
                },
                cat.get(*card).name
            ),
            Event::Revealed { player, card } => format!(
                "{} {} {}.",
                who(*player),
                verb(*player, "reveal", "reveals"),
                obj(*card)
            ),
            Event::Sacrificed(id) => format!("{} is sacrificed.", whose(*id)),
            Event::Discarded { player, card } => format!(
                "{} {} {}.",
                who(*player),
                verb(*player, "discard", "discards"),
                obj(*card)
            ),
            Event::AttackersDeclared { attackers } if !attackers.is_empty() => {
                let by = attackers
                    .first()
                    .and_then(|(a, _)| game.obj(*a).map(|o| o.controller));
                let names: Vec<String> = attackers
                    .iter()
                    .map(|(a, d)| {
                        if game.opponents(by.unwrap_or(*d)).len() > 1 {
                            format!("{} (at {})", obj(*a), tgt(&Target::Player(*d)))
                        } else {
                            obj(*a)
                        }
                    })
                    .collect();
                let at = match attackers.first().map(|x| x.1) {
                    Some(d) if game.opponents(by.unwrap_or(d)).len() == 1 => {
                        format!(" {}", tgt(&Target::Player(d)))
                    }
                    _ => String::new(),
                };
                match by {
                    Some(p) => format!(
                        "{} {}{at} with {}.",
                        who(p),
                        verb(p, "attack", "attacks"),
                        names.join(", ")
                    ),
                    None => format!("Attacking: {}.", names.join(", ")),
                }
            }
            Event::BlockersDeclared { blocks } if !blocks.is_empty() => {
                let parts: Vec<String> = blocks
                    .iter()
                    .map(|(b, a)| format!("{} blocks {}", whose(*b), whose(*a)))
                    .collect();
                format!("{}.", parts.join(", "))
            }
            Event::PlayerLost { player, reason } => format!(
                "{} {}.",
                who(*player),
                loss_words(reason, Some(*player) == viewer)
            ),
            Event::GameOver { winner: Some(w) } => {
                if Some(*w) == viewer {
                    "You win the game!".into()
                } else {
                    format!("{} wins the game!", pn(*w))
                }
            }
            Event::EndlessLoop => format!(
                "Nobody can stop this loop of mandatory actions: {}.",
                engine::DrawReason::MandatoryLoop.describe(game.ruleset)
            ),
            Event::GameOver { winner: None } => "The game is a draw.".into(),
            _ => continue,
        };
        let boundary = matches!(
            e,
            Event::SpellCast { .. }
                | Event::AbilityActivated { .. }
                | Event::TriggerPut { .. }
                | Event::Countered { .. }
                | Event::TurnBegan { .. }
        );
        out.push(capitalised(line));
        if boundary {
            mark = out.len();
        }
    }
    out
}

/// "While you waited: ..." for `viewer`: what the other players did in `events` (lands,
/// spells, abilities, attacks, blocks), the creatures that died and `viewer`'s life; None
/// when fewer than two such things happened.
pub fn summary(game: &Game, viewer: PlayerId, events: &[Event]) -> Option<String> {
    use engine::zones::ZoneKind;
    let cat = Catalog::builtin();
    let mut acts: Vec<(PlayerId, Vec<String>)> = Vec::new();
    let mut push = |p: PlayerId, s: String| match acts.iter_mut().find(|a| a.0 == p) {
        Some(a) => a.1.push(s),
        None => acts.push((p, vec![s])),
    };
    let mut died: Vec<String> = Vec::new();
    let mut life: Option<(i32, i32)> = None;
    let mut things = 0;
    let obj = |id| game.seen_name(id, Some(viewer));
    for e in events {
        match e.redacted_for(Some(viewer)) {
            Event::LandPlayed { player, land } if player != viewer => {
                push(player, format!("played {}", obj(land)));
            }
            Event::SpellCast { player, card, .. } if player != viewer => {
                push(player, format!("cast {}", cat.get(card).name));
            }
            Event::AbilityActivated { player, card, .. } if player != viewer => {
                push(player, format!("activated {}", cat.get(card).name));
            }
            Event::AttackersDeclared { attackers } if !attackers.is_empty() => {
                let by = attackers
                    .first()
                    .and_then(|(a, _)| game.obj(*a).map(|o| o.controller));
                if let Some(by) = by.filter(|b| *b != viewer) {
                    let names: Vec<String> = attackers.iter().map(|(a, _)| obj(*a)).collect();
                    let at_you = attackers.iter().any(|(_, d)| *d == viewer);
                    push(
                        by,
                        format!(
                            "attacked{} with {}",
                            if at_you { " you" } else { "" },
                            names.join(", ")
                        ),
                    );
                }
            }
            Event::BlockersDeclared { blocks } if !blocks.is_empty() => {
                let by = blocks
                    .first()
                    .and_then(|(b, _)| game.obj(*b).map(|o| o.controller));
                if let Some(by) = by.filter(|b| *b != viewer) {
                    let names: Vec<String> = blocks
                        .iter()
                        .map(|(b, a)| format!("{} with {}", obj(*a), obj(*b)))
                        .collect();
                    push(by, format!("blocked {}", names.join(", ")));
                }
            }
            Event::ZoneChanged {
                card,
                from: ZoneKind::Battlefield,
                to: ZoneKind::Graveyard,
                ..
            } if cat.get(card).has_type(engine::cards::CardType::Creature) => {
                died.push(cat.get(card).name.clone());
                things += 1;
                continue;
            }
            Event::LifeChanged { player, from, to } if player == viewer => {
                life = Some((life.map_or(from, |l| l.0), to));
                continue;
            }
            _ => continue,
        }
        things += 1;
    }
    if let Some((from, to)) = life
        && from != to
    {
        things += 1;
    }
    if things < 2 {
        return None;
    }
    let mut parts: Vec<String> = acts
        .into_iter()
        .map(|(p, v)| format!("{} {}", game.player(p).name, v.join(", ")))
        .collect();
    if !died.is_empty() {
        parts.push(format!("died: {}", died.join(", ")));
    }
    if let Some((from, to)) = life.filter(|(f, t)| f != t) {
        parts.push(format!("your life {from} → {to}"));
    }
    Some(format!("While you waited: {}.", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Answer;

    /// Every player passes until the stack is empty; the events on the way.
    fn pass_until_empty(g: &mut Game) -> Vec<Event> {
        let mut out = Vec::new();
        for _ in 0..20 {
            if g.stack.is_empty() {
                break;
            }
            let p = g.pending().expect("pending").player;
            out.extend(g.submit(p, Answer::Pass).expect("pass"));
        }
        out
    }

    /// Same-named permanents that differ (one tapped) carry their count on the battlefield,
    /// as the menus name them (`Ashcoat Bear 2 of 3: 2/2 (tapped)`); identical ones stay
    /// grouped (`Forest ×2`).
    #[test]
    fn same_named_permanents_that_differ_are_counted() {
        let g = engine::scenario::game_from_str(
            r#"
name = "three bears"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
library = ["Forest"]
battlefield = ["Forest", "Forest", "Ashcoat Bear", { card = "Ashcoat Bear", tapped = true }]
[setup.bob]
library = ["Forest"]
battlefield = ["Ashcoat Bear"]
"#,
        )
        .expect("scenario runs");
        let b = board(&g.view(Some(PlayerId(0))));
        assert!(b.contains("Forest ×2"), "{b}");
        assert!(
            b.contains("Ashcoat Bear 1 of 3: 2/2, Ashcoat Bear 2 of 3: 2/2 (tapped)"),
            "{b}"
        );
        assert!(b.contains("Ashcoat Bear 3 of 3: 2/2"), "{b}");
        // The same words pick that bear in a command.
        let tapped = g.battlefield[3];
        assert!(g.obj(tapped).is_some_and(|o| o.tapped));
        assert_eq!(
            crate::grammar::object_labels(&g, PlayerId(0), &[g.battlefield[2], tapped])[1],
            "Ashcoat Bear (tapped)"
        );
    }

    #[test]
    fn abilities_losses_and_combat_in_player_words() {
        let mut g = engine::scenario::game_from_str(
            r#"
name = "ping"
script = ["alice: activate Prodigal Pyromancer", "alice: target bob"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
library = ["Forest"]
battlefield = ["Prodigal Pyromancer"]
[setup.bob]
life = 1
library = ["Forest"]
"#,
        )
        .expect("scenario runs");
        let events = pass_until_empty(&mut g);
        let alice = super::events(&g, Some(PlayerId(0)), &events);
        let all = alice.join("\n");
        assert!(
            all.starts_with(
                "Prodigal Pyromancer's ability resolves.\nProdigal Pyromancer deals 1 damage to Bob.\n"
            ),
            "in the order things happened: {all}"
        );
        assert!(
            all.contains("Bob has 0 or less life and loses the game."),
            "{all}"
        );
        assert!(all.contains("You win the game!"), "{all}");
        assert!(!all.contains("ZeroLife"), "{all}");
        let bob = super::events(&g, Some(PlayerId(1)), &events).join("\n");
        assert!(
            bob.contains("You have 0 or less life and lose the game."),
            "{bob}"
        );
        assert!(bob.contains("Your life: 1 → 0."), "{bob}");
    }

    #[test]
    fn blocks_say_whose_creature_and_classic_damage_on_the_stack_says_who_deals_what() {
        let mut g = engine::scenario::game_from_str(
            r#"
name = "blocks"
ruleset = "classic"
script = ["goto declare_attackers", "bob: attack Scarwood Treefolk@bob", "goto declare_blockers"]
[setup]
active = "bob"
turn = 3
[setup.alice]
library = ["Forest"]
battlefield = ["Scarwood Treefolk"]
[setup.bob]
library = ["Forest"]
battlefield = ["Scarwood Treefolk"]
"#,
        )
        .expect("scenario runs");
        let (alice, bob) = (PlayerId(0), PlayerId(1));
        let [mine, his] = [alice, bob].map(|p| {
            g.battlefield
                .iter()
                .copied()
                .find(|id| g.obj(*id).is_some_and(|o| o.controller == p))
                .expect("treefolk")
        });
        let ev = g
            .submit(
                alice,
                Answer::Block(vec![engine::Block {
                    blocker: mine,
                    attacker: his,
                }]),
            )
            .expect("block");
        assert_eq!(
            events(&g, Some(alice), &ev),
            vec!["Your Scarwood Treefolk blocks Bob's Scarwood Treefolk.".to_string()]
        );
        assert_eq!(
            events(&g, None, &ev),
            vec!["Alice's Scarwood Treefolk blocks Bob's Scarwood Treefolk.".to_string()]
        );
        // Pass to the combat damage step: the damage waits on the stack (classic).
        for _ in 0..10 {
            if !g.stack.is_empty() {
                break;
            }
            let p = g.pending().expect("pending").player;
            g.submit(p, Answer::Pass).expect("pass");
        }
        let text = board(&g.view(Some(alice)));
        assert!(
            text.contains("Combat damage: Bob's Scarwood Treefolk deals 3 to Alice's Scarwood Treefolk; Alice's Scarwood Treefolk deals 3 to Bob's Scarwood Treefolk")
                || text.contains("Combat damage: Alice's Scarwood Treefolk deals 3 to Bob's Scarwood Treefolk; Bob's Scarwood Treefolk deals 3 to Alice's Scarwood Treefolk"),
            "{text}"
        );
        let ev = pass_until_empty(&mut g);
        let lines = events(&g, Some(alice), &ev).join("\n");
        assert!(
            lines.contains(
                "Bob's Scarwood Treefolk deals 3 combat damage to your Scarwood Treefolk."
            ),
            "{lines}"
        );
    }

    /// Gemstone Caverns' pregame action is public: the Caverns and the exiled card are named.
    #[test]
    fn beginning_with_gemstone_caverns_names_it_and_the_exiled_card() {
        let c = engine::Catalog::builtin();
        let caverns = c.by_name("Gemstone Caverns").map(|d| d.id).expect("card");
        let island = c.by_name("Island").map(|d| d.id).expect("card");
        let deck: Vec<_> = (0..20).flat_map(|_| [caverns, island]).collect();
        let mut setup =
            engine::GameSetup::two_player(engine::Ruleset::Modern, 7, deck.clone(), deck);
        setup.first_player = Some(PlayerId(0));
        let mut g = Game::new(&setup).expect("a legal setup");
        for p in [PlayerId(0), PlayerId(1)] {
            g.submit(p, Answer::Keep).expect("keep");
        }
        let (bob, hand) = (PlayerId(1), g.players[1].hand.clone());
        let island_in_hand = hand
            .iter()
            .copied()
            .find(|id| g.obj(*id).is_some_and(|o| o.card == island))
            .expect("an Island");
        let ev = g
            .submit(bob, Answer::Objects(vec![island_in_hand]))
            .expect("the pregame action");
        let public = events(&g, None, &ev).join("\n");
        assert!(
            public.contains("Bob begins the game with Gemstone Caverns on the battlefield (a luck counter on it), exiling Island from their hand."),
            "{public}"
        );
        let own = events(&g, Some(bob), &ev).join("\n");
        assert!(
            own.contains("You begin the game with Gemstone Caverns on the battlefield (a luck counter on it), exiling Island from your hand."),
            "{own}"
        );
    }

    /// Equip in player words: whose equipment is attached to whose creature.
    #[test]
    fn an_attachment_says_whose_equipment_and_creature() {
        let mut g = engine::scenario::game_from_str(
            r#"
name = "equip"
script = ["alice: activate Sword of the Meek", "alice: target Squire", "alice: autopay"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
library = ["Forest"]
battlefield = ["Sword of the Meek", "Squire", "Island", "Island"]
[setup.bob]
library = ["Forest"]
"#,
        )
        .expect("scenario runs");
        let ev = pass_until_empty(&mut g);
        let alice = events(&g, Some(PlayerId(0)), &ev).join("\n");
        assert!(
            alice.contains("Your Sword of the Meek is attached to your Squire."),
            "{alice}"
        );
        let public = events(&g, None, &ev).join("\n");
        assert!(
            public.contains("Alice's Sword of the Meek is attached to Alice's Squire."),
            "{public}"
        );
    }

    /// Continuing effects are listed under "Effects:", and a permanent's entering choice is
    /// shown beside it.
    #[test]
    fn continuing_effects_and_choices_are_shown() {
        let mut g = engine::scenario::game_from_str(
            r#"
name = "effects"
script = ["alice: activate Outrider en-Kor", "alice: target Squire"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Outrider en-Kor", "Squire", { card = "Paradise Plume", chosen = "blue" }]
"#,
        )
        .expect("scenario runs");
        pass_until_empty(&mut g);
        let text = board(&g.view(None));
        let effects = text.split("Effects:\n").nth(1).expect("an Effects section");
        assert!(effects.contains("Outrider en-Kor"), "{text}");
        assert!(text.contains("Paradise Plume (chose blue)"), "{text}");
    }
}
