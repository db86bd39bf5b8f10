//! League commands as typed words (the terminal's `spellstack league ...`), the same
//! commands Discord's `/league` offers:
//!
//! `create NAME [product 6 TSP] [best of 1] [schedule swiss 3] [matches 5] [days 28]`,
//! `create ... [until 3 losses] [packs weekly, per 3 losses, loser] [rematches]`,
//! `create ... [starts in 2 days | starts 2026-12-20 18:00] [entries 10]` (UTC; entries close
//! that many days after the start),
//! `join [deck red]`, `run [deck red]` (a new run), `drop`, `pool`, `decks`, `deck save NAME: 20 Forest; 2 ...`,
//! `deck use NAME`, `sideboard [out CARDS] [in CARDS]` / `sideboard reset`, `play [OPPONENT]`, `play first` / `draw first` (the chooser's answer before a game, MTR 2.2), `standings`, `me`, `clock`, `claim`, `vacation N`,
//! `prefer ask|play|draw`, `nullify MATCH REASON`, `forfeit MATCH LOSER REASON`,
//! `fix MATCH A-B[-D] REASON`, `log`.

use super::choice::PlayDraw;
use super::organiser::OrganiserAction;
use crate::league::definition::LeagueSetup;

/// A parsed league command; names of players are resolved by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeagueWords {
    Create(LeagueSetup),
    Join {
        deck: Option<String>,
    },
    Drop,
    /// A new run when the last one is over (constructed: with its deck).
    Run {
        deck: Option<String>,
    },
    Pool,
    Decks,
    DeckSave {
        name: String,
        list: String,
    },
    DeckUse(String),
    /// `sideboard out 2 Foo, Bar in Baz`: (count, name) lists; `sideboard reset`.
    Sideboard {
        out: Vec<(u32, String)>,
        into: Vec<(u32, String)>,
        reset: bool,
    },
    Play {
        opponent: Option<String>,
    },
    /// The chooser's answer before a game (MTR 2.2): `play first` or `draw first`.
    Choose {
        draw: bool,
    },
    Standings,
    Me,
    Clock,
    Claim,
    Vacation(u32),
    /// The standing play/draw answer: `prefer ask`, `prefer play`, `prefer draw`.
    Prefer(PlayDraw),
    Organise {
        match_id: i64,
        action: OrganiserWordsAction,
        reason: String,
    },
    Log,
    Help,
}

/// An organiser action before the loser's name is resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrganiserWordsAction {
    Nullify,
    Forfeit {
        loser: String,
    },
    Fix {
        a_wins: u32,
        b_wins: u32,
        draws: u32,
    },
}

impl OrganiserWordsAction {
    /// With the loser resolved to a user id.
    pub fn resolve(&self, loser: Option<i64>) -> Option<OrganiserAction> {
        Some(match self {
            OrganiserWordsAction::Nullify => OrganiserAction::Nullify,
            OrganiserWordsAction::Forfeit { .. } => OrganiserAction::Forfeit { loser: loser? },
            OrganiserWordsAction::Fix {
                a_wins,
                b_wins,
                draws,
            } => OrganiserAction::Fix {
                a_wins: *a_wins,
                b_wins: *b_wins,
                draws: *draws,
            },
        })
    }
}

pub const HELP: &str = "league commands: create NAME [product 6 TSP] [best of 1|3] [schedule queue|swiss N|round robin] [matches N] [until N losses] [days N] [starts now|in N days|YYYY-MM-DD [HH:MM]] [entries N (days after the start)] [packs weekly|per N losses|loser] [rematches] [ruleset modern|classic], join [deck NAME], run [deck NAME] (a new run when yours is over), drop, pool, decks, deck save NAME: LIST, deck use NAME, sideboard [out CARDS] [in CARDS] (between the games of a match; `sideboard reset`), play [OPPONENT], play first | draw first (when you choose before a game), standings, me, clock, claim, vacation DAYS, prefer ask|play|draw, nullify MATCH REASON, forfeit MATCH LOSER REASON, fix MATCH A-B[-D] REASON, log";

