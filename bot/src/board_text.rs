//! Plain-text rendering of what one player may see: the board (from an engine [`View`]) and
//! the events of an answer (redacted for the viewer). Used by every front end.

use engine::events::Event;
use engine::view::View;
use engine::{Catalog, Game, GameResult, PlayerId, Target};

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
            .map(|x| {
                let mut l = x.name.clone();
                if let (Some(pw), Some(t)) = (x.power, x.toughness) {
                    l.push_str(&format!(" {pw}/{t}"));
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
            });
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
            s.push_str(&format!(
                "  {}{}{} ({}){targets}\n",
                it.name,
                if it.is_ability { " ability" } else { "" },
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

/// One line per event worth telling, as `viewer` may see it (None: everyone).
pub fn events(game: &Game, viewer: Option<PlayerId>, events: &[Event]) -> Vec<String> {
    let cat = Catalog::builtin();
    let view = game.view(viewer);
    let pn = |p: PlayerId| player_name(&view, p);
    // Face-down objects as `viewer` may see them (hidden information, 707.2).
    let obj = |id| game.seen_name(id, viewer);
    let tgt = |t: &Target| match t {
        Target::Player(p) => pn(*p),
        Target::Object(id) => obj(*id),
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
    for e in events {
        let e = e.redacted_for(viewer);
        let line = match &e {
            Event::TurnBegan { turn, player } => format!("— Turn {turn}: {} —", pn(*player)),
            Event::Skipped { player, what } => format!("{} skips {}.", pn(*player), what.name()),
            Event::Mulliganed {
                player,
                new_hand_size,
            } => format!("{} mulligans to {new_hand_size}.", pn(*player)),
            Event::Kept(p) => format!("{} keeps.", pn(*p)),
            Event::Drew {
                player,
                card: Some(c),
            } if Some(*player) == viewer => format!("You draw {}.", obj(*c)),
            Event::LandPlayed { player, land } => format!("{} plays {}.", pn(*player), obj(*land)),
            Event::SpellCast {
                player,
                card,
                targets,
                ..
            } => {
                let t = targeting(targets);
                format!("{} casts {}{t}.", pn(*player), cat.get(*card).name)
            }
            Event::AbilityActivated {
                player,
                card,
                targets,
                ..
            } => {
                let t = targeting(targets);
                format!("{} activates {}{t}.", pn(*player), cat.get(*card).name)
            }
            Event::Resolved { card, .. } => format!("{} resolves.", cat.get(*card).name),
            Event::Countered { card, by_rules } => {
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
                ..
            } => format!("{} deals {amount} damage to {}.", obj(*source), tgt(target)),
            Event::LifeChanged { player, from, to } => {
                format!("{}: {from} → {to} life.", pn(*player))
            }
            Event::ManaBurn { player, amount } => {
                format!("{} takes {amount} mana burn.", pn(*player))
            }
            Event::Destroyed(id) => format!("{} is destroyed.", obj(*id)),
            Event::TurnedFaceDown { card, .. } => {
                format!("{} is turned face down.", cat.get(*card).name)
            }
            Event::TurnedFaceUp {
                card, controller, ..
            } => format!("{} turns {} face up.", pn(*controller), cat.get(*card).name),
            Event::Suspended {
                player, card, time, ..
            } => format!(
                "{} suspends {} ({time} time counter{}).",
                pn(*player),
                cat.get(*card).name,
                if *time == 1 { "" } else { "s" }
            ),
            Event::SuspendedCastImpossible {
                player,
                card,
                reason,
            } => format!(
                "{}'s {} can't be cast ({reason}); it stays exiled.",
                pn(*player),
                cat.get(*card).name
            ),
            Event::Revealed { player, card } => {
                format!("{} reveals {}.", pn(*player), obj(*card))
            }
            Event::Sacrificed(id) => format!("{} is sacrificed.", obj(*id)),
            Event::Discarded { player, card } => {
                format!("{} discards {}.", pn(*player), obj(*card))
            }
            Event::AttackersDeclared { attackers } if !attackers.is_empty() => {
                format!(
                    "Attacking: {}.",
                    attackers
                        .iter()
                        .map(|(a, d)| format!("{} → {}", obj(*a), pn(*d)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            Event::BlockersDeclared { blocks } if !blocks.is_empty() => {
                format!(
                    "Blocking: {}.",
                    blocks
                        .iter()
                        .map(|(b, a)| format!("{} blocks {}", obj(*b), obj(*a)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            Event::PlayerLost { player, reason } => format!("{} loses ({reason:?}).", pn(*player)),
            Event::GameOver { winner: Some(w) } => format!("{} wins the game!", pn(*w)),
            Event::EndlessLoop => format!(
                "Nobody can stop this loop of mandatory actions: {}.",
                engine::DrawReason::MandatoryLoop.describe(game.ruleset)
            ),
            Event::GameOver { winner: None } => "The game is a draw.".into(),
            _ => continue,
        };
        out.push(line);
    }
    out
}
