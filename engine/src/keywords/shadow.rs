//! Shadow (2006 rules 502.13; 2014 rules 702.27): a creature with shadow can block or be
//! blocked by only creatures with shadow. "Can block creatures with shadow as though they
//! didn't have shadow" (`Keyword::BlocksShadow`) lets a creature without it block one.

use crate::keywords::Keyword;
use crate::layers::KeywordSet;

/// Whether shadow allows `blocker` (its keywords) to block `attacker` (its keywords).
pub fn allows_block(attacker: &KeywordSet, blocker: &KeywordSet) -> bool {
    let attacker_shadow =
        attacker.contains(Keyword::Shadow) && !blocker.contains(Keyword::BlocksShadow);
    attacker_shadow == blocker.contains(Keyword::Shadow)
}
