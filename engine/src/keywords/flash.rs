//! Flash (2006 rules 502.57; 2014 rules 702.8): a card with flash may be cast any time its
//! controller could cast an instant. The face-down spell of a morph card has no flash.

use crate::cards::CardDef;
use crate::keywords::Keyword;
use crate::types::CardType;

/// Whether a card may be cast with instant timing (an instant, or a card with flash).
pub fn has_instant_timing(def: &CardDef) -> bool {
    def.has_type(CardType::Instant) || def.keywords.contains(&Keyword::Flash)
}
