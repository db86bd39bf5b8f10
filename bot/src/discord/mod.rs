//! The Discord adapter: slash commands, buttons and select menus in front of the
//! [`Service`](crate::service::Service).
//!
//! - [`commands`]: `/mtg ...` and `/deck ...` (poise), with autocomplete from the legal answers.
//! - [`components`]: custom ids of buttons and menus (game id, version and the user a prompt
//!   belongs to).
//! - [`interact`]: what a click or a chosen value does.
//! - [`delivery`]: one thread per game, the status message edited in place, the board image
//!   when it changes, hands by DM with an ephemeral fallback when DMs are closed (50007).
//! - [`scheduler`]: deadlines and reminders from `Service::tick`.
//!
//! Nothing here is authoritative: the caches in [`Memory`] only save Discord round trips and
//! are rebuilt from Discord and the database after a restart.

pub mod commands;
pub mod components;
pub mod delivery;
pub mod interact;
pub mod league;
pub mod scheduler;

use crate::config::{Config, Sharding};
use crate::service::{Service, ServiceError};
use crate::storage::Id;
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, GatewayIntents, Http, MessageId, UserId};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Shared, Error>;
/// The framework's user data.
pub type Shared = Arc<Data>;

/// The external-id prefix of Discord users in the service's user table.
pub const EXTERNAL_PREFIX: &str = "discord:";

/// Non-authoritative caches.
#[derive(Debug, Default)]
pub struct Memory {
    /// The status message of each game's thread.
    pub status: HashMap<Id, (ChannelId, MessageId)>,
    /// Hash of the last board scene attached per game.
    pub board: HashMap<Id, u64>,
    /// Hash of the last hand delivered per (game, user).
    pub hand: HashMap<(Id, Id), u64>,
    /// The game version of the last hand decision (mulligan, discard, search...) whose
    /// answers a DM carried, per (game, user): a new one is sent even if the hand is the same.
    pub hand_asked: HashMap<(Id, Id), i64>,
    /// Users whose DMs are closed (Discord error 50007).
    pub dm_closed: HashSet<u64>,
    /// Users told in a game's thread that their DMs are closed (once until a DM goes
    /// through again; a failure while the user acts is told in their own reply instead).
    pub dm_told: HashSet<u64>,
    /// Service user id -> Discord user id.
    pub discord_of: HashMap<Id, u64>,
    /// Recent public lines per game (for the status message and the board image).
    pub recent: HashMap<Id, Vec<String>>,
    /// Attackers or blocks chosen so far in paged menus, per (game, version, Discord user):
    /// declared together with the **Declare** button.
    pub drafts: HashMap<(Id, i64, u64), Vec<String>>,
}

/// Everything the handlers share.
pub struct Data {
    pub svc: Service,
    /// One renderer per image language, made on first use (Err: why it cannot be made, e.g.
    /// the CJK font is missing).
    renderers: Mutex<HashMap<render::Language, Result<Arc<render::Renderer>, String>>>,
    pub memory: Mutex<Memory>,
    pub bot_id: Mutex<Option<UserId>>,
}

impl Data {
    pub fn new(svc: Service) -> Data {
        let data = Data {
            svc,
            renderers: Mutex::new(HashMap::new()),
            memory: Mutex::new(Memory::default()),
            bot_id: Mutex::new(None),
        };
        // Say at start-up when the deployment's default language cannot be drawn.
        if let Err(e) = data.try_renderer(data.default_language()) {
            tracing::error!(error = %e, "images in the configured language are not available; English names are drawn instead");
        }
        data
    }

    /// The deployment's image language (`[images] language`; English if unreadable).
    pub fn default_language(&self) -> render::Language {
        crate::config::parse_language(&self.svc.cfg.images.language).unwrap_or_default()
    }

