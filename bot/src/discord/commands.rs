//! Slash commands: `/mtg ...` for games, `/deck ...` for saved decks.

use super::components::{self, PickKind};
use super::delivery::{self, head};
use super::interact::{self, Reply};
use super::{Context, Data, Error, Shared};
use crate::decks::{self, Format};
use crate::service::{AGENT_ID, DeckChoice, Pings, Place};
use crate::storage::Id;
use engine::{Answer, Catalog, Ruleset};
use poise::serenity_prelude as serenity;
use serenity::{
    AutoArchiveDuration, ChannelType, CreateActionRow, CreateAllowedMentions,
    CreateAutocompleteResponse, CreateButton, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, CreateThread,
};

/// The ping cadence as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum PingsChoice {
    #[name = "every decision (and reminders)"]
    Every,
    #[name = "deadline reminders only"]
    Reminders,
    #[name = "never"]
    Never,
}

impl From<PingsChoice> for Pings {
    fn from(c: PingsChoice) -> Pings {
        match c {
            PingsChoice::Every => Pings::Every,
            PingsChoice::Reminders => Pings::Reminders,
            PingsChoice::Never => Pings::Never,
        }
    }
}

/// An image language as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum LanguageChoice {
    #[name = "English"]
    English,
    #[name = "繁體中文 (Traditional Chinese)"]
    ZhHant,
}

