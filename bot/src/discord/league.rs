//! `/league ...`: the league commands of the service in Discord. Every subcommand takes an
//! optional league name (default: the server's newest open league). Organiser commands are
//! for the league's creator and members with Manage Server. Games a league command starts
//! are delivered in the league's channel like any game.

use super::commands::send;
use super::delivery;
use super::interact::Reply;
use super::{Context, Error};
use crate::league::definition::LeagueSetup;
use crate::league_service::choice::{PendingChoice, PlayDraw};
use crate::league_service::organiser::OrganiserAction;
use crate::league_service::{LeagueCtx, LeagueReply};
use crate::service::ServiceError;
use poise::serenity_prelude as serenity;

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum BestOf {
    #[name = "best of three"]
    Three,
    #[name = "best of one"]
    One,
}

/// The chooser's answer before a game (MTR 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum FirstChoice {
    #[name = "play first"]
    Play,
    #[name = "draw first"]
    Draw,
}

/// The standing play/draw answer (MTR 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Standing {
    #[name = "ask me before each game"]
    Ask,
    #[name = "always play first"]
    Play,
    #[name = "always draw first"]
    Draw,
}

/// Leagues between friends: sealed pools, standings, ratings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "run",
        "drop",
        "pool",
        "deck",
        "sideboard",
        "play",
        "choose",
        "standings",
        "me",
        "clock",
        "claim",
        "vacation",
        "prefer",
        "nullify",
        "forfeit",
        "fix",
        "log"
    ),
    subcommand_required
)]
pub async fn league(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn guild(ctx: &Context<'_>) -> i64 {
    ctx.guild_id().map_or(0, |g| g.get() as i64)
}

/// Whether the author may manage the server (Discord's resolved permissions).
fn is_admin(ctx: &Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

async fn find(ctx: &Context<'_>, name: Option<&str>) -> Result<LeagueCtx, ServiceError> {
    // Names are kept plain (see `create`): the words typed are read the same way.
    let name = name.map(super::plain_deck_name);
    ctx.data()
        .svc
        .league_find(guild(ctx), name.as_deref())
        .await
}

/// Sends a league reply (public when `public`), delivering the plans of games it started.
async fn answer(
    ctx: Context<'_>,
    r: Result<LeagueReply, ServiceError>,
    public: bool,
) -> Result<(), Error> {
    answer_with(ctx, r, public, Vec::new(), false).await
}

/// [`answer`] with images attached and, when `rows`, the member's builds menu and play
/// button (after a success).
async fn answer_with(
    ctx: Context<'_>,
    r: Result<LeagueReply, ServiceError>,
    public: bool,
    files: Vec<(Vec<u8>, String)>,
    rows: bool,
) -> Result<(), Error> {
    match r {
        Ok(r) => {
            let data = ctx.data();
            for p in &r.plans {
                game_thread(data, ctx.http(), p.game_id).await;
                if let Err(e) = delivery::deliver(data, ctx.http(), p, None).await {
                    tracing::warn!(game_id = p.game_id, error = %e, "league game delivery failed");
                }
            }
            let mut reply = if public {
                Reply::public(r.text)
            } else {
                Reply::ephemeral(r.text)
            };
            reply.files = files;
            if rows {
                let me = data.user_of(ctx.author()).await?;
                reply.rows = member_rows(data, r.league_id, me, ctx.author().id.get()).await;
            }
            reply.rows.extend(choice_row_of(data, r.choice).await);
            if public {
                let (line, ids) = mention_line(data, &r.pings).await;
                if !line.is_empty() {
                    reply.content = format!("{line}\n{}", reply.content);
                }
                reply.mentions = ids;
            }
            send(ctx, reply).await
        }
        Err(e) => send(ctx, Reply::ephemeral(e.to_string())).await,
    }
}

/// The member's pool as an image, in the server's language (None: no pool or no renderer).
async fn pool_image(
    ctx: &Context<'_>,
    league_id: crate::storage::Id,
    user: crate::storage::Id,
) -> Vec<(Vec<u8>, String)> {
    let data = ctx.data();
    let Ok((_, pool)) = data.svc.league_pool(league_id, user).await else {
        return Vec::new();
    };
    let lang = data.language_of_guild(Some(guild(ctx))).await;
    let Some(r) = data.renderer(lang) else {
        return Vec::new();
    };
    let title = format!("{}'s pool", data.name_of(user).await);
    match r.pool_png(&crate::league_service::view::pool_scene(&pool, &title)) {
        Ok(png) => vec![(png, "pool.png".into())],
        Err(e) => {
            tracing::warn!(error = %e, "pool image failed");
            Vec::new()
        }
    }
}

/// Create a league (sealed with a product such as `6 TSP`, or constructed).
// A slash command's options are its arguments.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "League name"] name: String,
    #[description = "Sealed product (`6 TSP`, `2 TSP + 2 PLC + 2 FUT`); empty: constructed"]
    product: Option<String>,
    #[description = "Match length (default best of three)"] best_of: Option<BestOf>,
    #[description = "queue (default), swiss, swiss N, round robin"] schedule: Option<String>,
    #[description = "Matches per run (default 5)"] matches: Option<u32>,
    #[description = "Days the league lasts (default 28)"] days: Option<u32>,
    #[description = "When it starts: `in 2 days`, `2026-12-20`, `2026-12-20 18:00` (UTC; default now)"]
    starts: Option<String>,
    #[description = "Entries close this many days after the start (default: 2 days before the end)"]
    entries_days: Option<u32>,
    #[description = "Sealed: pack triggers (`weekly`, `per 3 losses`, `loser`; commas between)"]
    packs: Option<String>,
    #[description = "A run also ends at this many losses (queue leagues; default: none)"]
    until_losses: Option<u32>,
    #[description = "True: allow a repeat opponent within a run"] rematches: Option<bool>,
    #[description = "Rules (default from the server config)"] ruleset: Option<
        super::commands::RulesetChoice,
    >,
) -> Result<(), Error> {
    ctx.defer().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    // A league's name is written in posts and replies: kept plain, so that it can't break
    // their formatting or mention anyone (`**x** @everyone` is `x @everyone` with the `@`
    // kept from mentioning).
    let setup = LeagueSetup {
        name: super::plain_deck_name(&name),
        product,
        best_of: best_of.map(|b| if b == BestOf::One { 1 } else { 3 }),
        schedule,
        matches_per_run: matches,
        length_days: days,
        starts,
        entries_days,
        run_losses: until_losses,
        ruleset: ruleset.map(|r| match r {
            super::commands::RulesetChoice::Modern => engine::Ruleset::Modern,
            super::commands::RulesetChoice::Classic => engine::Ruleset::Classic,
        }),
        allow_rematches: rematches.unwrap_or(false),
        pack_triggers: packs
            .as_deref()
            .unwrap_or("")
            .split([',', ';'])
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
        ..Default::default()
    };
    let channel = Some(ctx.channel_id().get() as i64);
    let r = data
        .svc
        .league_create(me, &setup, guild(&ctx), channel)
        .await;
    answer(ctx, r, true).await
}

/// Join a league (constructed: with your deck, locked for the run).
#[poise::command(slash_command)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
    #[description = "Constructed: your deck (saved deck or red, green, white, blue, black)"]
    deck: Option<String>,
) -> Result<(), Error> {
    enter(ctx, league, deck, false).await
}

