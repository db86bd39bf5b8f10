//! The league itself: name, format (sealed with a product, or constructed), dates, match
//! length, run length or schedule, rematch rule, ruleset, pack triggers and time rules.
//! [`LeagueSetup`] is what an organiser asks for (unchecked); [`LeagueSetup::validate`] turns
//! it into a [`LeagueDef`] or says everything that is wrong.

use super::boosters::Boosters;
use super::clocks::{ClockRules, DAY, Dates, parse_start, utc};
use engine::Ruleset;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A sealed product: packs per set, in order (`2 TSP + 2 PLC + 2 FUT`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product(pub Vec<(u32, String)>);

/// At most this many packs in a sealed pool.
pub const MAX_PACKS: u32 = 24;

impl Product {
    /// Parses `6 TSP`, `2 TSP + 2 PLC + 2 FUT`, `3tsp+3 plc`, `TSP` (one pack).
    pub fn parse(text: &str) -> Result<Product, String> {
        let b = Boosters::builtin();
        let text = text.trim();
        if text.is_empty() {
            return Err(format!(
                "name the packs, e.g. `6 TSP` or `2 TSP + 2 PLC + 2 FUT` (sets: {})",
                b.codes().join(", ")
            ));
        }
        let mut parts = Vec::new();
        for part in text.split(['+', ',']) {
            let p = part.trim();
            if p.is_empty() {
                return Err(format!("`{text}` has an empty part between `+` signs"));
            }
            let digits: String = p.chars().take_while(|c| c.is_ascii_digit()).collect();
            // `6x TSP`, `6xTSP`, `6 x TSP`: an `x` right after the count or standing alone
            // (never the first letter of a set's code: `6 XYZ` names the set `XYZ`).
            let after = &p[digits.len()..];
            let spaced = after.trim_start();
            let rest = match spaced.strip_prefix(['x', 'X']) {
                Some(t) if spaced.len() == after.len() || t.starts_with(char::is_whitespace) => {
                    t.trim()
                }
                _ => spaced.trim(),
            };
            let count: u32 = if digits.is_empty() {
                1
            } else {
                digits
                    .parse()
                    .map_err(|_| format!("`{digits}` is not a sensible number of packs"))?
            };
            if count == 0 {
                return Err(format!("`{p}`: at least one pack"));
            }
            let Some(set) = b.set(rest) else {
                let hint = if rest.eq_ignore_ascii_case("TSB") {
                    " (the timeshifted cards come in TSP packs)"
                } else {
                    ""
                };
                return Err(format!(
                    "`{rest}` has no boosters{hint}: choose {}",
                    b.codes().join(", ")
                ));
            };
            match parts.iter_mut().find(|(_, s)| *s == set.code) {
                Some((n, _)) => *n += count,
                None => parts.push((count, set.code.clone())),
            }
        }
        let total: u32 = parts.iter().map(|p| p.0).sum();
        if total > MAX_PACKS {
            return Err(format!(
                "{total} packs is too many for a sealed pool (at most {MAX_PACKS})"
            ));
        }
        Ok(Product(parts))
    }

    pub fn packs(&self) -> u32 {
        self.0.iter().map(|p| p.0).sum()
    }

    /// The set of each pack, in opening order.
    pub fn pack_sets(&self) -> Vec<&str> {
        self.0
            .iter()
            .flat_map(|(n, s)| std::iter::repeat_n(s.as_str(), *n as usize))
            .collect()
    }

    /// The share of the product's cards (weighted as the sheets say) that the engine plays.
    pub fn playable_share(&self) -> f64 {
        let cat = engine::Catalog::builtin();
        let b = Boosters::builtin();
        let (mut all, mut ok) = (0.0, 0.0);
        for (n, code) in &self.0 {
            let Some(set) = b.set(code) else { continue };
            for (name, e) in set.expected_per_pack() {
                all += e * f64::from(*n);
                if cat.by_name(name).is_some_and(|d| d.is_supported()) {
                    ok += e * f64::from(*n);
                }
            }
        }
        if all > 0.0 { ok / all } else { 0.0 }
    }
}

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(n, s)| format!("{n} {s}")).collect();
        write!(f, "{}", parts.join(" + "))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum LeagueFormat {
    Sealed {
        product: Product,
    },
    /// The block's playable cards; the deck is registered at entry and locked for the run.
    Constructed,
}