impl LanguageChoice {
    pub fn key(self) -> &'static str {
        match self {
            LanguageChoice::English => "english",
            LanguageChoice::ZhHant => "zh-hant",
        }
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum RulesetChoice {
    #[name = "modern (2014 rules)"]
    Modern,
    #[name = "classic (2006 rules: mana burn, damage on the stack)"]
    Classic,
}

pub fn all() -> Vec<poise::Command<Shared, Error>> {
    vec![mtg(), deck(), mtg_server(), super::league::league()]
}

pub async fn on_error(e: poise::FrameworkError<'_, Shared, Error>) {
    match e {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::warn!(command = %ctx.command().qualified_name, error = %error, "command failed");
            let r = poise::CreateReply::default()
                .content(interact::failure_text(&error))
                .ephemeral(true);
            let _ = finish(ctx, r, true).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}

/// Sends a [`Reply`] as the command's response.
pub async fn send(ctx: Context<'_>, r: Reply) -> Result<(), Error> {
    let mut b = poise::CreateReply::default()
        .content(r.content_cut())
        .ephemeral(r.ephemeral)
        .components(r.rows)
        .allowed_mentions(CreateAllowedMentions::new().users(r.mentions));
    for (bytes, name) in r.files {
        b = b.attachment(serenity::CreateAttachment::bytes(bytes, name));
    }
    finish(ctx, b, r.ephemeral).await
}

/// Set by [`defer_public`]: whether the deferral's message has been answered yet.
struct PublicDefer {
    answered: bool,
}

/// Defers publicly. Discord makes the first followup after a deferral take the deferral's
/// visibility, whatever its own flags say: [`finish`] then keeps private answers private.
pub async fn defer_public(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    ctx.set_invocation_data(PublicDefer { answered: false })
        .await;
    Ok(())
}

/// Sends `b`. After a public deferral a private answer does not go in the deferred (public)
/// message: that message is filled with a neutral line, the answer follows ephemerally, and
/// the neutral line is deleted.
pub async fn finish(ctx: Context<'_>, b: poise::CreateReply, ephemeral: bool) -> Result<(), Error> {
    let first_after_public = match ctx.invocation_data::<PublicDefer>().await {
        Some(mut d) => !std::mem::replace(&mut d.answered, true),
        None => false,
    };
    if let (true, true, poise::Context::Application(a)) = (ephemeral, first_after_public, ctx) {
        a.interaction
            .edit_response(
                ctx.http(),
                serenity::EditInteractionResponse::new().content("Answered privately."),
            )
            .await?;
        delivery::with_retry("reply", || ctx.send(b.clone())).await?;
        if let Err(e) = a.interaction.delete_response(ctx.http()).await {
            tracing::debug!(error = %e, "could not delete the placeholder");
        }
        return Ok(());
    }
    delivery::with_retry("reply", || ctx.send(b.clone())).await?;
    Ok(())
}

/// Play Magic: The Gathering (Time Spiral) with rules enforcement.
#[poise::command(
    slash_command,
    subcommands(
        "challenge",
        "games",
        "board",
        "log",
        "hand",
        "play",
        "pass",
        "attack",
        "block",
        "concede",
        "undo",
        "settings",
        "card"
    ),
    subcommand_required
)]
pub async fn mtg(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Manage your saved decks.
#[poise::command(
    slash_command,
    subcommands("deck_import", "deck_list", "deck_show", "deck_delete"),
    subcommand_required
)]
pub async fn deck(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

async fn ac_deck(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let mut names: Vec<String> = decks::READY.iter().map(|d| d.key.to_string()).collect();
    if let Ok(u) = ctx.data().user_of(ctx.author()).await
        && let Ok(ds) = ctx.data().svc.db.decks_of(u).await
    {
        names.extend(ds.into_iter().map(|d| d.name));
    }
    let p = partial.to_lowercase();
    names
        .into_iter()
        .filter(|n| n.to_lowercase().contains(&p))
        // Discord refuses choices over 100 characters (the rest are typed).
        .filter(|n| !n.is_empty() && n.chars().count() <= 100)
        .take(25)
        .fold(CreateAutocompleteResponse::new(), |r, n| {
            r.add_string_choice(n.clone(), n)
        })
}

/// A deck name: one of the user's saved decks, else a ready-made one.
pub async fn deck_choice(data: &Data, user: Id, name: Option<&str>) -> DeckChoice {
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    match name {
        Some(n) => match data.svc.db.deck_by_name(user, n).await {
            Ok(Some(_)) => DeckChoice::Saved(n.to_string()),
            _ => DeckChoice::Ready(n.to_string()),
        },
        None => DeckChoice::Ready("red".into()),
    }
}

/// Challenge someone (or the bot itself, for a game against the random agent).
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who you challenge (the bot itself: a random opponent)"]
    opponent: serenity::User,
    #[description = "Your deck: a saved deck or red, green, white, blue, black"]
    #[autocomplete = "ac_deck"]
    deck: Option<String>,
    #[description = "Rules (default from the server config)"] ruleset: Option<RulesetChoice>,
) -> Result<(), Error> {
    // A game is played in a thread of a server's channel: there is none in a DM.
    if ctx.guild_id().is_none() {
        return send(
            ctx,
            Reply::ephemeral(
                "Challenges are made in a server's channel (the game gets a thread there), not in a direct message.",
            ),
        )
        .await;
    }
    defer_public(ctx).await?;
    let data = ctx.data();
    let http = ctx.http();
    let me = data.user_of(ctx.author()).await?;
    let bot = data.bot_id.lock().ok().and_then(|b| *b);
    let vs_agent = Some(opponent.id) == bot;
    if opponent.bot && !vs_agent {
        return send(
            ctx,
            Reply::ephemeral(
                "Bots cannot play (challenge me instead for a game against the random agent).",
            ),
        )
        .await;
    }
    let opp = if vs_agent {
        data.svc.user(AGENT_ID, "Random agent").await?
    } else {
        data.user_of(&opponent).await?
    };
    let deck = deck_choice(data, me, deck.as_deref()).await;
    let ruleset = ruleset.map(|r| match r {
        RulesetChoice::Modern => Ruleset::Modern,
        RulesetChoice::Classic => Ruleset::Classic,
    });
    let channel = ctx.channel_id();
    let me_name = super::display_name(ctx.author());
    let opp_name = super::display_name(&opponent);
    // One thread per game (inside a thread, or when no thread can be made: the channel
    // itself).
    let thread = match channel
        .create_thread(
            http,
            CreateThread::new(head(&format!("MTG: {me_name} vs {opp_name}"), 90))
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneWeek),
        )
        .await
    {
        Ok(t) => t.id,
        Err(e) => {
            tracing::info!(error = %e, "no thread for the game; using the channel");
            channel
        }
    };
    let place = Place {
        guild_id: ctx.guild_id().map(|g| g.get() as i64),
        channel_id: Some(channel.get() as i64),
        thread_id: Some(thread.get() as i64),
    };
    let plan = match data.svc.challenge(me, &deck, &[opp], ruleset, place).await {
        Ok(p) => p,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    let game = plan.game_id;
    let status = format!(
        "**Game {game}** · challenge: <@{}> vs {} — waiting for an answer.",
        ctx.author().id,
        if vs_agent {
            "the random agent".to_string()
        } else {
            format!("<@{}>", opponent.id)
        }
    );
    let status_note = delivery::update_status(data, http, game, thread, status)
        .await
        .note();
    if vs_agent {
        let d = delivery::deliver(data, http, &plan, Some(me)).await?;
        let mut r = interact::panel(
            data,
            http,
            me,
            ctx.author().id.get(),
            game,
            !d.dm_failed.is_empty(),
        )
        .await;
        let notes: Vec<String> = status_note.into_iter().chain(d.notes()).collect();
        r.content = format!(
            "Game {game} against the random agent starts in <#{thread}>.\n{}{}",
            notes.iter().map(|n| format!("{n}\n")).collect::<String>(),
            r.content
        );
        return send(ctx, r).await;
    }
    // The challenge, with buttons only the opponent can use.
    let mut rows = vec![CreateActionRow::Buttons(vec![
        CreateButton::new(
            components::Custom::Accept {
                game,
                user: opponent.id.get(),
            }
            .encode(),
        )
        .label("Accept")
        .style(serenity::ButtonStyle::Success),
        CreateButton::new(
            components::Custom::Decline {
                game,
                user: opponent.id.get(),
            }
            .encode(),
        )
        .label("Decline")
        .style(serenity::ButtonStyle::Danger),
    ])];
    let mut deck_opts: Vec<CreateSelectMenuOption> = Vec::new();
    if let Ok(ds) = data.svc.db.decks_of(opp).await {
        for d in ds.into_iter().take(15) {
            if d.name.len() <= 100 {
                deck_opts.push(CreateSelectMenuOption::new(head(&d.name, 90), d.name));
            }
        }
    }
    for d in decks::READY {
        deck_opts.push(CreateSelectMenuOption::new(
            format!("{} (ready-made)", d.title),
            d.key,
        ));
    }
    rows.push(CreateActionRow::SelectMenu(
        CreateSelectMenu::new(
            format!("ss:Y:{game}:{}", opponent.id.get()),
            CreateSelectMenuKind::String { options: deck_opts },
        )
        .placeholder("Accept with deck…"),
    ));
    let text = format!(
        "<@{}>, <@{}> challenges you to **game {game}** ({} rules). Accept with a deck, or decline. The game is played in <#{thread}>.",
        opponent.id,
        ctx.author().id,
        ruleset.map_or_else(
            || data.svc.cfg.default_ruleset.clone(),
            |r| r.name().to_string()
        )
    );
    if thread != channel {
        let _ = thread
            .send_message(
                http,
                CreateMessage::new()
                    .content(format!(
                        "<@{}> challenged <@{}>: waiting for an answer.",
                        ctx.author().id,
                        opponent.id
                    ))
                    .allowed_mentions(CreateAllowedMentions::new().empty_users()),
            )
            .await;
    }
    send(
        ctx,
        Reply {
            content: text,
            rows,
            mentions: vec![opponent.id],
            ..Reply::public("")
        },
    )
    .await
}