/// Drop from a league (your record stays in the standings).
#[poise::command(slash_command)]
pub async fn drop(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_drop(l.row.id, me).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, false).await
}

/// Your sealed pool (cards not playable yet are marked).
#[poise::command(slash_command)]
pub async fn pool(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let (r, files) = match find(&ctx, league.as_deref()).await {
        Ok(l) => (
            ctx.data().svc.league_pool(l.row.id, me).await.map(|x| x.0),
            pool_image(&ctx, l.row.id, me).await,
        ),
        Err(e) => (Err(e), Vec::new()),
    };
    answer_with(ctx, r, false, files, true).await
}

/// Save a build of your pool (`20 Forest; 2 Durkwood Baloth; ...`), use one, or list them.
#[poise::command(slash_command)]
pub async fn deck(
    ctx: Context<'_>,
    #[description = "save, use or list"] action: String,
    #[description = "Build name (save, use)"] name: Option<String>,
    #[description = "save: the list, `;` between lines"] list: Option<String>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let l = match find(&ctx, league.as_deref()).await {
        Ok(l) => l,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    // A build's name is written in replies and menus: kept plain (as a deck's name is).
    let name = name.map(|n| super::plain_deck_name(&n)).unwrap_or_default();
    let r = match action.trim().to_ascii_lowercase().as_str() {
        "save" => {
            let text = list.unwrap_or_default().replace([';', '|'], "\n");
            data.svc.league_deck_save(l.row.id, me, &name, &text).await
        }
        "use" => data.svc.league_deck_use(l.row.id, me, &name).await,
        "list" => data.svc.league_decks(l.row.id, me).await,
        other => Err(ServiceError::Refused(format!(
            "`{other}`: choose save, use or list"
        ))),
    };
    answer_with(ctx, r, false, Vec::new(), true).await
}

/// Sideboard between the games of your match: swap cards with the rest of your pool.
#[poise::command(slash_command)]
pub async fn sideboard(
    ctx: Context<'_>,
    #[description = "Cards out of your deck (`2 Mountain, Rift Bolt`)"] out: Option<String>,
    #[description = "Cards in from the rest of your pool (basic lands: any number)"]
    #[rename = "in"]
    into: Option<String>,
    #[description = "True: back to your build for the rest of the match"] reset: Option<bool>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    use crate::league_service::words::card_counts;
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let l = match find(&ctx, league.as_deref()).await {
        Ok(l) => l,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    let lists = (
        card_counts(out.as_deref().unwrap_or("")),
        card_counts(into.as_deref().unwrap_or("")),
    );
    let r = match lists {
        (Err(e), _) | (_, Err(e)) => Err(ServiceError::Refused(e)),
        (Ok(o), Ok(i)) => {
            data.svc
                .league_sideboard(l.row.id, me, &o, &i, reset == Some(true))
                .await
        }
    };
    answer(ctx, r, false).await
}

/// Play your next league match (or challenge a member you have not met this run).
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "A member to challenge (default: the queue or your pairing)"] opponent: Option<
        serenity::User,
    >,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let opp = match &opponent {
        Some(u) => Some(data.user_of(u).await?),
        None => None,
    };
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => data.svc.league_play(l.row.id, me, opp).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, true).await
}

