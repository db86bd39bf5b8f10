//! Custom ids of buttons and select menus.
//!
//! Every id starts with `ss:` and carries the game id, the game version the prompt was made
//! for (a click on an older version answers "this prompt is out of date") and the Discord user
//! the prompt belongs to (anyone else is told so before anything is loaded). Discord allows 100
//! characters; a prompt whose id would not fit is not offered as a component (the same answer
//! is always available through `/mtg play`).

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

/// Discord's limit for a custom id.
pub const MAX_ID: usize = 100;

/// How a select menu's chosen values complete a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickKind {
    /// The value is a whole phrase (`cast Lightning Axe`).
    Phrase,
    /// `TEXT on VALUE`.
    Target,
    /// `TEXT discarding VALUE`.
    Discard,
    /// `TEXT sacrificing VALUE`.
    Sacrifice,
    /// `TEXT choosing VALUE`.
    CostOption,
    /// `TEXT x VALUE`.
    X,
    /// `TEXT mode VALUE`.
    Mode,
    /// `attack with V1, V2`.
    Attack,
    /// `block A with B, block C with D` (values are whole `block .. with ..` phrases).
    Block,
    /// `TEXT V1, V2`: several objects at once (`discard Forest 2 of 3, Swamp`).
    Choose,
    /// `TEXT exiling VALUE` (the card exiled for Gemstone Caverns' pregame action).
    Exile,
}

impl PickKind {
    fn code(self) -> char {
        match self {
            PickKind::Phrase => 'o',
            PickKind::Target => 't',
            PickKind::Discard => 'd',
            PickKind::Sacrifice => 's',
            PickKind::CostOption => 'c',
            PickKind::X => 'x',
            PickKind::Mode => 'm',
            PickKind::Attack => 'a',
            PickKind::Block => 'b',
            PickKind::Choose => 'k',
            PickKind::Exile => 'e',
        }
    }
    fn from_code(c: &str) -> Option<PickKind> {
        Some(match c {
            "o" => PickKind::Phrase,
            "t" => PickKind::Target,
            "d" => PickKind::Discard,
            "s" => PickKind::Sacrifice,
            "c" => PickKind::CostOption,
            "x" => PickKind::X,
            "m" => PickKind::Mode,
            "a" => PickKind::Attack,
            "b" => PickKind::Block,
            "k" => PickKind::Choose,
            "e" => PickKind::Exile,
            _ => return None,
        })
    }

    /// The command text once `values` were chosen after `text`.
    pub fn complete(self, text: &str, values: &[String]) -> String {
        let first = values.first().map(String::as_str).unwrap_or_default();
        match self {
            PickKind::Phrase => first.to_string(),
            PickKind::Target => format!("{text} on {first}"),
            PickKind::Discard => format!("{text} discarding {}", values.join(", ")),
            PickKind::Sacrifice => format!("{text} sacrificing {}", values.join(", ")),
            PickKind::CostOption => format!("{text} choosing {first}"),
            PickKind::X => format!("{text} x {first}"),
            PickKind::Mode => format!("{text} mode {first}"),
            PickKind::Attack => format!("attack with {}", values.join(", ")),
            PickKind::Block => values.join(", "),
            PickKind::Choose => format!("{text} {}", values.join(", ")),
            PickKind::Exile => format!("{text} exiling {first}"),
        }
    }
}

/// What a component stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Custom {
    /// A button answering `phrase` for `user` in `game` at `version`.
    Answer {
        game: i64,
        version: i64,
        user: u64,
        phrase: String,
    },
    /// A select menu completing `text` (see [`PickKind`]).
    Pick {
        game: i64,
        version: i64,
        user: u64,
        kind: PickKind,
        text: String,
    },
    /// "Show me my options": the decider's private panel (hand, every legal answer).
    Options { game: i64, version: i64, user: u64 },
    /// Accept a challenge (button: default deck; select: the chosen deck).
    Accept { game: i64, user: u64 },
    /// Decline a challenge.
    Decline { game: i64, user: u64 },
    /// Declare the attackers or blocks chosen so far in paged menus (`clear`: forget them).
    Draft {
        game: i64,
        version: i64,
        user: u64,
        kind: PickKind,
        clear: bool,
    },
}