/// Your open games, and which of them wait for you.
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let rows = data.svc.games_of(me).await?;
    if rows.is_empty() {
        return send(
            ctx,
            Reply::ephemeral("You have no open game. Start one with `/mtg challenge`."),
        )
        .await;
    }
    let mut lines = Vec::new();
    for r in rows.iter().take(20) {
        let mut line = format!("**Game {}** · {}", r.id, r.status);
        if let Some(t) = r.thread_id {
            line.push_str(&format!(" · <#{t}>"));
        }
        if r.status == "active"
            && let Ok(l) = data.svc.load(r.id).await
        {
            let names: Vec<String> = l.game.players.iter().map(|p| p.name.clone()).collect();
            line.push_str(&format!(" · {}", names.join(" vs ")));
            if let Some(p) = l.game.pending()
                && l.seats
                    .get(p.player.index())
                    .is_some_and(|s| s.user_id == me)
            {
                line.push_str(" · **waiting on you**");
            }
        } else if r.status == "challenge" {
            line.push_str(" · waiting for the challenge to be answered");
        }
        lines.push(line);
    }
    send(ctx, Reply::ephemeral(lines.join("\n"))).await
}

/// The board (public information) as an image.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let g = match interact::resolve_view(data, me, ctx.channel_id(), game).await {
        Ok(g) => g,
        Err(m) => return send(ctx, Reply::ephemeral(m)).await,
    };
    let l = match data.svc.load(g).await {
        Ok(l) => l,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    let seats: Vec<Id> = l.seats.iter().map(|s| s.user_id).collect();
    // The status, then the whole public board in words: every permanent, each player's
    // graveyard, exile, continuing effects (the spectator's view).
    let mut r = Reply::ephemeral(format!(
        "{}
{}",
        delivery::status_text(data, g, &l.game, &seats).await,
        crate::board_text::board(&l.game.view(None))
    ));
    // Cut, it points to the image and the log: not to `/mtg board` itself.
    r.more = Some(delivery::MORE_BOARD);
    let recent = data.mem(|m| m.recent.get(&g).cloned().unwrap_or_default());
    if let Some(png) = delivery::board_png(data, g, &l.game.view(None), &recent).await {
        r.files.push((png, "board.png".into()));
    }
    send(ctx, r).await
}