fn number<T: std::str::FromStr>(w: Option<&str>, what: &str) -> Result<T, String> {
    w.and_then(|x| x.parse().ok())
        .ok_or_else(|| format!("{what}: give a number"))
}

fn parse_create(rest: &str) -> Result<LeagueSetup, String> {
    // NAME runs up to the first keyword.
    let keys = [
        "product",
        "best",
        "schedule",
        "matches",
        "until",
        "days",
        "packs",
        "rematches",
        "ruleset",
        "starts",
        "entries",
    ];
    let words: Vec<&str> = rest.split_whitespace().collect();
    // A keyword starts a setting, but in `starts` and `entries` a `days` after a number is
    // that number's unit (`starts in 3 days`, `entries 10 days`).
    let mut starts_key = vec![false; words.len()];
    let mut current = "";
    for (i, w) in words.iter().enumerate() {
        let w = w.to_ascii_lowercase();
        let unit = w == "days"
            && matches!(current, "starts" | "entries")
            && i > 0
            && words[i - 1].chars().all(|c| c.is_ascii_digit());
        if let Some(k) = keys.iter().find(|k| **k == w.as_str())
            && !unit
        {
            starts_key[i] = true;
            current = *k;
        }
    }
    let is_key = |i: usize| starts_key[i];
    let cut = (0..words.len()).find(|i| is_key(*i)).unwrap_or(words.len());
    let mut s = LeagueSetup {
        name: words[..cut].join(" "),
        ..Default::default()
    };
    let mut i = cut;
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        let end = (i + 1..words.len())
            .find(|j| is_key(*j))
            .unwrap_or(words.len());
        let value = words[i + 1..end].join(" ");
        match key.as_str() {
            "product" => s.product = Some(value),
            "best" => {
                let v = value.trim_start_matches("of").trim();
                s.best_of = Some(number(Some(v), "best of")?);
            }
            "schedule" => s.schedule = Some(value),
            "matches" => s.matches_per_run = Some(number(Some(&value), "matches")?),
            "days" => s.length_days = Some(number(Some(&value), "days")?),
            "until" => {
                let mut w = value.split_whitespace();
                let n = number(w.next(), "until N losses")?;
                if !matches!(w.next(), Some("losses" | "loss") | None) || w.next().is_some() {
                    return Err(format!("`until {value}`: say `until 3 losses`"));
                }
                s.run_losses = Some(n);
            }
            "packs" => {
                s.pack_triggers = value
                    .split([',', ';'])
                    .flat_map(|t| t.split(" and "))
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect();
                if s.pack_triggers.is_empty() {
                    return Err("packs: weekly, per 3 losses or loser".into());
                }
            }
            "starts" => s.starts = Some(value),
            "entries" => {
                let v = value.trim_start_matches("close").trim();
                let v = v.strip_suffix("days").unwrap_or(v).trim();
                s.entries_days = Some(number(Some(v), "entries N (days after the start)")?);
            }
            "rematches" => s.allow_rematches = true,
            "ruleset" => {
                s.ruleset = Some(
                    value
                        .trim()
                        .parse()
                        .map_err(|e| format!("ruleset `{}`: {e}", value.trim()))?,
                )
            }
            _ => {}
        }
        i = end;
    }
    if s.name.trim().is_empty() {
        return Err("create NAME ...: the league needs a name".into());
    }
    Ok(s)
}

