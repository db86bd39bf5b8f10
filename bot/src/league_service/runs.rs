//! Runs (MTGO leagues): in a queue league a member plays a run of `matches_per_run` matches
//! (ended early at `run_losses` losses when the league says so), then may start another
//! while entries are open: a sealed run gets a new pool opened from new seeded packs (every
//! seed stored, [`boosters::run_seed`]), a constructed run a newly registered deck, locked
//! for that run. One run at a time; the run that is over is kept (`league_runs`: its pool
//! and builds). Each run is an entry of its own in the standings, and a member is ranked by
//! their best run ([`crate::league::standings::best_runs`]); ratings count every game of
//! every run. Scheduled leagues (Swiss, round robin) are one event: no new runs.

use super::matches::{Record, run_record};
use super::{LeagueCtx, LeagueReply, refused};
use crate::decks;
use crate::league::boosters;
use crate::league::clocks::Phase;
use crate::league::definition::LeagueFormat;
use crate::league::pool::{self, Pool};
use crate::service::{DeckChoice, Result, Service, ServiceError};
use crate::storage::{Id, MemberRow, RunRow};
use serde::Serialize;

#[derive(Serialize)]
struct BuildJson<'a> {
    name: &'a str,
    list: &'a str,
}

impl Service {
    /// Why `play` is refused when the member's run is over, and what they can do.
    pub(crate) fn run_over_text(&self, l: &LeagueCtx, rec: &Record) -> String {
        let why = if rec.played >= l.def.matches_per_run {
            format!("{} matches", l.def.matches_per_run)
        } else {
            format!(
                "{} loss{}",
                rec.losses,
                if rec.losses == 1 { "" } else { "es" }
            )
        };
        let next = match l.phase(self.now()) {
            Phase::Open | Phase::NotStarted => {
                " Start another run with `league run` (sealed: a new pool; constructed: name your deck)."
            }
            _ => " Entries are closed, so no new run can begin.",
        };
        format!(
            "your run is complete ({why}: {}-{}-{}).{next}",
            rec.wins, rec.losses, rec.draws
        )
    }

    /// Whether `m` may begin a new run now; the refusal says why not.
    async fn check_new_run(&self, l: &LeagueCtx, m: &MemberRow) -> Result<()> {
        let name = &l.def.name;
        if !l.def.has_runs() {
            return refused(format!(
                "{name} pairs its rounds itself (Swiss or round robin): it is one event, with no new runs"
            ));
        }
        if m.dropped_at.is_some() {
            return refused(format!("you dropped from {name}"));
        }
        match l.phase(self.now()) {
            Phase::Open => {}
            Phase::NotStarted => return refused(format!("{name} has not started yet")),
            Phase::EntriesClosed => {
                return refused(format!(
                    "entries to {name} are closed: no new run can begin"
                ));
            }
            Phase::Grace | Phase::Over => return refused(format!("{name} has ended")),
        }
        let matches = self.db.league_matches(l.row.id).await?;
        let rec = run_record(m.user_id, m.run, &matches);
        if rec.busy {
            return refused(format!(
                "your match in run {} is in progress: finish it first",
                m.run
            ));
        }
        if !l.def.run_over(rec.played, rec.losses) {
            return refused(format!(
                "your run {} is not over: {} of {} matches played ({}-{}-{}); finish it first (one run at a time)",
                m.run, rec.played, l.def.matches_per_run, rec.wins, rec.losses, rec.draws
            ));
        }
        Ok(())
    }

    /// Starts the member's next run (see the module). Bad input changes nothing.
    pub async fn league_new_run(
        &self,
        league_id: Id,
        user: Id,
        deck: Option<&DeckChoice>,
    ) -> Result<LeagueReply> {
        let l = self.league_ctx(league_id).await?;
        let m = self.db.member(league_id, user).await?.ok_or_else(|| {
            ServiceError::Refused(format!(
                "you are not playing in {}: join it first (`league join`)",
                l.def.name
            ))
        })?;
        self.check_new_run(&l, &m).await?;
        let run = m.run + 1;
        let now = self.now();
        // The new run's pool or deck, all checked before anything is written.
        let (pool, build, text) = match &l.def.format {
            LeagueFormat::Sealed { product } => {
                if deck.is_some() {
                    return refused(
                        "a sealed run gets a new pool: build your deck from it once it is opened",
                    );
                }
                let sets = product.pack_sets();
                let seed = boosters::run_seed(l.row.seed, u64::try_from(run).unwrap_or(1));
                let seeds: Vec<u64> = (0..sets.len() as u64)
                    .map(|i| boosters::pack_seed(seed, user as u64, i))
                    .collect();
                let pool = Pool::open(&sets, &seeds).map_err(ServiceError::Refused)?;
                let json = serde_json::to_string(&pool)
                    .map_err(|e| ServiceError::Refused(e.to_string()))?;
                let auto = pool::auto_build(&pool, "auto");
                let text = format!(
                    "Run {run} of {} begins. Your new pool ({product}):\n{}An automatic build `auto` is ready; save your own with `league deck save NAME` and a list.",
                    l.def.name,
                    pool.describe()
                );
                (
                    Some(json),
                    ("auto".to_string(), decks::to_text(&auto)),
                    text,
                )
            }
            LeagueFormat::Constructed => {
                let Some(choice) = deck else {
                    return refused(
                        "a constructed run needs its deck: name it (`league run DECK`); it is locked for the run",
                    );
                };
                let d = self.league_resolve_constructed(user, choice).await?;
                let text = format!(
                    "Run {run} of {} begins with {} ({} cards), locked for the run.",
                    l.def.name,
                    d.name,
                    d.main_count()
                );
                (None, ("registered".to_string(), decks::to_text(&d)), text)
            }
        };
        let builds = self.db.league_decks(league_id, user).await?;
        let kept: Vec<BuildJson> = builds
            .iter()
            .map(|b| BuildJson {
                name: &b.name,
                list: &b.list,
            })
            .collect();
        let done = RunRow {
            league_id,
            user_id: user,
            run: m.run,
            pool: m.pool.clone(),
            decks: serde_json::to_string(&kept)
                .map_err(|e| ServiceError::Refused(e.to_string()))?,
            deck_name: m.deck_name.clone(),
            started_at: m.run_started_at.unwrap_or(m.joined_at),
            ended_at: now,
        };
        if !self
            .db
            .start_run(&done, pool.as_deref(), (&build.0, &build.1), now)
            .await?
        {
            return refused("your run changed meanwhile; look again and retry");
        }
        Ok(LeagueReply::text(league_id, text))
    }

    /// One line per run of the member that is over, for `league me`: its record.
    pub(crate) async fn past_runs_text(
        &self,
        l: &LeagueCtx,
        m: &MemberRow,
        matches: &[crate::storage::MatchRow],
    ) -> Result<String> {
        let mut s = String::new();
        for r in self.db.league_runs(l.row.id, m.user_id).await? {
            let rec = run_record(m.user_id, r.run, matches);
            s.push_str(&format!(
                "run {}: {}-{}-{} ({} matches{})\n",
                r.run,
                rec.wins,
                rec.losses,
                rec.draws,
                rec.played,
                r.deck_name
                    .as_deref()
                    .map_or(String::new(), |d| format!(", played `{d}`"))
            ));
        }
        Ok(s)
    }
}