/// The game's log: what happened, as anyone watching saw it (only you see this reply).
#[poise::command(slash_command)]
pub async fn log(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
    #[description = "How many of the last lines (default 40)"] lines: Option<u32>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let g = match interact::resolve_view(data, me, ctx.channel_id(), game).await {
        Ok(g) => g,
        Err(m) => return send(ctx, Reply::ephemeral(m)).await,
    };
    let text = match data.svc.log_lines(g).await {
        Ok(all) if all.is_empty() => format!("**Game {g}**: nothing has happened yet."),
        Ok(all) => {
            let n = lines.unwrap_or(40).clamp(1, 500) as usize;
            let from = all.len().saturating_sub(n);
            format!(
                "**Game {g}** · log, lines {}-{} of {}:\n{}",
                from + 1,
                all.len(),
                all.len(),
                all[from..].join("\n")
            )
        }
        Err(e) => format!("The log of game {g} cannot be read: {e}"),
    };
    // Too long for one message: the newest lines are kept.
    send(ctx, Reply::ephemeral(log_tail(&text))).await
}

/// `text` cut to one message keeping its first line (which game) and its newest lines.
fn log_tail(text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let room = delivery::MAX_CONTENT.saturating_sub(first.chars().count() + 80);
    if rest.chars().count() <= room {
        return text.to_string();
    }
    let skip = rest.chars().count() - room;
    let tail: String = rest.chars().skip(skip).collect();
    let tail = tail.split_once('\n').map_or(tail.as_str(), |(_, t)| t);
    format!("{first}\n(older lines left out: `/mtg log lines:N` for fewer)\n{tail}")
}

/// Your hand and everything you may do now (only you see it).
#[poise::command(slash_command)]
pub async fn hand(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let g = match interact::resolve_game(data, me, ctx.channel_id(), game).await {
        Ok(g) => g,
        Err(m) => return send(ctx, Reply::ephemeral(m)).await,
    };
    let r = interact::panel(data, ctx.http(), me, ctx.author().id.get(), g, true).await;
    send(ctx, r).await
}

async fn ac_play(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let data = ctx.data();
    let mut out = CreateAutocompleteResponse::new();
    let Ok(me) = data.user_of(ctx.author()).await else {
        return out;
    };
    let Ok(g) = interact::resolve_game(data, me, ctx.channel_id(), None).await else {
        return out;
    };
    let Ok(l) = data.svc.load(g).await else {
        return out;
    };
    let Some(seat) = l.seat_of(me) else {
        return out;
    };
    for o in crate::grammar::completions(&l.game, seat, partial)
        .into_iter()
        .filter(|o| o.chars().count() <= 100)
        .take(25)
    {
        out = out.add_string_choice(o.clone(), o);
    }
    out
}

