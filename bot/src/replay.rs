//! Rebuilding a game from its seed and action log, and checking that the stored snapshot
//! is exactly what the log produces (`spellstack replay GAME`).

use crate::storage::ActionRow;
use engine::{Answer, Catalog, Game, GameSetup, PlayerId, PlayerSetup, Ruleset};
use serde::{Deserialize, Serialize};

/// The setup as stored with a game: decks by card name, so that a game can be rebuilt
/// even if catalog ids move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSetup {
    pub ruleset: Ruleset,
    pub seed: u64,
    pub starting_life: i32,
    pub first_player: Option<u8>,
    pub players: Vec<StoredPlayer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredPlayer {
    pub name: String,
    pub deck: Vec<String>,
}

impl StoredSetup {
    pub fn to_setup(&self) -> Result<GameSetup, String> {
        let cat = Catalog::builtin();
        let mut players = Vec::new();
        for p in &self.players {
            let mut deck = Vec::with_capacity(p.deck.len());
            for name in &p.deck {
                let def = cat
                    .by_name(name)
                    .ok_or_else(|| format!("{}'s deck names an unknown card `{name}`", p.name))?;
                deck.push(def.id);
            }
            players.push(PlayerSetup {
                name: p.name.clone(),
                deck,
            });
        }
        Ok(GameSetup {
            ruleset: self.ruleset,
            seed: self.seed,
            players,
            starting_life: self.starting_life,
            first_player: self.first_player.map(PlayerId),
        })
    }

    pub fn new_game(&self) -> Result<Game, String> {
        Game::new(&self.to_setup()?).map_err(|e| e.to_string())
    }
}

/// Payload of an `undo` action: the batch (version before the command) it takes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoRecord {
    pub undo_batch: i64,
}

/// The first place where the log and the game part ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The action's sequence number (0: the setup itself; -1: the final snapshot).
    pub seq: i64,
    pub reason: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seq {
            0 => write!(f, "setup: {}", self.reason),
            -1 => write!(f, "final snapshot: {}", self.reason),
            s => write!(f, "action #{s}: {}", self.reason),
        }
    }
}

pub fn hash_i64(game: &Game) -> i64 {
    game.state_hash() as i64
}

/// Replays `actions` from `setup`. With `check_hashes`, every action's recorded state hash
/// must match; the first mismatch or refused answer is the divergence.
pub fn replay(
    setup: &StoredSetup,
    actions: &[ActionRow],
    check_hashes: bool,
) -> Result<Game, Divergence> {
    replay_with(setup, actions, check_hashes, &mut |_, _| {})
}

/// [`replay`], calling `seen` with the game and the events of every answer submitted (after
/// an undo the answers still live are submitted again from the setup, and seen again).
pub fn replay_with(
    setup: &StoredSetup,
    actions: &[ActionRow],
    check_hashes: bool,
    seen: &mut dyn FnMut(&Game, &[engine::Event]),
) -> Result<Game, Divergence> {
    let fresh = || {
        setup
            .new_game()
            .map_err(|reason| Divergence { seq: 0, reason })
    };
    let mut game = fresh()?;
    let mut live: Vec<(i64, PlayerId, Answer)> = Vec::new();
    for a in actions {
        let bad = |reason: String| Divergence { seq: a.seq, reason };
        if a.kind == "undo" {
            let rec: UndoRecord = serde_json::from_str(a.answer.as_deref().unwrap_or("null"))
                .map_err(|e| bad(format!("unreadable undo record: {e}")))?;
            if live.last().map(|l| l.0) != Some(rec.undo_batch) {
                return Err(bad(format!(
                    "undo of batch {} which is not the last command",
                    rec.undo_batch
                )));
            }
            live.retain(|l| l.0 != rec.undo_batch);
            game = fresh()?;
            for (_, p, ans) in &live {
                let events = game
                    .submit(*p, ans.clone())
                    .map_err(|e| bad(format!("replaying after undo: {e}")))?;
                seen(&game, &events);
            }
        } else {
            let seat = a
                .seat
                .ok_or_else(|| bad("an answer without a player".into()))?;
            let p = PlayerId(u8::try_from(seat).map_err(|_| bad(format!("bad seat {seat}")))?);
            let text = a
                .answer
                .as_deref()
                .ok_or_else(|| bad("an answer row without an answer".into()))?;
            let ans: Answer = serde_json::from_str(text)
                .map_err(|e| bad(format!("unreadable answer {text}: {e}")))?;
            let events = game
                .submit(p, ans.clone())
                .map_err(|e| bad(format!("the engine refused {text} from {p}: {e}")))?;
            seen(&game, &events);
            live.push((a.batch, p, ans));
        }
        if check_hashes && hash_i64(&game) != a.state_hash {
            return Err(bad(format!(
                "state hash {:016x} differs from the recorded {:016x}",
                game.state_hash(),
                a.state_hash as u64
            )));
        }
    }
    Ok(game)
}