/// Play or draw first in the game you choose for (MTR 2.2); the question's buttons do the same.
#[poise::command(slash_command)]
pub async fn choose(
    ctx: Context<'_>,
    #[description = "Play first or draw first"] first: FirstChoice,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => {
            data.svc
                .league_choose(l.row.id, me, first == FirstChoice::Draw, None)
                .await
        }
        Err(e) => Err(e),
    };
    answer(ctx, r, true).await
}

/// The standings (Magic Tournament Rules tiebreakers) with ratings.
#[poise::command(slash_command)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_standings(l.row.id).await,
        Err(e) => Err(e),
    };
    match r {
        Ok(v) => {
            let (embed, image) = standings_embed(ctx.data(), guild(&ctx), &v).await;
            let mut reply = poise::CreateReply::default().embed(embed);
            if let Some(png) = image {
                reply = reply.attachment(png);
            }
            ctx.send(reply).await?;
            Ok(())
        }
        Err(e) => send(ctx, Reply::ephemeral(e.to_string())).await,
    }
}

/// The standings as Discord shows them: an embed (the title, and the table cut within the
/// embed's limits) and, when the server's language has a renderer, the image listing every
/// player.
async fn standings_embed(
    data: &super::Data,
    guild: i64,
    v: &crate::league_service::view::StandingsView,
) -> (serenity::CreateEmbed, Option<serenity::CreateAttachment>) {
    let embed = serenity::CreateEmbed::new()
        .title(delivery::head(&v.title, 250))
        .description(delivery::head_with(
            v.text.trim_start_matches(&v.title).trim(),
            4000,
            delivery::MORE_STANDINGS,
        ));
    let lang = data.language_of_guild(Some(guild)).await;
    let image = match data.renderer(lang) {
        Some(r) => match r.standings_png(&crate::league_service::view::standings_scene(v)) {
            Ok(png) => Some(serenity::CreateAttachment::bytes(png, "standings.png")),
            Err(e) => {
                tracing::warn!(error = %e, "standings image failed");
                None
            }
        },
        None => None,
    };
    (embed, image)
}

/// Your league: record, rating, build, every match and game.
#[poise::command(slash_command)]
pub async fn me(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_me(l.row.id, me).await,
        Err(e) => Err(e),
    };
    answer_with(ctx, r, false, Vec::new(), true).await
}

/// The clocks of your league game.
#[poise::command(slash_command)]
pub async fn clock(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_clock(l.row.id, me).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, false).await
}

/// Claim the game when your opponent's clock has run out.
#[poise::command(slash_command)]
pub async fn claim(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_claim(l.row.id, me).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, true).await
}

/// Joining a league (`new_run` false) or starting a new run in it (true): the deck of a
/// constructed entry, the pool image of a sealed one, the answer only to the player.
async fn enter(
    ctx: Context<'_>,
    league: Option<String>,
    deck: Option<String>,
    new_run: bool,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let l = match find(&ctx, league.as_deref()).await {
        Ok(l) => l,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    let choice = match deck.as_deref() {
        Some(d) => Some(super::commands::deck_choice(data, me, Some(d)).await),
        None => None,
    };
    let (id, choice) = (l.row.id, choice.as_ref());
    let r = if new_run {
        data.svc.league_new_run(id, me, choice).await
    } else {
        data.svc.league_join(id, me, choice).await
    };
    let files = if r.is_ok() && l.is_sealed() {
        pool_image(&ctx, l.row.id, me).await
    } else {
        Vec::new()
    };
    answer_with(ctx, r, false, files, true).await
}

/// Start a new run when yours is over (sealed: a new pool; constructed: your deck, locked).
#[poise::command(slash_command)]
pub async fn run(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
    #[description = "Constructed: the run's deck (saved deck or red, green, white, blue, black)"]
    deck: Option<String>,
) -> Result<(), Error> {
    enter(ctx, league, deck, true).await
}

/// When you choose (MTR 2.2): be asked before each game, or always play or draw first.
#[poise::command(slash_command)]
pub async fn prefer(
    ctx: Context<'_>,
    #[description = "Asked before each game, or always play or draw first"] choice: Standing,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let standing = match choice {
        Standing::Ask => PlayDraw::Ask,
        Standing::Play => PlayDraw::Play,
        Standing::Draw => PlayDraw::Draw,
    };
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_prefer(l.row.id, me, standing).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, false).await
}

/// The organiser log: every nullify, forfeit and fix, with who and why.
#[poise::command(slash_command)]
pub async fn log(
    ctx: Context<'_>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_log(l.row.id).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, false).await
}

/// Take vacation days: your game clocks stop.
#[poise::command(slash_command)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "Days"] days: u32,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => ctx.data().svc.league_vacation(l.row.id, me, days).await,
        Err(e) => Err(e),
    };
    answer(ctx, r, false).await
}