fn parse_organise(verb: &str, rest: &str) -> Result<LeagueWords, String> {
    let mut it = rest.splitn(2, char::is_whitespace);
    let match_id: i64 = number(it.next(), &format!("{verb} MATCH"))?;
    let rest = it.next().unwrap_or("").trim();
    let (action, reason) = match verb {
        "nullify" => (OrganiserWordsAction::Nullify, rest.to_string()),
        "forfeit" => {
            let mut it = rest.splitn(2, char::is_whitespace);
            let loser = it.next().unwrap_or("").to_string();
            if loser.is_empty() {
                return Err("forfeit MATCH LOSER REASON: name who forfeits".into());
            }
            (
                OrganiserWordsAction::Forfeit { loser },
                it.next().unwrap_or("").to_string(),
            )
        }
        _ => {
            let mut it = rest.splitn(2, char::is_whitespace);
            let score = it.next().unwrap_or("");
            let n: Vec<u32> = score
                .split('-')
                .map(|x| {
                    x.parse()
                        .map_err(|_| format!("`{score}`: a score like 2-1 or 1-1-1"))
                })
                .collect::<Result<_, _>>()?;
            let (a, b, d) = match n.as_slice() {
                [a, b] => (*a, *b, 0),
                [a, b, d] => (*a, *b, *d),
                _ => return Err(format!("`{score}`: a score like 2-1 or 1-1-1")),
            };
            (
                OrganiserWordsAction::Fix {
                    a_wins: a,
                    b_wins: b,
                    draws: d,
                },
                it.next().unwrap_or("").to_string(),
            )
        }
    };
    Ok(LeagueWords::Organise {
        match_id,
        action,
        reason,
    })
}

/// `2 Foo, Bar; 3 Baz`: (count, name) pairs (a count of 1 when none is said).
pub fn card_counts(list: &str) -> Result<Vec<(u32, String)>, String> {
    let mut out = Vec::new();
    for part in list
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let part = part.trim_start_matches("and ").trim();
        let (n, name) = match part.split_once(char::is_whitespace) {
            Some((n, rest)) if n.trim_end_matches('x').parse::<u32>().is_ok() => (
                n.trim_end_matches('x').parse::<u32>().unwrap_or(1),
                rest.trim(),
            ),
            _ => (1, part),
        };
        if n == 0 || name.is_empty() {
            return Err(format!(
                "`{part}`: say a card, with how many if more than one"
            ));
        }
        out.push((n, name.to_string()));
    }
    Ok(out)
}

/// `out CARDS in CARDS` (either part, in either order) or `reset`.
pub fn parse_sideboard(rest: &str) -> Result<LeagueWords, String> {
    let t = rest.trim();
    if t.eq_ignore_ascii_case("reset") || t.eq_ignore_ascii_case("none") {
        return Ok(LeagueWords::Sideboard {
            out: Vec::new(),
            into: Vec::new(),
            reset: true,
        });
    }
    // [out, in]: the words after each keyword.
    let mut parts = [String::new(), String::new()];
    let mut current: Option<usize> = None;
    for w in t.split_whitespace() {
        // A bare `in` inside the `in` part is a word of a name (Bound in Silence); `in:` and
        // `out:` always start their part.
        let lower = w.to_ascii_lowercase();
        let colon = lower.ends_with(':');
        match lower.trim_end_matches(':') {
            "out" if colon || current != Some(0) => current = Some(0),
            "in" if colon || current != Some(1) => current = Some(1),
            _ => match current {
                Some(i) => {
                    parts[i].push(' ');
                    parts[i].push_str(w);
                }
                None => {
                    return Err(format!(
                        "`sideboard {t}`: say `sideboard out CARDS in CARDS` (e.g. `out 2 Mountain in Lightning Axe`)"
                    ));
                }
            },
        }
    }
    Ok(LeagueWords::Sideboard {
        out: card_counts(&parts[0])?,
        into: card_counts(&parts[1])?,
        reset: false,
    })
}