    /// The renderer for `language`, made once (Err: a clear reason, e.g. the CJK font file
    /// is missing, with its path).
    pub fn try_renderer(
        &self,
        language: render::Language,
    ) -> Result<Arc<render::Renderer>, String> {
        let mut map = match self.renderers.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        map.entry(language)
            .or_insert_with(|| {
                render::Renderer::new(&self.svc.cfg.images.options_for(language))
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
    }

    /// The renderer for `language`, else English names (the failure is logged), else none.
    pub fn renderer(&self, language: render::Language) -> Option<Arc<render::Renderer>> {
        match self.try_renderer(language) {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::warn!(?language, error = %e, "no renderer for this language; drawing English names");
                if language == render::Language::English {
                    None
                } else {
                    self.try_renderer(render::Language::English).ok()
                }
            }
        }
    }

    /// The image language of a server: its own choice (`/mtg-server language`), else the
    /// deployment default.
    pub async fn language_of_guild(&self, guild: Option<i64>) -> render::Language {
        let chosen = match guild {
            Some(g) => self.svc.guild_language(g).await.unwrap_or_else(|e| {
                tracing::warn!(guild = g, error = %e, "server settings unreadable");
                None
            }),
            None => None,
        };
        chosen
            .as_deref()
            .and_then(crate::config::parse_language)
            .unwrap_or_else(|| self.default_language())
    }

    /// The image language of a game: that of the server it is played in.
    pub async fn language_of_game(&self, game: Id) -> render::Language {
        let guild = self
            .svc
            .db
            .game(game)
            .await
            .ok()
            .flatten()
            .and_then(|r| r.guild_id);
        self.language_of_guild(guild).await
    }

    pub fn mem<R>(&self, f: impl FnOnce(&mut Memory) -> R) -> R {
        let mut g = match self.memory.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        f(&mut g)
    }

    /// The service user of a Discord user (created on first sight).
    pub async fn user_of(&self, u: &serenity::User) -> Result<Id, ServiceError> {
        let name = display_name(u);
        let id = self
            .svc
            .user(&format!("{EXTERNAL_PREFIX}{}", u.id.get()), &name)
            .await?;
        self.mem(|m| m.discord_of.insert(id, u.id.get()));
        Ok(id)
    }

    /// The Discord id of a service user (None for the random agent and local users).
    pub async fn discord_of(&self, user: Id) -> Option<u64> {
        if let Some(d) = self.mem(|m| m.discord_of.get(&user).copied()) {
            return Some(d);
        }
        let row = self.svc.db.user(user).await.ok()??;
        let d: u64 = row
            .external_id
            .strip_prefix(EXTERNAL_PREFIX)?
            .parse()
            .ok()?;
        self.mem(|m| m.discord_of.insert(user, d));
        Some(d)
    }

    /// A service user's name (never a mention).
    pub async fn name_of(&self, user: Id) -> String {
        self.svc
            .db
            .user(user)
            .await
            .ok()
            .flatten()
            .map_or_else(|| format!("player {user}"), |u| u.name)
    }

    /// `<@id>` for a service user, or their name.
    pub async fn mention(&self, user: Id) -> String {
        match self.discord_of(user).await {
            Some(d) => format!("<@{d}>"),
            None => self
                .svc
                .db
                .user(user)
                .await
                .ok()
                .flatten()
                .map_or_else(|| format!("player {user}"), |u| u.name),
        }
    }
}

/// The gateway intents the bot needs (none privileged: slash commands and components arrive
/// as interactions).
pub fn intents() -> GatewayIntents {
    GatewayIntents::GUILDS
}

/// Where the slash commands are registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Register {
    Globally,
    Guild(u64),
    /// Not at all (tests that do not care).
    Skip,
}

/// The poise framework with every command, the component handler and the scheduler.
pub fn framework(
    data: Data,
    register: Register,
    scheduler_every: std::time::Duration,
    sharding: Sharding,
) -> poise::Framework<Shared, Error> {
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        event_handler: |ctx, event| Box::pin(interact::on_event(ctx, event)),
        on_error: |e| Box::pin(commands::on_error(e)),
        initialize_owners: false,
        ..Default::default()
    };
    poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                match register {
                    Register::Globally => {
                        poise::builtins::register_globally(ctx, &framework.options().commands)
                            .await?
                    }
                    Register::Guild(g) => {
                        poise::builtins::register_in_guild(
                            ctx,
                            &framework.options().commands,
                            serenity::GuildId::new(g),
                        )
                        .await?
                    }
                    Register::Skip => {}
                }
                if let Ok(mut b) = data.bot_id.lock() {
                    *b = Some(ready.user.id);
                }
                let data = Arc::new(data);
                // One scheduler among the processes: the one that runs shard 0.
                if sharding.runs(0) {
                    scheduler::spawn(ctx.http.clone(), Arc::clone(&data), scheduler_every);
                }
                tracing::info!(user = %ready.user.name, "Discord session ready");
                Ok(data)
            })
        })
        .build()
}