/// Compares a replayed game with a stored snapshot text.
pub fn compare_snapshot(replayed: &Game, snapshot: Option<&str>) -> Result<(), Divergence> {
    let Some(text) = snapshot else {
        return Err(Divergence {
            seq: -1,
            reason: "no snapshot stored".into(),
        });
    };
    let stored = Game::from_json(text).map_err(|e| Divergence {
        seq: -1,
        reason: format!("the snapshot does not load: {e}"),
    })?;
    if stored.state_hash() != replayed.state_hash() {
        return Err(Divergence {
            seq: -1,
            reason: format!(
                "snapshot hash {:016x} but the log gives {:016x}",
                stored.state_hash(),
                replayed.state_hash()
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decks;
    use engine::agent::RandomAgent;

    fn setup(seed: u64) -> StoredSetup {
        let n = decks::READY.len() as u64;
        let (a, b) = (
            &decks::READY[(seed % n) as usize],
            &decks::READY[((seed / n + seed + 1) % n) as usize],
        );
        let deck = |d: &decks::ReadyDeck| d.deck().expect("ready deck").flat_names();
        StoredSetup {
            ruleset: if seed.is_multiple_of(2) {
                Ruleset::Modern
            } else {
                Ruleset::Classic
            },
            seed: seed.wrapping_mul(0x2545_F491_4F6C_DD1D),
            starting_life: 20,
            first_player: None,
            players: vec![
                StoredPlayer {
                    name: "Alice".into(),
                    deck: deck(a),
                },
                StoredPlayer {
                    name: "Bob".into(),
                    deck: deck(b),
                },
            ],
        }
    }

    /// Plays a random game, logging answers as the service does (JSON rows).
    fn random_log(seed: u64, max: usize, hashes: bool) -> (StoredSetup, Game, Vec<ActionRow>) {
        let s = setup(seed);
        let mut g = s.new_game().expect("game");
        let mut agent = RandomAgent::new(seed);
        let mut log = Vec::new();
        for i in 0..max {
            let Some(p) = g.pending().map(|p| p.player) else {
                break;
            };
            if g.result.is_some() {
                break;
            }
            let a = agent.choose(&g, p);
            g.submit(p, a.clone()).expect("agent answers are legal");
            let seq = i as i64 + 2;
            log.push(ActionRow {
                game_id: 1,
                seq,
                batch: seq - 1,
                seat: Some(i64::from(p.0)),
                kind: "agent".into(),
                answer: Some(serde_json::to_string(&a).expect("json")),
                state_hash: if hashes { hash_i64(&g) } else { 0 },
                created_at: 0,
            });
        }
        (s, g, log)
    }

    #[test]
    fn random_games_replay_to_the_same_state() {
        let games: u64 = std::env::var("SPELLSTACK_REPLAY_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        let mut finished = 0;
        for seed in 0..games {
            let (s, g, log) = random_log(seed, 4000, false);
            finished += usize::from(g.result.is_some());
            let json = g.to_json().expect("snapshot");
            let replayed = replay(&s, &log, false).unwrap_or_else(|d| panic!("seed {seed}: {d}"));
            assert_eq!(
                replayed.to_json().expect("json"),
                json,
                "seed {seed}: replay equals the snapshot"
            );
            compare_snapshot(&replayed, Some(&json)).unwrap_or_else(|d| panic!("seed {seed}: {d}"));
            let stored = serde_json::to_string(&s).expect("setup json");
            let back: StoredSetup = serde_json::from_str(&stored).expect("setup round trip");
            assert_eq!(back, s);
        }
        assert!(
            finished * 2 > games as usize,
            "most random games finish ({finished}/{games})"
        );
    }

    #[test]
    fn first_divergence_is_reported() {
        let (s, g, mut log) = random_log(11, 300, true);
        assert_eq!(
            replay(&s, &log, true).map(|r| r.state_hash()),
            Ok(g.state_hash())
        );
        // A tampered hash, then a tampered answer: each is found at its row.
        log[40].state_hash ^= 1;
        assert_eq!(replay(&s, &log, true).unwrap_err().seq, log[40].seq);
        log[40].state_hash ^= 1;
        log[50].answer = Some("\"Mulligan\"".into());
        let d = replay(&s, &log, true).unwrap_err();
        assert!(
            d.seq <= log[50].seq && d.to_string().starts_with("action #"),
            "{d}"
        );
        log[50].answer = Some("{ broken".into());
        assert!(
            replay(&s, &log, false)
                .unwrap_err()
                .reason
                .contains("unreadable answer")
        );
        let mut bad = s.clone();
        bad.players[0].deck[0] = "No Such Card".into();
        assert_eq!(replay(&bad, &log, false).unwrap_err().seq, 0);
        assert!(compare_snapshot(&g, Some("{}")).is_err());
        assert!(compare_snapshot(&g, None).is_err());
    }
}