/// Play a land, cast a spell, activate an ability or answer what is asked (autocompleted).
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "What to do, e.g. `play Forest`, `cast Lightning Axe on Ashcoat Bear`"]
    #[autocomplete = "ac_play"]
    what: String,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    game_words(ctx, game, &what).await
}

/// Pass priority (or answer `pass` to what is asked).
#[poise::command(slash_command)]
pub async fn pass(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    game_words(ctx, game, "pass").await
}

/// Concede the game (asks for confirmation unless `confirm` is true).
#[poise::command(slash_command)]
pub async fn concede(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
    #[description = "True to concede now (without it you are asked to confirm)"] confirm: Option<
        bool,
    >,
) -> Result<(), Error> {
    let words = if confirm == Some(true) {
        "concede yes"
    } else {
        "concede"
    };
    game_words(ctx, game, words).await
}

/// Ask your opponent to take back your last command.
#[poise::command(slash_command)]
pub async fn undo(
    ctx: Context<'_>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    game_words(ctx, game, "undo").await
}

async fn game_words(ctx: Context<'_>, game: Option<i64>, words: &str) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    // Words about the player (stops, a card's text) need no game.
    use crate::grammar::Command;
    if let Some(
        cmd @ (Command::Stops(_) | Command::ListStops | Command::HelpStops | Command::Card(_)),
    ) = crate::grammar::fixed_command(words)
    {
        let text = match data.svc.player_words(me, &cmd).await {
            Ok(m) => m,
            Err(e) => e.to_string(),
        };
        let mut r = Reply::ephemeral(text);
        if matches!(cmd, Command::Card(_)) {
            r.more = Some(delivery::MORE_CARD);
        }
        return send(ctx, r).await;
    }
    let g = match interact::resolve_game(data, me, ctx.channel_id(), game).await {
        Ok(g) => g,
        Err(m) => return send(ctx, Reply::ephemeral(m)).await,
    };
    let r = interact::act(data, ctx.http(), me, ctx.author().id.get(), g, words, None).await;
    send(ctx, r).await
}

/// Declare attackers: name them, or pick them from a menu.
#[poise::command(slash_command)]
pub async fn attack(
    ctx: Context<'_>,
    #[description = "Attackers (e.g. `Ashcoat Bear, Havenwood Wurm` or `all`); empty: a menu"]
    creatures: Option<String>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    if let Some(c) = creatures.filter(|c| !c.trim().is_empty()) {
        return game_words(ctx, game, &format!("attack with {}", c.trim())).await;
    }
    picker(ctx, game, PickKind::Attack).await
}

/// Declare blockers: name them, or pick them from a menu.
#[poise::command(slash_command)]
pub async fn block(
    ctx: Context<'_>,
    #[description = "Blocks (e.g. `block Ashcoat Bear with Scarwood Treefolk`); empty: a menu"]
    blocks: Option<String>,
    #[description = "Game id (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    if let Some(b) = blocks.filter(|c| !c.trim().is_empty()) {
        let b = b.trim();
        let words = if b.starts_with("block") || b.starts_with("no") {
            b.to_string()
        } else {
            format!("block {b}")
        };
        return game_words(ctx, game, &words).await;
    }
    picker(ctx, game, PickKind::Block).await
}

async fn picker(ctx: Context<'_>, game: Option<i64>, kind: PickKind) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let g = match interact::resolve_game(data, me, ctx.channel_id(), game).await {
        Ok(g) => g,
        Err(m) => return send(ctx, Reply::ephemeral(m)).await,
    };
    let l = match data.svc.load(g).await {
        Ok(l) => l,
        Err(e) => return send(ctx, Reply::ephemeral(e.to_string())).await,
    };
    let Some(seat) = l.seat_of(me) else {
        return send(ctx, Reply::ephemeral("You are not playing in this game.")).await;
    };
    let legal = if l.game.pending().is_some_and(|p| p.player == seat) {
        l.game.legal_answers(seat)
    } else {
        Vec::new()
    };
    let d = ctx.author().id.get();
    let r = picker_reply(&l.game, seat, g, l.row.version, d, kind, &legal);
    send(ctx, r).await
}

