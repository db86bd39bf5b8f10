//! Asynchronous time: per-game clocks in days (a bank plus an increment per decision),
//! vacation days, claimed forfeits, round deadlines and the league's phases with a grace
//! period at the end.
//!
//! A clock runs for the player who must decide. When they answer, the time since they were
//! asked (less any vacation) is taken from their bank, an increment is added (never above the
//! starting bank) and the clock runs for whoever decides next. A clock that reaches zero
//! forfeits nothing by itself: the waiting player may *claim* the game (`claim`), and
//! the claim is refused while the clock still has time.

use serde::{Deserialize, Serialize};

pub const DAY: i64 = 86_400;
pub const HOUR: i64 = 3_600;

/// The time rules of a league.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRules {
    /// Each player's bank at the start of a game (seconds).
    pub bank: i64,
    /// Added to a player's bank for each decision they make (never above `bank`).
    pub increment: i64,
    /// Vacation days each member may take during the league.
    pub vacation_days: u32,
    /// After the league ends, matches in progress may be finished for this long.
    pub grace: i64,
    /// For scheduled rounds (Swiss, round robin): days per round.
    pub round_days: u32,
}

impl Default for ClockRules {
    fn default() -> Self {
        ClockRules {
            bank: 3 * DAY,
            increment: 2 * HOUR,
            vacation_days: 7,
            grace: 3 * DAY,
            round_days: 7,
        }
    }
}

/// A span of time `[start, end)`, e.g. a vacation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    fn overlap(&self, from: i64, to: i64) -> i64 {
        (self.end.min(to) - self.start.max(from)).max(0)
    }
}

/// Seconds of `[from, to)` outside every vacation span.
pub fn charged(from: i64, to: i64, vacations: &[Span]) -> i64 {
    let mut t = (to - from).max(0);
    for v in vacations {
        t -= v.overlap(from, to);
    }
    t.max(0)
}

/// Takes `days` vacation days from `now`, if the member has them left.
pub fn take_vacation(days_left: u32, days: u32, now: i64) -> Result<Span, String> {
    if days == 0 {
        return Err("take at least one vacation day".into());
    }
    if days > days_left {
        return Err(format!(
            "you have {days_left} vacation day{} left",
            if days_left == 1 { "" } else { "s" }
        ));
    }
    Ok(Span {
        start: now,
        end: now + i64::from(days) * DAY,
    })
}

/// The clocks of one two-player game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    /// Each seat's bank as of `since` (for the running seat) or as last charged.
    pub remaining: [i64; 2],
    /// Whose clock runs (None: the game is over or paused).
    pub running: Option<usize>,
    pub since: i64,
    pub increment: i64,
    pub cap: i64,
}

impl GameClock {
    pub fn new(rules: &ClockRules, now: i64, first: Option<usize>) -> GameClock {
        GameClock {
            remaining: [rules.bank; 2],
            running: first,
            since: now,
            increment: rules.increment,
            cap: rules.bank,
        }
    }

    /// Seat `seat`'s time left at `now` (`vacations`: the running player's).
    pub fn remaining_at(&self, seat: usize, now: i64, vacations: &[Span]) -> i64 {
        let r = self.remaining[seat];
        if self.running == Some(seat) {
            r - charged(self.since, now, vacations)
        } else {
            r
        }
    }

    /// Whoever must decide now is `next` (the same seat when it has several decisions in a
    /// row): the running seat is charged and earns its increment if the decider changed or
    /// it answered. `answered`: the running seat made a decision.
    pub fn advance(&mut self, now: i64, next: Option<usize>, answered: bool, vacations: &[Span]) {
        if let Some(s) = self.running {
            let left = self.remaining_at(s, now, vacations);
            self.remaining[s] = if answered {
                (left + self.increment).min(self.cap.max(left))
            } else {
                left
            };
        }
        self.running = next;
        self.since = now;
    }

    /// The seat whose clock has run out at `now`, if any.
    pub fn flagged(&self, now: i64, vacations: &[Span]) -> Option<usize> {
        self.running
            .filter(|s| self.remaining_at(*s, now, vacations) <= 0)
    }

    /// The waiting seat `claimant` claims the game: granted only if the other seat's clock
    /// is running and has run out. Returns the seat that forfeits.
    pub fn claim(&self, claimant: usize, now: i64, vacations: &[Span]) -> Result<usize, String> {
        let Some(s) = self.running else {
            return Err("no clock is running in this game".into());
        };
        if s == claimant {
            return Err("it is your decision; you cannot claim your own clock".into());
        }
        let left = self.remaining_at(s, now, vacations);
        if left > 0 {
            return Err(format!(
                "your opponent still has {} on their clock",
                describe(left)
            ));
        }
        Ok(s)
    }
}

/// `2 d 5 h`, `3 h 10 min`, `12 min`.
pub fn describe(secs: i64) -> String {
    let s = secs.max(0);
    let (d, h, m) = (s / DAY, (s % DAY) / HOUR, (s % HOUR) / 60);
    if d > 0 {
        format!("{d} d {h} h")
    } else if h > 0 {
        format!("{h} h {m} min")
    } else {
        format!("{m} min")
    }
}