async fn organise(
    ctx: Context<'_>,
    league: Option<String>,
    match_id: i64,
    action: OrganiserAction,
    reason: String,
) -> Result<(), Error> {
    ctx.defer().await?;
    let me = ctx.data().user_of(ctx.author()).await?;
    let admin = is_admin(&ctx);
    let r = match find(&ctx, league.as_deref()).await {
        Ok(l) => {
            ctx.data()
                .svc
                .league_organise(l.row.id, me, admin, match_id, action, &reason)
                .await
        }
        Err(e) => Err(e),
    };
    answer(ctx, r, true).await
}

/// Organisers: nullify a match (it no longer counts).
#[poise::command(slash_command)]
pub async fn nullify(
    ctx: Context<'_>,
    #[description = "Match number (see /league me)"]
    #[rename = "match"]
    match_id: i64,
    #[description = "Why (recorded)"] reason: String,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    organise(ctx, league, match_id, OrganiserAction::Nullify, reason).await
}

/// Organisers: award a match by forfeit.
#[poise::command(slash_command)]
pub async fn forfeit(
    ctx: Context<'_>,
    #[description = "Match number"]
    #[rename = "match"]
    match_id: i64,
    #[description = "Who forfeits"] loser: serenity::User,
    #[description = "Why (recorded)"] reason: String,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    let loser = ctx.data().user_of(&loser).await?;
    organise(
        ctx,
        league,
        match_id,
        OrganiserAction::Forfeit { loser },
        reason,
    )
    .await
}

/// Organisers: fix a match result (game wins of the first-named player, of the second, draws).
#[poise::command(slash_command)]
pub async fn fix(
    ctx: Context<'_>,
    #[description = "Match number"]
    #[rename = "match"]
    match_id: i64,
    #[description = "Games won by the match's first player"] first: u32,
    #[description = "Games won by the second player"] second: u32,
    #[description = "Why (recorded)"] reason: String,
    #[description = "Drawn games"] draws: Option<u32>,
    #[description = "League (default: the newest here)"] league: Option<String>,
) -> Result<(), Error> {
    let action = OrganiserAction::Fix {
        a_wins: first,
        b_wins: second,
        draws: draws.unwrap_or(0),
    };
    organise(ctx, league, match_id, action, reason).await
}