impl LeagueFormat {
    /// The rating pool of this format.
    pub fn rating_key(&self) -> &'static str {
        match self {
            LeagueFormat::Sealed { .. } => "sealed",
            LeagueFormat::Constructed => "constructed",
        }
    }
}

/// How opponents are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// MTGO style: `play` finds someone with the same record not yet met this run; a run
    /// is `matches_per_run` matches.
    Queue,
    /// Swiss rounds, paired by the league.
    Swiss { rounds: u32 },
    /// Everyone meets everyone.
    RoundRobin,
}

/// When a growing pool gets another pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PackTrigger {
    /// One pack each week of the league.
    Weekly,
    /// One pack after every N match losses.
    PerLosses(u32),
    /// The loser of a match gets a pack.
    Loser,
}

impl PackTrigger {
    pub fn parse(s: &str) -> Result<PackTrigger, String> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "weekly" | "week" | "per week" => Ok(PackTrigger::Weekly),
            "loser" | "match loser" => Ok(PackTrigger::Loser),
            _ => {
                let n = t
                    .strip_prefix("per ")
                    .and_then(|r| {
                        r.strip_suffix(" losses")
                            .or_else(|| r.strip_suffix(" loss"))
                    })
                    .and_then(|n| n.trim().parse::<u32>().ok())
                    .filter(|n| *n > 0);
                n.map(PackTrigger::PerLosses).ok_or_else(|| {
                    format!("unknown pack trigger `{s}`: weekly, per 3 losses, or loser")
                })
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            PackTrigger::Weekly => "a pack each week".into(),
            PackTrigger::PerLosses(n) => format!("a pack every {n} losses"),
            PackTrigger::Loser => "a pack for the loser of each match".into(),
        }
    }
}

/// A checked league definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueDef {
    pub name: String,
    pub format: LeagueFormat,
    pub dates: Dates,
    /// 1 or 3.
    pub best_of: u32,
    pub matches_per_run: u32,
    /// A run also ends at this many match losses (Arena style: e.g. 3 in best of one);
    /// None: a run is its matches. Queue leagues only.
    #[serde(default)]
    pub run_losses: Option<u32>,
    pub schedule: Schedule,
    /// No repeat opponent within a run.
    pub no_rematch: bool,
    pub ruleset: Ruleset,
    pub pack_triggers: Vec<PackTrigger>,
    pub clock: ClockRules,
}

impl LeagueDef {
    /// Whether a run with this record is over: its matches played, or ended by losses.
    pub fn run_over(&self, played: u32, losses: u32) -> bool {
        played >= self.matches_per_run || self.run_losses.is_some_and(|n| losses >= n)
    }

    /// Whether members play runs one after another (queue leagues); a scheduled league
    /// (Swiss, round robin) is one event.
    pub fn has_runs(&self) -> bool {
        matches!(self.schedule, Schedule::Queue)
    }

    /// Games a player needs to win the match.
    pub fn games_to_win(&self) -> u32 {
        self.best_of.div_ceil(2)
    }

    /// One line per setting, for `/league create` and `/league info`.
    pub fn describe(&self) -> String {
        let format = match &self.format {
            LeagueFormat::Sealed { product } => format!(
                "sealed, {product} ({:.0}% of the cards playable now)",
                product.playable_share() * 100.0
            ),
            LeagueFormat::Constructed => "constructed (deck locked for the run)".into(),
        };
        let schedule = match self.schedule {
            Schedule::Queue => format!(
                "runs of {} matches{}, opponents by record, a new run when one is over",
                self.matches_per_run,
                self.run_losses
                    .map_or(String::new(), |n| format!(" (or {n} losses)"))
            ),
            Schedule::Swiss { rounds } => format!("{rounds} Swiss rounds"),
            Schedule::RoundRobin => "round robin".into(),
        };
        let mut s = format!(
            "**{}**: {format}; best of {}; {schedule}; {} rules{}",
            self.name,
            self.best_of,
            self.ruleset,
            if self.no_rematch {
                "; no repeat opponent within a run"
            } else {
                ""
            }
        );
        if !self.pack_triggers.is_empty() {
            let t: Vec<String> = self.pack_triggers.iter().map(|t| t.describe()).collect();
            s.push_str(&format!("; {}", t.join(", ")));
        }
        s
    }
}

