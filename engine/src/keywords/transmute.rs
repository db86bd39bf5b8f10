//! Transmute (2014 rules 702.52; Ravnica's keyword, returning in Future Sight) and
//! transfigure (2014 rules 702.70, Future Sight). The 2006 rules' numbers are not in the
//! seeds; both rulesets play them alike.
//!
//! - "Transmute [cost]" means "[Cost], Discard this card: Search your library for a card
//!   with the same mana value as the discarded card, reveal that card, and put it into
//!   your hand. Then shuffle your library. Activate only as a sorcery" (702.52a): an
//!   ability that works from the hand (`ActivatedAbility::from_hand`, like cycling, but it
//!   is not cycling). Discarding is a cost: madness applies.
//! - "Transfigure [cost]" means "[Cost], Sacrifice this permanent: Search your library for
//!   a creature card with the same mana value as the sacrificed permanent and put that card
//!   onto the battlefield. Then shuffle your library. Activate only as a sorcery"
//!   (702.70a).
//!
//! Both are built by the script loader from the `transmute` / `transfigure` keys, with the
//! effect `Effect::SearchSameManaValue`, which asks a `Decision::Search` limited to the
//! mana value of the ability's card (its printed card: Tolaria West has no mana cost, so
//! 0; Fleshwrither 4), resolved in `resolve/library.rs`.