/// A league game gets a thread of its own in the league's channel, as a challenge does
/// (`League: Ann vs Ben · game 2`); its posts go there. When the thread cannot be made (a
/// missing permission), the game is played in the channel.
async fn game_thread(data: &super::Data, http: &serenity::Http, game_id: crate::storage::Id) {
    let Ok(Some(row)) = data.svc.db.game(game_id).await else {
        return;
    };
    if row.thread_id.is_some() {
        return;
    }
    let Some(channel) = row
        .channel_id
        .and_then(|c| u64::try_from(c).ok())
        .filter(|c| *c != 0)
    else {
        return;
    };
    let Ok(Some(m)) = data.svc.db.match_of_game(game_id).await else {
        return;
    };
    let played = data.svc.db.league_games(m.id).await.map_or(0, |g| g.len());
    let b = match m.b_user {
        Some(b) => data.name_of(b).await,
        None => return,
    };
    let title = format!(
        "League: {} vs {b} · game {}",
        data.name_of(m.a_user).await,
        played + 1
    );
    let made = serenity::ChannelId::new(channel)
        .create_thread(
            http,
            serenity::CreateThread::new(delivery::head(&title, 90))
                .kind(serenity::ChannelType::PublicThread)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await;
    match made {
        Ok(t) => {
            if let Err(e) = data.svc.db.set_thread(game_id, t.id.get() as i64).await {
                tracing::warn!(game_id, error = %e, "the league game's thread was not stored");
            }
        }
        Err(e) => {
            tracing::info!(game_id, error = %e, "no thread for the league game; using the channel")
        }
    }
}

/// Posts what a league says after a game command (its result, the next game of the match).
async fn post(data: &super::Data, http: &serenity::Http, r: &LeagueReply) {
    for p in &r.plans {
        game_thread(data, http, p.game_id).await;
        if let Err(e) = delivery::deliver(data, http, p, None).await {
            tracing::warn!(game_id = p.game_id, error = %e, "league game delivery failed");
        }
    }
    if r.text.is_empty() {
        return;
    }
    let (channel, guild) = match data.svc.league_ctx(r.league_id).await {
        Ok(l) => (
            l.row.channel_id.and_then(|c| u64::try_from(c).ok()),
            l.row.guild_id,
        ),
        Err(_) => (None, 0),
    };
    // The members a notice is for are mentioned (a play/draw question's chooser first: the
    // game waits for them), on a line of their own above the text so a cut never loses it.
    let mut who: Vec<crate::storage::Id> = r.choice.map(|q| q.chooser).into_iter().collect();
    who.extend(&r.pings);
    let (line, mentions) = mention_line(data, &who).await;
    if let Some(c) = channel.filter(|c| *c != 0) {
        let content = if line.is_empty() {
            r.text.clone()
        } else {
            format!("{line}\n{}", r.text)
        };
        let mut msg = serenity::CreateMessage::new()
            .content(delivery::head_with(
                &content,
                delivery::MAX_CONTENT,
                delivery::MORE_LEAGUE,
            ))
            .components(choice_row_of(data, r.choice).await)
            .allowed_mentions(serenity::CreateAllowedMentions::new().users(mentions));
        // The final standings: an embed and the image, as `/league standings` shows them.
        if r.standings
            && let Ok(v) = data.svc.league_standings(r.league_id).await
        {
            let heading = r.text.lines().next().unwrap_or_default();
            let (embed, image) = standings_embed(data, guild, &v).await;
            msg = msg.content(delivery::head(
                &format!("{line}\n{heading}"),
                delivery::MAX_CONTENT,
            ));
            msg = msg.embed(embed);
            if let Some(png) = image {
                msg = msg.add_file(png);
            }
        }
        if let Err(e) = serenity::ChannelId::new(c).send_message(http, msg).await {
            tracing::warn!(error = %e, "league message failed");
        }
    }
}

/// The `<@id>` line that notifies `users` of a league notice (each once, in order), and
/// the ids Discord may mention: only members of Discord whose settings allow mentions
/// (`pings never` keeps them named in the text only; league notices count as reminders).
async fn mention_line(
    data: &super::Data,
    users: &[crate::storage::Id],
) -> (String, Vec<serenity::UserId>) {
    let mut seen = Vec::new();
    let mut tokens = Vec::new();
    let mut ids = Vec::new();
    for &u in users {
        if seen.contains(&u) {
            continue;
        }
        seen.push(u);
        let Some(d) = data.discord_of(u).await else {
            continue;
        };
        if !delivery::prefs(data, u).await.pings.mentions(true) {
            continue;
        }
        tokens.push(format!("<@{d}>"));
        ids.push(serenity::UserId::new(d));
    }
    (tokens.join(" "), ids)
}

/// After any command in a game: a league game's clock and result (see `Service::league_after`).
pub async fn after_command(data: &super::Data, http: &serenity::Http, game_id: crate::storage::Id) {
    match data.svc.league_after(game_id).await {
        Ok(r) => post(data, http, &r).await,
        Err(e) => tracing::warn!(game_id, error = %e, "league bookkeeping failed"),
    }
}

/// The scheduler's league sweep (ended games, grace periods, final standings).
pub async fn tick(data: &super::Data, http: &serenity::Http) {
    match data.svc.league_tick().await {
        Ok(rs) => {
            for r in &rs {
                post(data, http, r).await;
            }
        }
        Err(e) => tracing::warn!(error = %e, "league sweep failed"),
    }
}

/// The start of the custom ids of league buttons and menus: `ssl:p:LEAGUE:USER` plays the
/// next match, `ssl:d:LEAGUE:USER` (a select menu of the member's builds) chooses the build
/// played from the next game, `ssl:pf:LEAGUE:USER:MATCH:GAME` and `ssl:df:...` answer the
/// play/draw question of game `GAME` of match `MATCH` (play first, draw first; refused once
/// that game has started). `USER` is the Discord user they were made for; a click by
/// anyone else is refused before anything is loaded. A click is a command like any other:
/// it is checked against the league as it is now (a league that has ended, a match in
/// progress, a build gone), so an old button can never do what the league does not allow.
pub const LEAGUE_ID_PREFIX: &str = "ssl:";

/// Discord's limits: 25 options in a select menu, 100 characters in a label or a value.
const MENU_OPTIONS: usize = 25;

/// What a league component does, decoded from its custom id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeagueCustom {
    Play {
        league: i64,
        user: u64,
    },
    Build {
        league: i64,
        user: u64,
    },
    /// The chooser's answer to game `game` of match `match_id` (`draw`: draw first).
    Choose {
        league: i64,
        user: u64,
        match_id: i64,
        game: i64,
        draw: bool,
    },
}

impl LeagueCustom {
    pub fn encode(self) -> String {
        match self {
            LeagueCustom::Play { league, user } => format!("{LEAGUE_ID_PREFIX}p:{league}:{user}"),
            LeagueCustom::Build { league, user } => format!("{LEAGUE_ID_PREFIX}d:{league}:{user}"),
            LeagueCustom::Choose {
                league,
                user,
                match_id,
                game,
                draw,
            } => format!(
                "{LEAGUE_ID_PREFIX}{}:{league}:{user}:{match_id}:{game}",
                if draw { "df" } else { "pf" }
            ),
        }
    }

    pub fn decode(id: &str) -> Option<LeagueCustom> {
        let rest = id.strip_prefix(LEAGUE_ID_PREFIX)?;
        let mut parts = rest.split(':');
        let (kind, league, user) = (parts.next()?, parts.next()?, parts.next()?);
        let (league, user) = (league.parse().ok()?, user.parse().ok()?);
        let custom = match kind {
            "p" => LeagueCustom::Play { league, user },
            "d" => LeagueCustom::Build { league, user },
            "pf" | "df" => LeagueCustom::Choose {
                league,
                user,
                match_id: parts.next()?.parse().ok()?,
                game: parts.next()?.parse().ok()?,
                draw: kind == "df",
            },
            _ => return None,
        };
        parts.next().is_none().then_some(custom)
    }

