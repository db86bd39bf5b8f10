//! Service configuration: `config.toml` at the repository root (or a path given on the
//! command line), with environment overrides (`DATABASE_URL`).

use anyhow::Context;
use engine::Ruleset;
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `sqlite://path.db`, `sqlite::memory:` or `postgres://...`.
    pub database_url: String,
    /// `modern` or `classic`.
    pub default_ruleset: String,
    pub deadlines: Deadlines,
    pub discord: Discord,
    pub images: Images,
}

/// Board, hand and card images.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Images {
    /// Card names on images: `english` or `zh-hant` (Traditional Chinese, needs a CJK font).
    pub language: String,
    /// The CJK font file used for `zh-hant` (Debian's fonts-noto-cjk by default).
    pub cjk_font_path: String,
}

impl Default for Images {
    fn default() -> Self {
        Images {
            language: "english".into(),
            cjk_font_path: render::DEFAULT_CJK_FONT_PATH.into(),
        }
    }
}

/// An image language from its key (`english`, `zh-hant`).
pub fn parse_language(s: &str) -> Option<render::Language> {
    match s.trim().to_ascii_lowercase().as_str() {
        "english" | "en" => Some(render::Language::English),
        "zh-hant" | "zh_hant" | "traditional chinese" => Some(render::Language::ZhHant),
        _ => None,
    }
}

/// The key a language is stored under (config, guild settings).
pub fn language_key(l: render::Language) -> &'static str {
    match l {
        render::Language::English => "english",
        render::Language::ZhHant => "zh-hant",
    }
}

impl Images {
    /// The renderer options these settings ask for.
    pub fn render_options(&self) -> anyhow::Result<render::RenderOptions> {
        let Some(language) = parse_language(&self.language) else {
            anyhow::bail!(
                "images.language `{}`: choose `english` or `zh-hant`",
                self.language.trim()
            )
        };
        Ok(self.options_for(language))
    }

    /// Renderer options for `language` (a server's choice) with this deployment's CJK font.
    pub fn options_for(&self, language: render::Language) -> render::RenderOptions {
        render::RenderOptions {
            language,
            cjk_font_path: self.cjk_font_path.clone().into(),
        }
    }
}

/// The Discord adapter (`spellstack serve`). The bot token comes from `DISCORD_TOKEN` only.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Discord {
    /// Register the slash commands in this guild only (instant, for testing); unset: globally.
    pub test_guild_id: Option<u64>,
    /// Seconds between deadline/reminder scans.
    pub scheduler_seconds: u64,
    /// The shards this process runs, `[first, last]` (inclusive), of `shard_total`: several
    /// processes against one PostgreSQL database each take their own range, so each server's
    /// interactions reach exactly one of them. Unset: one process runs every shard
    /// (autosharded).
    pub shards: Option<[u32; 2]>,
    /// How many shards all the processes run together (with `shards`).
    pub shard_total: Option<u32>,
    /// Send Discord's REST calls through this HTTP proxy (e.g. a shared rate-limit proxy
    /// such as twilight-http-proxy when several processes run: it keeps the rate limits,
    /// so the process's own limiter is off). The gateway's address comes through it too.
    pub proxy: Option<String>,
}

impl Default for Discord {
    fn default() -> Self {
        Discord {
            test_guild_id: None,
            scheduler_seconds: 60,
            shards: None,
            shard_total: None,
            proxy: None,
        }
    }
}

/// Which shards a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharding {
    /// Every shard, as many as Discord recommends.
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl Sharding {
    /// Whether this process runs shard `id` (Discord sends direct messages, and so the
    /// interactions of DM buttons, to shard 0).
    pub fn runs(&self, id: u32) -> bool {
        match *self {
            Sharding::Auto => true,
            Sharding::Range { first, last, .. } => (first..=last).contains(&id),
        }
    }

    /// The shard of a server (Discord's rule: `(guild_id >> 22) % total`).
    pub fn shard_of(guild: u64, total: u32) -> u32 {
        ((guild >> 22) % u64::from(total.max(1))) as u32
    }
}

