//! A seeded random agent: plays legal answers at random (for the bench, property tests and
//! the local opponent). Policy, fixed so that figures compare with other engines:
//! always keep; at priority pass with p = 0.3 (always when passing is the only answer),
//! otherwise uniform over the other answers (mana abilities excluded: mana is paid by the
//! auto-payer, and a cast it cannot pay is cancelled; an ability that costs nothing is not activated again while it is already on
//! the stack); each eligible attacker attacks with p = 0.5; each eligible blocker picks
//! uniformly among "don't block" and the attackers it may block (a creature that must block
//! always blocks; one that can block more adds each further attacker with p = 0.5; a set
//! that breaks a requirement is replaced by a random listed answer); everything else
//! uniform.

use crate::cards::Catalog;
use crate::decision::{Answer, Attack, Block, Decision};
use crate::game::Game;
use crate::ids::CardId;
use crate::ids::PlayerId;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct RandomAgent {
    rng: ChaCha8Rng,
    /// The priority actions of the last stop (kept to reuse its allocation).
    buffer: Vec<Answer>,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buffer: Vec::new(),
        }
    }

    /// Picks an answer for `player`'s pending decision (Pass if none is listed).
    pub fn choose(&mut self, game: &Game, player: PlayerId) -> Answer {
        let Some(pending) = game.pending() else {
            return Answer::Pass;
        };
        match &pending.decision {
            Decision::Mulligan { .. } => Answer::Keep,
            // The auto-payer; when it can't pay (a cost chosen earlier used a mana source),
            // the cast is abandoned (409.1 / 601.2: an illegal cast is reversed).
            Decision::PayMana { .. } => {
                if game.lists_answer(player, &Answer::AutoPay)
                    || !game.lists_answer(player, &Answer::Cancel)
                {
                    Answer::AutoPay
                } else {
                    Answer::Cancel
                }
            }
            Decision::DeclareAttackers => {
                let mut attacks = Vec::new();
                for (id, defenders) in game.eligible_attackers(player) {
                    let must = game.has_keyword(id, crate::keywords::Keyword::AttacksEachCombat);
                    if (self.rng.random_bool(0.5) || must) && !defenders.is_empty() {
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
                    let must = game.has_keyword(id, crate::keywords::Keyword::BlocksEachCombat);
                    let k = if must {
                        self.rng.random_range(1..=attackers.len())
                    } else {
                        self.rng.random_range(0..=attackers.len())
                    };
                    if k > 0 {
                        blocks.push(Block {
                            blocker: id,
                            attacker: attackers[k - 1],
                        });
                        // A creature that can block more attackers may block another one.
                        let extra = game.max_blocks(id) as usize - 1;
                        let mut others: Vec<_> = attackers
                            .iter()
                            .filter(|a| **a != attackers[k - 1])
                            .collect();
                        for _ in 0..extra {
                            if others.is_empty() || !self.rng.random_bool(0.5) {
                                break;
                            }
                            let a = others.swap_remove(self.rng.random_range(0..others.len()));
                            blocks.push(Block {
                                blocker: id,
                                attacker: *a,
                            });
                        }
                    }
                }
                // Menace: a lone blocker of such an attacker is dropped.
                let lone: Vec<_> = blocks
                    .iter()
                    .filter(|b| {
                        game.has_keyword(b.attacker, crate::keywords::Keyword::Menace)
                            && blocks.iter().filter(|x| x.attacker == b.attacker).count() == 1
                    })
                    .map(|b| (b.blocker, b.attacker))
                    .collect();
                blocks.retain(|b| !lone.contains(&(b.blocker, b.attacker)));
                if game.blocks_legal(player, &blocks) {
                    Answer::Block(blocks)
                } else {
                    // Requirements the random pick broke: take one of the listed answers.
                    let mut options = game.legal_answers(player);
                    if options.is_empty() {
                        return Answer::Block(Vec::new());
                    }
                    options.swap_remove(self.rng.random_range(0..options.len()))
                }
            }
            Decision::Priority => {
                // One buffer for every stop (asked at most decisions of a game).
                let mut options = std::mem::take(&mut self.buffer);
                game.priority_actions_into(player, false, &mut options);
                options.retain(|a| !matches!(a, Answer::Pass) && !free_repeat(game, a));
                let answer = if options.is_empty() || self.rng.random_bool(0.3) {
                    Answer::Pass
                } else {
                    options[self.rng.random_range(0..options.len())].clone()
                };
                self.buffer = options;
                answer
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

/// Whether `a` activates an ability that costs nothing (Outrider en-Kor's {0}) while the
/// same ability of the same source is already on the stack: the agent doesn't stack such
/// activations without end (one at a time keeps random games finite and fast).
fn free_repeat(game: &Game, a: &Answer) -> bool {
    let Answer::Activate { source, ability } = a else {
        return false;
    };
    let free = game.ability(*source, *ability).is_some_and(|ab| {
        ab.cost.mana.as_ref().is_none_or(|m| m.converted() == 0)
            && !ab.cost.tap
            && !ab.cost.untap
            && ab.cost.parts.is_empty()
    });
    free && game.stack.iter().any(|i| {
        matches!(i.kind, crate::stack::StackKind::Ability { source: s, index } if s == *source && index == *ability)
    })
}

/// What a bench game's loop tells a watcher (`spellstack bench`'s counting pass); the
/// timed passes watch nothing ([`Unwatched`]: its calls compile to nothing).
pub trait Watch {
    /// Before the agent chooses the answer to `g`'s pending decision.
    fn before(&mut self, _g: &Game, _player: PlayerId) {}
    /// The answer chosen, before it is submitted.
    fn answer(&mut self, _a: &Answer) {}
    /// The events of an accepted answer.
    fn events(&mut self, _events: &[crate::events::Event]) {}
}

/// The watcher of a timed pass.
pub struct Unwatched;
impl Watch for Unwatched {}

/// A bench game played out: the final state, the decisions answered and, if the engine
/// refused an answer, where (the game stops there, as it was before the answer).
pub struct Played {
    pub game: Game,
    pub decisions: u64,
    pub refused: Option<(String, crate::decision::RuleError)>,
}

/// One bench game (the loop `spellstack bench` and `quickbench` time): the two decks,
/// modern rules, seed `seed`, the random agent seeded `seed ^ 0x5eed`, at most
/// `max_decisions` decisions.
pub fn play_bench_game(
    decks: (Vec<CardId>, Vec<CardId>),
    seed: u64,
    max_decisions: u64,
    w: &mut impl Watch,
) -> Result<Played, String> {
    let setup =
        crate::game::GameSetup::two_player(crate::ruleset::Ruleset::Modern, seed, decks.0, decks.1);
    let mut g = Game::new_with(&setup, false).map_err(|e| format!("setup failed: {e}"))?;
    let mut agent = RandomAgent::new(seed ^ 0x5eed);
    let mut n = 0u64;
    while let Some(p) = g.pending() {
        if n >= max_decisions {
            break;
        }
        let player = p.player;
        w.before(&g, player);
        let a = agent.choose(&g, player);
        w.answer(&a);
        match g.submit(player, a) {
            Ok(events) => w.events(&events),
            Err(e) => {
                let kind = g.pending().map_or("none", |p| p.decision.kind_name());
                return Ok(Played {
                    game: g,
                    decisions: n,
                    refused: Some((format!("decision {n} ({kind})"), e)),
                });
            }
        }
        n += 1;
    }
    Ok(Played {
        game: g,
        decisions: n,
        refused: None,
    })
}

/// How a bench game ended, as the benches count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The engine refused an answer.
    EngineError,
    /// Stopped by the decision cap.
    Capped,
    /// A draw by an endless mandatory loop (104.4b).
    LoopDraw,
    /// A player lost at 0 life.
    Damage,
    /// A player lost drawing from an empty library.
    Decking,
    /// Any other end.
    Other,
}

impl Played {
    pub fn ending(&self) -> Ending {
        use crate::events::LossReason;
        let g = &self.game;
        if self.refused.is_some() {
            return Ending::EngineError;
        }
        if g.result.is_none() {
            return Ending::Capped;
        }
        if g.draw_reason == Some(crate::loops::DrawReason::MandatoryLoop) {
            return Ending::LoopDraw;
        }
        let lost = |r: LossReason| g.players.iter().any(|p| p.lost.as_ref() == Some(&r));
        if lost(LossReason::ZeroLife) {
            Ending::Damage
        } else if lost(LossReason::DrewFromEmptyLibrary) {
            Ending::Decking
        } else {
            Ending::Other
        }
    }
}

/// The process's peak resident set in KiB (Linux `VmHWM`), if known.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The bench decks: each card name with its count.
const BENCH_DECKS: &[(&str, &[(&str, usize)])] = &[
    ("bolt", &[("Mountain", 20), ("Test Bolt", 40)]),
    ("bears", &[("Forest", 20), ("Test Bear", 40)]),
    (
        "rg",
        &[
            ("Mountain", 10),
            ("Forest", 10),
            ("Test Bolt", 20),
            ("Test Bear", 20),
        ],
    ),
    (
        "combat",
        &[
            ("Plains", 6),
            ("Arena", 1),
            ("Forest", 8),
            ("Mountain", 5),
            ("Island", 2),
            ("Swamp", 2),
            ("Craw Giant", 2),
            ("Cavalry Master", 3),
            ("Benalish Cavalry", 3),
            ("Aetherflame Wall", 2),
            ("Foriysian Interceptor", 3),
            ("Looter il-Kor", 2),
            ("Barbed Shocker", 3),
            ("Strength in Numbers", 2),
            ("Durkwood Tracker", 2),
            ("Thornweald Archer", 3),
            ("Ironclaw Buzzardiers", 3),
            ("Dauthi Slayer", 2),
            ("Two-Headed Sliver", 2),
            ("Orgg", 2),
            ("Spitting Slug", 2),
        ],
    ),
    (
        "tsp",
        &[
            ("Mountain", 9),
            ("Forest", 6),
            ("Swamp", 3),
            ("Gemstone Mine", 2),
            ("Grove of the Burnwillows", 2),
            ("Prodigal Pyromancer", 3),
            ("Ashcoat Bear", 4),
            ("Moorish Cavalry", 2),
            ("Havenwood Wurm", 2),
            ("Needlepeak Spider", 3),
            ("Lightning Axe", 4),
            ("Psionic Blast", 2),
            ("Orcish Cannonade", 2),
            ("Ghostfire", 2),
            ("Smallpox", 2),
            ("Harmonize", 2),
            ("Assassinate", 2),
            ("Terramorphic Expanse", 2),
            ("Rathi Trapper", 2),
            ("Magus of the Bazaar", 2),
        ],
    ),
    // Replacement, prevention, layers and linked/delayed triggers (issue "Effects").
    (
        "effects",
        &[
            ("Swamp", 7),
            ("Mountain", 5),
            ("Plains", 5),
            ("Forest", 3),
            ("Celestial Dawn", 1),
            ("Gaea's Liege", 1),
            ("Drudge Reavers", 3),
            ("Uthden Troll", 3),
            ("Samite Censer-Bearer", 2),
            ("Plated Pegasus", 2),
            ("Lymph Sliver", 2),
            ("Sinew Sliver", 3),
            ("Plague Sliver", 2),
            ("Fury Sliver", 2),
            ("Hivestone", 2),
            ("Mistform Ultimus", 1),
            ("Faceless Butcher", 2),
            ("Sengir Autocrat", 2),
            ("Pongify", 1),
            ("Disintegrate", 2),
            ("Healing Leaves", 2),
            ("Lightning Axe", 3),
            ("Sudden Spoiling", 2),
            ("Darkness", 2),
        ],
    ),
    // Morph: cast face down, turned face up, turned face down by Ixidron; copies.
    (
        "morph",
        &[
            ("Island", 12),
            ("Mountain", 4),
            ("Forest", 4),
            ("Swamp", 4),
            ("Riptide Pilferer", 4),
            ("Fledgling Mawcor", 4),
            ("Brine Elemental", 3),
            ("Ixidron", 3),
            ("Ashcoat Bear", 4),
            ("Prodigal Pyromancer", 3),
            ("Lightning Axe", 3),
            ("Krosan Grip", 2),
            ("Sudden Spoiling", 2),
            // Copy effects (layer 1): as it enters, as it turns face up, until end of turn.
            ("Vesuvan Shapeshifter", 3),
            ("Cyclopean Giant", 2),
            ("Scion of the Ur-Dragon", 1),
            ("Vorosh, the Hunter", 1),
            ("Basalt Gargoyle", 2),
        ],
    ),
    (
        "flashback",
        &[
            ("Island", 8),
            ("Mountain", 8),
            ("Forest", 4),
            ("Swamp", 4),
            ("Dralnu, Lich Lord", 2),
            ("Ancient Grudge", 3),
            ("Conflagrate", 4),
            ("Careful Consideration", 3),
            ("Draining Whelk", 2),
            ("Locket of Yesterdays", 2),
            ("Assembly-Worker", 3),
            ("Prodigal Pyromancer", 3),
            ("Ashcoat Bear", 4),
            ("Psionic Blast", 2),
            ("Lightning Axe", 3),
        ],
    ),
    (
        "suspend",
        &[
            ("Swamp", 6),
            ("Mountain", 6),
            ("Island", 6),
            ("Forest", 2),
            ("Plains", 2),
            ("Rift Bolt", 4),
            ("Corpulent Corpse", 3),
            ("Keldon Halberdier", 3),
            ("Errant Ephemeron", 2),
            ("Viscerid Deepwalker", 3),
            ("Ancestral Vision", 2),
            ("Mindstab", 2),
            ("Phthisis", 2),
            ("Living End", 2),
            ("Plunder", 2),
            ("Search for Tomorrow", 2),
            ("Durkwood Baloth", 2),
            ("Shivan Meteor", 2),
            ("Prodigal Pyromancer", 3),
            ("Lightning Axe", 2),
        ],
    ),
    // Time counters (keywords/time_counters.rs): cards that add or remove them, give
    // suspend or work from the graveyard; echo and morph with non-mana costs.
    (
        "time",
        &[
            ("Island", 8),
            ("Mountain", 8),
            ("Plains", 4),
            ("Rift Bolt", 3),
            ("Keldon Halberdier", 3),
            ("Clockspinning", 2),
            ("Fury Charm", 2),
            ("Dust of Moments", 2),
            ("Timecrafting", 2),
            ("Jhoira's Timebug", 2),
            ("Rift Elemental", 3),
            ("Delay", 2),
            ("Chronosavant", 1),
            ("Epochrasite", 2),
            ("Skizzik Surger", 1),
            ("Thick-Skinned Goblin", 2),
            ("Fathom Seer", 2),
            ("Venser's Diffusion", 1),
        ],
    ),
    // Storm, kicker, buyback and copies of spells (keywords/storm.rs, kicker.rs, buyback.rs).
    (
        "storm",
        &[
            ("Mountain", 10),
            ("Island", 5),
            ("Plains", 4),
            ("Forest", 3),
            ("Empty the Warrens", 3),
            ("Grapeshot", 4),
            ("Volcanic Awakening", 2),
            ("Reiterate", 2),
            ("Whispers of the Muse", 3),
            ("Evangelize", 1),
            ("Desolation Giant", 2),
            ("Thornscape Battlemage", 3),
            ("Citanul Woodreaders", 2),
            ("Lightning Axe", 3),
            ("Cancel", 2),
            ("Prodigal Pyromancer", 3),
            ("Ashcoat Bear", 3),
            ("Draining Whelk", 1),
            ("Haze of Rage", 2),
            ("Demonic Collusion", 1),
        ],
    ),
    // Madness outlets and madness cards, cyclers, threshold and hellbent (graveyard-and-hand
    // mechanics of issue 13).
    (
        "graveyard",
        &[
            ("Swamp", 8),
            ("Mountain", 6),
            ("Island", 3),
            ("Plains", 2),
            ("Forest", 2),
            ("Lightning Axe", 3),
            ("Icatian Crier", 2),
            ("Magus of the Bazaar", 2),
            ("Looter il-Kor", 2),
            ("Stupor", 2),
            ("Smallpox", 1),
            ("Dark Withering", 3),
            ("Fiery Temper", 3),
            ("Reckless Wurm", 2),
            ("Call to the Netherworld", 2),
            ("Ichor Slick", 2),
            ("Twisted Abomination", 2),
            ("Street Wraith", 2),
            ("Marshaling Cry", 1),
            ("Homing Sliver", 2),
            ("Might Sliver", 2),
            ("Vedalken Aethermage", 1),
            ("Mystic Enforcer", 2),
            ("Cutthroat il-Dal", 2),
            ("Gathan Raiders", 2),
            ("Keldon Megaliths", 1),
        ],
    ),
    // Counters and permanents (issue 13): vanishing, poisonous, frenzy, bloodthirst, storage
    // lands, Auras that return to hand, shroud, the main-phase bonus.
    (
        "counters",
        &[
            ("Plains", 5),
            ("Swamp", 3),
            ("Mountain", 3),
            ("Calciform Pools", 2),
            ("Molten Slagheap", 2),
            ("Saltcrusted Steppe", 2),
            ("Llanowar Reborn", 2),
            ("Waning Wurm", 2),
            ("Calciderm", 2),
            ("Aven Riftwatcher", 2),
            ("Keldon Marauders", 3),
            ("Soultether Golem", 2),
            ("Virulent Sliver", 3),
            ("Frenzy Sliver", 3),
            ("Bogardan Lancer", 3),
            ("Snake Cult Initiation", 2),
            ("Aspect of Mongoose", 1),
            ("Fool's Demise", 1),
            ("Griffin Guide", 2),
            ("Return to Dust", 2),
            ("Magus of the Disk", 1),
            ("Lightning Axe", 2),
        ],
    ),
    // The library and casting-cost family (issue 13): scry, fateseal, dredge, convoke, and
    // discards that put Dakmor Salvage into the graveyard.
    (
        "library",
        &[
            ("Island", 7),
            ("Forest", 5),
            ("Plains", 3),
            ("New Benalia", 2),
            ("Dakmor Salvage", 3),
            ("Foresee", 2),
            ("Mystic Speculation", 2),
            ("Cryptic Annelid", 2),
            ("Spin into Myth", 2),
            ("Mesmeric Sliver", 2),
            ("Sidewinder Sliver", 3),
            ("Sprout Swarm", 3),
            ("Ashcoat Bear", 3),
            ("Squire", 3),
            ("Careful Consideration", 2),
            ("Looter il-Kor", 2),
            ("Cancel", 2),
        ],
    ),
    // Split cards (keywords/split.rs): each half cast on its own; a copy of a half, a
    // half countered by mana value.
    (
        "split",
        &[
            ("Mountain", 14),
            ("Island", 8),
            ("Boom // Bust", 4),
            ("Dead // Gone", 4),
            ("Rough // Tumble", 4),
            ("Flying Men", 4),
            ("Prodigal Pyromancer", 3),
            ("Needlepeak Spider", 3),
            ("Bogardan Lancer", 3),
            ("Looter il-Kor", 3),
            ("Riptide Pilferer", 3),
            ("Lightning Axe", 3),
            ("Draining Whelk", 2),
            ("Reiterate", 2),
        ],
    ),
    // Modal triggers and the abilities of suspended cards (issue 13, mech-modal): cards whose
    // abilities work in exile, cards that exile themselves with time counters, Detainment
    // Spell and Opal Guardian.
    (
        "suspended",
        &[
            ("Mountain", 8),
            ("Island", 6),
            ("Plains", 4),
            ("Swamp", 4),
            ("Shivan Sand-Mage", 2),
            ("Timebender", 2),
            ("Benalish Commander", 2),
            ("Aeon Chronicler", 2),
            ("Riftmarked Knight", 2),
            ("Greater Gargadon", 2),
            ("Deep-Sea Kraken", 1),
            ("Pardic Dragon", 2),
            ("Nihilith", 2),
            ("Roiling Horror", 1),
            ("Veiling Oddity", 2),
            ("Arc Blade", 2),
            ("Reality Strobe", 2),
            ("Festering March", 1),
            ("Curse of the Cabal", 1),
            ("Detainment Spell", 2),
            ("Opal Guardian", 1),
            ("Wheel of Fate", 1),
            ("Riftwing Cloudskate", 2),
            ("Rift Bolt", 4),
        ],
    ),
];

/// The sets of the block (the `pool` deck's cards).
const BLOCK_SETS: [&str; 4] = ["TSP", "TSB", "PLC", "FUT"];

/// The decks of one bench game seeded `game_seed`: the named bench deck for both players,
/// or for `pool` two random two-colour 40-card decks ([`pool_deck`]), drawn from the seed.
pub fn bench_decks(name: &str, game_seed: u64) -> Result<(Vec<CardId>, Vec<CardId>), String> {
    if name == "pool" {
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x9001);
        let a = pool_deck(&mut rng)?;
        let b = pool_deck(&mut rng)?;
        return Ok((a, b));
    }
    let d = bench_deck(name)?;
    Ok((d.clone(), d))
}

/// The playable nonland cards of the block (what `pool` decks are drawn from).
pub fn playable_block_spells() -> impl Iterator<Item = &'static crate::cards::CardDef> {
    Catalog::builtin()
        .supported()
        .filter(|d| d.sets.iter().any(|s| BLOCK_SETS.contains(&s.as_str())))
        .filter(|d| !d.types.contains(&crate::types::CardType::Land))
}

/// A random limited deck from the playable cards of the block: two colours drawn at
/// random, 23 different playable nonland cards whose colours are among them (colourless
/// ones too), and 17 basic lands of the two colours (9 and 8).
pub fn pool_deck(rng: &mut ChaCha8Rng) -> Result<Vec<CardId>, String> {
    use crate::mana::Color;
    const COLORS: [(Color, &str); 5] = [
        (Color::W, "Plains"),
        (Color::U, "Island"),
        (Color::B, "Swamp"),
        (Color::R, "Mountain"),
        (Color::G, "Forest"),
    ];
    let c = Catalog::builtin();
    let first = rng.random_range(0..5usize);
    let second = (first + rng.random_range(1..5usize)) % 5;
    let pair = [COLORS[first], COLORS[second]];
    let mut cands: Vec<CardId> = playable_block_spells()
        .filter(|d| d.colors.iter().all(|k| pair.iter().any(|(p, _)| *p == k)))
        .map(|d| d.id)
        .collect();
    if cands.len() < 23 {
        return Err(format!(
            "only {} playable cards fit the colours {} and {}",
            cands.len(),
            pair[0].1,
            pair[1].1
        ));
    }
    let mut deck = Vec::with_capacity(40);
    for _ in 0..23 {
        let i = rng.random_range(0..cands.len());
        deck.push(cands.swap_remove(i));
    }
    for (k, (_, land)) in pair.iter().enumerate() {
        let id = c
            .by_name(land)
            .ok_or_else(|| format!("basic land `{land}` is missing"))?
            .id;
        deck.extend(std::iter::repeat_n(id, if k == 0 { 9 } else { 8 }));
    }
    Ok(deck)
}

/// A bench deck by name: `bolt`, `bears`, `rg` (test-only cards), `tsp`, `effects`, `morph`,
/// `combat`, `flashback`, `suspend`, `storm`, `graveyard`, `counters` or `library` (supported cards;
/// `combat` holds the combat keywords and cards of issue #3, `flashback` flashback, divided
/// damage and Dralnu, `storm` storm, kicker, buyback and copies of spells, `graveyard`
/// madness, cycling, threshold and hellbent, `counters` vanishing, poisonous, frenzy,
/// bloodthirst, storage lands and the A19/A20 cycles, `library` scry, fateseal, dredge and
/// convoke):
/// the decks of `spellstack bench` and of the random-game tests. `pool` is not one deck:
/// see [`bench_decks`].
pub fn bench_deck(name: &str) -> Result<Vec<CardId>, String> {
    let Some((_, spec)) = BENCH_DECKS.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = BENCH_DECKS.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "unknown bench deck `{name}`: choose {} or pool",
            names.join(", ")
        ));
    };
    let c = Catalog::builtin();
    spec.iter()
        .map(|(n, k)| {
            c.by_name(n)
                .map(|d| vec![d.id; *k])
                .ok_or_else(|| format!("bench deck card `{n}` is missing"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|v| v.concat())
}