/// Where a league stands in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before the start: members may join; nobody plays yet.
    NotStarted,
    /// Members join and play.
    Open,
    /// Entries are closed; members play on.
    EntriesClosed,
    /// The league has ended: matches in progress may be finished, no new ones begin.
    Grace,
    /// Everything is over; the standings are final.
    Over,
}

/// The league's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dates {
    pub starts_at: i64,
    pub entries_close_at: i64,
    pub ends_at: i64,
}

impl Dates {
    pub fn validate(&self) -> Result<(), String> {
        if self.entries_close_at < self.starts_at {
            return Err("entries cannot close before the league starts".into());
        }
        if self.ends_at < self.entries_close_at {
            return Err("the league cannot end before entries close".into());
        }
        if self.ends_at == self.starts_at {
            return Err("the league needs some time to play".into());
        }
        Ok(())
    }

    pub fn phase(&self, now: i64, grace: i64) -> Phase {
        if now < self.starts_at {
            Phase::NotStarted
        } else if now < self.entries_close_at {
            Phase::Open
        } else if now < self.ends_at {
            Phase::EntriesClosed
        } else if now < self.ends_at + grace {
            Phase::Grace
        } else {
            Phase::Over
        }
    }

    /// The deadline of scheduled round `round` (0-based).
    pub fn round_deadline(&self, round: u32, round_days: u32) -> i64 {
        (self.starts_at + i64::from(round + 1) * i64::from(round_days) * DAY).min(self.ends_at)
    }

    /// Whether `now` is within 48 hours of the end (the "closes in 48 h" reminder).
    pub fn closing_soon(&self, now: i64) -> bool {
        now < self.ends_at && self.ends_at - now <= 48 * HOUR
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (the inverse of [`days_from_civil`]).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A time as a UTC date and time: `2026-12-20 18:00 UTC`.
pub fn utc(t: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(DAY));
    let s = t.rem_euclid(DAY);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        s / HOUR,
        (s % HOUR) / 60
    )
}