impl Discord {
    /// The shards this process runs, or why the configuration is wrong.
    pub fn sharding(&self) -> Result<Sharding, String> {
        match (self.shards, self.shard_total) {
            (None, None) => Ok(Sharding::Auto),
            (Some([first, last]), Some(total)) => {
                if total == 0 {
                    Err("discord.shard_total must be at least 1".into())
                } else if first > last {
                    Err(format!(
                        "discord.shards = [{first}, {last}]: the first shard comes before the last"
                    ))
                } else if last >= total {
                    Err(format!(
                        "discord.shards = [{first}, {last}]: shard ids go from 0 to shard_total - 1 ({})",
                        total - 1
                    ))
                } else {
                    Ok(Sharding::Range { first, last, total })
                }
            }
            (Some(_), None) => {
                Err("discord.shards needs discord.shard_total (the shards of all processes)".into())
            }
            (None, Some(_)) => Err(
                "discord.shard_total needs discord.shards (this process's range, e.g. [0, 1])"
                    .into(),
            ),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Deadlines {
    pub decision_hours: u32,
    pub reminder_hours: u32,
    pub max_timeouts: u32,
    /// Hours a challenge waits for its answer before it expires.
    pub challenge_hours: u32,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            decision_hours: 48,
            reminder_hours: 12,
            max_timeouts: 3,
            challenge_hours: 24,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            database_url: "sqlite://spellstack.db".into(),
            default_ruleset: "modern".into(),
            deadlines: Deadlines::default(),
            discord: Discord::default(),
            images: Images::default(),
        }
    }
}

impl Config {
    /// Parses a config text (no environment overrides).
    pub fn parse(text: &str) -> anyhow::Result<Config> {
        let cfg: Config = toml::from_str(text).context("config.toml is not valid")?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Reads `path` if it exists (defaults otherwise), then applies environment overrides.
    pub fn load(path: &Path) -> anyhow::Result<Config> {
        let mut cfg = if path.exists() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Config::parse(&text).with_context(|| format!("in {}", path.display()))?
        } else {
            Config::default()
        };
        cfg.apply_env(|k| std::env::var(k).ok());
        cfg.validate()?;
        Ok(cfg)
    }

    /// The configuration for a command line: `path` given with `--config` must exist (a
    /// missing file is an error, not silently the defaults); without it, `config.toml` in the
    /// current folder is read when it exists.
    pub fn load_from(path: Option<&Path>) -> anyhow::Result<Config> {
        match path {
            Some(p) => {
                anyhow::ensure!(
                    p.exists(),
                    "the configuration file {} does not exist (leave out --config to use ./config.toml or the defaults)",
                    p.display()
                );
                Config::load(p)
            }
            None => Config::load(Path::new("config.toml")),
        }
    }

    pub fn apply_env(&mut self, get: impl Fn(&str) -> Option<String>) {
        if let Some(url) = get("DATABASE_URL").filter(|u| !u.trim().is_empty()) {
            self.database_url = url;
        }
    }

    pub fn validate(&self) -> anyhow::Result<()> {
        self.ruleset()?;
        crate::storage::describe_url(&self.database_url).context("database_url")?;
        self.images.render_options()?;
        let d = &self.deadlines;
        anyhow::ensure!(
            d.decision_hours > 0,
            "deadlines.decision_hours must be at least 1"
        );
        anyhow::ensure!(
            d.reminder_hours < d.decision_hours,
            "deadlines.reminder_hours must be less than decision_hours"
        );
        self.discord.sharding().map_err(anyhow::Error::msg)?;
        if let Some(p) = &self.discord.proxy {
            anyhow::ensure!(
                p.starts_with("http://") || p.starts_with("https://"),
                "discord.proxy must be an http:// or https:// address, not `{p}`"
            );
        }
        anyhow::ensure!(
            self.discord.scheduler_seconds > 0,
            "discord.scheduler_seconds must be at least 1"
        );
        anyhow::ensure!(
            d.max_timeouts > 0,
            "deadlines.max_timeouts must be at least 1"
        );
        anyhow::ensure!(
            d.challenge_hours > 0,
            "deadlines.challenge_hours must be at least 1"
        );
        Ok(())
    }