/// Runs the bot on `http` with every shard until `shutdown` completes (then closes every
/// shard).
pub async fn run(
    http: Http,
    data: Data,
    register: Register,
    scheduler_every: std::time::Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    run_sharded(
        http,
        data,
        register,
        scheduler_every,
        Sharding::Auto,
        shutdown,
    )
    .await
}

/// [`run`] with only the shards of `sharding`: several processes sharing one database each
/// run their own range, so every interaction reaches one process only (Discord sends a
/// server's events to shard `(guild_id >> 22) % total`, and direct messages to shard 0).
/// Only the process running shard 0 scans deadlines.
pub async fn run_sharded(
    http: Http,
    data: Data,
    register: Register,
    scheduler_every: std::time::Duration,
    sharding: Sharding,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let framework = framework(data, register, scheduler_every, sharding);
    let mut client = serenity::ClientBuilder::new_with_http(http, intents())
        .framework(framework)
        .await?;
    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down");
        shards.shutdown_all().await;
    });
    match sharding {
        Sharding::Auto => client.start_autosharded().await?,
        // Serenity 0.12 reads the range's end as the last shard (inclusive).
        Sharding::Range { first, last, total } => {
            tracing::info!(
                first,
                last,
                total,
                "running shards {first}-{last} of {total}"
            );
            client.start_shard_range(first..last, total).await?
        }
    }
    Ok(())
}