/// Parses league words; the error explains what was expected.
pub fn parse(text: &str) -> Result<LeagueWords, String> {
    let text = text.trim();
    let (verb, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let rest = rest.trim();
    let verb = verb.to_ascii_lowercase();
    Ok(match verb.as_str() {
        "create" => LeagueWords::Create(parse_create(rest)?),
        "join" => LeagueWords::Join {
            deck: rest
                .strip_prefix("deck")
                .map(|d| d.trim().to_string())
                .filter(|d| !d.is_empty()),
        },
        "drop" => LeagueWords::Drop,
        "run" | "rejoin" => {
            let d = rest.strip_prefix("deck").unwrap_or(rest).trim();
            LeagueWords::Run {
                deck: (!d.is_empty()).then(|| d.to_string()),
            }
        }
        "pool" => LeagueWords::Pool,
        "decks" => LeagueWords::Decks,
        "deck" => {
            let (sub, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            match sub.to_ascii_lowercase().as_str() {
                "save" => {
                    let (name, list) = args.split_once(':').ok_or(
                        "deck save NAME: LIST (a colon after the name, `;` between lines)",
                    )?;
                    LeagueWords::DeckSave {
                        name: name.trim().to_string(),
                        list: list.trim().replace([';', '|'], "\n"),
                    }
                }
                "use" => LeagueWords::DeckUse(args.trim().to_string()),
                "list" | "" => LeagueWords::Decks,
                other => return Err(format!("deck {other}: say deck save, deck use or decks")),
            }
        }
        "sideboard" | "side" => parse_sideboard(rest)?,
        // `play first` answers a play/draw question (so no member named `first` can be
        // challenged by name).
        "play" if rest.eq_ignore_ascii_case("first") => LeagueWords::Choose { draw: false },
        "draw" if rest.is_empty() || rest.eq_ignore_ascii_case("first") => {
            LeagueWords::Choose { draw: true }
        }
        "draw" => return Err(format!("`draw {rest}`: say `draw first` (or `play first`)")),
        "play" => LeagueWords::Play {
            opponent: (!rest.is_empty()).then(|| rest.to_string()),
        },
        "standings" => LeagueWords::Standings,
        "me" => LeagueWords::Me,
        "clock" => LeagueWords::Clock,
        "claim" => LeagueWords::Claim,
        "vacation" => {
            LeagueWords::Vacation(number(rest.split_whitespace().next(), "vacation DAYS")?)
        }
        "prefer" => match rest.to_ascii_lowercase().as_str() {
            "ask" => LeagueWords::Prefer(PlayDraw::Ask),
            "play" | "play first" => LeagueWords::Prefer(PlayDraw::Play),
            "draw" | "draw first" => LeagueWords::Prefer(PlayDraw::Draw),
            _ => {
                return Err(
                    "prefer ask (asked before each game you choose for), prefer play or prefer draw"
                        .into(),
                );
            }
        },
        "nullify" | "forfeit" | "fix" => parse_organise(&verb, rest)?,
        "log" => LeagueWords::Log,
        "help" | "?" => LeagueWords::Help,
        _ => return Err(format!("unknown league command `{verb}`. {HELP}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn league_words_parse() {
        let LeagueWords::Create(s) = parse(
            "create Friday Sealed product 2 TSP + 2 PLC + 2 FUT best of 1 schedule swiss 3 days 14",
        )
        .expect("create") else {
            panic!("not a create");
        };
        assert_eq!(s.name, "Friday Sealed");
        assert_eq!(s.product.as_deref(), Some("2 TSP + 2 PLC + 2 FUT"));
        assert_eq!((s.best_of, s.length_days), (Some(1), Some(14)));
        assert_eq!(s.schedule.as_deref(), Some("swiss 3"));
        let LeagueWords::Create(s) = parse(
            "create Growing product 3 TSP packs weekly, per 3 losses until 3 losses rematches",
        )
        .expect("create") else {
            panic!("not a create");
        };
        assert_eq!(s.name, "Growing");
        assert_eq!(s.pack_triggers, vec!["weekly", "per 3 losses"]);
        assert_eq!((s.run_losses, s.allow_rematches), (Some(3), true));
        let LeagueWords::Create(s) =
            parse("create Later starts in 3 days entries 10 days days 14").expect("create")
        else {
            panic!("not a create");
        };
        assert_eq!(s.name, "Later");
        assert_eq!(s.starts.as_deref(), Some("in 3 days"));
        assert_eq!((s.entries_days, s.length_days), (Some(10), Some(14)));
        let LeagueWords::Create(s) =
            parse("create Dated days 20 starts 2026-12-20 18:00 entries 5").expect("create")
        else {
            panic!("not a create");
        };
        assert_eq!(s.starts.as_deref(), Some("2026-12-20 18:00"));
        assert_eq!((s.entries_days, s.length_days), (Some(5), Some(20)));
        assert!(
            parse("create X entries soon")
                .unwrap_err()
                .contains("days after the start")
        );
        assert!(parse("create X ruleset medieval").is_err());
        assert!(parse("create X packs").is_err());
        assert_eq!(parse("run"), Ok(LeagueWords::Run { deck: None }));
        assert_eq!(
            parse("run deck red"),
            Ok(LeagueWords::Run {
                deck: Some("red".into())
            })
        );
        assert_eq!(
            parse("join deck red"),
            Ok(LeagueWords::Join {
                deck: Some("red".into())
            })
        );
        assert_eq!(
            parse("deck save mine: 20 Forest; 20 Island"),
            Ok(LeagueWords::DeckSave {
                name: "mine".into(),
                list: "20 Forest\n 20 Island".into()
            })
        );
        assert_eq!(
            parse("play Bob"),
            Ok(LeagueWords::Play {
                opponent: Some("Bob".into())
            })
        );
        assert_eq!(
            parse("fix 3 2-1 scorekeeper error"),
            Ok(LeagueWords::Organise {
                match_id: 3,
                action: OrganiserWordsAction::Fix {
                    a_wins: 2,
                    b_wins: 1,
                    draws: 0
                },
                reason: "scorekeeper error".into()
            })
        );
        assert!(parse("fix 3 two-one x").is_err());
        // Play or draw: the chooser's answer, and the standing answer.
        assert_eq!(parse("play first"), Ok(LeagueWords::Choose { draw: false }));
        assert_eq!(parse("Play First"), Ok(LeagueWords::Choose { draw: false }));
        assert_eq!(parse("draw first"), Ok(LeagueWords::Choose { draw: true }));
        assert_eq!(parse("draw"), Ok(LeagueWords::Choose { draw: true }));
        assert!(parse("draw second").unwrap_err().contains("draw first"));
        assert_eq!(parse("prefer ask"), Ok(LeagueWords::Prefer(PlayDraw::Ask)));
        assert_eq!(
            parse("prefer play"),
            Ok(LeagueWords::Prefer(PlayDraw::Play))
        );
        assert_eq!(
            parse("prefer draw"),
            Ok(LeagueWords::Prefer(PlayDraw::Draw))
        );
        assert!(
            parse("prefer sometimes")
                .unwrap_err()
                .contains("prefer ask")
        );
        assert!(parse("forfeit 3").unwrap_err().contains("who forfeits"));
        assert!(parse("vacation lots").is_err());
        assert!(parse("create").is_err());
        assert!(parse("dance").unwrap_err().contains("league commands"));
        assert_eq!(
            parse("sideboard out 2 Mountain, Rift Bolt in: 2x Island; Lightning Axe"),
            Ok(LeagueWords::Sideboard {
                out: vec![(2, "Mountain".into()), (1, "Rift Bolt".into())],
                into: vec![(2, "Island".into()), (1, "Lightning Axe".into())],
                reset: false
            })
        );
        assert_eq!(
            parse("sideboard in Forest"),
            Ok(LeagueWords::Sideboard {
                out: vec![],
                into: vec![(1, "Forest".into())],
                reset: false
            })
        );
        assert_eq!(
            parse("sideboard out Forest in Bound in Silence"),
            Ok(LeagueWords::Sideboard {
                out: vec![(1, "Forest".into())],
                into: vec![(1, "Bound in Silence".into())],
                reset: false
            })
        );
        assert!(matches!(
            parse("sideboard reset"),
            Ok(LeagueWords::Sideboard { reset: true, .. })
        ));
        assert!(
            parse("sideboard Mountain")
                .unwrap_err()
                .contains("sideboard out")
        );
        assert!(parse("sideboard out 0 Mountain").is_err());
    }
}
