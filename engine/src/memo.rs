//! A game's memos: values worked out from its state and kept between questions (the
//! layer table, the sources that grant keywords, a checked payment, the mana sources while
//! the legal answers are listed). Each says what it is kept for and when it is stale.
//!
//! Never saved, and a clone starts empty: a trial copy of a game may change apart from the
//! original, so it works its memos out again. Behind a lock, so a shared game stays `Sync`.

/// One memo of a game (see the module doc).
#[derive(Default)]
pub struct Memo<T>(pub(crate) std::sync::Mutex<T>);

impl<T: Default> Clone for Memo<T> {
    fn clone(&self) -> Self {
        Memo::default()
    }
}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}