/// `spellstack serve`: config from `cfg`, the token from `DISCORD_TOKEN`, ctrl-c to stop.
pub async fn serve(cfg: Config) -> anyhow::Result<()> {
    let token = token_from_env()?;
    let register = match cfg.discord.test_guild_id {
        Some(g) => Register::Guild(g),
        None => Register::Globally,
    };
    let every = std::time::Duration::from_secs(cfg.discord.scheduler_seconds.max(1));
    let sharding = cfg.discord.sharding().map_err(anyhow::Error::msg)?;
    let cfg_proxy = cfg.discord.proxy.clone();
    let svc = Service::new(cfg).await?;
    let db = svc.db.clone();
    let data = Data::new(svc);
    let http = match &cfg_proxy {
        Some(url) => serenity::HttpBuilder::new(&token)
            .proxy(url.as_str())
            .ratelimiter_disabled(true)
            .build(),
        None => serenity::HttpBuilder::new(&token).build(),
    };
    let r = run_sharded(http, data, register, every, sharding, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    db.close().await;
    r
}

/// The bot token from the environment, or a message saying how to set it.
pub fn token_from_env() -> anyhow::Result<String> {
    match std::env::var("DISCORD_TOKEN") {
        Ok(t) if !t.trim().is_empty() => Ok(t.trim().to_string()),
        _ => anyhow::bail!(
            "DISCORD_TOKEN is not set: create a bot in the Discord developer portal \
             (see bot/DISCORD.md), then run `DISCORD_TOKEN=... spellstack serve`. \
             To play in the terminal instead, run `spellstack local`."
        ),
    }
}

/// A Discord user's name as the bot writes it everywhere (messages, thread names, images):
/// [`plain_name`] of their display name.
pub fn display_name(u: &serenity::User) -> String {
    plain_name(u.global_name.as_deref().unwrap_or(&u.name))
}

/// A user-supplied name that can't break the formatting of a message: Markdown's marks
/// (`*_~|` and backticks, `>` and `#` heading a line, links' brackets, `<` of mentions and
/// emoji, the escape `\`) and line breaks left out, `@` kept from naming a mention
/// (`@\u{200b}everyone`), at most 32 characters; `player` when nothing is left.
pub fn plain_name(name: &str) -> String {
    plain_within(name, 32)
}

/// A deck's name as replies write it: [`plain_name`]'s escaping, up to 100 characters (a
/// deck name may have 80; the escaped `@` takes two).
pub fn plain_deck_name(name: &str) -> String {
    plain_within(name, 100)
}

/// [`plain_name`] keeping at most `max` characters.
fn plain_within(name: &str, max: usize) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            '*' | '_' | '~' | '|' | '`' | '>' | '<' | '#' | '[' | ']' | '\\' => {}
            '@' => out.push_str("@\u{200b}"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    // Already plain (a name the bot wrote, typed back): the same, not escaped twice.
    let out = out.replace("@\u{200b}\u{200b}", "@\u{200b}");
    let out: String = out
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(max)
        .collect();
    if out.trim().is_empty() {
        "player".to_string()
    } else {
        out.trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::Clock;
    use engine::Catalog;

    #[test]
    fn names_cannot_break_the_formatting() {
        assert_eq!(plain_name("Ann"), "Ann");
        assert_eq!(plain_name("**Bob**"), "Bob");
        assert_eq!(plain_name("`x` ||y|| ~~z~~"), "x y z");
        assert_eq!(plain_name("> # [link](http://a)"), "link(http://a)");
        assert_eq!(plain_name("@everyone"), "@\u{200b}everyone");
        assert_eq!(plain_name("two\nlines"), "two lines");
        assert_eq!(plain_name("<@123> \\o/"), "@\u{200b}123 o/");
        assert_eq!(plain_name("***"), "player");
        for n in ["@everyone", "**x** @here", "`a` <@1>"] {
            assert_eq!(plain_name(&plain_name(n)), plain_name(n), "{n}");
        }
        assert_eq!(plain_name(&"é".repeat(40)).chars().count(), 32);
        assert_eq!(plain_deck_name(&"é".repeat(80)).chars().count(), 80);
        assert_eq!(plain_deck_name("**x** @everyone"), "x @\u{200b}everyone");
    }

    async fn data(cjk_font_path: &str, language: &str) -> (Data, tempfile::TempDir) {
        let (mut dbs, dir) = crate::storage::tests::test_dbs().await;
        let mut cfg = Config::default();
        cfg.images.cjk_font_path = cjk_font_path.into();
        cfg.images.language = language.into();
        let svc = Service {
            db: dbs.remove(0),
            cfg,
            clock: Clock::System,
        };
        (Data::new(svc), dir)
    }

    #[tokio::test]
    async fn a_missing_cjk_font_is_explained_and_images_fall_back_to_english() {
        let (d, _dir) = data("/nonexistent/cjk.ttc", "zh-hant").await;
        assert_eq!(d.default_language(), render::Language::ZhHant);
        let Err(err) = d.try_renderer(render::Language::ZhHant) else {
            panic!("a renderer without its font");
        };
        assert!(err.contains("/nonexistent/cjk.ttc"), "{err}");
        let r = d
            .renderer(render::Language::ZhHant)
            .expect("English instead");
        let face =
            crate::scene::face_of_def(Catalog::builtin().by_name("Lightning Axe").expect("card"));
        assert_eq!(
            r.card_png(&face).expect("png"),
            render::card_png(&face, &render::RenderOptions::default()).expect("png")
        );
    }

    #[tokio::test]
    async fn a_server_language_overrides_the_deployment_default() {
        let (d, _dir) = data(render::DEFAULT_CJK_FONT_PATH, "english").await;
        assert_eq!(d.language_of_guild(None).await, render::Language::English);
        assert_eq!(
            d.language_of_guild(Some(7)).await,
            render::Language::English
        );
        let u = d.svc.user("discord:1", "Admin").await.expect("user");
        d.svc
            .set_guild_language(7, "zh-hant", u)
            .await
            .expect("set");
        assert_eq!(d.language_of_guild(Some(7)).await, render::Language::ZhHant);
        assert_eq!(
            d.language_of_guild(Some(8)).await,
            render::Language::English
        );
    }
}