    fn user(self) -> u64 {
        match self {
            LeagueCustom::Play { user, .. }
            | LeagueCustom::Build { user, .. }
            | LeagueCustom::Choose { user, .. } => user,
        }
    }

    fn league(self) -> i64 {
        match self {
            LeagueCustom::Play { league, .. }
            | LeagueCustom::Build { league, .. }
            | LeagueCustom::Choose { league, .. } => league,
        }
    }
}

/// The "Play my next match" button of `discord`'s league `league_id`.
pub fn play_row(league_id: i64, discord: u64) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(
            LeagueCustom::Play {
                league: league_id,
                user: discord,
            }
            .encode(),
        )
        .label("Play my next match")
        .style(serenity::ButtonStyle::Primary),
    ])
}

/// The "Play first" and "Draw first" buttons of a play/draw question, for the chooser
/// (`discord`).
pub fn choice_row(c: PendingChoice, discord: u64) -> serenity::CreateActionRow {
    let button = |draw: bool, label: &str, style| {
        serenity::CreateButton::new(
            LeagueCustom::Choose {
                league: c.league_id,
                user: discord,
                match_id: c.match_id,
                game: c.game_no,
                draw,
            }
            .encode(),
        )
        .label(label)
        .style(style)
    };
    serenity::CreateActionRow::Buttons(vec![
        button(false, "Play first", serenity::ButtonStyle::Success),
        button(true, "Draw first", serenity::ButtonStyle::Secondary),
    ])
}

/// The question's buttons, when a reply carries one and its chooser is in Discord.
async fn choice_row_of(
    data: &super::Data,
    choice: Option<PendingChoice>,
) -> Vec<serenity::CreateActionRow> {
    let Some(c) = choice else {
        return Vec::new();
    };
    match data.discord_of(c.chooser).await {
        Some(d) => vec![choice_row(c, d)],
        None => Vec::new(),
    }
}

/// A select menu of the member's builds (the first 25; `/league deck use` reaches the
/// others), the one in use marked; None without builds.
pub fn builds_row(
    league_id: i64,
    discord: u64,
    builds: &[(String, usize)],
    in_use: Option<&str>,
) -> Option<serenity::CreateActionRow> {
    if builds.is_empty() {
        return None;
    }
    let options = builds
        .iter()
        .take(MENU_OPTIONS)
        .map(|(name, cards)| {
            let on = in_use == Some(name.as_str());
            serenity::CreateSelectMenuOption::new(
                delivery::head(
                    &format!(
                        "{name} ({cards} cards){}",
                        if on { " · in use" } else { "" }
                    ),
                    100,
                ),
                delivery::head(name, 100),
            )
            .default_selection(on)
        })
        .collect();
    let more = builds.len().saturating_sub(MENU_OPTIONS);
    let placeholder = if more > 0 {
        format!("Build to play next ({more} more: /league deck use)")
    } else {
        "Build to play next".to_string()
    };
    Some(serenity::CreateActionRow::SelectMenu(
        serenity::CreateSelectMenu::new(
            LeagueCustom::Build {
                league: league_id,
                user: discord,
            }
            .encode(),
            serenity::CreateSelectMenuKind::String { options },
        )
        .placeholder(placeholder),
    ))
}

/// The member's builds menu and the play button, for a reply about their league.
async fn member_rows(
    data: &super::Data,
    league_id: i64,
    user: crate::storage::Id,
    discord: u64,
) -> Vec<serenity::CreateActionRow> {
    let mut rows = Vec::new();
    let Ok(Some(m)) = data.svc.db.member(league_id, user).await else {
        return rows;
    };
    if m.dropped_at.is_some() {
        return rows;
    }
    let builds: Vec<(String, usize)> = data
        .svc
        .db
        .league_decks(league_id, user)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|b| {
            let n = crate::decks::parse(&b.name, &b.list).map_or(0, |d| d.main_count() as usize);
            (b.name, n)
        })
        .collect();
    let sealed = data
        .svc
        .league_ctx(league_id)
        .await
        .is_ok_and(|l| l.is_sealed());
    if sealed {
        rows.extend(builds_row(
            league_id,
            discord,
            &builds,
            m.deck_name.as_deref(),
        ));
    }
    rows.push(play_row(league_id, discord));
    rows
}