/// When a league starts, as an organiser says it: `now`, `today`, `tomorrow`, `in 3 days`,
/// `in 12 hours`, or a UTC date `2026-12-20` (midnight) with an optional time `18:00`.
pub fn parse_start(text: &str, now: i64) -> Result<i64, String> {
    let t = text.trim().to_ascii_lowercase();
    let t = t.strip_suffix("utc").unwrap_or(&t).trim();
    let bad = || {
        format!(
            "start `{}`: say `now`, `in 3 days`, `in 12 hours` or a UTC date like `2026-12-20` or `2026-12-20 18:00`",
            text.trim()
        )
    };
    match t {
        "now" | "today" => return Ok(now),
        "tomorrow" => return Ok(now + DAY),
        _ => {}
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let rel = match words.as_slice() {
        ["in", n, unit] | [n, unit] if n.chars().all(|c| c.is_ascii_digit()) => {
            let n: i64 = n.parse().map_err(|_| bad())?;
            match *unit {
                "day" | "days" | "d" => Some(n * DAY),
                "hour" | "hours" | "h" => Some(n * HOUR),
                _ => return Err(bad()),
            }
        }
        _ => None,
    };
    if let Some(r) = rel {
        return Ok(now + r);
    }
    let (date, time) = match words.as_slice() {
        [d] => (*d, None),
        [d, tm] => (*d, Some(*tm)),
        _ => return Err(bad()),
    };
    let ymd: Vec<i64> = date
        .split('-')
        .map(|x| x.parse::<i64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let [y, m, d] = ymd[..] else {
        return Err(bad());
    };
    let month_days = [
        31,
        28 + i64::from(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)),
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1970..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || d < 1
        || d > month_days[(m - 1) as usize]
    {
        return Err(format!("start `{}`: {date} is not a date", text.trim()));
    }
    let secs = match time {
        None => 0,
        Some(tm) => {
            let (h, mi) = tm.split_once(':').ok_or_else(bad)?;
            let (h, mi): (i64, i64) = (
                h.parse().map_err(|_| bad())?,
                mi.parse().map_err(|_| bad())?,
            );
            if !(0..24).contains(&h) || !(0..60).contains(&mi) {
                return Err(format!(
                    "start `{}`: {tm} is not a time of day",
                    text.trim()
                ));
            }
            h * HOUR + mi * 60
        }
    };
    Ok(days_from_civil(y, m, d) * DAY + secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> ClockRules {
        ClockRules {
            bank: 2 * DAY,
            increment: HOUR,
            ..ClockRules::default()
        }
    }

    #[test]
    fn a_decision_costs_its_time_and_earns_the_increment_up_to_the_bank() {
        let mut c = GameClock::new(&rules(), 0, Some(0));
        c.advance(10 * HOUR, Some(1), true, &[]);
        assert_eq!(c.remaining[0], 2 * DAY - 10 * HOUR + HOUR);
        assert_eq!(c.running, Some(1));
        c.advance(10 * HOUR + 60, Some(0), true, &[]);
        // The increment never lifts a bank above its start.
        assert_eq!(c.remaining[1], 2 * DAY);
        assert_eq!(c.remaining_at(0, 11 * HOUR + 60, &[]), 2 * DAY - 10 * HOUR);
        // Waiting without answering (the decider did not change and nothing was answered).
        c.advance(12 * HOUR + 60, Some(0), false, &[]);
        assert_eq!(c.remaining[0], 2 * DAY - 11 * HOUR);
    }

    #[test]
    fn a_flag_is_claimed_never_silent_and_vacation_stops_the_clock() {
        let c = GameClock::new(&rules(), 0, Some(1));
        assert_eq!(c.flagged(2 * DAY - 1, &[]), None);
        assert_eq!(c.flagged(2 * DAY, &[]), Some(1));
        let e = c.claim(0, DAY, &[]).unwrap_err();
        assert!(e.contains("still has 1 d 0 h"), "{e}");
        assert!(c.claim(1, 3 * DAY, &[]).is_err(), "not your own clock");
        assert_eq!(c.claim(0, 3 * DAY, &[]), Ok(1));
        // A two-day vacation in the middle keeps the clock alive.
        let v = take_vacation(7, 2, DAY).expect("vacation");
        assert_eq!(c.flagged(3 * DAY, &[v]), None);
        assert_eq!(c.remaining_at(1, 3 * DAY, &[v]), DAY);
        assert!(c.claim(0, 3 * DAY, &[v]).is_err());
        assert!(
            take_vacation(1, 2, 0)
                .unwrap_err()
                .contains("1 vacation day left")
        );
        assert!(take_vacation(3, 0, 0).is_err());
        let over = GameClock { running: None, ..c };
        assert!(over.claim(0, 9 * DAY, &[]).is_err());
    }

    #[test]
    fn starts_parse_as_relative_times_or_utc_dates() {
        let now = 1_796_000_000; // 2026-11-30 00:53:20 UTC
        assert_eq!(utc(now), "2026-11-30 00:53 UTC");
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(parse_start("now", now), Ok(now));
        assert_eq!(parse_start("tomorrow", now), Ok(now + DAY));
        assert_eq!(parse_start("in 3 days", now), Ok(now + 3 * DAY));
        assert_eq!(parse_start("12 hours", now), Ok(now + 12 * HOUR));
        let d = parse_start("2026-12-20", now).expect("a date");
        assert_eq!(utc(d), "2026-12-20 00:00 UTC");
        let d = parse_start("2026-12-20 18:30 UTC", now).expect("a date and time");
        assert_eq!(utc(d), "2026-12-20 18:30 UTC");
        assert_eq!(d % DAY, 18 * HOUR + 30 * 60);
        // A leap day, and the days after the end of February either way.
        assert_eq!(
            utc(parse_start("2028-02-29", now).expect("leap")),
            "2028-02-29 00:00 UTC"
        );
        assert!(
            parse_start("2027-02-29", now)
                .unwrap_err()
                .contains("not a date")
        );
        assert_eq!(
            parse_start("2027-03-01", now).expect("d") - parse_start("2027-02-28", now).expect("d"),
            DAY
        );
        assert!(
            parse_start("2026-13-01", now)
                .unwrap_err()
                .contains("not a date")
        );
        assert!(
            parse_start("2026-12-20 25:00", now)
                .unwrap_err()
                .contains("time of day")
        );
        for bad in ["next friday", "in 3 weeks", "", "20-12-2026x"] {
            assert!(
                parse_start(bad, now).unwrap_err().contains("UTC date"),
                "{bad}"
            );
        }
    }

    #[test]
    fn phases_and_deadlines() {
        let d = Dates {
            starts_at: 100,
            entries_close_at: 100 + 10 * DAY,
            ends_at: 100 + 14 * DAY,
        };
        assert!(d.validate().is_ok());
        assert_eq!(d.phase(0, DAY), Phase::NotStarted);
        assert_eq!(d.phase(100, DAY), Phase::Open);
        assert_eq!(d.phase(100 + 11 * DAY, DAY), Phase::EntriesClosed);
        assert_eq!(d.phase(100 + 14 * DAY, DAY), Phase::Grace);
        assert_eq!(d.phase(100 + 15 * DAY, DAY), Phase::Over);
        assert_eq!(d.round_deadline(0, 7), 100 + 7 * DAY);
        assert_eq!(d.round_deadline(5, 7), d.ends_at);
        assert!(d.closing_soon(d.ends_at - 47 * HOUR));
        assert!(!d.closing_soon(d.ends_at - 49 * HOUR));
        let bad = Dates { ends_at: 50, ..d };
        assert!(bad.validate().is_err());
        assert_eq!(describe(3 * HOUR + 600), "3 h 10 min");
        assert_eq!(describe(-5), "0 min");
    }
}