/// The `text` of a paged attack or block menu: its choices are gathered (see
/// [`Custom::Draft`]) instead of answered at once, so choices from several pages combine.
pub const DRAFT: &str = "+";

impl Custom {
    pub fn encode(&self) -> String {
        match self {
            Custom::Answer {
                game,
                version,
                user,
                phrase,
            } => format!("ss:a:{game}:{version}:{user}:{phrase}"),
            Custom::Pick {
                game,
                version,
                user,
                kind,
                text,
            } => format!("ss:p:{game}:{version}:{user}:{}:{text}", kind.code()),
            Custom::Options {
                game,
                version,
                user,
            } => format!("ss:o:{game}:{version}:{user}"),
            Custom::Accept { game, user } => format!("ss:y:{game}:{user}"),
            Custom::Decline { game, user } => format!("ss:n:{game}:{user}"),
            Custom::Draft {
                game,
                version,
                user,
                kind,
                clear,
            } => format!(
                "ss:d:{game}:{version}:{user}:{}:{}",
                kind.code(),
                if *clear { "clear" } else { "go" }
            ),
        }
    }

    /// The id, or None when it would be longer than Discord allows.
    pub fn id(&self) -> Option<String> {
        let s = self.encode();
        (s.len() <= MAX_ID).then_some(s)
    }

    pub fn decode(s: &str) -> Option<Custom> {
        let rest = s.strip_prefix("ss:")?;
        let (tag, rest) = rest.split_once(':')?;
        let num = |x: &str| x.parse::<i64>().ok();
        let user = |x: &str| x.parse::<u64>().ok();
        match tag {
            "a" => {
                let mut it = rest.splitn(4, ':');
                let game = num(it.next()?)?;
                let version = num(it.next()?)?;
                let user = user(it.next()?)?;
                let phrase = it.next()?.to_string();
                Some(Custom::Answer {
                    game,
                    version,
                    user,
                    phrase,
                })
            }
            // "p" is the first page of a menu, "p2", "p3"... the next (the same pick).
            t if t
                .strip_prefix('p')
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit())) =>
            {
                let mut it = rest.splitn(5, ':');
                let game = num(it.next()?)?;
                let version = num(it.next()?)?;
                let user = user(it.next()?)?;
                let kind = PickKind::from_code(it.next()?)?;
                let text = it.next()?.to_string();
                Some(Custom::Pick {
                    game,
                    version,
                    user,
                    kind,
                    text,
                })
            }
            "o" => {
                let mut it = rest.splitn(3, ':');
                Some(Custom::Options {
                    game: num(it.next()?)?,
                    version: num(it.next()?)?,
                    user: user(it.next()?)?,
                })
            }
            "d" => {
                let mut it = rest.splitn(5, ':');
                let game = num(it.next()?)?;
                let version = num(it.next()?)?;
                let user = user(it.next()?)?;
                let kind = PickKind::from_code(it.next()?)?;
                let clear = match it.next()? {
                    "clear" => true,
                    "go" => false,
                    _ => return None,
                };
                Some(Custom::Draft {
                    game,
                    version,
                    user,
                    kind,
                    clear,
                })
            }
            "y" | "n" => {
                let (g, u) = rest.split_once(':')?;
                let (game, user) = (num(g)?, user(u)?);
                Some(if tag == "y" {
                    Custom::Accept { game, user }
                } else {
                    Custom::Decline { game, user }
                })
            }
            _ => None,
        }
    }

    /// The Discord user the prompt belongs to.
    pub fn user(&self) -> u64 {
        match self {
            Custom::Answer { user, .. }
            | Custom::Pick { user, .. }
            | Custom::Options { user, .. }
            | Custom::Accept { user, .. }
            | Custom::Decline { user, .. }
            | Custom::Draft { user, .. } => *user,
        }
    }
}