/// A click on a league button or menu (`ssl:...`), routed here by the interaction handler;
/// `acked` is set once the interaction has its response (so that a failure after it is told
/// in a followup, and one before it in the response: one response per interaction).
pub async fn on_component(
    data: &super::Data,
    http: &serenity::Http,
    c: &serenity::ComponentInteraction,
    acked: &std::sync::atomic::AtomicBool,
) -> Result<(), Error> {
    let Some(custom) = LeagueCustom::decode(&c.data.custom_id) else {
        return quick(
            http,
            c,
            "This button is not mine (or too old to understand).",
        )
        .await;
    };
    if custom.user() != c.user.id.get() {
        let text = format!(
            "This button is for <@{}>: use `/league play` or `/league deck` for your own.",
            custom.user()
        );
        return quick(http, c, &text).await;
    }
    let defer = serenity::CreateInteractionResponse::Defer(
        serenity::CreateInteractionResponseMessage::new().ephemeral(true),
    );
    delivery::with_retry("defer", || c.create_response(http, defer.clone())).await?;
    acked.store(true, std::sync::atomic::Ordering::SeqCst);
    let reply = league_click(data, http, c, custom).await;
    let mut f = serenity::CreateInteractionResponseFollowup::new()
        .content(delivery::head_with(
            &reply.content,
            delivery::MAX_CONTENT,
            delivery::MORE_LEAGUE,
        ))
        .ephemeral(true)
        .components(reply.rows)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    for (b, n) in reply.files {
        f = f.add_file(serenity::CreateAttachment::bytes(b, n));
    }
    delivery::with_retry("followup", || c.create_followup(http, f.clone())).await?;
    Ok(())
}

/// What a league click does (see [`on_component`]); refusals come back as their message.
async fn league_click(
    data: &super::Data,
    http: &serenity::Http,
    c: &serenity::ComponentInteraction,
    custom: LeagueCustom,
) -> Reply {
    let user = match data.user_of(&c.user).await {
        Ok(u) => u,
        Err(e) => return Reply::ephemeral(e.to_string()),
    };
    let l = match data.svc.league_ctx(custom.league()).await {
        Ok(l) => l,
        Err(e) => return Reply::ephemeral(e.to_string()),
    };
    let here = c.guild_id.map_or(0, |g| g.get() as i64);
    if l.row.guild_id != here {
        return Reply::ephemeral("This button belongs to a league of another server.");
    }
    match custom {
        LeagueCustom::Play { .. } => match data.svc.league_play(l.row.id, user, None).await {
            Ok(r) => {
                announce(data, http, &r).await;
                let mut reply = Reply::ephemeral(r.text);
                reply.rows = member_rows(data, l.row.id, user, c.user.id.get()).await;
                if r.choice.is_some_and(|q| q.chooser == user) {
                    reply.rows.extend(choice_row_of(data, r.choice).await);
                }
                reply
            }
            Err(e) => Reply::ephemeral(e.to_string()),
        },
        LeagueCustom::Choose {
            match_id,
            game,
            draw,
            ..
        } => match data
            .svc
            .league_choose(l.row.id, user, draw, Some((match_id, game)))
            .await
        {
            Ok(r) => {
                announce(data, http, &r).await;
                Reply::ephemeral(r.text)
            }
            Err(e) => Reply::ephemeral(e.to_string()),
        },
        LeagueCustom::Build { .. } => {
            let values = match &c.data.kind {
                serenity::ComponentInteractionDataKind::StringSelect { values } => values.clone(),
                _ => Vec::new(),
            };
            let Some(name) = values.first() else {
                return Reply::ephemeral("Choose a build in the menu.");
            };
            match data.svc.league_deck_use(l.row.id, user, name).await {
                Ok(r) => {
                    let mut reply = Reply::ephemeral(r.text);
                    reply.rows = member_rows(data, l.row.id, user, c.user.id.get()).await;
                    reply
                }
                Err(e) => Reply::ephemeral(e.to_string()),
            }
        }
    }
}

/// What a click started goes where `/league play` would put it: the games delivered and the
/// text in the league's channel, mentioning who it concerns.
async fn announce(data: &super::Data, http: &serenity::Http, r: &LeagueReply) {
    for p in &r.plans {
        game_thread(data, http, p.game_id).await;
        if let Err(e) = delivery::deliver(data, http, p, None).await {
            tracing::warn!(game_id = p.game_id, error = %e, "league game delivery failed");
        }
    }
    if r.plans.is_empty() && r.pings.is_empty() && r.choice.is_none() {
        return;
    }
    let channel = match data.svc.league_ctx(r.league_id).await {
        Ok(l) => l.row.channel_id.and_then(|c| u64::try_from(c).ok()),
        Err(_) => None,
    };
    let (line, mentions) = mention_line(data, &r.pings).await;
    if let Some(ch) = channel.filter(|c| *c != 0) {
        let content = if line.is_empty() {
            r.text.clone()
        } else {
            format!("{line}\n{}", r.text)
        };
        let msg = serenity::CreateMessage::new()
            .content(delivery::head_with(
                &content,
                delivery::MAX_CONTENT,
                delivery::MORE_LEAGUE,
            ))
            .components(choice_row_of(data, r.choice).await)
            .allowed_mentions(serenity::CreateAllowedMentions::new().users(mentions));
        if let Err(e) = serenity::ChannelId::new(ch).send_message(http, msg).await {
            tracing::warn!(error = %e, "league message failed");
        }
    }
}

