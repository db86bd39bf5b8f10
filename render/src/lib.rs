//! Spellstack renderer: draws PNG images of a board, a hand and a single card.
//!
//! The input is the plain-data [`scene`] model (what one viewer may see); the output is PNG bytes.
//! This crate knows nothing of the rules engine, Discord or storage.
//!
//! Entry points: [`board_png`], [`hand_png`], [`card_png`], [`pool_png`], [`standings_png`] (one-shot, fonts cached per
//! process), or a [`Renderer`] kept by the caller and reused.
//!
//! Module map: `scene` (input model), `layout` (pure geometry of the board), `draw` (shapes on
//! a pixmap), `text` (fonts, shaping, glyph blending), `mana` (mana symbols), `board`, `hand`,
//! `card` (the three images), `theme` (colours), `samples` (example scenes for tests, bench and
//! the example).

mod board;
mod card;
mod draw;
mod hand;
pub mod layout;
pub mod league;
mod mana;
pub mod samples;
pub mod scene;
mod text;
mod theme;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

pub use scene::{
    BoardScene, CardFace, Colour, Counter, HandCard, HandScene, PermanentCard, PermanentGroup,
    PlayerArea, StackItem, StackKind, Step, SuspendedCard, TargetRef, TurnInfo,
};

/// Default location of the CJK font on Debian (package `fonts-noto-cjk`).
pub const DEFAULT_CJK_FONT_PATH: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

/// Which language card names are shown in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Language {
    /// English names (bundled fonts only).
    #[default]
    English,
    /// Traditional Chinese names where the card has one (needs the CJK font).
    ZhHant,
}

/// Options for one image.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    pub language: Language,
    /// Font file for Chinese text; read only when `language` is [`Language::ZhHant`].
    pub cjk_font_path: PathBuf,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            language: Language::English,
            cjk_font_path: PathBuf::from(DEFAULT_CJK_FONT_PATH),
        }
    }
}

impl RenderOptions {
    /// Traditional Chinese names with the font at the default path.
    pub fn zh_hant() -> Self {
        RenderOptions {
            language: Language::ZhHant,
            ..Self::default()
        }
    }
}

/// Why an image could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("CJK font not found or unreadable at {path}: {reason}")]
    FontMissing { path: PathBuf, reason: String },
    #[error("font file at {path} holds no usable font")]
    FontInvalid { path: PathBuf },
    #[error("invalid scene: {0}")]
    InvalidScene(String),
    #[error("image would be too large ({width}x{height})")]
    TooLarge { width: u32, height: u32 },
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    #[error("renderer lock poisoned")]
    Poisoned,
}

/// A renderer holding loaded fonts and glyph caches. Cheap to use repeatedly; create one per
/// language configuration and keep it. Rendering through one `Renderer` is serialised by an
/// internal lock; use several for parallel rendering.
pub struct Renderer {
    options: RenderOptions,
    fonts: Mutex<text::Fonts>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// Loads the bundled fonts, and the CJK font when the options ask for Chinese.
    pub fn new(options: &RenderOptions) -> Result<Self, RenderError> {
        let fonts = text::Fonts::new(options)?;
        Ok(Renderer {
            options: options.clone(),
            fonts: Mutex::new(fonts),
        })
    }

    pub fn options(&self) -> &RenderOptions {
        &self.options
    }

    /// The board image for `scene`.
    pub fn board_png(&self, scene: &BoardScene) -> Result<Vec<u8>, RenderError> {
        let mut fonts = self.fonts.lock().map_err(|_| RenderError::Poisoned)?;
        let pixmap = board::render(scene, &mut fonts, self.options.language)?;
        draw::encode_png(&pixmap)
    }

    /// The hand image for its owner.
    pub fn hand_png(&self, hand: &HandScene) -> Result<Vec<u8>, RenderError> {
        let mut fonts = self.fonts.lock().map_err(|_| RenderError::Poisoned)?;
        let pixmap = hand::render(hand, &mut fonts, self.options.language)?;
        draw::encode_png(&pixmap)
    }

    /// One card, large, with its full text.
    pub fn card_png(&self, face: &CardFace) -> Result<Vec<u8>, RenderError> {
        let mut fonts = self.fonts.lock().map_err(|_| RenderError::Poisoned)?;
        let pixmap = card::render(face, &mut fonts, self.options.language)?;
        draw::encode_png(&pixmap)
    }

    /// A sealed pool (league), cards not playable yet marked.
    pub fn pool_png(&self, pool: &league::PoolScene) -> Result<Vec<u8>, RenderError> {
        let mut fonts = self.fonts.lock().map_err(|_| RenderError::Poisoned)?;
        let pixmap = league::render_pool(pool, &mut fonts, self.options.language)?;
        draw::encode_png(&pixmap)
    }

    /// A league's standings table.
    pub fn standings_png(&self, s: &league::StandingsScene) -> Result<Vec<u8>, RenderError> {
        let mut fonts = self.fonts.lock().map_err(|_| RenderError::Poisoned)?;
        let pixmap = league::render_standings(s, &mut fonts, self.options.language)?;
        draw::encode_png(&pixmap)
    }
}

/// Process-wide renderers, one per distinct options value (font loading is the slow part).
fn shared_renderer(options: &RenderOptions) -> Result<Arc<Renderer>, RenderError> {
    static CACHE: OnceLock<Mutex<Vec<Arc<Renderer>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut cache = cache.lock().map_err(|_| RenderError::Poisoned)?;
    if let Some(r) = cache.iter().find(|r| r.options == *options) {
        return Ok(Arc::clone(r));
    }
    let renderer = Arc::new(Renderer::new(options)?);
    cache.push(Arc::clone(&renderer));
    Ok(renderer)
}

/// Draws the board as seen in `scene` and encodes it as PNG.
pub fn board_png(scene: &BoardScene, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    shared_renderer(options)?.board_png(scene)
}

/// Draws a hand for its owner and encodes it as PNG.
pub fn hand_png(hand: &HandScene, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    shared_renderer(options)?.hand_png(hand)
}

/// Draws one card large with its full text and encodes it as PNG.
pub fn card_png(face: &CardFace, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    shared_renderer(options)?.card_png(face)
}

/// Draws a sealed pool and encodes it as PNG.
pub fn pool_png(pool: &league::PoolScene, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    shared_renderer(options)?.pool_png(pool)
}

/// Draws a standings table and encodes it as PNG.
pub fn standings_png(
    s: &league::StandingsScene,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    shared_renderer(options)?.standings_png(s)
}