/// The attack or block picker: one menu of every creature that may attack (every legal
/// pair of attacker and blocker) answered at once; past 25 of them, up to four paged menus
/// whose choices are gathered and declared together with **Declare**. Identical creatures
/// are counted (`Saproling 2 of 6`).
pub fn picker_reply(
    game: &engine::Game,
    seat: engine::PlayerId,
    g: i64,
    version: i64,
    d: u64,
    kind: PickKind,
    legal: &[Answer],
) -> Reply {
    let none = legal.iter().find_map(|a| match (kind, a) {
        (PickKind::Attack, Answer::Attack(v)) if v.is_empty() => Some("no attack"),
        (PickKind::Block, Answer::Block(v)) if v.is_empty() => Some("no blocks"),
        _ => None,
    });
    let choices = if legal.is_empty() {
        Vec::new()
    } else if kind == PickKind::Attack {
        crate::grammar::attack_choices(game, seat)
    } else {
        crate::grammar::block_choices(game, seat)
    };
    let items: Vec<(String, String)> = choices.iter().map(|c| (c.clone(), c.clone())).collect();
    let (what, placeholder, question) = if kind == PickKind::Attack {
        ("attack", "Choose attackers", "Who attacks?")
    } else {
        ("block", "Choose blocks", "How do you block?")
    };
    if items.is_empty() {
        return Reply::ephemeral(format!("You cannot {what} now."));
    }
    let paged = items.len() > components::MENU_OPTIONS;
    let pick = components::Pick {
        game: g,
        version,
        user: d,
        kind,
        text: if paged { components::DRAFT } else { "" },
        placeholder,
        min_values: 1,
    };
    let mut rows = components::pick_menus(&pick, &items, items.len().min(25) as u8, 4);
    let mut text = question.to_string();
    if paged {
        let shown = items.len().min(4 * components::MENU_OPTIONS);
        text.push_str(&format!(
            "\n{} choices, in menus of {}: choose in each menu you need, then press **Declare**.",
            items.len(),
            components::MENU_OPTIONS
        ));
        if shown < items.len() {
            text.push_str(&format!(
                " The menus hold 1-{shown}; name the others with `/mtg {what}`."
            ));
        }
    }
    let mut quick: Vec<String> = none.map(|n| vec![n.to_string()]).unwrap_or_default();
    if kind == PickKind::Attack
        && crate::grammar::options(game, seat, false)
            .iter()
            .any(|o| o == "attack with all")
    {
        quick.push("attack with all".into());
    }
    rows.extend(components::answer_buttons(
        g,
        version,
        d,
        &quick,
        Vec::new(),
    ));
    rows.truncate(5);
    Reply {
        rows,
        ..Reply::ephemeral(text)
    }
}

/// Your settings: stops, DMs, pings.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Stops: default, none, all, or steps to toggle (upkeep end, my upkeep, their end)"]
    stops: Option<String>,
    #[description = "Receive your hand by DM (off: only when you ask, with /mtg hand)"] dms: Option<
        bool,
    >,
    #[description = "When to mention you: every decision, deadline reminders only, never"]
    pings: Option<PingsChoice>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let mut p = data.svc.prefs(me).await?;
    let mut notes = Vec::new();
    if let Some(s) = stops.filter(|s| !s.trim().is_empty()) {
        match p.stops.apply(s.trim()) {
            Ok(m) => notes.push(m),
            Err(m) => return send(ctx, Reply::ephemeral(m)).await,
        }
    }
    if let Some(d) = dms {
        p.dms = d;
        if d {
            let id = ctx.author().id.get();
            data.mem(|m| {
                m.dm_closed.remove(&id);
                m.dm_told.remove(&id);
            });
        }
    }
    if let Some(x) = pings {
        p.pings = x.into();
    }
    data.svc.set_prefs(me, &p).await?;
    let text = format!(
        "{}Stops in your turn: {}\nStops in their turns: {}\nRespond when something is on the stack: {}\nHand by DM: {}\nMentions: {}",
        notes.iter().map(|n| format!("{n}\n")).collect::<String>(),
        if p.stops.my_turn.is_empty() {
            "none".into()
        } else {
            p.stops.my_turn.join(", ")
        },
        if p.stops.their_turn.is_empty() {
            "none".into()
        } else {
            p.stops.their_turn.join(", ")
        },
        if p.stops.stop_on_stack { "yes" } else { "no" },
        if p.dms {
            "yes"
        } else {
            "no (ask with /mtg hand or the My hand button)"
        },
        p.pings.describe(),
    );
    send(ctx, Reply::ephemeral(text)).await
}

