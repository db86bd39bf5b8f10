//! Fortify (2014 rules 702.66 and 301.6; 2006: added to section 502 with Future Sight, its
//! text absent from the seeds, the same ability). "Fortify [cost]" means "[Cost]: Attach
//! this Fortification to target land you control. Activate only as a sorcery" (702.66a):
//! the script key `fortify = "{3}"` builds it (`cards/script.rs` `attach_ability`, resolved in `keywords/equip.rs`;
//! checked against the card's "Fortify {3}" line).
//!
//! A Fortification is an artifact subtype that can be attached only to a land (301.6): it
//! enters unattached, and stays on the battlefield, unattached, if the land leaves or stops
//! being a land (the state-based action of 704.5n, `Game::attachment_illegal`); a
//! Fortification that is also a creature can't fortify a land (301.6, like Equipment).
//! "Fortified land has ..." is a static ability of the Fortification (script
//! `fortified = true`), "whenever fortified land becomes tapped" the trigger scope
//! `becomes_tapped:attached`. The rules of equip apply otherwise (301.6: "as Equipment").
//!
//! Indestructible (2014 702.12; Darksteel Garrison's "fortified land has indestructible")
//! lives here too: a permanent with it can't be destroyed, by an effect or by lethal
//! damage (702.12b; [`Game::indestructible`], checked by `Game::destroy` and the lethal
//! damage state-based action). It can still be sacrificed, exiled, or put into a graveyard
//! for toughness 0 or less. Both rulesets alike. Cards: Darksteel Garrison.

use crate::game::Game;
use crate::ids::ObjectId;
use crate::keywords::Keyword;

impl Game {
    /// Whether `id` has indestructible now (702.12b: it can't be destroyed).
    pub(crate) fn indestructible(&self, id: ObjectId) -> bool {
        self.has_keyword(id, Keyword::Indestructible)
    }
}
