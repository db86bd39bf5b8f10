//! Shroud (2014 rules 702.18; in the 2006 rules a keyword of section 502 the seeds don't
//! carry, with the same meaning). "This permanent or player can't be the target of spells or
//! abilities" (702.18a): its controller's own ones too, unlike hexproof, which no card of the
//! block has. Only targeting is stopped: an Aura already attached stays (it doesn't target),
//! and effects that don't target ("destroy all creatures") still apply. Several instances
//! are redundant (702.18b). No card of the block gives shroud to a player, so only
//! permanents are checked (rules scenarios `shroud-classic`, `shroud-modern`).

use crate::game::Game;
use crate::ids::ObjectId;
use crate::keywords::Keyword;
use crate::zones::ZoneKind;

impl Game {
    /// Whether `id` can't be targeted because of shroud: a permanent with shroud can't be
    /// the target of any spell or ability (702.18a).
    pub(crate) fn has_shroud(&self, id: ObjectId) -> bool {
        let on_battlefield = self
            .obj(id)
            .is_some_and(|o| o.zone == ZoneKind::Battlefield);
        on_battlefield && self.has_keyword(id, Keyword::Shroud)
    }

    /// The words of a refusal for shroud.
    pub(crate) fn shroud_words(&self, id: ObjectId) -> String {
        format!(
            "{} has shroud and can't be the target of spells or abilities",
            self.card_name(id)
        )
    }
}