/// Whether the member who used the command may manage the server (Discord sends the
/// member's resolved permissions with each interaction).
fn may_manage_server(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild() || p.administrator()),
        poise::Context::Prefix(_) => false,
    }
}

/// This server's Spellstack settings: the language of card names on images (Manage Server).
#[poise::command(
    slash_command,
    rename = "mtg-server",
    guild_only,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn mtg_server(
    ctx: Context<'_>,
    #[description = "Card names on board, hand and card images (empty: show the current one)"]
    language: Option<LanguageChoice>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let Some(guild) = ctx.guild_id().map(|g| g.get() as i64) else {
        return send(
            ctx,
            Reply::ephemeral("Server settings are made in a server."),
        )
        .await;
    };
    let current = data.language_of_guild(Some(guild)).await;
    let name = |l: render::Language| match l {
        render::Language::English => "English",
        render::Language::ZhHant => "Traditional Chinese (繁體中文)",
    };
    let Some(choice) = language else {
        return send(
            ctx,
            Reply::ephemeral(format!(
                "Card names on this server's images: {}. Change it with `/mtg-server language:` (Manage Server permission).",
                name(current)
            )),
        )
        .await;
    };
    if !may_manage_server(ctx) {
        return send(
            ctx,
            Reply::ephemeral(
                "Only members with the Manage Server permission can change this server's settings.",
            ),
        )
        .await;
    }
    let wanted = crate::config::parse_language(choice.key()).unwrap_or_default();
    if let Err(e) = data.try_renderer(wanted) {
        return send(
            ctx,
            Reply::ephemeral(format!(
                "{} names cannot be drawn on this bot's host: {e}. Whoever runs the bot can \
                 install the font (Debian: `apt-get install fonts-noto-cjk`) or set \
                 `images.cjk_font_path` in config.toml. The setting was not changed: images \
                 stay in {}.",
                name(wanted),
                name(current)
            )),
        )
        .await;
    }
    let me = data.user_of(ctx.author()).await?;
    data.svc.set_guild_language(guild, choice.key(), me).await?;
    send(
        ctx,
        Reply::ephemeral(format!(
            "Card names on this server's images are now in {} (from the next image on).",
            name(wanted)
        )),
    )
    .await
}

async fn ac_card(_ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    Catalog::builtin()
        .suggest(partial, 25)
        .into_iter()
        .fold(CreateAutocompleteResponse::new(), |r, c| {
            r.add_string_choice(c.name.clone(), c.name.clone())
        })
}

/// A card's text and image.
#[poise::command(slash_command)]
pub async fn card(
    ctx: Context<'_>,
    #[description = "Card name"]
    #[autocomplete = "ac_card"]
    name: String,
) -> Result<(), Error> {
    defer_public(ctx).await?;
    let def = match crate::card_text::find(&name) {
        Ok(d) => d,
        Err(why) => return send(ctx, Reply::ephemeral(why)).await,
    };
    let face = crate::scene::face_of_def(def);
    // The facts and rulings (as `card NAME` says them), within a Discord message.
    let text =
        crate::card_text::describe(def, 6).replacen(&def.name, &format!("**{}**", def.name), 1);
    let mut r = Reply::public(text);
    r.more = Some(delivery::MORE_CARD);
    let guild = ctx.guild_id().map(|g| g.get() as i64);
    let language = ctx.data().language_of_guild(guild).await;
    if let Some(rend) = ctx.data().renderer(language)
        && let Ok(Ok(png)) = tokio::task::spawn_blocking(move || rend.card_png(&face)).await
    {
        r.files.push((png, "card.png".into()));
    }
    send(ctx, r).await
}