/// What an organiser asks for; every field has a default but the name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LeagueSetup {
    pub name: String,
    /// `6 TSP` etc. for sealed; None: constructed.
    pub product: Option<String>,
    /// When it starts (`in 3 days`, `2026-12-20`, `2026-12-20 18:00`: UTC; default: now).
    pub starts: Option<String>,
    /// Days from the start (default: the league's length less two days, like MTGO).
    pub entries_days: Option<u32>,
    /// Days from the start (default 28).
    pub length_days: Option<u32>,
    pub best_of: Option<u32>,
    pub matches_per_run: Option<u32>,
    /// A run ends early at this many losses (queue leagues).
    pub run_losses: Option<u32>,
    /// `queue`, `swiss` / `swiss 3`, `round robin`.
    pub schedule: Option<String>,
    pub allow_rematches: bool,
    pub ruleset: Option<Ruleset>,
    pub pack_triggers: Vec<String>,
    /// The league's seed (packs, game seeds, pairings, who chooses play or draw); None: a
    /// random one. Fixed by the simulation and tests, so that a league can be replayed.
    pub seed: Option<u64>,
}

impl LeagueSetup {
    /// Checks everything; the error names every problem.
    pub fn validate(&self, now: i64, default_ruleset: Ruleset) -> Result<LeagueDef, String> {
        let mut problems = Vec::new();
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 60 {
            problems.push("a league needs a name of 1 to 60 characters".to_string());
        }
        let format = match self.product.as_deref().map(str::trim) {
            None | Some("") | Some("constructed") => LeagueFormat::Constructed,
            Some(p) => match Product::parse(p) {
                Ok(product) => LeagueFormat::Sealed { product },
                Err(e) => {
                    problems.push(e);
                    LeagueFormat::Constructed
                }
            },
        };
        let length = self.length_days.unwrap_or(28);
        if !(1..=365).contains(&length) {
            problems.push("a league lasts 1 to 365 days".into());
        }
        let entries = self.entries_days.unwrap_or(length.saturating_sub(2).max(1));
        if entries > length {
            problems.push(format!(
                "entries close after {entries} days but the league lasts {length}"
            ));
        }
        let best_of = self.best_of.unwrap_or(3);
        if best_of != 1 && best_of != 3 {
            problems.push(format!("best of {best_of}: choose best of 1 or best of 3"));
        }
        let matches_per_run = self.matches_per_run.unwrap_or(5);
        if !(1..=30).contains(&matches_per_run) {
            problems.push("a run has 1 to 30 matches".into());
        }
        let schedule = match parse_schedule(self.schedule.as_deref().unwrap_or("queue")) {
            Ok(s) => s,
            Err(e) => {
                problems.push(e);
                Schedule::Queue
            }
        };
        if let Some(n) = self.run_losses
            && (n == 0 || n > matches_per_run || !matches!(schedule, Schedule::Queue))
        {
            problems.push(format!(
                "a run ending at {n} losses needs the queue schedule and 1 to {matches_per_run} losses (the run's matches)"
            ));
        }
        let mut pack_triggers = Vec::new();
        for t in &self.pack_triggers {
            match PackTrigger::parse(t) {
                Ok(t) if matches!(format, LeagueFormat::Sealed { .. }) => pack_triggers.push(t),
                Ok(_) => problems.push("pack triggers are for sealed leagues".into()),
                Err(e) => problems.push(e),
            }
        }
        let starts_at = match self.starts.as_deref().map(|t| parse_start(t, now)) {
            None => now,
            Some(Ok(t)) if t < now - DAY => {
                problems.push(format!("the league cannot start in the past ({})", utc(t)));
                now
            }
            Some(Ok(t)) if t > now + 365 * DAY => {
                problems.push(format!(
                    "a league starts within a year ({} is too far ahead)",
                    utc(t)
                ));
                now
            }
            Some(Ok(t)) => t,
            Some(Err(e)) => {
                problems.push(e);
                now
            }
        };
        let dates = Dates {
            starts_at,
            entries_close_at: starts_at + i64::from(entries) * DAY,
            ends_at: starts_at + i64::from(length) * DAY,
        };
        if let Err(e) = dates.validate() {
            problems.push(e);
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        Ok(LeagueDef {
            name: name.to_string(),
            format,
            dates,
            best_of,
            matches_per_run,
            run_losses: self.run_losses,
            schedule,
            no_rematch: !self.allow_rematches,
            ruleset: self.ruleset.unwrap_or(default_ruleset),
            pack_triggers,
            clock: ClockRules::default(),
        })
    }
}

/// `queue`, `swiss`, `swiss 4`, `round robin`.
pub fn parse_schedule(s: &str) -> Result<Schedule, String> {
    let t = s.trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    match words.as_slice() {
        ["queue"] | ["mtgo"] | ["league"] => Ok(Schedule::Queue),
        ["swiss"] => Ok(Schedule::Swiss { rounds: 0 }),
        ["swiss", n] => match n.parse::<u32>() {
            Ok(r) if (1..=15).contains(&r) => Ok(Schedule::Swiss { rounds: r }),
            _ => Err(format!("`swiss {n}`: 1 to 15 rounds")),
        },
        ["round", "robin"] | ["round-robin"] | ["roundrobin"] => Ok(Schedule::RoundRobin),
        _ => Err(format!(
            "unknown schedule `{s}`: queue, swiss, swiss N or round robin"
        )),
    }
}

/// Swiss rounds for `players` when the league did not fix them: the rounds needed to find
/// one undefeated player (ceil log2), at least one.
pub fn swiss_rounds_for(players: usize) -> u32 {
    let mut r = 0;
    while (1usize << r) < players {
        r += 1;
    }
    r.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_parse_with_clear_errors() {
        assert_eq!(
            Product::parse("6 TSP").expect("ok").0,
            vec![(6, "TSP".to_string())]
        );
        let p = Product::parse("2 TSP + 2 plc+2FUT").expect("ok");
        assert_eq!(p.to_string(), "2 TSP + 2 PLC + 2 FUT");
        assert_eq!(
            p.pack_sets(),
            vec!["TSP", "TSP", "PLC", "PLC", "FUT", "FUT"]
        );
        assert_eq!(Product::parse("3 tsp + 3 TSP").expect("ok").packs(), 6);
        assert_eq!(Product::parse("FUT").expect("ok").packs(), 1);
        let e = Product::parse("6 TSB").unwrap_err();
        assert!(
            e.contains("TSB` has no boosters") && e.contains("TSP packs"),
            "{e}"
        );
        assert!(
            Product::parse("6 XYZ")
                .unwrap_err()
                .contains("choose TSP, PLC, FUT")
        );
        assert!(
            Product::parse("0 TSP")
                .unwrap_err()
                .contains("at least one pack")
        );
        assert!(Product::parse("30 TSP").unwrap_err().contains("too many"));
        assert!(
            Product::parse("2 TSP +")
                .unwrap_err()
                .contains("empty part")
        );
        assert!(Product::parse("").is_err());
        // An `x` after the count is a multiplication sign, never a set code's first letter.
        for ok in ["6x TSP", "6xTSP", "6 x TSP", "6 X TSP"] {
            assert_eq!(Product::parse(ok).expect(ok).packs(), 6, "{ok}");
        }
        let e = Product::parse("6 XYZ").unwrap_err();
        assert!(e.contains("`XYZ`"), "{e}");
        let share = Product::parse("6 TSP").expect("ok").playable_share();
        assert!((0.0..=1.0).contains(&share));
    }

    #[test]
    fn a_league_has_sensible_defaults_and_refuses_bad_settings() {
        let s = LeagueSetup {
            name: "Friday Sealed".into(),
            product: Some("6 TSP".into()),
            ..Default::default()
        };
        let d = s.validate(1000, Ruleset::Modern).expect("valid");
        assert_eq!(d.best_of, 3);
        assert_eq!(d.games_to_win(), 2);
        assert_eq!(d.matches_per_run, 5);
        assert_eq!(d.schedule, Schedule::Queue);
        assert!(d.no_rematch);
        assert_eq!(d.dates.ends_at - d.dates.entries_close_at, 2 * DAY);
        assert!(d.describe().contains("sealed, 6 TSP"));
        assert_eq!(d.format.rating_key(), "sealed");
        assert_eq!(d.run_losses, None);
        assert!(d.has_runs());
        assert!(!d.run_over(4, 4) && d.run_over(5, 0));
        let losing = LeagueSetup {
            run_losses: Some(2),
            ..s.clone()
        };
        let d2 = losing.validate(1000, Ruleset::Modern).expect("valid");
        assert!(d2.run_over(2, 2) && !d2.run_over(2, 1));
        assert!(d2.describe().contains("or 2 losses"), "{}", d2.describe());
        for bad in [
            LeagueSetup {
                run_losses: Some(6),
                ..s.clone()
            },
            LeagueSetup {
                run_losses: Some(0),
                ..s.clone()
            },
            LeagueSetup {
                run_losses: Some(1),
                schedule: Some("swiss".into()),
                ..s.clone()
            },
        ] {
            let e = bad.validate(1000, Ruleset::Modern).unwrap_err();
            assert!(e.contains("losses"), "{e}");
        }
        // A league stored before runs had a loss rule reads as having none.
        let mut old = serde_json::to_value(&d).expect("json");
        old.as_object_mut().expect("object").remove("run_losses");
        let back: LeagueDef = serde_json::from_value(old).expect("old league");
        assert_eq!(back.run_losses, None);
        let bad = LeagueSetup {
            name: " ".into(),
            product: Some("6 TSB".into()),
            best_of: Some(2),
            schedule: Some("elimination".into()),
            pack_triggers: vec!["daily".into()],
            ..Default::default()
        };
        let e = bad.validate(0, Ruleset::Modern).unwrap_err();
        for want in ["name", "TSB", "best of 2", "elimination", "daily"] {
            assert!(e.contains(want), "{want}: {e}");
        }
        let c = LeagueSetup {
            name: "Block".into(),
            pack_triggers: vec!["weekly".into()],
            ..Default::default()
        };
        assert!(
            c.validate(0, Ruleset::Modern)
                .unwrap_err()
                .contains("sealed")
        );
    }

    /// The organiser sets the start and when entries close (days after the start); a
    /// start in the past, too far ahead or unreadable is refused, with every other problem.
    #[test]
    fn the_start_and_the_entries_close_are_the_organisers() {
        let now = 1_796_000_000;
        let s = LeagueSetup {
            name: "Later".into(),
            starts: Some("in 3 days".into()),
            entries_days: Some(10),
            length_days: Some(14),
            ..Default::default()
        };
        let d = s.validate(now, Ruleset::Modern).expect("valid");
        assert_eq!(d.dates.starts_at, now + 3 * DAY);
        assert_eq!(d.dates.entries_close_at, now + 13 * DAY);
        assert_eq!(d.dates.ends_at, now + 17 * DAY);
        let dated = LeagueSetup {
            starts: Some("2026-12-20 18:00".into()),
            ..s.clone()
        };
        let d = dated.validate(now, Ruleset::Modern).expect("valid");
        assert_eq!(utc(d.dates.starts_at), "2026-12-20 18:00 UTC");
        assert_eq!(utc(d.dates.entries_close_at), "2026-12-30 18:00 UTC");
        for (starts, want) in [
            ("2026-01-01", "cannot start in the past"),
            ("2028-01-01", "within a year"),
            ("someday", "UTC date"),
        ] {
            let bad = LeagueSetup {
                starts: Some(starts.into()),
                entries_days: Some(20),
                ..s.clone()
            };
            let e = bad.validate(now, Ruleset::Modern).unwrap_err();
            assert!(e.contains(want), "{starts}: {e}");
            assert!(e.contains("entries close after 20 days"), "{e}");
        }
    }

    #[test]
    fn schedules_and_triggers_parse() {
        assert_eq!(parse_schedule("Swiss 3"), Ok(Schedule::Swiss { rounds: 3 }));
        assert_eq!(parse_schedule("round robin"), Ok(Schedule::RoundRobin));
        assert!(parse_schedule("swiss 99").is_err());
        assert_eq!(
            PackTrigger::parse("per 3 losses"),
            Ok(PackTrigger::PerLosses(3))
        );
        assert_eq!(PackTrigger::parse("loser"), Ok(PackTrigger::Loser));
        assert!(PackTrigger::parse("per 0 losses").is_err());
        assert_eq!(swiss_rounds_for(8), 3);
        assert_eq!(swiss_rounds_for(9), 4);
        assert_eq!(swiss_rounds_for(2), 1);
    }
}
