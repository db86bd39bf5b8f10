//! Spellstack's rules engine: a pure, deterministic, serialisable state machine for games
//! of Magic: The Gathering with Time Spiral era cards.
//!
//! Start with [`Game::new`], then loop: [`Game::pending`] says who must decide what,
//! [`Game::legal_answers`] lists what they may say, [`Game::submit`] applies an answer and
//! runs until the next decision. [`Game::view`] is what one player may see.
//! See `ARCHITECTURE.md` for the map of modules.

pub mod abilities;
pub mod agent;
pub mod as_enters;
pub mod cards;
pub mod casting;
pub mod census;
pub mod combat;
pub mod copy;
pub mod costs;
pub mod decision;
pub mod effects;
pub mod events;
pub mod game;
pub mod grammar;
pub mod ids;
pub mod keywords;
pub mod layers;
pub mod loops;
pub mod mana;
pub mod memo;
pub mod object;
pub mod play_permission;
pub mod priority;
pub mod replacement;
pub mod resolve;
pub mod ruleset;
pub mod sba;
pub mod scenario;
pub mod stack;
pub mod steps;
pub mod targeting;
pub mod targets;
pub mod triggers;
pub mod turn;
pub mod types;
pub mod view;
pub mod zones;

pub use cards::{CardDef, Catalog};
pub use decision::{Answer, Attack, Block, Decision, Pending, RuleError};
pub use events::Event;
pub use game::{Game, GameResult, GameSetup, PlayerSetup, SetupError};
pub use ids::{CardId, ObjectId, PlayerId};
pub use loops::DrawReason;
pub use ruleset::Ruleset;
pub use steps::Step;
pub use targets::Target;
pub use view::View;
