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
                game.submit(*p, ans.clone())
                    .map_err(|e| bad(format!("replaying after undo: {e}")))?;
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
            game.submit(p, ans.clone())
                .map_err(|e| bad(format!("the engine refused {text} from {p}: {e}")))?;
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
