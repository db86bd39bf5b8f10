//! A seeded random agent: plays legal answers at random (for the bench, property tests and
//! the local opponent). Policy, fixed so that figures compare with other engines:
//! always keep; at priority pass with p = 0.3 (always when passing is the only answer),
//! otherwise uniform over the other answers (mana abilities excluded: mana is paid by the
//! auto-payer); each eligible attacker attacks with p = 0.5; each eligible blocker picks
//! uniformly among "don't block" and the attackers it may block; everything else uniform.

use crate::decision::{Answer, Attack, Block, Decision};
use crate::game::Game;
use crate::ids::PlayerId;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Picks an answer for `player`'s pending decision (Pass if none is listed).
    pub fn choose(&mut self, game: &Game, player: PlayerId) -> Answer {
        let Some(pending) = game.pending() else {
            return Answer::Pass;
        };
        match &pending.decision {
            Decision::Mulligan { .. } => Answer::Keep,
            Decision::PayMana { .. } => Answer::AutoPay,
            Decision::DeclareAttackers => {
                let mut attacks = Vec::new();
                for (id, defenders) in game.eligible_attackers(player) {
                    if self.rng.random_bool(0.5) && !defenders.is_empty() {
                        let d = defenders[self.rng.random_range(0..defenders.len())];
                        attacks.push(Attack {
                            attacker: id,
                            defender: d,
                        });
                    }
                }
                Answer::Attack(attacks)
            }
            Decision::DeclareBlockers => {
                let mut blocks = Vec::new();
                for (id, attackers) in game.eligible_blockers(player) {
                    let k = self.rng.random_range(0..=attackers.len());
                    if k > 0 {
                        blocks.push(Block {
                            blocker: id,
                            attacker: attackers[k - 1],
                        });
                    }
                }
                Answer::Block(blocks)
            }
            Decision::Priority => {
                let options: Vec<Answer> = game
                    .priority_actions(player, false)
                    .into_iter()
                    .filter(|a| !matches!(a, Answer::Pass))
                    .collect();
                if options.is_empty() || self.rng.random_bool(0.3) {
                    Answer::Pass
                } else {
                    options[self.rng.random_range(0..options.len())].clone()
                }
            }
            _ => {
                let mut options = game.legal_answers(player);
                if options.len() > 1 {
                    options.retain(|a| *a != Answer::Cancel);
                }
                if options.is_empty() {
                    return Answer::Cancel;
                }
                options.swap_remove(self.rng.random_range(0..options.len()))
            }
        }
    }
}