/// An immediate ephemeral answer (no database work).
async fn quick(
    http: &serenity::Http,
    c: &serenity::ComponentInteraction,
    text: &str,
) -> Result<(), Error> {
    c.create_response(
        http,
        serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(true)
                .allowed_mentions(serenity::CreateAllowedMentions::new().empty_users()),
        ),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Characters Discord counts toward a command's 8000 limit: names, descriptions and
    /// choice names and values, over every subcommand and option.
    fn counted(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(m) => m
                .iter()
                .map(|(k, v)| match k.as_str() {
                    "name" | "description" => v.as_str().map_or(0, |s| s.chars().count()),
                    "value" => v
                        .as_str()
                        .map_or_else(|| v.to_string().len(), |s| s.chars().count()),
                    "options" | "choices" => counted(v),
                    _ => 0,
                })
                .sum(),
            serde_json::Value::Array(a) => a.iter().map(counted).sum(),
            _ => 0,
        }
    }

    /// Every string of `key` in `v`, at any depth.
    fn strings<'a>(v: &'a serde_json::Value, key: &str, out: &mut Vec<&'a str>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    if k == key
                        && let Some(s) = x.as_str()
                    {
                        out.push(s);
                    }
                    strings(x, key, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, key, out)),
            _ => {}
        }
    }

    #[test]
    fn the_league_command_fits_discords_limits() {
        let cmds =
            poise::builtins::create_application_commands::<super::super::Shared, super::Error>(&[
                super::league(),
            ]);
        let json = serde_json::to_value(&cmds).expect("json");
        let cmd = &json[0];
        assert_eq!(cmd["name"], "league");
        let subs = cmd["options"].as_array().expect("subcommands");
        assert!(subs.len() <= 25, "{} subcommands", subs.len());
        for want in ["run", "prefer", "choose", "log", "create", "join", "play"] {
            assert!(subs.iter().any(|s| s["name"] == want), "{want}");
        }
        for s in subs {
            let n = s["options"].as_array().map_or(0, Vec::len);
            assert!(n <= 25, "{}: {n} options", s["name"]);
        }
        let total = counted(cmd);
        assert!(total <= 8000, "{total} characters");
        let mut descs = Vec::new();
        strings(cmd, "description", &mut descs);
        for d in descs {
            assert!(
                (1..=100).contains(&d.chars().count()),
                "a description of 1 to 100 characters: {d}"
            );
        }
        // Subcommand and option names: 1 to 32 lowercase characters, no spaces.
        let ok = |n: &str| {
            (1..=32).contains(&n.chars().count())
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
        };
        for s in subs {
            let name = s["name"].as_str().unwrap_or("");
            assert!(ok(name), "{name}");
            for o in s["options"].as_array().into_iter().flatten() {
                let n = o["name"].as_str().unwrap_or("");
                assert!(ok(n), "{name}: {n}");
            }
        }
    }

    /// League custom ids round-trip, fit Discord's 100 characters at the largest ids, and
    /// anything else (a game's `ss:` id, a cut or padded id, an unknown kind) is not decoded.
    #[test]
    fn league_custom_ids_round_trip_and_refuse_anything_else() {
        use super::LeagueCustom;
        for c in [
            LeagueCustom::Play {
                league: i64::MAX,
                user: u64::MAX,
            },
            LeagueCustom::Build {
                league: 7,
                user: 1002,
            },
            LeagueCustom::Choose {
                league: i64::MAX,
                user: u64::MAX,
                match_id: i64::MAX,
                game: 3,
                draw: false,
            },
            LeagueCustom::Choose {
                league: 7,
                user: 1002,
                match_id: 12,
                game: 1,
                draw: true,
            },
        ] {
            let id = c.encode();
            assert!(id.len() <= 100, "{id}");
            assert_eq!(LeagueCustom::decode(&id), Some(c));
        }
        for bad in [
            "ss:a:1:2:3:pass",
            "ssl:p:1",
            "ssl:p:1:2:3",
            "ssl:x:1:2",
            "ssl:p:one:2",
            "ssl:d:1:-2",
            "ssl:pf:1:2",
            "ssl:pf:1:2:3",
            "ssl:df:1:2:3:x",
            "ssl:pf:1:2:3:4:5",
            "ssl:p:1:2:3:4",
        ] {
            assert_eq!(LeagueCustom::decode(bad), None, "{bad}");
        }
    }

    /// The builds menu: at most 25 options (the placeholder says how many more), the build in
    /// use selected by default, labels and values within 100 characters; no builds, no menu.
    #[test]
    fn the_builds_menu_fits_discords_limits() {
        let builds: Vec<(String, usize)> = (0..30)
            .map(|i| (format!("{}{i}", "b".repeat(38)), 40))
            .collect();
        let in_use = builds[3].0.clone();
        let row = super::builds_row(5, 1002, &builds, Some(&in_use)).expect("a menu");
        let v = serde_json::to_value(&row).expect("json");
        let menu = &v["components"][0];
        let options = menu["options"].as_array().expect("options");
        assert_eq!(options.len(), 25);
        assert!(
            menu["placeholder"]
                .as_str()
                .is_some_and(|p| p.contains("5 more")),
            "{menu}"
        );
        let chosen: Vec<_> = options.iter().filter(|o| o["default"] == true).collect();
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0]["value"], in_use.as_str());
        for o in options {
            for k in ["label", "value"] {
                assert!(o[k].as_str().is_some_and(|s| s.chars().count() <= 100));
            }
        }
        assert!(super::builds_row(5, 1002, &[], None).is_none());
    }
}