/// Import a deck list (`4 Lightning Axe; 20 Mountain; ...`: `;` or new lines between entries).
#[poise::command(slash_command, rename = "import")]
pub async fn deck_import(
    ctx: Context<'_>,
    #[description = "Deck name"] name: String,
    #[description = "The list: `4 Lightning Axe; 4 Brute Force; 11 Mountain; ...`"] list: String,
    #[description = "constructed (default) or limited"] format: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let format = match format.as_deref().map(Format::parse).transpose() {
        Ok(f) => f.unwrap_or(Format::Constructed),
        Err(e) => return send(ctx, Reply::ephemeral(e)).await,
    };
    let text = list.replace([';', '|'], "\n");
    match data.svc.import_deck(me, &name, &text, format).await {
        Ok(d) => send(
            ctx,
            Reply::ephemeral(format!(
                "Saved deck **{}** ({} cards, sideboard {}). Use it with `/mtg challenge deck:` \
                 (autocompleted).",
                super::plain_deck_name(&d.name),
                d.main_count(),
                d.sideboard_count(),
            )),
        )
        .await,
        Err(e) => {
            send(
                ctx,
                Reply::ephemeral(format!("The deck was not saved: {e}")),
            )
            .await
        }
    }
}

/// Your saved decks.
#[poise::command(slash_command, rename = "list")]
pub async fn deck_list(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let ds = data.svc.db.decks_of(me).await?;
    let mut s = String::new();
    for d in &ds {
        s.push_str(&format!(
            "**{}** ({})\n",
            super::plain_deck_name(&d.name),
            d.format
        ));
    }
    s.push_str("Ready-made: ");
    s.push_str(
        &decks::READY
            .iter()
            .map(|d| format!("`{}` {}", d.key, d.title))
            .collect::<Vec<_>>()
            .join(", "),
    );
    send(ctx, Reply::ephemeral(s)).await
}

/// Show a saved (or ready-made) deck.
#[poise::command(slash_command, rename = "show")]
pub async fn deck_show(
    ctx: Context<'_>,
    #[autocomplete = "ac_deck"] name: String,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    let (text, list) = match data.svc.db.deck_by_name(me, &name).await? {
        Some(d) => (
            format!(
                "**{}** ({})\n{}",
                super::plain_deck_name(&d.name),
                d.format,
                d.list
            ),
            Some(d.list),
        ),
        None => match decks::ready(&name) {
            Some(r) => (
                format!("**{}** (ready-made)\n{}", r.title, r.list),
                Some(r.list.to_string()),
            ),
            None => (
                format!(
                    "You have no deck called **{}**.",
                    super::plain_deck_name(&name)
                ),
                None,
            ),
        },
    };
    send(ctx, deck_show_reply(text, list)).await
}

/// The `/deck show` reply: the deck's text, and when it is too long for one message, cut
/// with a pointer to the whole list, attached as `deck.txt`.
pub fn deck_show_reply(text: String, list: Option<String>) -> Reply {
    let mut r = Reply::ephemeral(text);
    if r.content.chars().count() > delivery::MAX_CONTENT
        && let Some(list) = list
    {
        r.more = Some(delivery::MORE_DECK);
        r.files.push((list.into_bytes(), "deck.txt".into()));
    }
    r
}

/// Delete a saved deck.
#[poise::command(slash_command, rename = "delete")]
pub async fn deck_delete(
    ctx: Context<'_>,
    #[autocomplete = "ac_deck"] name: String,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let me = data.user_of(ctx.author()).await?;
    // The name as the user typed it, written plain: it can't break the formatting.
    let shown = super::plain_deck_name(&name);
    let text = if data.svc.db.delete_deck(me, &name).await? {
        format!("Deleted **{shown}**.")
    } else {
        format!("You have no deck called **{shown}**.")
    };
    send(ctx, Reply::ephemeral(text)).await
}