/// Answers that reveal nothing private, offered as buttons in the public thread.
pub const PUBLIC_PHRASES: &[&str] = &[
    "keep",
    "mulligan",
    "pass",
    "no attack",
    "attack with all",
    "no blocks",
    "pay",
    "cancel",
    "allow undo",
    "deny undo",
    "yes",
    "no",
    "nothing",
    "default",
];

fn style_of(phrase: &str) -> ButtonStyle {
    match phrase {
        "keep" | "pass" | "pay" | "allow undo" | "yes" | "default" => ButtonStyle::Success,
        "mulligan" | "deny undo" | "no" | "cancel" => ButtonStyle::Danger,
        _ => ButtonStyle::Primary,
    }
}

/// A button's label for a phrase.
fn label_of(phrase: &str) -> String {
    match phrase {
        // Blocker order, combat damage assignment, trigger order.
        "default" => "Accept default".to_string(),
        p => capitalise(p),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Buttons for `phrases` (at most 5 rows of 5).
pub fn answer_buttons(
    game: i64,
    version: i64,
    user: u64,
    phrases: &[String],
    extra: Vec<CreateButton>,
) -> Vec<CreateActionRow> {
    let mut buttons: Vec<CreateButton> = phrases
        .iter()
        .filter_map(|p| {
            let id = Custom::Answer {
                game,
                version,
                user,
                phrase: p.clone(),
            }
            .id()?;
            Some(
                CreateButton::new(id)
                    .label(cut(&label_of(p), 80))
                    .style(style_of(p)),
            )
        })
        .collect();
    buttons.extend(extra);
    buttons
        .chunks(5)
        .take(5)
        .map(|c| CreateActionRow::Buttons(c.to_vec()))
        .collect()
}

/// **Declare** and **Clear** buttons for the attackers or blocks gathered from paged menus.
pub fn draft_buttons(game: i64, version: i64, user: u64, kind: PickKind) -> CreateActionRow {
    let b = |clear: bool| {
        let id = Custom::Draft {
            game,
            version,
            user,
            kind,
            clear,
        }
        .encode();
        CreateButton::new(id)
            .label(if clear { "Clear" } else { "Declare" })
            .style(if clear {
                ButtonStyle::Danger
            } else {
                ButtonStyle::Success
            })
    };
    CreateActionRow::Buttons(vec![b(false), b(true)])
}

/// The "my options" button for the decider.
pub fn options_button(game: i64, version: i64, user: u64) -> Option<CreateButton> {
    let id = Custom::Options {
        game,
        version,
        user,
    }
    .id()?;
    Some(
        CreateButton::new(id)
            .label("My hand & options")
            .style(ButtonStyle::Secondary),
    )
}

/// A select menu over `(label, value)` pairs (the first 25) completing `text`.
#[allow(clippy::too_many_arguments)]
pub fn pick_menu(
    game: i64,
    version: i64,
    user: u64,
    kind: PickKind,
    text: &str,
    placeholder: &str,
    items: &[(String, String)],
    max_values: u8,
) -> Option<CreateActionRow> {
    let pick = Pick {
        game,
        version,
        user,
        kind,
        text,
        placeholder,
        min_values: 1,
    };
    pick_menus(&pick, items, max_values, 1).into_iter().next()
}

/// What a menu completes.
pub struct Pick<'a> {
    pub game: i64,
    pub version: i64,
    pub user: u64,
    pub kind: PickKind,
    pub text: &'a str,
    pub placeholder: &'a str,
    /// The fewest values a menu takes (1 unless an answer needs exactly that many).
    pub min_values: u8,
}

/// Options per menu (Discord's limit).
pub const MENU_OPTIONS: usize = 25;

/// Select menus over `(label, value)` pairs, 25 options a menu, at most `menus` menus: past
/// 25 options the answers are paged over several menus (ids `ss:p:`, `ss:p2:`, ...), each
/// placeholder saying which of how many it holds. Values over 100 characters or repeated are
/// left out (Discord refuses them).
pub fn pick_menus(
    pick: &Pick<'_>,
    items: &[(String, String)],
    max_values: u8,
    menus: usize,
) -> Vec<CreateActionRow> {
    let Some(id) = (Custom::Pick {
        game: pick.game,
        version: pick.version,
        user: pick.user,
        kind: pick.kind,
        text: pick.text.to_string(),
    })
    .id() else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let items: Vec<&(String, String)> = items
        .iter()
        .filter(|(_, v)| v.chars().count() <= 100 && !v.is_empty())
        .filter(|(_, v)| seen.insert(v.clone()))
        .collect();
    let total = items.len();
    let min = pick.min_values.max(1);
    let mut rows = Vec::new();
    for (n, page) in items.chunks(MENU_OPTIONS).take(menus).enumerate() {
        let id = if n == 0 {
            id.clone()
        } else {
            format!("ss:p{}:{}", n + 1, &id["ss:p:".len()..])
        };
        if id.chars().count() > MAX_ID {
            break;
        }
        let placeholder = if total > MENU_OPTIONS {
            let first = n * MENU_OPTIONS + 1;
            format!(
                "{} ({first}-{} of {total})",
                cut(pick.placeholder, 120),
                first + page.len() - 1
            )
        } else {
            cut(pick.placeholder, 150)
        };
        let options: Vec<CreateSelectMenuOption> = page
            .iter()
            .map(|(l, v)| CreateSelectMenuOption::new(cut(l, 100), v.clone()))
            .collect();
        let k = page.len() as u8;
        let max = max_values.clamp(1, k);
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(id, CreateSelectMenuKind::String { options })
                .placeholder(placeholder)
                .min_values(min.min(max))
                .max_values(max),
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        let all = [
            Custom::Answer {
                game: 12,
                version: 40,
                user: 123456789012345678,
                phrase: "attack with Ashcoat Bear: 2".into(),
            },
            Custom::Pick {
                game: 1,
                version: 2,
                user: 3,
                kind: PickKind::Target,
                text: "cast Lightning Axe".into(),
            },
            Custom::Options {
                game: 5,
                version: 6,
                user: 7,
            },
            Custom::Accept { game: 9, user: 10 },
            Custom::Decline { game: 9, user: 10 },
            Custom::Draft {
                game: 9,
                version: 4,
                user: 10,
                kind: PickKind::Block,
                clear: true,
            },
            Custom::Draft {
                game: 9,
                version: 4,
                user: 10,
                kind: PickKind::Attack,
                clear: false,
            },
        ];
        for c in all {
            let s = c.id().expect("fits");
            assert_eq!(Custom::decode(&s), Some(c.clone()), "{s}");
        }
        assert_eq!(Custom::decode("ss:a:x:1:2:pass"), None);
        assert_eq!(Custom::decode("other"), None);
    }

    #[test]
    fn long_ids_are_not_offered() {
        let c = Custom::Answer {
            game: 1,
            version: 1,
            user: 1,
            phrase: "x".repeat(120),
        };
        assert!(c.id().is_none());
        assert!(answer_buttons(1, 1, 1, &["x".repeat(120)], Vec::new()).is_empty());
    }

    #[test]
    fn default_is_a_public_button() {
        assert!(PUBLIC_PHRASES.contains(&crate::grammar::DEFAULT));
        let rows = answer_buttons(3, 4, 5, &["default".to_string()], Vec::new());
        let json = serde_json::to_value(&rows).expect("json");
        let b = &json[0]["components"][0];
        assert_eq!(b["label"], "Accept default");
        assert_eq!(b["custom_id"], "ss:a:3:4:5:default");
    }

    /// A "you may" question (Mesa Enchantress when an enchantment is cast) offers Yes and No
    /// as public buttons, and creature types are offered as phrases.
    #[test]
    fn yes_no_questions_are_public_buttons() {
        let g = engine::scenario::game_from_str(crate::grammar::tests::MESA_CONSPIRACY)
            .expect("scenario");
        let p = engine::PlayerId(0);
        let opts = crate::grammar::options(&g, p, false);
        assert_eq!(opts, vec!["yes".to_string(), "no".to_string()]);
        assert!(opts.iter().all(|o| PUBLIC_PHRASES.contains(&o.as_str())));
        let json = serde_json::to_value(answer_buttons(1, 2, 3, &opts, Vec::new())).expect("json");
        let b = &json[0]["components"];
        assert_eq!(
            (b[0]["label"].as_str(), b[0]["style"].as_u64()),
            (Some("Yes"), Some(3))
        );
        assert_eq!(
            (b[1]["label"].as_str(), b[1]["style"].as_u64()),
            (Some("No"), Some(4))
        );
    }

    #[test]
    fn picks_complete_commands() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            PickKind::Target.complete("cast Lightning Axe", &v(&["Ashcoat Bear"])),
            "cast Lightning Axe on Ashcoat Bear"
        );
        assert_eq!(
            PickKind::Attack.complete("", &v(&["A", "B"])),
            "attack with A, B"
        );
        assert_eq!(
            PickKind::Block.complete("", &v(&["block A with B", "block C with D"])),
            "block A with B, block C with D"
        );
        assert_eq!(PickKind::Phrase.complete("", &v(&["pass"])), "pass");
        assert_eq!(
            PickKind::Choose.complete("discard", &v(&["Plains 2 of 2", "Swamp"])),
            "discard Plains 2 of 2, Swamp"
        );
        assert_eq!(
            PickKind::Mode.complete("cast Fortify", &v(&["2"])),
            "cast Fortify mode 2"
        );
        assert_eq!(
            PickKind::Exile.complete("begin with Gemstone Caverns", &v(&["Island"])),
            "begin with Gemstone Caverns exiling Island"
        );
        for k in [
            PickKind::Mode,
            PickKind::X,
            PickKind::CostOption,
            PickKind::Choose,
            PickKind::Exile,
        ] {
            let c = Custom::Pick {
                game: 1,
                version: 1,
                user: 1,
                kind: k,
                text: "cast A".into(),
            };
            assert_eq!(Custom::decode(&c.encode()), Some(c));
        }
    }

    #[test]
    fn menus_page_past_25_options() {
        let items: Vec<(String, String)> = (0..60)
            .map(|i| (format!("Saproling {i}"), format!("target Saproling {i}")))
            .chain(std::iter::once(("dup".into(), "target Saproling 0".into())))
            .chain(std::iter::once(("long".into(), "x".repeat(101))))
            .collect();
        let pick = Pick {
            game: 7,
            version: 3,
            user: 42,
            kind: PickKind::Target,
            text: "cast Shock",
            placeholder: "Shock: a target",
            min_values: 1,
        };
        let rows = pick_menus(&pick, &items, 1, 5);
        assert_eq!(rows.len(), 3, "60 distinct values in pages of 25");
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| serde_json::to_value(r).expect("json"))
            .collect();
        let ids: Vec<&str> = json
            .iter()
            .map(|r| r["components"][0]["custom_id"].as_str().expect("id"))
            .collect();
        assert!(
            ids[0].starts_with("ss:p:") && ids[1].starts_with("ss:p2:"),
            "{ids:?}"
        );
        for id in &ids {
            assert!(
                matches!(
                    Custom::decode(id),
                    Some(Custom::Pick {
                        game: 7,
                        version: 3,
                        user: 42,
                        ..
                    })
                ),
                "{id}"
            );
        }
        let counts: Vec<usize> = json
            .iter()
            .map(|r| {
                r["components"][0]["options"]
                    .as_array()
                    .map_or(0, |a| a.len())
            })
            .collect();
        assert_eq!(counts, vec![25, 25, 10]);
        assert_eq!(
            json[2]["components"][0]["placeholder"],
            "Shock: a target (51-60 of 60)"
        );
        // One menu only: the first page.
        assert_eq!(pick_menus(&pick, &items, 1, 1).len(), 1);
    }
}
