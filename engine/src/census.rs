//! What the cards of a game can do, worked out once per game: hot paths (every priority
//! stop lists the legal actions) ask it to skip rules no card of this game uses, instead of
//! scanning the battlefield for them each time.
//!
//! It is derived data, never saved: a loaded or cloned game works it out again on first
//! use, and creating an object (a token, a card put into the game) forgets it. Only facts
//! of the cards' definitions belong here (what a card *can* do, never what the state is),
//! so the answer is the same whatever happened since the game started.

use crate::cards::Catalog;
use crate::keywords::Keyword;
use crate::object::Object;
use std::sync::OnceLock;

/// The facts, from every object's card definition (printed face and copy source).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Facts {
    /// Some card grants typecycling to cards in hands (Homing Sliver's slivercycling,
    /// 702.28e): hands are looked at for granted cycling only then.
    pub grants_hand_cycling: bool,
    /// Some card gives its controller's creature cards flash (Teferi, Mage of Zhalfir).
    pub gives_creatures_flash: bool,
    /// Some card holds its controller's opponents to sorcery timing (Teferi).
    pub imposes_sorcery_timing: bool,
    /// Some card adds mana when a basic land is tapped for mana (Gauntlet of Power's
    /// triggered mana ability).
    pub boosts_basic_land_mana: bool,
    /// Some card has an ability only its controller's opponents may activate (Knight of the
    /// Holy Nimbus): the other players' permanents are looked at for it at priority.
    pub opponents_only_abilities: bool,
    /// Some card has an activated ability that isn't a mana ability, or morph (a face-down
    /// permanent may be turned face up): without it (and without statics granting
    /// abilities), a permanent offers nothing at priority but mana.
    pub permanent_actions: bool,
    /// Some card has or grants "you may put it on top of its owner's library instead"
    /// (`replacement.rs`): only then is an answer first tried to see whether it asks.
    pub library_instead: bool,
}

impl Facts {
    fn of(objects: &[Object], catalog: &Catalog) -> Facts {
        let mut f = Facts::default();
        for o in objects {
            for card in [Some(o.card), o.copy_of].into_iter().flatten() {
                let def = catalog.get(card);
                f.grants_hand_cycling |= def.grants_typecycling_in_hands.is_some();
                f.gives_creatures_flash |= def.own_creature_cards_have_flash;
                f.imposes_sorcery_timing |= def.opponents_sorcery_timing;
                f.boosts_basic_land_mana |= def.basic_land_mana_of_chosen_color_adds_one;
                f.opponents_only_abilities |= def.abilities.iter().any(|a| a.opponents_only);
                f.permanent_actions |=
                    def.morph.is_some() || def.abilities.iter().any(|a| !a.is_mana_ability());
                f.library_instead |= def.keywords.contains(&Keyword::TopOfLibraryInstead)
                    || def
                        .statics
                        .iter()
                        .any(|st| st.grants.contains(&Keyword::TopOfLibraryInstead));
            }
        }
        f
    }
}

/// The lazily worked out [`Facts`] of one game.
#[derive(Debug, Default)]
pub struct Census(OnceLock<Facts>);

impl Census {
    /// The facts of the game whose objects are `objects`.
    pub(crate) fn facts(&self, objects: &[Object], catalog: &Catalog) -> Facts {
        *self.0.get_or_init(|| Facts::of(objects, catalog))
    }

    /// Forgets the facts (an object was created).
    pub(crate) fn forget(&mut self) {
        self.0 = OnceLock::new();
    }
}

impl Clone for Census {
    /// A clone works the facts out again (cheap, and it can't go stale).
    fn clone(&self) -> Self {
        Census::default()
    }
}