    pub fn ruleset(&self) -> anyhow::Result<Ruleset> {
        self.default_ruleset
            .parse::<Ruleset>()
            .map_err(|e| anyhow::anyhow!("default_ruleset: {e}"))
    }

    pub fn decision_secs(&self) -> i64 {
        i64::from(self.deadlines.decision_hours) * 3600
    }
    pub fn reminder_secs(&self) -> i64 {
        i64::from(self.deadlines.reminder_hours) * 3600
    }
    pub fn challenge_secs(&self) -> i64 {
        i64::from(self.deadlines.challenge_hours) * 3600
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_are_checked() {
        let d = |shards, shard_total| Discord {
            shards,
            shard_total,
            ..Discord::default()
        };
        assert_eq!(d(None, None).sharding(), Ok(Sharding::Auto));
        let s = d(Some([2, 3]), Some(4)).sharding().expect("valid");
        assert_eq!(
            s,
            Sharding::Range {
                first: 2,
                last: 3,
                total: 4
            }
        );
        assert!(s.runs(2) && s.runs(3) && !s.runs(0) && !s.runs(4));
        for (shards, total, says) in [
            (Some([0, 4]), Some(4), "from 0 to shard_total - 1 (3)"),
            (Some([2, 1]), Some(4), "comes before"),
            (Some([0, 0]), Some(0), "at least 1"),
            (Some([0, 1]), None, "needs discord.shard_total"),
            (None, Some(2), "needs discord.shards"),
        ] {
            let e = d(shards, total).sharding().expect_err("refused");
            assert!(e.contains(says), "{e}");
        }
        // Discord's rule: the server's id shifted by 22 bits, modulo the total.
        assert_eq!(Sharding::shard_of(5 << 22, 4), 1);
        assert_eq!(Sharding::shard_of(400, 2), 0);
        let cfg: Config =
            toml::from_str("[discord]\nshards = [0, 1]\nshard_total = 2\n").expect("parses");
        assert!(cfg.validate().is_ok());
    }

    #[test]
    fn root_config_parses() {
        let text = include_str!("../../config.toml");
        let cfg = Config::parse(text).expect("root config.toml");
        assert_eq!(cfg.deadlines.decision_hours, 48);
        assert_eq!(cfg.ruleset().ok(), Some(Ruleset::Modern));
    }

    #[test]
    fn env_overrides_database_url() {
        let mut cfg = Config::default();
        cfg.apply_env(|k| (k == "DATABASE_URL").then(|| "postgres://x/y".to_string()));
        assert_eq!(cfg.database_url, "postgres://x/y");
    }

    #[test]
    fn bad_values_are_named() {
        let e = Config::parse("default_ruleset = \"vintage\"").unwrap_err();
        assert!(format!("{e:#}").contains("vintage"), "{e:#}");
        let e = Config::parse("[deadlines]\ndecision_hours = 2\nreminder_hours = 5").unwrap_err();
        assert!(format!("{e:#}").contains("reminder_hours"), "{e:#}");
        assert!(Config::parse("colour = 1").is_err());
    }

    #[test]
    fn a_missing_explicit_config_file_is_an_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("nope.toml");
        let e = Config::load_from(Some(&missing)).unwrap_err();
        assert!(format!("{e:#}").contains("nope.toml"), "{e:#}");
        std::fs::write(&missing, "default_ruleset = \"classic\"\n").expect("write");
        let cfg = Config::load_from(Some(&missing)).expect("now it exists");
        assert_eq!(cfg.ruleset().ok(), Some(Ruleset::Classic));
    }

    #[test]
    fn image_language_is_checked() {
        let cfg = Config::parse("[images]\nlanguage = \"zh-hant\"\n").unwrap();
        assert_eq!(
            cfg.images.render_options().unwrap().language,
            render::Language::ZhHant
        );
        let err = Config::parse("[images]\nlanguage = \"klingon\"\n").unwrap_err();
        assert!(format!("{err:#}").contains("zh-hant"), "{err:#}");
    }
}
