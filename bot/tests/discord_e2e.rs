//! End to end without Discord: a small fake Discord (REST and the gateway websocket on
//! 127.0.0.1) and the real serenity client and poise framework pointed at it. The tests inject
//! INTERACTION_CREATE events as players would cause them, record every REST call the bot makes
//! (attachments with their bytes), and assert on them.
//!
//! - `a_short_game_through_a_fake_discord`: challenge, accept with a deck, mulligans, a land, a
//!   spell with a target (menus), attack and block pickers, concede; the game thread, the
//!   status message edited in place, the board PNG, hands by DM (one player's DMs closed:
//!   error 50007), ephemeral replies, the right user mentioned, a wrong-user click, a stale
//!   button.
//! - `commands_settings_undo_and_reminders_through_a_fake_discord`: `/deck` import (a bad list
//!   refused), list, show, delete; `/mtg card`; a declined challenge; `/mtg settings` (DMs off,
//!   ping cadence); `/mtg games`, `/mtg board`, `/mtg hand`; `/mtg play` autocomplete; undo
//!   refused then allowed; the scheduler's deadline reminders with or without a mention;
//!   `/mtg-server language` (Manage Server only) and a card image in that language.
//! - `accept_default_button_for_a_blocker_order`: a real blocker order answered with the
//!   **Accept default** button.
//! - `two_games_at_once_from_the_direct_messages`: each game's DM moves that game only.
//! - `suspend_and_cycle_...`, `a_search_...`, `a_discard_of_two_...`, `mulligans_from_the_direct_message`:
//!   the hand's decisions answered from the DM (stale DM buttons say the game moved on).
//! - `paged_declare_attackers_and_blockers_past_25_choices`: paged pickers and **Declare**.
//! - `answers.rs`: a madness discard answered from the DM, Gemstone Caverns' pregame action
//!   from the DM, Trickbind's target among abilities on the stack from a menu.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use engine::decision::Decision;
use serde_json::{Value, json};
use spellstack::config::Config;
use spellstack::discord::{self, Data, Register};
use spellstack::service::{Clock, Service};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Answers taken from the DM and the menus: madness, Gemstone Caverns' pregame action,
/// Trickbind's ability targets.
#[path = "discord_e2e/answers.rs"]
mod answers;
/// A spectator's board and log, a challenge from a DM, closed DMs tried again.
#[path = "discord_e2e/public.rs"]
mod public;
/// The status message's failures (deleted, thread deleted or archived) and one initial
/// response per interaction (40060).
#[path = "discord_e2e/status.rs"]
mod status;
/// The audit's gaps: the fake's own rules, failures per Discord code, private errors, cuts
/// with a pointer, undo of a draw, a land and a creature from the DM, deck names, challenge
/// expiry, target autocomplete, X past the first page.
#[path = "discord_e2e/strict.rs"]
mod strict;

const APP: u64 = 999;
const ALICE: u64 = 1001;
const BOB: u64 = 1002;
const MALLORY: u64 = 1003;
const GUILD: u64 = 400;
const CHANNEL: u64 = 500;

#[derive(Debug, Clone)]
struct Call {
    method: String,
    path: String,
    json: Value,
    /// Attached files: name and bytes.
    files: Vec<(String, Vec<u8>)>,
    /// The HTTP status the fake answered.
    status: u16,
    /// The bot token it came with (which of several bot processes made it).
    auth: String,
}

#[derive(Default)]
struct Fake {
    port: AtomicU64,
    calls: Mutex<Vec<Call>>,
    next: AtomicU64,
    seq: AtomicU64,
    /// The gateway sessions: (shard id, shard total, sender). A server's events go to the
    /// session of its shard (`(guild_id >> 22) % total`), direct messages to shard 0.
    ws: Mutex<Vec<(u64, u64, mpsc::UnboundedSender<String>)>>,
    ready: Mutex<bool>,
    dm_closed: Mutex<HashSet<u64>>,
    dm_channels: Mutex<HashMap<u64, u64>>,
    /// Messages per channel (id, json).
    messages: Mutex<HashMap<u64, Vec<Value>>>,
    /// The bot's service, to know which card names are hidden when something is posted.
    svc: Mutex<Option<Service>>,
    /// Every error answered: path, status, Discord code, message.
    errors: Mutex<Vec<(String, u16, u64, String)>>,
    /// Discord error codes the running test expects (e.g. 50007 for closed DMs).
    expected: Mutex<HashSet<u64>>,
    /// Deferred interactions: token -> (the deferral's flags, whether its first followup
    /// already came).
    deferred: Mutex<HashMap<String, (u64, bool)>>,
    /// Public posts and replies that named a hidden card: (card, text).
    leaks: Mutex<Vec<(String, String)>>,
    /// Interactions that look a card up by name (`/mtg card`): the answer names the card
    /// asked for, which reveals nothing about any game.
    lookups: Mutex<HashSet<String>>,
    /// Channels where posting fails (a locked or deleted thread): the Discord code to answer.
    fail_posts: Mutex<HashMap<u64, u64>>,
    /// Channels where editing a message fails (the thread deleted or archived): the code.
    fail_edits: Mutex<HashMap<u64, u64>>,
    /// Messages deleted (by a moderator): editing them answers 10008 Unknown Message.
    deleted: Mutex<HashSet<u64>>,
    /// Interactions that got their initial response (a callback): a second one is refused
    /// with 40060, as Discord refuses it.
    acked: Mutex<HashSet<String>>,
    /// The tokens of the interactions acknowledged: a followup, or an edit or deletion of
    /// the original response, to any other is refused with 10015 Unknown Webhook.
    acked_tokens: Mutex<HashSet<String>>,
    /// How many of the next initial responses (callbacks) are answered 429.
    callbacks_429: AtomicU64,
    /// Channels whose next posts are answered 429 (rate limited): how many more.
    rate_limited: Mutex<HashMap<u64, u32>>,
    /// The values each select menu (by custom id) offered in any message sent: Discord only
    /// ever sends back values a menu offered, so a test's choice must be one of them.
    menus: Mutex<HashMap<String, HashSet<String>>>,
    /// The server interactions are sent from (`GUILD` unless a test changes it; 0: a DM).
    guild: AtomicU64,
}

fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({"id": id.to_string(), "username": name, "global_name": name, "discriminator": "0", "avatar": null, "bot": bot})
}

impl Fake {
    fn id(&self) -> u64 {
        10_000 + self.next.fetch_add(1, Ordering::SeqCst)
    }

    fn message(&self, channel: u64, body: &Value) -> Value {
        let id = self.id();
        let m = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": user_json(APP, "Spellstack", true),
            "content": body.get("content").cloned().unwrap_or(json!("")),
            "timestamp": "2025-01-01T00:00:00.000000+00:00",
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
            "components": [],
        });
        self.messages
            .lock()
            .unwrap()
            .entry(channel)
            .or_default()
            .push(m.clone());
        m
    }

    /// Answers an error as Discord does, and records it.
    fn refuse(
        &self,
        path: &str,
        status: StatusCode,
        code: u64,
        message: &str,
        errors: &[String],
    ) -> Response {
        self.errors.lock().unwrap().push((
            path.to_string(),
            status.as_u16(),
            code,
            format!("{message} {errors:?}"),
        ));
        (
            status,
            axum::Json(json!({"code": code, "message": message, "errors": {"_errors": errors}})),
        )
            .into_response()
    }

    /// A 429 as Discord answers it: `retry-after` (seconds) and the bucket's headers, and
    /// the JSON body with `retry_after`. Recorded as an error of code 429.
    fn rate_limit(&self, path: &str) -> Response {
        self.errors.lock().unwrap().push((
            path.to_string(),
            429,
            429,
            "You are being rate limited.".into(),
        ));
        let mut r = (
            StatusCode::TOO_MANY_REQUESTS,
            axum::Json(json!({"message": "You are being rate limited.", "retry_after": 0.2, "global": false})),
        )
            .into_response();
        let h = r.headers_mut();
        for (k, v) in [
            ("retry-after", "0.2"),
            ("x-ratelimit-limit", "5"),
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset-after", "0.2"),
            ("x-ratelimit-bucket", "fake"),
            ("x-ratelimit-scope", "user"),
        ] {
            h.insert(k, axum::http::HeaderValue::from_static(v));
        }
        r
    }

    /// Asserts that no request got an error the test did not expect, and that no public
    /// post or reply named a hidden card.
    fn assert_clean(&self) {
        let expected = self.expected.lock().unwrap().clone();
        let bad: Vec<_> = self
            .errors
            .lock()
            .unwrap()
            .iter()
            .filter(|e| !expected.contains(&e.2))
            .cloned()
            .collect();
        assert!(bad.is_empty(), "requests Discord would refuse: {bad:#?}");
        let leaks = self.leaks.lock().unwrap().clone();
        assert!(leaks.is_empty(), "hidden cards named in public: {leaks:#?}");
    }

    /// Records the values of the select menus of a message that went out.
    fn record_menus(&self, m: &Value) {
        let mut menus = self.menus.lock().unwrap();
        for r in m["components"].as_array().into_iter().flatten() {
            for c in r["components"].as_array().into_iter().flatten() {
                let Some(id) = c["custom_id"].as_str().filter(|_| c["type"] == 3) else {
                    continue;
                };
                let values = c["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| o["value"].as_str().map(str::to_string));
                menus.entry(id.to_string()).or_default().extend(values);
            }
        }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }

    fn send_event(&self, t: &str, d: Value) {
        if d["data"]["options"][0]["name"] == "card"
            && let Some(token) = d["token"].as_str()
        {
            self.lookups.lock().unwrap().insert(token.to_string());
        }
        let s = self.seq.fetch_add(1, Ordering::SeqCst) + 2;
        let guild: u64 = d["guild_id"]
            .as_str()
            .and_then(|g| g.parse().ok())
            .unwrap_or(0);
        let text = json!({"op": 0, "t": t, "s": s, "d": d}).to_string();
        for (shard, total, tx) in self.ws.lock().unwrap().iter() {
            if (guild >> 22) % (*total).max(1) == *shard {
                let _ = tx.send(text.clone());
            }
        }
    }
}

/// Discord's limits, as the real API enforces them (discord.com/developers/docs: message
/// content 2000 characters; 5 action rows, 5 buttons a row, a select menu alone in its row;
/// custom ids 100; button labels 80; select menus 1-25 options with distinct values, labels,
/// values and descriptions 100, placeholder 150; autocomplete 25 choices, names and values
/// 100; embeds: title 256, description 4096, 25 fields, field name 256, value 1024, footer
/// 2048, author 256, 6000 in all, 10 embeds; thread names 1-100). Characters are counted,
/// not bytes. Each broken rule is one line of the 50035 "Invalid Form Body" answer.
fn form_errors_message(m: &Value, out: &mut Vec<String>) {
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    if chars(&m["content"]) > 2000 {
        out.push(format!(
            "content: Must be 2000 or fewer in length (was {}).",
            chars(&m["content"])
        ));
    }
    let rows = m["components"].as_array().cloned().unwrap_or_default();
    if rows.len() > 5 {
        out.push(format!(
            "components: Must be 5 or fewer in length (was {}).",
            rows.len()
        ));
    }
    let mut ids = HashSet::new();
    for (i, r) in rows.iter().enumerate() {
        let comps = r["components"].as_array().cloned().unwrap_or_default();
        if comps.is_empty() || comps.len() > 5 {
            out.push(format!(
                "components.{i}.components: Must be between 1 and 5 in length."
            ));
        }
        let menus = comps.iter().filter(|c| c["type"] != 2).count();
        if menus > 0 && comps.len() > 1 {
            out.push(format!(
                "components.{i}: A select menu must be alone in its row."
            ));
        }
        for (j, c) in comps.iter().enumerate() {
            let at = format!("components.{i}.components.{j}");
            if let Some(id) = c["custom_id"].as_str() {
                if id.chars().count() > 100 || id.is_empty() {
                    out.push(format!(
                        "{at}.custom_id: Must be between 1 and 100 in length."
                    ));
                }
                if !ids.insert(id.to_string()) {
                    out.push(format!(
                        "{at}.custom_id: Component custom id cannot be duplicated."
                    ));
                }
            } else if c["url"].is_null() {
                out.push(format!("{at}.custom_id: This field is required."));
            }
            if chars(&c["label"]) > 80 {
                out.push(format!("{at}.label: Must be 80 or fewer in length."));
            }
            if chars(&c["placeholder"]) > 150 {
                out.push(format!("{at}.placeholder: Must be 150 or fewer in length."));
            }
            if c["type"] == 3 {
                let opts = c["options"].as_array().cloned().unwrap_or_default();
                if opts.is_empty() || opts.len() > 25 {
                    out.push(format!(
                        "{at}.options: Must be between 1 and 25 in length (was {}).",
                        opts.len()
                    ));
                }
                let mut values = HashSet::new();
                for (k, o) in opts.iter().enumerate() {
                    for f in ["label", "value", "description"] {
                        if chars(&o[f]) > 100 {
                            out.push(format!(
                                "{at}.options.{k}.{f}: Must be 100 or fewer in length."
                            ));
                        }
                    }
                    if !values.insert(o["value"].as_str().unwrap_or("").to_string()) {
                        out.push(format!(
                            "{at}.options.{k}.value: Select component option values must be unique."
                        ));
                    }
                }
                let max = c["max_values"].as_u64().unwrap_or(1);
                let min = c["min_values"].as_u64().unwrap_or(1);
                if max > 25 || max as usize > opts.len().max(1) || min > max {
                    out.push(format!("{at}.max_values: Must be between min_values and the number of options (25 at most)."));
                }
            }
        }
    }
    let embeds = m["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        out.push("embeds: Must be 10 or fewer in length.".into());
    }
    let mut total = 0;
    for (i, e) in embeds.iter().enumerate() {
        let mut limit = |field: &str, v: &Value, n: usize| {
            let c = chars(v);
            total += c;
            if c > n {
                out.push(format!(
                    "embeds.{i}.{field}: Must be {n} or fewer in length."
                ));
            }
        };
        limit("title", &e["title"], 256);
        limit("description", &e["description"], 4096);
        limit("footer.text", &e["footer"]["text"], 2048);
        limit("author.name", &e["author"]["name"], 256);
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        for (k, f) in fields.iter().enumerate() {
            limit(&format!("fields.{k}.name"), &f["name"], 256);
            limit(&format!("fields.{k}.value"), &f["value"], 1024);
        }
        if fields.len() > 25 {
            out.push(format!("embeds.{i}.fields: Must be 25 or fewer in length."));
        }
    }
    if total > 6000 {
        out.push(format!(
            "embeds: Embed size exceeds maximum size of 6000 (was {total})."
        ));
    }
}

fn form_errors_choices(d: &Value, out: &mut Vec<String>) {
    let choices = d["choices"].as_array().cloned().unwrap_or_default();
    if choices.len() > 25 {
        out.push(format!(
            "data.choices: Must be 25 or fewer in length (was {}).",
            choices.len()
        ));
    }
    for (i, c) in choices.iter().enumerate() {
        let name = c["name"].as_str().map_or(0, |s| s.chars().count());
        let value = c["value"].as_str().map_or(0, |s| s.chars().count());
        if name == 0 || name > 100 {
            out.push(format!(
                "data.choices.{i}.name: Must be between 1 and 100 in length."
            ));
        }
        if value > 100 {
            out.push(format!(
                "data.choices.{i}.value: Must be 100 or fewer in length."
            ));
        }
    }
}

/// The words of `hay` contain `name` as a whole (not part of a longer word).
fn names_card(hay: &str, name: &str) -> bool {
    let mut from = 0;
    while let Some(i) = hay[from..].find(name) {
        let start = from + i;
        let end = start + name.len();
        let before = hay[..start].chars().next_back();
        let after = hay[end..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
        if !word(before) && !word(after) {
            return true;
        }
        from = end;
    }
    false
}

/// The names of cards that are hidden now in any game: in a hand, a library, or face down,
/// and not also visible somewhere (a same-named card on the battlefield, in a graveyard,
/// in exile or on the stack is public, so its name says nothing).
async fn hidden_names(svc: &Service) -> HashSet<String> {
    let mut hidden = HashSet::new();
    let mut public = HashSet::new();
    for id in 1..=12 {
        let Ok(l) = svc.load(id).await else { continue };
        let cat = l.game.catalog();
        for o in &l.game.objects {
            if o.token {
                continue;
            }
            let name = cat.get(o.card).name.clone();
            let secret = o.face_down
                || matches!(
                    o.zone,
                    engine::zones::ZoneKind::Hand | engine::zones::ZoneKind::Library
                );
            if secret {
                hidden.insert(name);
            } else {
                public.insert(name);
            }
        }
    }
    hidden.retain(|n| !public.contains(n));
    hidden
}

/// All the text of a message others can read: content, embeds, button and option labels.
fn readable(m: &Value) -> String {
    let mut s = m["content"].as_str().unwrap_or("").to_string();
    for e in m["embeds"].as_array().into_iter().flatten() {
        for f in [&e["title"], &e["description"], &e["footer"]["text"]] {
            s.push('\n');
            s.push_str(f.as_str().unwrap_or(""));
        }
        for f in e["fields"].as_array().into_iter().flatten() {
            s.push('\n');
            s.push_str(f["name"].as_str().unwrap_or(""));
            s.push('\n');
            s.push_str(f["value"].as_str().unwrap_or(""));
        }
    }
    for r in m["components"].as_array().into_iter().flatten() {
        for c in r["components"].as_array().into_iter().flatten() {
            s.push('\n');
            s.push_str(c["label"].as_str().unwrap_or(""));
            for o in c["options"].as_array().into_iter().flatten() {
                s.push('\n');
                s.push_str(o["label"].as_str().unwrap_or(""));
            }
        }
    }
    s
}

/// Applies Discord's visibility rules to an interaction answer: an immediate message is
/// ephemeral by its own flags; the first followup after a deferral takes the deferral's
/// visibility whatever its own flags say (a public defer makes an "ephemeral" followup
/// public), later followups their own. The recorded JSON gets the flags Discord would apply;
/// the second value is Some(()) when the result is public.
fn visibility(fake: &Fake, method: &str, parts: &[&str], mut json: Value) -> (Value, Option<()>) {
    let flags = |v: &Value| v["flags"].as_u64().unwrap_or(0);
    let public = match (method, parts) {
        ("POST", ["interactions", _, token, "callback"]) => match json["type"].as_u64() {
            Some(5) => {
                let f = flags(&json["data"]) & 64;
                fake.deferred
                    .lock()
                    .unwrap()
                    .insert(token.to_string(), (f, false));
                None
            }
            Some(4) => (flags(&json["data"]) & 64 == 0).then_some(()),
            Some(7) => Some(()),
            _ => None,
        },
        ("POST", ["webhooks", _, token]) => {
            let mut d = fake.deferred.lock().unwrap();
            let f = match d.get_mut(*token) {
                Some((f, used)) if !*used => {
                    *used = true;
                    *f
                }
                _ => flags(&json) & 64,
            };
            let other = flags(&json) & !64;
            json["flags"] = json!(other | f);
            (f == 0).then_some(())
        }
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            let mut d = fake.deferred.lock().unwrap();
            match d.get_mut(*token) {
                Some((f, used)) => {
                    *used = true;
                    (*f == 0).then_some(())
                }
                None => Some(()),
            }
        }
        ("POST", ["channels", c, "messages"]) | ("PATCH", ["channels", c, "messages", _]) => {
            let c: u64 = c.parse().unwrap_or(0);
            (!fake.dm_channels.lock().unwrap().contains_key(&c)).then_some(())
        }
        _ => None,
    };
    (json, public)
}

/// How Discord answers a post or an edit in a channel that fails with `code`: 10003 the
/// thread deleted, 50083 the thread archived, else (50013) a permission removed.
fn channel_failure(code: u64) -> (StatusCode, &'static str) {
    match code {
        10003 => (StatusCode::NOT_FOUND, "Unknown Channel"),
        50083 => (StatusCode::BAD_REQUEST, "Thread is archived"),
        _ => (StatusCode::FORBIDDEN, "Missing Permissions"),
    }
}

/// What Discord would refuse, answered as Discord answers (status and JSON code).
fn refusal(
    fake: &Fake,
    method: &str,
    parts: &[&str],
    json: &Value,
    files: &[(String, Vec<u8>)],
) -> Option<Response> {
    let path = parts.join("/");
    let mut errors = Vec::new();
    match (method, parts) {
        ("POST", ["channels", c, "messages"]) => {
            let c: u64 = c.parse().unwrap_or(0);
            let to = fake.dm_channels.lock().unwrap().get(&c).copied();
            if to.is_some_and(|u| fake.dm_closed.lock().unwrap().contains(&u)) {
                return Some(fake.refuse(
                    &path,
                    StatusCode::FORBIDDEN,
                    50007,
                    "Cannot send messages to this user",
                    &[],
                ));
            }
            if let Some(n) = fake.rate_limited.lock().unwrap().get_mut(&c)
                && *n > 0
            {
                *n -= 1;
                return Some(fake.rate_limit(&path));
            }
            let failing = fake.fail_posts.lock().unwrap().get(&c).copied();
            if let Some(code) = failing.or_else(|| fake.fail_edits.lock().unwrap().get(&c).copied())
            {
                let (status, msg) = channel_failure(code);
                return Some(fake.refuse(&path, status, code, msg, &[]));
            }
            let empty = json["content"].as_str().is_none_or(|s| s.is_empty())
                && json["embeds"].as_array().is_none_or(|e| e.is_empty())
                && json["components"].as_array().is_none_or(|e| e.is_empty())
                && files.is_empty();
            if empty {
                return Some(fake.refuse(
                    &path,
                    StatusCode::BAD_REQUEST,
                    50006,
                    "Cannot send an empty message",
                    &[],
                ));
            }
            form_errors_message(json, &mut errors);
        }
        ("PATCH", ["channels", c, "messages", m]) => {
            let c: u64 = c.parse().unwrap_or(0);
            let m: u64 = m.parse().unwrap_or(0);
            if let Some(code) = fake.fail_edits.lock().unwrap().get(&c).copied() {
                let (status, msg) = channel_failure(code);
                return Some(fake.refuse(&path, status, code, msg, &[]));
            }
            if fake.deleted.lock().unwrap().contains(&m) {
                return Some(fake.refuse(
                    &path,
                    StatusCode::NOT_FOUND,
                    10008,
                    "Unknown Message",
                    &[],
                ));
            }
            form_errors_message(json, &mut errors);
        }
        ("GET", ["channels", c, "messages"]) => {
            let c: u64 = c.parse().unwrap_or(0);
            if fake.fail_edits.lock().unwrap().get(&c) == Some(&10003) {
                let (status, msg) = channel_failure(10003);
                return Some(fake.refuse(&path, status, 10003, msg, &[]));
            }
        }
        ("POST", ["webhooks", _, _]) | ("PATCH", ["webhooks", _, _, "messages", _]) => {
            form_errors_message(json, &mut errors)
        }
        ("POST", ["interactions", _, _, "callback"]) => match json["type"].as_u64() {
            Some(4) | Some(7) => form_errors_message(&json["data"], &mut errors),
            Some(8) => form_errors_choices(&json["data"], &mut errors),
            _ => {}
        },
        ("POST", ["channels", _, "threads"]) => {
            let n = json["name"].as_str().map_or(0, |s| s.chars().count());
            if n == 0 || n > 100 {
                errors.push(format!(
                    "name: Must be between 1 and 100 in length (was {n})."
                ));
            }
        }
        _ => {}
    }
    // One initial response per interaction (a message, a deferral, an update, choices):
    // Discord refuses a second with 40060. A refused one acknowledged nothing.
    if let ("POST", ["interactions", id, token, "callback"]) = (method, parts)
        && errors.is_empty()
    {
        let limited = fake
            .callbacks_429
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if limited {
            return Some(fake.rate_limit(&path));
        }
        if !fake.acked.lock().unwrap().insert(id.to_string()) {
            return Some(fake.refuse(
                &path,
                StatusCode::BAD_REQUEST,
                40060,
                "Interaction has already been acknowledged.",
                &[],
            ));
        }
        fake.acked_tokens.lock().unwrap().insert(token.to_string());
    }
    // A followup, or the original response edited or deleted, needs the interaction
    // acknowledged first.
    if let ["webhooks", _, token, ..] = parts
        && errors.is_empty()
        && !fake.acked_tokens.lock().unwrap().contains(*token)
    {
        return Some(fake.refuse(&path, StatusCode::NOT_FOUND, 10015, "Unknown Webhook", &[]));
    }
    (!errors.is_empty()).then(|| {
        fake.refuse(
            &path,
            StatusCode::BAD_REQUEST,
            50035,
            "Invalid Form Body",
            &errors,
        )
    })
}

/// Records a public post or reply that names a card hidden now.
async fn scan_public(fake: &Fake, path: &str, json: &Value) {
    let svc = fake.svc.lock().unwrap().clone();
    let Some(svc) = svc else { return };
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let token = match parts.as_slice() {
        ["webhooks", _, t, ..] | ["interactions", _, t, "callback"] => Some(t.to_string()),
        _ => None,
    };
    if token.is_some_and(|t| fake.lookups.lock().unwrap().contains(&t)) {
        return;
    }
    let msg = if parts.first() == Some(&"interactions") {
        &json["data"]
    } else {
        json
    };
    let text = readable(msg);
    if text.trim().is_empty() {
        return;
    }
    for name in hidden_names(&svc).await {
        if names_card(&text, &name) {
            fake.leaks
                .lock()
                .unwrap()
                .push((name, format!("{path}: {text}")));
        }
    }
}

/// Parses a multipart body: the JSON payload and the files (names and bytes).
fn multipart(content_type: &str, body: &[u8]) -> (Value, Vec<(String, Vec<u8>)>) {
    let Some(b) = content_type.split("boundary=").nth(1) else {
        return (Value::Null, Vec::new());
    };
    let boundary = format!("--{}", b.trim_matches('"'));
    let find = |hay: &[u8], needle: &[u8], from: usize| -> Option<usize> {
        hay.get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    let mut json = Value::Null;
    let mut files = Vec::new();
    let mut at = 0;
    while let Some(start) = find(body, boundary.as_bytes(), at) {
        let part_start = start + boundary.len();
        let end = find(body, boundary.as_bytes(), part_start).unwrap_or(body.len());
        let part = &body[part_start..end];
        at = end;
        let Some(split) = find(part, b"\r\n\r\n", 0) else {
            continue;
        };
        let head = String::from_utf8_lossy(&part[..split]).to_string();
        let data = &part[split + 4..];
        let data = data.strip_suffix(b"\r\n").unwrap_or(data);
        if head.contains("name=\"payload_json\"") {
            json = serde_json::from_slice(data).unwrap_or(Value::Null);
        } else if let Some(f) = head.split("filename=\"").nth(1) {
            let name = f.split('"').next().unwrap_or("").to_string();
            files.push((name, data.to_vec()));
        }
    }
    (json, files)
}

async fn rest(
    State(fake): State<Arc<Fake>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().trim_start_matches("/api/v10").to_string();
    let ct = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let (json, files) = if ct.starts_with("multipart/") {
        multipart(&ct, &body)
    } else {
        (
            serde_json::from_slice(&body).unwrap_or(Value::Null),
            Vec::new(),
        )
    };
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    // A refused request changes nothing (a refused deferral sets no visibility).
    let refused = refusal(&fake, method.as_str(), &parts, &json, &files);
    let (json, public) = if refused.is_none() {
        visibility(&fake, method.as_str(), &parts, json)
    } else {
        (json, None)
    };
    if public.is_some() && refused.is_none() {
        scan_public(&fake, &path, &json).await;
    }
    let status = refused.as_ref().map_or(200, |r| r.status().as_u16());
    fake.calls.lock().unwrap().push(Call {
        method: method.to_string(),
        path: path.clone(),
        json: json.clone(),
        files,
        status,
        auth: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string(),
    });
    if let Some(r) = refused {
        return r;
    }
    fake.record_menus(if parts.first() == Some(&"interactions") {
        &json["data"]
    } else {
        &json
    });
    let port = fake.port.load(Ordering::SeqCst);
    let ok = |v: Value| (StatusCode::OK, axum::Json(v)).into_response();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({"url": format!("ws://127.0.0.1:{port}/ws")})),
        ("GET", ["gateway", "bot"]) => ok(json!({
            "url": format!("ws://127.0.0.1:{port}/ws"), "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        })),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => ok(json!([])),
        ("POST", ["interactions", _, _, "callback"]) => StatusCode::NO_CONTENT.into_response(),
        ("POST", ["webhooks", _, _]) => ok(fake.message(CHANNEL, &json)),
        ("PATCH", ["webhooks", _, _, "messages", _]) => ok(fake.message(CHANNEL, &json)),
        ("DELETE", ["webhooks", _, _, "messages", _]) => StatusCode::NO_CONTENT.into_response(),
        ("POST", ["channels", c, "threads"]) => {
            let id = fake.id();
            ok(
                json!({"id": id.to_string(), "type": 11, "guild_id": GUILD.to_string(),
                "name": json.get("name").cloned().unwrap_or(json!("thread")), "parent_id": c}),
            )
        }
        ("POST", ["users", "@me", "channels"]) => {
            let id = fake.id();
            let to: u64 = json
                .get("recipient_id")
                .and_then(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .or_else(|| v.as_u64().map(|x| x.to_string()))
                })
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            fake.dm_channels.lock().unwrap().insert(id, to);
            ok(
                json!({"id": id.to_string(), "type": 1, "recipients": [user_json(to, "someone", false)]}),
            )
        }
        ("POST", ["channels", c, "messages"]) => {
            let c: u64 = c.parse().unwrap_or(0);
            ok(fake.message(c, &json))
        }
        ("PATCH", ["channels", c, "messages", m]) => {
            let c: u64 = c.parse().unwrap_or(0);
            let mut v = fake.message(c, &json);
            v["id"] = json!(m);
            ok(v)
        }
        ("GET", ["channels", c, "messages"]) => {
            let c: u64 = c.parse().unwrap_or(0);
            ok(Value::Array(
                fake.messages
                    .lock()
                    .unwrap()
                    .get(&c)
                    .cloned()
                    .unwrap_or_default(),
            ))
        }
        _ => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"code": 0, "message": "not in the fake"})),
        )
            .into_response(),
    }
}

async fn gateway(State(fake): State<Arc<Fake>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| session(fake, socket))
}

async fn session(fake: Arc<Fake>, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let mut tx = Some(tx);
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if socket.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    let port = fake.port.load(Ordering::SeqCst);
    loop {
        tokio::select! {
            m = socket.recv() => {
                let Some(Ok(m)) = m else { break };
                let WsMessage::Text(t) = m else { continue };
                let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                match v["op"].as_u64() {
                    Some(2) => {
                        let shard = v["d"]["shard"][0].as_u64().unwrap_or(0);
                        let total = v["d"]["shard"][1].as_u64().unwrap_or(1);
                        if let Some(tx) = tx.take() {
                            let mut ws = fake.ws.lock().unwrap();
                            // A shard that connects again replaces its old session.
                            ws.retain(|(s, t, _)| (*s, *t) != (shard, total));
                            ws.push((shard, total, tx));
                        }
                        let ready = json!({"op": 0, "t": "READY", "s": 1, "d": {
                            "v": 10, "user": user_json(APP, "Spellstack", true), "guilds": [],
                            "session_id": format!("fake-session-{shard}"), "resume_gateway_url": format!("ws://127.0.0.1:{port}/ws"),
                            "shard": [shard, total], "application": {"id": APP.to_string(), "flags": 0}
                        }}).to_string();
                        if socket.send(WsMessage::Text(ready.into())).await.is_err() { break; }
                        *fake.ready.lock().unwrap() = true;
                    }
                    Some(1) => {
                        let ack = json!({"op": 11}).to_string();
                        if socket.send(WsMessage::Text(ack.into())).await.is_err() { break; }
                    }
                    _ => {}
                }
            }
            e = rx.recv() => {
                let Some(e) = e else { break };
                if socket.send(WsMessage::Text(e.into())).await.is_err() { break; }
            }
        }
    }
}

struct Harness {
    fake: Arc<Fake>,
    next: AtomicU64,
    deadline: Instant,
}

fn opt(name: &str, kind: u8, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

impl Harness {
    fn user(&self, id: u64) -> Value {
        let name = match id {
            ALICE => "Alice",
            BOB => "Bob",
            _ => "Mallory",
        };
        user_json(id, name, false)
    }

    /// The guild member of `user`: Alice may manage the server (permission bit 32).
    fn member(&self, id: u64) -> Value {
        let perms = if id == ALICE { "32" } else { "0" };
        json!({"user": self.user(id), "roles": [], "joined_at": "2025-01-01T00:00:00.000000+00:00",
            "deaf": false, "mute": false, "flags": 0, "permissions": perms})
    }

    fn base(&self, kind: u8, user: u64, channel: u64) -> (String, Value) {
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        let token = format!("tok{n}");
        let guild = self.fake.guild.load(Ordering::SeqCst);
        let mut v = json!({
            "id": (900_000 + n).to_string(), "application_id": APP.to_string(), "type": kind,
            "guild_id": guild.to_string(), "channel_id": channel.to_string(),
            "user": self.user(user), "member": self.member(user), "token": token, "version": 1,
            "app_permissions": "0",
            "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {}, "context": 0, "attachment_size_limit": 8388608,
        });
        if guild == 0 {
            // A direct message: no server, the user instead of the member.
            if let Some(o) = v.as_object_mut() {
                o.remove("guild_id");
                o.remove("member");
            }
            v["context"] = json!(1);
        }
        (token, v)
    }

    /// `/group sub opts..` as `user`; returns the reply (the followup or immediate message).
    async fn slash(
        &self,
        user: u64,
        channel: u64,
        group: &str,
        sub: &str,
        opts: Vec<Value>,
        users: Value,
    ) -> Value {
        let (token, mut v) = self.base(2, user, channel);
        v["data"] = json!({"id": "1", "name": group, "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
            "resolved": {"users": users}});
        self.fake.send_event("INTERACTION_CREATE", v);
        self.reply(&token).await
    }

    /// A top-level `/name opts..` (no subcommand) as `user`.
    async fn slash_top(&self, user: u64, channel: u64, name: &str, opts: Vec<Value>) -> Value {
        let (token, mut v) = self.base(2, user, channel);
        v["data"] = json!({"id": "2", "name": name, "type": 1, "options": opts});
        self.fake.send_event("INTERACTION_CREATE", v);
        self.reply(&token).await
    }

    /// A click (or menu choice) on `custom_id` as `user`.
    async fn click(
        &self,
        user: u64,
        channel: u64,
        custom_id: &str,
        values: Option<Vec<String>>,
    ) -> Value {
        if let Some(vals) = &values {
            let menus = self.fake.menus.lock().unwrap();
            let offered = menus.get(custom_id);
            for x in vals {
                assert!(
                    offered.is_some_and(|o| o.contains(x)),
                    "Discord sends only what a menu offered: `{x}` in {custom_id}: {offered:?}"
                );
            }
        }
        let (token, mut v) = self.base(3, user, channel);
        v["data"] = match values {
            Some(vals) => json!({"custom_id": custom_id, "component_type": 3, "values": vals}),
            None => json!({"custom_id": custom_id, "component_type": 2}),
        };
        v["message"] = self.fake.message(channel, &json!({"content": "prompt"}));
        self.fake.send_event("INTERACTION_CREATE", v);
        self.reply(&token).await
    }

    /// Autocomplete of `/group sub` with `focused` being typed as `partial`; the choices.
    async fn autocomplete(
        &self,
        user: u64,
        channel: u64,
        group: &str,
        sub: &str,
        focused: &str,
        partial: &str,
    ) -> Vec<String> {
        let (token, mut v) = self.base(4, user, channel);
        v["data"] = json!({"id": "1", "name": group, "type": 1,
            "options": [{"name": sub, "type": 1, "options": [
                {"name": focused, "type": 3, "value": partial, "focused": true}]}]});
        self.fake.send_event("INTERACTION_CREATE", v);
        let start = Instant::now();
        loop {
            for c in self.fake.calls().iter().rev() {
                let p: Vec<&str> = c.path.trim_matches('/').split('/').collect();
                if let ["interactions", _, t, "callback"] = p.as_slice()
                    && *t == token
                    && c.json["type"] == 8
                {
                    return c.json["data"]["choices"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|x| x["value"].as_str().map(str::to_string))
                        .collect();
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "no autocomplete answer to {token}"
            );
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    }

    /// The final answer to interaction `token`: an immediate message (type 4) or the followup.
    async fn reply(&self, token: &str) -> Value {
        let start = Instant::now();
        loop {
            for c in self.fake.calls().iter().rev() {
                let p: Vec<&str> = c.path.trim_matches('/').split('/').collect();
                match p.as_slice() {
                    ["webhooks", _, t] if *t == token && c.method == "POST" => {
                        return c.json.clone();
                    }
                    ["interactions", _, t, "callback"] if *t == token && c.json["type"] == 4 => {
                        return c.json["data"].clone();
                    }
                    _ => {}
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(15) && Instant::now() < self.deadline,
                "no reply to interaction {token}"
            );
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    }

    async fn wait(&self, what: &str, f: impl Fn(&[Call]) -> bool) {
        let start = Instant::now();
        while !f(&self.fake.calls()) {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "timed out waiting for {what}"
            );
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    }
}

fn custom_ids(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rows) = v["components"].as_array() {
        for r in rows {
            for c in r["components"].as_array().into_iter().flatten() {
                if let Some(id) = c["custom_id"].as_str() {
                    out.push(id.to_string());
                }
            }
        }
    }
    out
}

fn first_menu_value(v: &Value) -> Option<(String, String)> {
    for r in v["components"].as_array()? {
        for c in r["components"].as_array()? {
            if c["type"] == 3 {
                let id = c["custom_id"].as_str()?.to_string();
                let val = c["options"][0]["value"].as_str()?.to_string();
                return Some((id, val));
            }
        }
    }
    None
}

fn ephemeral(v: &Value) -> bool {
    v["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

#[derive(Default, Debug)]
struct Seen {
    land: bool,
    target_spell: bool,
    attack: bool,
    block: bool,
    mulligan: bool,
}

/// A running bot against the fake Discord.
struct Env {
    h: Harness,
    svc: Service,
    fake: Arc<Fake>,
    stop_tx: tokio::sync::oneshot::Sender<()>,
    bot: tokio::task::JoinHandle<anyhow::Result<()>>,
    server: tokio::task::JoinHandle<()>,
    _dir: tempfile::TempDir,
}

/// Starts the fake Discord and the bot (users in `dm_closed` do not accept DMs); `clock`
/// replaces the service's clock, `scheduler` is the deadline scan period.
async fn start(dm_closed: &[u64], clock: Option<Clock>, scheduler: Duration) -> Env {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("e2e.db").display());
    let cfg = Config {
        database_url: url,
        ..Config::default()
    };
    let mut svc = Service::new(cfg.clone()).await.expect("service");
    if let Some(c) = clock {
        svc.clock = c;
    }
    let fake = Arc::new(Fake::default());
    fake.guild.store(GUILD, Ordering::SeqCst);
    fake.dm_closed.lock().unwrap().extend(dm_closed);
    if !dm_closed.is_empty() {
        fake.expected.lock().unwrap().insert(50007);
    }
    *fake.svc.lock().unwrap() = Some(svc.clone());

    let app = Router::new()
        .route("/ws", get(gateway))
        .fallback(rest)
        .with_state(Arc::clone(&fake));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    fake.port.store(u64::from(port), Ordering::SeqCst);
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });

    let http = poise::serenity_prelude::HttpBuilder::new("Bot fake-token")
        .proxy(format!("http://127.0.0.1:{port}"))
        .ratelimiter_disabled(true)
        .build();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let bot = tokio::spawn(discord::run(
        http,
        Data::new(svc.clone()),
        Register::Globally,
        scheduler,
        async move {
            let _ = stop_rx.await;
        },
    ));
    let h = Harness {
        fake: Arc::clone(&fake),
        next: AtomicU64::new(1),
        deadline: Instant::now() + Duration::from_secs(50),
    };
    h.wait("commands registered", |c| {
        c.iter()
            .any(|c| c.method == "PUT" && c.path.ends_with("/commands"))
    })
    .await;
    Env {
        h,
        svc,
        fake,
        stop_tx,
        bot,
        server,
        _dir: dir,
    }
}

impl Env {
    async fn stop(self) {
        self.fake.assert_clean();
        let _ = self.stop_tx.send(());
        let _ = tokio::time::timeout(Duration::from_secs(5), self.bot).await;
        self.server.abort();
        self.svc.db.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_through_a_fake_discord() {
    let env = start(&[BOB], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let reg = fake
        .calls()
        .into_iter()
        .find(|c| c.method == "PUT" && c.path.ends_with("/commands"))
        .expect("registration");
    let names: Vec<&str> = reg
        .json
        .as_array()
        .expect("commands")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(
        names.contains(&"mtg") && names.contains(&"deck") && names.contains(&"mtg-server"),
        "{names:?}"
    );
    // Server settings are offered to members who may manage the server (bit 32).
    let server = reg
        .json
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "mtg-server"))
        .expect("mtg-server");
    assert_eq!(server["default_member_permissions"], "32", "{server}");

    // A deck import (ephemeral).
    let list = spellstack::decks::READY[0].list.replace('\n', ";");
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "import",
            vec![opt("name", 3, json!("burn")), opt("list", 3, json!(list))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        r["content"].as_str().unwrap_or("").contains("Saved deck"),
        "{r}"
    );

    // Alice challenges Bob: a thread, a challenge mentioning Bob with buttons for him.
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(BOB.to_string())),
                opt("deck", 3, json!("burn")),
            ],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let content = r["content"].as_str().unwrap_or("").to_string();
    assert!(content.contains(&format!("<@{BOB}>")), "{r}");
    assert!(!ephemeral(&r));
    assert!(
        r["allowed_mentions"]["users"].as_array().is_some_and(|u| u
            .iter()
            .any(|x| x == &json!(BOB.to_string()) || x == &json!(BOB))),
        "{r}"
    );
    let threads: Vec<Call> = fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST" && c.path == format!("/channels/{CHANNEL}/threads"))
        .collect();
    assert_eq!(threads.len(), 1, "one thread per game");
    let ids = custom_ids(&r);
    let accept = ids
        .iter()
        .find(|i| i.starts_with("ss:y:"))
        .expect("accept button")
        .clone();
    let game: i64 = accept
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let thread: u64 = svc
        .db
        .game(game)
        .await
        .expect("db")
        .expect("game")
        .thread_id
        .expect("thread") as u64;

    // Mallory may not accept Bob's challenge.
    let r = h.click(MALLORY, CHANNEL, &accept, None).await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        r["content"]
            .as_str()
            .unwrap_or("")
            .contains(&format!("for <@{BOB}>")),
        "{r}"
    );

    // Bob accepts with the green deck from the menu.
    let menu = ids
        .iter()
        .find(|i| i.starts_with("ss:Y:"))
        .expect("deck menu")
        .clone();
    let r = h
        .click(BOB, CHANNEL, &menu, Some(vec!["green".into()]))
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        r["content"].as_str().unwrap_or("").contains("accepted"),
        "{r}"
    );

    let discord_of = |seat: usize| if seat == 0 { ALICE } else { BOB };
    let mut seen = Seen::default();
    let mut stale: Option<(u64, String)> = None;
    let mut steps = 0;
    let mut tried_cast: HashSet<(i64, String)> = HashSet::new();
    loop {
        steps += 1;
        assert!(
            steps < 400 && Instant::now() < h.deadline,
            "the scripted game did not finish: {seen:?}"
        );
        let l = svc.load(game).await.expect("load");
        assert!(l.game.result.is_none(), "the game ended early: {seen:?}");
        let p = l.game.pending().expect("pending").clone();
        let seat = p.player;
        let me = discord_of(seat.index());
        let opts = spellstack::grammar::options(&l.game, seat, false);
        let v = l.row.version;
        if seen.land && seen.target_spell && seen.attack && seen.block {
            break;
        }
        // The decider is mentioned in the thread with their buttons.
        let thread_msgs: Vec<Call> = fake
            .calls()
            .into_iter()
            .filter(|c| c.method == "POST" && c.path == format!("/channels/{thread}/messages"))
            .collect();
        let last_buttons: Vec<String> = thread_msgs
            .iter()
            .rev()
            .flat_map(|c| custom_ids(&c.json))
            .collect();
        let button = |phrase: &str| -> String {
            let want = format!("ss:a:{game}:{v}:{me}:{phrase}");
            last_buttons
                .iter()
                .find(|i| **i == want)
                .cloned()
                .unwrap_or(want)
        };
        match &p.decision {
            Decision::Mulligan { .. } => {
                let b = if !seen.mulligan && me == BOB {
                    "mulligan"
                } else {
                    "keep"
                };
                let id = button(b);
                assert!(
                    last_buttons.contains(&id),
                    "no {b} button for {me} in the thread: {last_buttons:?}"
                );
                let last = thread_msgs.last().expect("thread message");
                assert!(
                    last.json["content"]
                        .as_str()
                        .unwrap_or("")
                        .contains(&format!("<@{me}>")),
                    "{:?}",
                    last.json
                );
                if b == "keep" && stale.is_none() {
                    stale = Some((me, id.clone()));
                }
                let r = h.click(me, thread, &id, None).await;
                assert!(ephemeral(&r));
                seen.mulligan |= b == "mulligan";
            }
            Decision::Priority => {
                let land = opts.iter().find(|o| o.starts_with("play ")).cloned();
                let cast = opts
                    .iter()
                    .filter(|o| o.starts_with("cast ") && !tried_cast.contains(&(v, (*o).clone())))
                    .find(|o| {
                        let name = o.trim_start_matches("cast ");
                        let creature = engine::Catalog::builtin()
                            .by_name(name)
                            .is_some_and(|d| d.has_type(engine::cards::CardType::Creature));
                        creature || !seen.target_spell
                    })
                    .cloned();
                if let Some(land) = land.filter(|_| l.game.active == seat) {
                    let r = h
                        .slash(
                            me,
                            thread,
                            "mtg",
                            "play",
                            vec![opt("what", 3, json!(land))],
                            json!({}),
                        )
                        .await;
                    assert!(ephemeral(&r), "{r}");
                    seen.land = true;
                } else if let Some(cast) = cast {
                    tried_cast.insert((v, cast.clone()));
                    let mut r = h
                        .slash(
                            me,
                            thread,
                            "mtg",
                            "play",
                            vec![opt("what", 3, json!(cast))],
                            json!({}),
                        )
                        .await;
                    let mut hops = 0;
                    while let Some((id, val)) =
                        first_menu_value(&r).filter(|(id, _)| id.starts_with("ss:p:"))
                    {
                        if id.contains(":t:") {
                            seen.target_spell = true;
                        }
                        hops += 1;
                        assert!(hops < 6, "{r}");
                        r = h.click(me, thread, &id, Some(vec![val])).await;
                        assert!(ephemeral(&r), "{r}");
                        if r["content"].as_str().unwrap_or("").starts_with("Done") {
                            break;
                        }
                    }
                } else {
                    let r = h.click(me, thread, &button("pass"), None).await;
                    assert!(ephemeral(&r), "{r}");
                }
            }
            Decision::DeclareAttackers => {
                if opts.iter().any(|o| o.starts_with("attack with")) && !seen.block {
                    let r = h
                        .slash(me, thread, "mtg", "attack", vec![], json!({}))
                        .await;
                    let (id, val) = first_menu_value(&r).expect("attack picker");
                    let r = h.click(me, thread, &id, Some(vec![val])).await;
                    assert!(r["content"].as_str().unwrap_or("").contains("Done"), "{r}");
                    seen.attack = true;
                } else {
                    h.click(me, thread, &button("no attack"), None).await;
                }
            }
            Decision::DeclareBlockers => {
                if opts.iter().any(|o| o.starts_with("block ")) {
                    let r = h.slash(me, thread, "mtg", "block", vec![], json!({})).await;
                    let (id, val) = first_menu_value(&r).expect("block picker");
                    let r = h.click(me, thread, &id, Some(vec![val])).await;
                    assert!(r["content"].as_str().unwrap_or("").contains("Done"), "{r}");
                    seen.block = true;
                } else {
                    h.click(me, thread, &button("no blocks"), None).await;
                }
            }
            _ => {
                let first = opts.first().cloned().unwrap_or_else(|| "pass".into());
                h.slash(
                    me,
                    thread,
                    "mtg",
                    "play",
                    vec![opt("what", 3, json!(first))],
                    json!({}),
                )
                .await;
            }
        }
    }

    // A stale button: the first keep, long ago.
    let (who, id) = stale.expect("a keep button");
    let r = h.click(who, thread, &id, None).await;
    assert!(ephemeral(&r));
    assert!(
        r["content"].as_str().unwrap_or("").contains("out of date"),
        "{r}"
    );

    // Someone else's prompt.
    let l = svc.load(game).await.expect("load");
    let decider = discord_of(l.game.pending().expect("pending").player.index());
    let other = if decider == ALICE { BOB } else { ALICE };
    let r = h
        .click(
            other,
            thread,
            &format!("ss:a:{game}:{}:{decider}:pass", l.row.version),
            None,
        )
        .await;
    assert!(
        r["content"]
            .as_str()
            .unwrap_or("")
            .contains("only they can answer"),
        "{r}"
    );

    // The private hand, ephemerally.
    let r = h.slash(BOB, thread, "mtg", "hand", vec![], json!({})).await;
    assert!(ephemeral(&r));
    assert!(
        r["content"].as_str().unwrap_or("").contains("your hand"),
        "{r}"
    );

    // Alice concedes: asked to confirm first, then with `confirm:True`.
    let r = h
        .slash(ALICE, thread, "mtg", "concede", vec![], json!({}))
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        r["content"]
            .as_str()
            .unwrap_or("")
            .contains("You are about to concede"),
        "{r}"
    );
    let l = svc.load(game).await.expect("load");
    assert!(l.game.result.is_none(), "not conceded yet");
    let r = h
        .slash(
            ALICE,
            thread,
            "mtg",
            "concede",
            vec![opt("confirm", 5, json!(true))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    let l = svc.load(game).await.expect("load");
    assert!(l.game.result.is_some(), "conceded");

    let calls = fake.calls();
    // The status message was created once and edited in place.
    let edits = calls
        .iter()
        .filter(|c| {
            c.method == "PATCH" && c.path.starts_with(&format!("/channels/{thread}/messages/"))
        })
        .count();
    assert!(edits >= 3, "status edits: {edits}");
    let status_posts = calls
        .iter()
        .filter(|c| c.method == "POST" && c.path == format!("/channels/{thread}/messages"))
        .filter(|c| {
            c.json["content"]
                .as_str()
                .unwrap_or("")
                .starts_with(&format!("**Game {game}**"))
        })
        .count();
    assert_eq!(status_posts, 1, "one status message");
    // Board images in the thread.
    assert!(calls.iter().any(|c| {
        c.path == format!("/channels/{thread}/messages")
            && c.files
                .iter()
                .any(|(n, s)| n == "board.png" && s.len() > 1000)
    }));
    // Alice's hand by DM, with its image; Bob's DMs are closed (50007): told in the thread or
    // shown ephemerally, never in public.
    let dm_ch: Vec<u64> = fake
        .dm_channels
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, u)| **u == ALICE)
        .map(|(c, _)| *c)
        .collect();
    assert!(
        calls.iter().any(|c| c.method == "POST"
            && dm_ch
                .iter()
                .any(|d| c.path == format!("/channels/{d}/messages"))
            && c.files.iter().any(|(n, _)| n == "hand.png")),
        "hand DM to Alice"
    );
    let bob_told = calls.iter().any(|c| {
        let t = c.json["content"].as_str().unwrap_or("");
        (c.path == format!("/channels/{thread}/messages")
            && t.contains(&format!("<@{BOB}>: I cannot send you your hand")))
            || (c.path.starts_with("/webhooks/")
                && ephemeral(&c.json)
                && t.contains("could not DM you"))
    });
    assert!(bob_told, "DM-closed fallback");
    // No private card names in public: the thread never lists a hand.
    for c in calls
        .iter()
        .filter(|c| c.path == format!("/channels/{thread}/messages"))
    {
        let t = c.json["content"].as_str().unwrap_or("");
        assert!(
            !t.contains("your hand ("),
            "private text in the thread: {t}"
        );
        assert!(
            !t.contains("You may say"),
            "private options in the thread: {t}"
        );
    }
    // Every interaction was acknowledged.
    let callbacks = calls
        .iter()
        .filter(|c| c.path.ends_with("/callback"))
        .count();
    assert!(
        callbacks >= steps,
        "{callbacks} callbacks for {steps} steps"
    );

    eprintln!(
        "scripted game: {steps} decisions, {seen:?}, {} REST calls, {edits} status edits",
        calls.len()
    );
    env.stop().await;
}

fn text(v: &Value) -> String {
    v["content"].as_str().unwrap_or("").to_string()
}

fn mentions(v: &Value, user: u64) -> bool {
    v["allowed_mentions"]["users"].as_array().is_some_and(|u| {
        u.iter()
            .any(|x| x == &json!(user.to_string()) || x == &json!(user))
    })
}

/// Messages the bot posted in `channel` after the first `from` calls.
fn posts_in(fake: &Fake, channel: u64, from: usize) -> Vec<Call> {
    fake.calls()
        .into_iter()
        .skip(from)
        .filter(|c| c.method == "POST" && c.path == format!("/channels/{channel}/messages"))
        .collect()
}

/// The league's end through the scheduler: the final standings are posted in the league's
/// channel as an embed (the table within the embed's limits) with the image, and every
/// member is notified (mentioned in the text and allowed to be), not as a message cut at
/// 2000 characters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_final_standings_are_posted_as_an_embed_mentioning_every_member() {
    let clock = Clock::Fixed(Arc::new(std::sync::atomic::AtomicI64::new(1_700_000_000)));
    let env = start(&[], Some(clock.clone()), Duration::from_millis(100)).await;
    let (h, svc) = (&env.h, &env.svc);
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "league",
            "create",
            vec![
                opt("name", 3, json!("Short Sealed")),
                opt("product", 3, json!("3 TSP")),
                opt("days", 4, json!(3)),
            ],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("created"), "{r}");
    for who in [ALICE, BOB] {
        let r = h
            .slash(who, CHANNEL, "league", "join", vec![], json!({}))
            .await;
        assert!(text(&r).contains("You joined"), "{r}");
    }
    let l = svc
        .league_find(GUILD as i64, Some("Short Sealed"))
        .await
        .expect("league");
    clock.advance(l.def.dates.ends_at + l.def.clock.grace + 60 - svc.now());
    h.wait("the final standings", |calls| {
        calls.iter().any(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && text(&c.json).contains("Final standings")
        })
    })
    .await;
    let post = env
        .fake
        .calls()
        .into_iter()
        .find(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && text(&c.json).contains("Final standings")
        })
        .expect("posted");
    let content = text(&post.json);
    assert!(
        content.starts_with(&format!("<@{ALICE}> <@{BOB}>\nFinal standings"))
            || content.starts_with(&format!("<@{BOB}> <@{ALICE}>\nFinal standings")),
        "{content}"
    );
    assert!(mentions(&post.json, ALICE) && mentions(&post.json, BOB));
    assert!(
        !content.contains("```"),
        "the table is in the embed: {content}"
    );
    let embed = &post.json["embeds"][0];
    assert!(
        embed["title"]
            .as_str()
            .is_some_and(|t| t.contains("Short Sealed standings, final")),
        "{embed}"
    );
    let desc = embed["description"].as_str().unwrap_or_default();
    assert!(desc.contains("Alice") && desc.contains("Bob"), "{desc}");
    assert!(
        post.files
            .iter()
            .any(|(n, b)| n == "standings.png" && b.starts_with(b"\x89PNG")),
        "the image comes with it"
    );
    env.stop().await;
}

/// Everything around a game: decks, card, a declined challenge, settings (DMs off, ping
/// cadence), games, board, autocomplete, undo refused then allowed, deadline reminders from
/// the scheduler, and the server's image language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_settings_undo_and_reminders_through_a_fake_discord() {
    let clock = Clock::Fixed(Arc::new(std::sync::atomic::AtomicI64::new(1_700_000_000)));
    let env = start(&[], Some(clock.clone()), Duration::from_millis(100)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);

    // Decks: a bad list is refused and nothing is saved; import, list, show, delete.
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "import",
            vec![
                opt("name", 3, json!("junk")),
                opt("list", 3, json!("4 Not A Real Card; 56 Mountain")),
            ],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r) && text(&r).contains("not saved"), "{r}");
    let list = spellstack::decks::READY[0].list.replace('\n', ";");
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "import",
            vec![opt("name", 3, json!("burn")), opt("list", 3, json!(list))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("Saved deck **burn**"), "{r}");
    let r = h
        .slash(ALICE, CHANNEL, "deck", "list", vec![], json!({}))
        .await;
    assert!(
        ephemeral(&r) && text(&r).contains("**burn**") && !text(&r).contains("junk"),
        "{r}"
    );
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "show",
            vec![opt("name", 3, json!("burn"))],
            json!({}),
        )
        .await;
    assert!(
        text(&r).contains("**burn**") && text(&r).contains("Mountain"),
        "{r}"
    );
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "deck",
            "show",
            vec![opt("name", 3, json!("burn"))],
            json!({}),
        )
        .await;
    assert!(
        text(&r).contains("no deck called"),
        "another player's deck: {r}"
    );
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "delete",
            vec![opt("name", 3, json!("burn"))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("Deleted **burn**"), "{r}");
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "delete",
            vec![opt("name", 3, json!("burn"))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("no deck called"), "{r}");

    // A card: its text in public and its image; an unknown name gets suggestions.
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "card",
            vec![opt("name", 3, json!("Lightning Axe"))],
            json!({}),
        )
        .await;
    assert!(
        !ephemeral(&r)
            && text(&r).contains("**Lightning Axe** · {R} · Instant")
            && text(&r).contains("Rulings:"),
        "{r}"
    );
    let english_card = fake
        .calls()
        .into_iter()
        .rev()
        .find_map(|c| c.files.into_iter().find(|(n, _)| n == "card.png"))
        .expect("card image")
        .1;
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "card",
            vec![opt("name", 3, json!("Lightnig Axe"))],
            json!({}),
        )
        .await;
    assert!(
        !ephemeral(&r) && text(&r).contains("**Lightning Axe**"),
        "a typo finds the card: {r}"
    );
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "card",
            vec![opt("name", 3, json!("Frobnicator"))],
            json!({}),
        )
        .await;
    assert!(
        ephemeral(&r) && text(&r).contains("no card called `Frobnicator`"),
        "{r}"
    );
    // `/mtg card` defers publicly: the strict fake makes the first followup public, so the
    // private answer must not be it. The placeholder that took the deferral is removed.
    // (The removal may reach the fake just after the private answer: wait for it.)
    h.wait("the public placeholder removed", |c| {
        c.iter()
            .any(|c| c.method == "DELETE" && c.path.contains("/messages/@original"))
    })
    .await;
    // A deck that cannot be used is said privately too (the challenge defers publicly).
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(ALICE.to_string())),
                opt("deck", 3, json!("no such deck")),
            ],
            json!({ALICE.to_string(): h.user(ALICE)}),
        )
        .await;
    assert!(ephemeral(&r), "a deck error is private: {r}");

    // Settings: Alice turns DMs off and mentions off; Bob is mentioned by reminders only.
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "settings",
            vec![opt("dms", 5, json!(false)), opt("pings", 4, json!(2))],
            json!({}),
        )
        .await;
    assert!(
        ephemeral(&r)
            && text(&r).contains("Hand by DM: no")
            && text(&r).contains("Mentions: never"),
        "{r}"
    );
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "settings",
            vec![opt("pings", 4, json!(1))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("deadline reminders only"), "{r}");
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "mtg",
            "settings",
            vec![opt("stops", 3, json!("sometimes"))],
            json!({}),
        )
        .await;
    assert!(
        text(&r).contains("is not a step I know"),
        "bad stops are refused: {r}"
    );
    // The same stop words in `/mtg play` as in the terminal.
    for (words, said) in [
        ("stops", "Their turn: declare attackers step, end step."),
        (
            "stop my upkeep and their draw step",
            "stops changed: +your upkeep, +their draw step",
        ),
        ("unstop my upkeep", "stops changed: -your upkeep"),
        ("help stop", "declare blockers"),
        ("card Cavalry Master", "Rulings:"),
    ] {
        let r = h
            .slash(
                BOB,
                CHANNEL,
                "mtg",
                "play",
                vec![opt("what", 3, json!(words))],
                json!({}),
            )
            .await;
        assert!(ephemeral(&r) && text(&r).contains(said), "{words}: {r}");
    }
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let p = svc.prefs(bob).await.expect("prefs");
    assert_eq!(p.pings, spellstack::service::Pings::Reminders);
    assert!(p.dms, "a refused change keeps the rest");
    assert!(!svc.prefs(alice).await.expect("prefs").dms);

    // A challenge Bob declines: the challenge loses its buttons, the game is declined.
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let ids = custom_ids(&r);
    let decline = ids
        .iter()
        .find(|i| i.starts_with("ss:n:"))
        .expect("decline")
        .clone();
    let declined: i64 = decline
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let r = h.click(MALLORY, CHANNEL, &decline, None).await;
    assert!(text(&r).contains(&format!("for <@{BOB}>")), "{r}");
    let r = h.click(BOB, CHANNEL, &decline, None).await;
    assert!(ephemeral(&r) && text(&r).contains("declined"), "{r}");
    let row = svc.db.game(declined).await.expect("db").expect("row");
    assert_eq!(row.status, "declined");
    assert!(
        fake.calls().iter().any(|c| c.method == "PATCH"
            && c.path
                .starts_with(&format!("/channels/{CHANNEL}/messages/"))
            && text(&c.json).contains("declined")
            && c.json["components"]
                .as_array()
                .is_some_and(|a| a.is_empty())),
        "the challenge message is closed"
    );

    // A game Bob accepts (button: his default deck).
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let accept = custom_ids(&r)
        .into_iter()
        .find(|i| i.starts_with("ss:y:"))
        .expect("accept");
    let game: i64 = accept
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let r = h.click(BOB, CHANNEL, &accept, None).await;
    assert!(text(&r).contains("accepted"), "{r}");
    let thread = svc
        .db
        .game(game)
        .await
        .expect("db")
        .expect("row")
        .thread_id
        .expect("thread") as u64;
    let discord_of = |u: i64| if u == alice { ALICE } else { BOB };

    // DMs off: Alice gets no DM at all; Bob (DMs on) gets his hand.
    let dm_to = |u: u64| fake.dm_channels.lock().unwrap().values().any(|x| *x == u);
    h.wait("Bob's hand by DM", |_| dm_to(BOB)).await;
    assert!(!dm_to(ALICE), "Alice turned DMs off");
    // ... she sees it when she asks.
    let r = h
        .slash(ALICE, thread, "mtg", "hand", vec![], json!({}))
        .await;
    assert!(ephemeral(&r) && text(&r).contains("your hand ("), "{r}");
    let hand_shown = fake
        .calls()
        .into_iter()
        .rev()
        .find(|c| c.path.starts_with("/webhooks/"))
        .is_some_and(|c| c.files.iter().any(|(n, _)| n == "hand.png"));
    assert!(hand_shown, "the hand image comes with /mtg hand");

    // Games and board.
    let l = svc.load(game).await.expect("load");
    let decider = discord_of(l.seats[l.game.pending().expect("pending").player.index()].user_id);
    let r = h
        .slash(decider, CHANNEL, "mtg", "games", vec![], json!({}))
        .await;
    assert!(
        ephemeral(&r)
            && text(&r).contains(&format!("**Game {game}**"))
            && text(&r).contains("waiting on you"),
        "{r}"
    );
    assert!(
        !text(&r).contains(&format!("**Game {declined}**")),
        "declined games are not open: {r}"
    );
    let r = h
        .slash(
            MALLORY,
            thread,
            "mtg",
            "board",
            vec![opt("game", 4, json!(game))],
            json!({}),
        )
        .await;
    assert!(
        ephemeral(&r) && text(&r).contains(&format!("**Game {game}**")),
        "{r}"
    );
    assert!(
        fake.calls()
            .into_iter()
            .rev()
            .find(|c| c.path.starts_with("/webhooks/"))
            .is_some_and(|c| c
                .files
                .iter()
                .any(|(n, s)| n == "board.png" && s.len() > 1000)),
        "board image"
    );

    // Autocomplete offers what is legal now, filtered by what is typed.
    let all = h
        .autocomplete(decider, thread, "mtg", "play", "what", "")
        .await;
    assert!(
        all.contains(&"keep".to_string()) && all.contains(&"mulligan".to_string()),
        "{all:?}"
    );
    let some = h
        .autocomplete(decider, thread, "mtg", "play", "what", "mull")
        .await;
    assert_eq!(some, vec!["mulligan".to_string()]);
    let none = h
        .autocomplete(MALLORY, thread, "mtg", "play", "what", "")
        .await;
    assert!(none.is_empty(), "a spectator is offered nothing: {none:?}");

    // Deadline reminders from the scheduler, for each decider in turn: Bob (reminders only)
    // is mentioned by a reminder; Alice (never) is named without a mention.
    let mut reminded = HashSet::new();
    for _ in 0..2 {
        let l = svc.load(game).await.expect("load");
        let who = discord_of(l.seats[l.game.pending().expect("pending").player.index()].user_id);
        let name = if who == ALICE { "Alice" } else { "Bob" };
        let from = fake.calls().len();
        // Decision messages before this: Bob is never mentioned for a plain decision, Alice never.
        for c in posts_in(fake, thread, 0) {
            assert!(
                !mentions(&c.json, ALICE),
                "Alice asked for no mentions: {}",
                c.json
            );
            if !text(&c.json).contains("Reminder") {
                assert!(
                    !mentions(&c.json, BOB),
                    "Bob is mentioned by reminders only: {}",
                    c.json
                );
            }
        }
        clock.advance(37 * 3600);
        h.wait("a reminder in the thread", |_| {
            posts_in(fake, thread, from)
                .iter()
                .any(|c| text(&c.json).contains("Reminder"))
        })
        .await;
        let rem = posts_in(fake, thread, from)
            .into_iter()
            .find(|c| text(&c.json).contains("Reminder"))
            .expect("reminder");
        let t = text(&rem.json);
        assert!(
            t.contains(&format!("{name} has about 11 h left"))
                || t.contains(&format!("{name} has about 12 h left")),
            "{t}"
        );
        if who == BOB {
            assert!(
                mentions(&rem.json, BOB) && t.contains(&format!("<@{BOB}>")),
                "{}",
                rem.json
            );
        } else {
            assert!(
                !mentions(&rem.json, ALICE) && !t.contains(&format!("<@{ALICE}>")),
                "{}",
                rem.json
            );
        }
        reminded.insert(who);
        // One reminder per decision.
        tokio::time::sleep(Duration::from_millis(350)).await;
        assert_eq!(
            posts_in(fake, thread, from)
                .iter()
                .filter(|c| text(&c.json).contains("Reminder"))
                .count(),
            1
        );
        let r = h
            .slash(
                who,
                thread,
                "mtg",
                "play",
                vec![opt("what", 3, json!("keep"))],
                json!({}),
            )
            .await;
        assert!(text(&r).contains("Done"), "{r}");
    }
    assert_eq!(reminded.len(), 2, "both players were reminded");

    // Undo: the requester's last command, only with the opponent's consent.
    let mut guard = 0;
    let mut seen = Vec::new();
    let (me, before, after_version) = loop {
        guard += 1;
        assert!(guard < 60, "no land to play: {seen:#?}");
        let l = svc.load(game).await.expect("load");
        let p = l.game.pending().expect("pending").player;
        let me = discord_of(l.seats[p.index()].user_id);
        let opts = spellstack::grammar::options(&l.game, p, false);
        seen.push(format!(
            "turn {} {:?} {:?}: {opts:?}",
            l.game.turn,
            l.game.step,
            l.game.pending().map(|x| x.decision.describe())
        ));
        if let Some(land) = opts.iter().find(|o| o.starts_with("play ")) {
            // The natural words when only one land can be played.
            let land = if opts.iter().filter(|o| o.starts_with("play ")).count() == 1 {
                "play land"
            } else {
                land.as_str()
            };
            let before = serde_json::to_value(&l.game).expect("json");
            play_done(h, me, thread, land).await;
            let after = svc.load(game).await.expect("load");
            // A play followed by a draw (the turn passed on) can't be taken back: the draw
            // would be seen again. Look for another.
            let drew = after
                .game
                .player_ids()
                .any(|q| after.game.player(q).library.len() < l.game.player(q).library.len());
            if !drew {
                break (me, before, after.row.version);
            }
            continue;
        }
        if !opts.iter().any(|o| o == "pass")
            && let Some(first) = opts.first()
        {
            // Not a priority stop (a discard to hand size in cleanup): answer it.
            play_done(h, me, thread, first).await;
            continue;
        }
        let r = h.slash(me, thread, "mtg", "pass", vec![], json!({})).await;
        assert!(ephemeral(&r), "{r}");
    };
    let other = if me == ALICE { BOB } else { ALICE };
    for consent in ["deny undo", "allow undo"] {
        let from = fake.calls().len();
        let r = h.slash(me, thread, "mtg", "undo", vec![], json!({})).await;
        assert!(ephemeral(&r), "{r}");
        h.wait("the undo question in the thread", |_| {
            posts_in(fake, thread, from).iter().any(|c| {
                custom_ids(&c.json)
                    .iter()
                    .any(|i| i.ends_with(&format!(":{other}:{consent}")))
            })
        })
        .await;
        let button = posts_in(fake, thread, from)
            .iter()
            .flat_map(|c| custom_ids(&c.json))
            .find(|i| i.ends_with(&format!(":{other}:{consent}")))
            .expect("consent button");
        // Only the opponent may answer.
        let r = h.click(me, thread, &button, None).await;
        assert!(text(&r).contains("only they can answer"), "{r}");
        let r = h.click(other, thread, &button, None).await;
        assert!(ephemeral(&r), "{r}");
        let l = svc.load(game).await.expect("load");
        if consent == "deny undo" {
            assert_ne!(
                serde_json::to_value(&l.game).expect("json"),
                before,
                "refused: nothing taken back"
            );
            assert!(l.row.version >= after_version);
        } else {
            assert_eq!(
                serde_json::to_value(&l.game).expect("json"),
                before,
                "the land play was taken back"
            );
        }
    }

    // Nothing private reached the thread.
    for c in posts_in(fake, thread, 0) {
        let t = text(&c.json);
        assert!(
            !t.contains("your hand (") && !t.contains("You may say"),
            "{t}"
        );
    }

    // The server's image language: only a member who may manage the server changes it; then
    // images (here a card) are drawn with Traditional Chinese names.
    let zh = vec![opt("language", 4, json!(1))];
    let r = h
        .slash_top(MALLORY, CHANNEL, "mtg-server", zh.clone())
        .await;
    assert!(ephemeral(&r) && text(&r).contains("Manage Server"), "{r}");
    assert_eq!(svc.guild_language(GUILD as i64).await.expect("db"), None);
    let r = h.slash_top(ALICE, CHANNEL, "mtg-server", zh).await;
    if !render::RenderOptions::zh_hant().cjk_font_path.is_file() {
        // Without the CJK font the choice is refused with the reason, and nothing changes.
        assert!(
            text(&r).contains("cannot be drawn") && text(&r).contains("fonts-noto-cjk"),
            "{r}"
        );
        assert_eq!(svc.guild_language(GUILD as i64).await.expect("db"), None);
        eprintln!("CJK font not installed: checked the refusal only");
        env.stop().await;
        return;
    }
    assert!(text(&r).contains("now in Traditional Chinese"), "{r}");
    assert_eq!(
        svc.guild_language(GUILD as i64)
            .await
            .expect("db")
            .as_deref(),
        Some("zh-hant")
    );
    let r = h.slash_top(BOB, CHANNEL, "mtg-server", vec![]).await;
    assert!(
        text(&r).contains("Traditional Chinese"),
        "anyone may see it: {r}"
    );
    h.slash(
        BOB,
        CHANNEL,
        "mtg",
        "card",
        vec![opt("name", 3, json!("Lightning Axe"))],
        json!({}),
    )
    .await;
    let zh_card = fake
        .calls()
        .into_iter()
        .rev()
        .find_map(|c| c.files.into_iter().find(|(n, _)| n == "card.png"))
        .expect("card image")
        .1;
    let def = engine::Catalog::builtin()
        .by_name("Lightning Axe")
        .expect("card");
    let face = spellstack::scene::face_of_def(def);
    let expect = |o: &render::RenderOptions| render::card_png(&face, o).expect("render");
    assert_eq!(
        english_card,
        expect(&render::RenderOptions::default()),
        "English by default"
    );
    assert_eq!(
        zh_card,
        expect(&render::RenderOptions::zh_hant()),
        "the server's language"
    );
    assert_ne!(zh_card, english_card);
    env.stop().await;
}

/// A blocker order (or a damage division) in a real game: the service plays both sides until
/// one attacker is blocked by two creatures, then the attacker's player takes the default with
/// the **Accept default** button of their private panel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accept_default_button_for_a_blocker_order() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(BOB.to_string())),
                opt("deck", 3, json!("green")),
            ],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let menu = custom_ids(&r)
        .into_iter()
        .find(|i| i.starts_with("ss:Y:"))
        .expect("deck menu");
    let game: i64 = menu
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let r = h
        .click(BOB, CHANNEL, &menu, Some(vec!["green".into()]))
        .await;
    assert!(text(&r).contains("accepted"), "{r}");
    let thread = svc
        .db
        .game(game)
        .await
        .expect("db")
        .expect("row")
        .thread_id
        .expect("thread") as u64;

    // Both sides through the service: lands, creatures, attack when the defender has two
    // untapped creatures, and block one attacker with two.
    let mut tried: HashSet<(i64, String)> = HashSet::new();
    let mut steps = 0;
    let decider = loop {
        steps += 1;
        assert!(steps < 3000, "no blocker order reached");
        let l = svc.load(game).await.expect("load");
        assert!(l.game.result.is_none(), "the game ended first");
        let pend = l.game.pending().expect("pending").clone();
        let p = pend.player;
        let user = l.seats[p.index()].user_id;
        let opts = spellstack::grammar::options(&l.game, p, false);
        let v = l.row.version;
        let words = match &pend.decision {
            Decision::OrderBlockers { .. } | Decision::AssignCombatDamage { .. } => {
                break (user, p, pend.decision.clone(), v);
            }
            Decision::Mulligan { .. } => "keep".to_string(),
            Decision::Priority => {
                let mine = l.game.active == p;
                let land = opts.iter().find(|o| o.starts_with("play "));
                let cast = opts.iter().find(|o| {
                    o.starts_with("cast ")
                        && !tried.contains(&(v, (*o).clone()))
                        && engine::Catalog::builtin()
                            .by_name(o.trim_start_matches("cast "))
                            .is_some_and(|d| d.has_type(engine::cards::CardType::Creature))
                });
                match (mine, land, cast) {
                    (true, Some(l), _) => l.clone(),
                    (true, None, Some(c)) => {
                        tried.insert((v, c.clone()));
                        c.clone()
                    }
                    _ => "pass".to_string(),
                }
            }
            Decision::PayMana { .. } if opts.iter().any(|o| o == "pay") => "pay".to_string(),
            Decision::DeclareAttackers => {
                let defender = l.game.opponents(p)[0];
                let blockers = l
                    .game
                    .view(None)
                    .battlefield
                    .iter()
                    .filter(|o| o.controller == defender && o.power.is_some() && !o.tapped)
                    .count();
                match opts.iter().find(|o| o.starts_with("attack with")) {
                    Some(a) if blockers >= 2 => a.clone(),
                    _ => "no attack".to_string(),
                }
            }
            Decision::DeclareBlockers => {
                // Single blocks by attacker; two blockers on the first attacker that has two.
                let mut by: HashMap<String, Vec<String>> = HashMap::new();
                for a in l.game.legal_answers(p) {
                    if let engine::Answer::Block(b) = &a
                        && b.len() == 1
                    {
                        by.entry(format!("{:?}", b[0].attacker))
                            .or_default()
                            .push(spellstack::grammar::describe(&l.game, p, &a));
                    }
                }
                let pair = by.values().find(|v| v.len() >= 2);
                match pair {
                    Some(v) => format!("{}, {}", v[0], v[1]),
                    None => "no blocks".to_string(),
                }
            }
            _ => opts.first().cloned().unwrap_or_else(|| "pass".into()),
        };
        if let Err(e) = svc.command(user, game, &words, Some(v)).await {
            // A creature that cannot be paid for now, or a double block the rules refuse:
            // answer plainly instead.
            let fallback = match &pend.decision {
                Decision::DeclareBlockers => "no blocks",
                Decision::PayMana { .. } | Decision::ChooseTarget { .. } => "cancel",
                _ => "pass",
            };
            svc.command(user, game, fallback, Some(v))
                .await
                .unwrap_or_else(|e2| panic!("{words}: {e}; then {fallback}: {e2}"));
        }
    };
    let (user, p, decision, version) = decider;
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let who = if user == alice { ALICE } else { BOB };
    // The private panel offers "Accept default" (a public-safe answer) to the decider only.
    let r = h.slash(who, thread, "mtg", "hand", vec![], json!({})).await;
    let button = format!("ss:a:{game}:{version}:{who}:default");
    assert!(custom_ids(&r).contains(&button), "{decision:?}: {r}");
    let other = if who == ALICE { BOB } else { ALICE };
    let r = h.click(other, thread, &button, None).await;
    assert!(text(&r).contains("only they can answer"), "{r}");
    let r = h.click(who, thread, &button, None).await;
    assert!(text(&r).contains("Done: `default`"), "{r}");
    let l = svc.load(game).await.expect("load");
    assert!(l.row.version > version, "the default was applied");
    assert!(
        l.game
            .pending()
            .is_none_or(|x| x.decision != decision || x.player != p),
        "the decision moved on"
    );
    eprintln!("accepted the default for {decision:?} after {steps} service commands");
    env.stop().await;
}

/// One failed post in the game's thread (here: the bot lost its permission, 50013) does not
/// drop the rest of the delivery: the status message is edited, the hand goes by DM, and the
/// player who acted is told in their reply.
/// A challenge accepted in the fake Discord, kept and passed through the service until a
/// player may play a land: (game, its thread, who may play it, `play LAND`).
async fn game_until_a_land(env: &Env) -> (i64, u64, u64, String) {
    let (h, svc) = (&env.h, &env.svc);
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(BOB.to_string())),
                opt("deck", 3, json!("green")),
            ],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let menu = custom_ids(&r)
        .into_iter()
        .find(|i| i.starts_with("ss:Y:"))
        .expect("deck menu");
    let game: i64 = menu
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let r = h
        .click(BOB, CHANNEL, &menu, Some(vec!["green".into()]))
        .await;
    assert!(text(&r).contains("accepted"), "{r}");
    let thread = svc
        .db
        .game(game)
        .await
        .expect("db")
        .expect("row")
        .thread_id
        .expect("thread") as u64;
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    // Keep and pass through the service until someone may play a land.
    let (who, land) = loop {
        let l = svc.load(game).await.expect("load");
        let pend = l.game.pending().expect("pending").clone();
        let user = l.seats[pend.player.index()].user_id;
        let opts = spellstack::grammar::options(&l.game, pend.player, false);
        if let Some(land) = opts.iter().find(|o| o.starts_with("play ")) {
            break (if user == alice { ALICE } else { BOB }, land.clone());
        }
        let words = if matches!(pend.decision, Decision::Mulligan { .. }) {
            "keep"
        } else {
            "pass"
        };
        svc.command(user, game, words, Some(l.row.version))
            .await
            .expect("keep or pass");
    };
    (game, thread, who, land)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_thread_post_drops_nothing_else() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let (game, thread, who, land) = game_until_a_land(&env).await;
    // The scan has something to look for: the libraries and hands are hidden now.
    let hidden = hidden_names(svc).await;
    assert!(!hidden.is_empty(), "hidden cards during a game");
    assert!(names_card("Alice plays Forest.", "Forest") && !names_card("Forestwalk", "Forest"));
    // The fake refuses what Discord refuses: 2001 characters, a sixth button in a row.
    let mut errors = Vec::new();
    form_errors_message(&json!({"content": "x".repeat(2001)}), &mut errors);
    let buttons: Vec<Value> = (0..6)
        .map(|i| json!({"type": 2, "custom_id": format!("b{i}"), "label": "ok"}))
        .collect();
    form_errors_message(
        &json!({"components": [{"type": 1, "components": buttons}]}),
        &mut errors,
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
    fake.fail_posts.lock().unwrap().insert(thread, 50013);
    fake.expected.lock().unwrap().insert(50013);
    let from = fake.calls().len();
    let r = h
        .slash(
            who,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(land))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        text(&r).contains("could not be updated") && text(&r).contains("Missing Permissions"),
        "the player is told: {r}"
    );
    let after: Vec<Call> = fake.calls().into_iter().skip(from).collect();
    assert!(
        after.iter().any(|c| c.method == "POST"
            && c.path == format!("/channels/{thread}/messages")
            && c.status == 403),
        "the thread post was tried and refused"
    );
    assert!(
        after.iter().any(|c| c.method == "PATCH"
            && c.path.starts_with(&format!("/channels/{thread}/messages/"))
            && c.status == 200
            && text(&c.json).contains(&format!("**Game {game}**"))),
        "the status message is still edited"
    );
    let dms: Vec<u64> = fake.dm_channels.lock().unwrap().keys().copied().collect();
    assert!(
        after.iter().any(|c| c.method == "POST"
            && c.status == 200
            && dms
                .iter()
                .any(|d| c.path == format!("/channels/{d}/messages"))
            && text(&c.json).contains("your hand (")),
        "the new hand still goes by DM"
    );
    env.stop().await;
}

/// Discord answers 429 (rate limited) to the next two posts in the game's thread: the
/// adapter waits and posts again, so the move's post arrives, once, and the rest of the
/// delivery (status message, hand by DM, the player's reply) goes out as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_post_is_sent_again_not_dropped() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    let (game, thread, who, land) = game_until_a_land(&env).await;
    fake.rate_limited.lock().unwrap().insert(thread, 2);
    fake.expected.lock().unwrap().insert(429);
    let from = fake.calls().len();
    let r = h
        .slash(
            who,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(land))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        text(&r).starts_with("Done:") && !text(&r).contains("could not be updated"),
        "{r}"
    );
    let card = land.trim_start_matches("play ");
    let posts: Vec<Call> = fake
        .calls()
        .into_iter()
        .skip(from)
        .filter(|c| c.method == "POST" && c.path == format!("/channels/{thread}/messages"))
        .collect();
    let statuses: Vec<u16> = posts.iter().map(|c| c.status).collect();
    assert_eq!(&statuses[..3], &[429, 429, 200], "{statuses:?}");
    assert!(text(&posts[2].json).contains(card), "{}", posts[2].json);
    assert_eq!(
        posts
            .iter()
            .filter(|c| c.status == 200 && text(&c.json).contains(card))
            .count(),
        1,
        "posted once"
    );
    let after: Vec<Call> = fake.calls().into_iter().skip(from).collect();
    assert!(
        after.iter().any(|c| c.method == "PATCH"
            && c.status == 200
            && text(&c.json).contains(&format!("**Game {game}**"))),
        "the status message is edited"
    );
    env.stop().await;
}

/// Leagues through the fake Discord: create, join (twice is refused), open a pool, a build
/// refused for a card outside the pool, a non-organiser refused, a match played (both games
/// conceded in Discord and recorded by the service itself), standings as an embed, `me`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_through_a_fake_discord() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let reg = env
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "PUT" && c.path.ends_with("/commands"))
        .expect("registration");
    assert!(
        reg.json
            .as_array()
            .is_some_and(|a| a.iter().any(|c| c["name"] == "league")),
        "{}",
        reg.json
    );
    let create = vec![
        opt("name", 3, json!("Friday Sealed")),
        opt("product", 3, json!("6 TSP")),
    ];
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "league",
            "create",
            create.clone(),
            json!({}),
        )
        .await;
    assert!(
        text(&r).contains("created") && text(&r).contains("playable now"),
        "{r}"
    );
    let r = h
        .slash(BOB, CHANNEL, "league", "create", create, json!({}))
        .await;
    assert!(text(&r).contains("already a league"), "{r}");

    for who in [ALICE, BOB] {
        let r = h
            .slash(who, CHANNEL, "league", "join", vec![], json!({}))
            .await;
        assert!(
            ephemeral(&r) && text(&r).contains("6 packs, 90 cards"),
            "{r}"
        );
    }
    let r = h
        .slash(BOB, CHANNEL, "league", "join", vec![], json!({}))
        .await;
    assert!(text(&r).contains("already playing"), "{r}");
    let r = h
        .slash(BOB, CHANNEL, "league", "pool", vec![], json!({}))
        .await;
    assert!(ephemeral(&r) && text(&r).contains("playable now"), "{r}");
    let has_file = |name: &str| {
        env.fake.calls().iter().any(|c| {
            c.files
                .iter()
                .any(|(n, b)| n == name && b.starts_with(b"\x89PNG"))
        })
    };
    assert!(has_file("pool.png"), "the pool comes as an image");
    let r = h
        .slash(MALLORY, CHANNEL, "league", "pool", vec![], json!({}))
        .await;
    assert!(text(&r).contains("not playing"), "{r}");

    let league = svc
        .league_find(GUILD as i64, None)
        .await
        .expect("league")
        .row
        .id;
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let (_, pool) = svc.league_pool(league, bob).await.expect("pool");
    let outside = engine::Catalog::builtin()
        .supported()
        .find(|d| {
            !d.supertypes.contains(&engine::cards::Supertype::Basic) && pool.count_of(&d.name) == 0
        })
        .expect("a card outside the pool")
        .name
        .clone();
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "league",
            "deck",
            vec![
                opt("action", 3, json!("save")),
                opt("name", 3, json!("mine")),
                opt("list", 3, json!(format!("39 Forest; 1 {outside}"))),
            ],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("not in your pool"), "{r}");
    assert_eq!(
        svc.db.league_decks(league, bob).await.expect("decks").len(),
        1
    );

    // Mallory is no organiser (and no member with Manage Server).
    let r = h
        .slash(
            MALLORY,
            CHANNEL,
            "league",
            "nullify",
            vec![
                opt("match", 4, json!(1)),
                opt("reason", 3, json!("because")),
            ],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("only the organisers"), "{r}");

    // Alice challenges Bob; Bob concedes both games in Discord.
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "league",
            "play",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    assert!(text(&r).contains("game 1 of"), "{r}");
    // Game 1's chooser (drawn at random) is asked first: nothing starts until they answer,
    // and the announcement carries their Play first / Draw first buttons.
    let m = svc.db.league_matches(league).await.expect("matches")[0].clone();
    assert_eq!((m.game_id, m.choice_game), (None, Some(1)), "{m:?}");
    let (chooser, other) = if m.chooser == Some(alice) {
        (ALICE, BOB)
    } else {
        (BOB, ALICE)
    };
    let who = if chooser == ALICE { "Alice" } else { "Bob" };
    assert!(
        text(&r).contains(&format!("{who} chooses to play or draw first")),
        "{r}"
    );
    // The chooser is notified: mentioned in the text, and allowed to be.
    assert!(
        text(&r).starts_with(&format!("<@{chooser}>")) && mentions(&r, chooser),
        "{r}"
    );
    let answers = ids_with(&r, "ssl:");
    assert_eq!(
        answers,
        vec![
            format!("ssl:pf:{league}:{chooser}:{}:1", m.id),
            format!("ssl:df:{league}:{chooser}:{}:1", m.id)
        ],
        "{r}"
    );
    // The other player's click is refused; the chooser plays first; the buttons then are
    // stale and change nothing.
    let r = h.click(other, CHANNEL, &answers[1], None).await;
    assert!(text(&r).contains(&format!("for <@{chooser}>")), "{r}");
    let r = h.click(chooser, CHANNEL, &answers[0], None).await;
    assert!(
        text(&r).contains(&format!("{who} chose to play first")),
        "{r}"
    );
    let game1 = svc.db.league_matches(league).await.expect("matches")[0].game_id;
    assert!(game1.is_some(), "game 1 started");
    let r = h.click(chooser, CHANNEL, &answers[1], None).await;
    assert!(text(&r).contains("no longer waiting"), "{r}");
    assert_eq!(
        svc.db.league_matches(league).await.expect("matches")[0].game_id,
        game1
    );
    for n in 1..=2 {
        let m = svc.db.league_matches(league).await.expect("matches")[0].clone();
        let game = m.game_id.expect("a game in progress");
        let r = h
            .slash(
                BOB,
                CHANNEL,
                "mtg",
                "concede",
                // Conceding asks for confirmation unless `confirm` is given.
                vec![opt("game", 4, json!(game)), opt("confirm", 5, json!(true))],
                json!({}),
            )
            .await;
        assert!(ephemeral(&r), "game {n}: {r}");
        if n == 1 {
            // Bob lost game 1: he chooses for game 2, asked in the league's channel with
            // his buttons; he draws first.
            let draw = format!("ssl:df:{league}:{BOB}:{}:2", m.id);
            h.wait("Bob asked to play or draw game 2", |c| {
                c.iter().any(|c| {
                    c.method == "POST"
                        && c.path == format!("/channels/{CHANNEL}/messages")
                        && custom_ids(&c.json).contains(&draw)
                        && text(&c.json).contains("Bob chooses to play or draw first")
                        && text(&c.json).starts_with(&format!("<@{BOB}>"))
                        && mentions(&c.json, BOB)
                })
            })
            .await;
            // `/league choose` answers too, but only for the chooser.
            let r = h
                .slash(
                    ALICE,
                    CHANNEL,
                    "league",
                    "choose",
                    vec![opt("first", 4, json!(0))],
                    json!({}),
                )
                .await;
            assert!(
                text(&r).contains("Bob chooses to play or draw in game 2, not you"),
                "{r}"
            );
            let r = h.click(BOB, CHANNEL, &draw, None).await;
            assert!(text(&r).contains("Bob chose to draw first"), "{r}");
        }
    }
    let m = svc.db.league_matches(league).await.expect("matches")[0].clone();
    assert_eq!(m.status, "finished");
    assert_eq!((m.a_wins, m.b_wins), (2, 0), "{m:?}");
    assert_eq!(m.a_user, alice);
    // Each league game had a thread of its own in the league's channel, and its posts.
    let mut threads = HashSet::new();
    for g in svc.db.league_games(m.id).await.expect("games") {
        let row = svc.db.game(g.game_id).await.expect("db").expect("row");
        let t = row.thread_id.expect("a thread") as u64;
        assert_ne!(t, CHANNEL);
        assert!(
            !posts_in(&env.fake, t, 0).is_empty(),
            "game {} posted in its thread",
            g.game_no
        );
        threads.insert(t);
    }
    assert_eq!(threads.len(), 2, "one thread per game");
    assert!(
        env.fake.calls().iter().any(|c| c.method == "POST"
            && c.path == format!("/channels/{CHANNEL}/threads")
            && c.json["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("League: "))),
        "the threads are named for the league game"
    );
    h.wait("the match result posted", |c| {
        c.iter().any(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && c.json["content"]
                    .as_str()
                    .is_some_and(|t| t.contains("Match over"))
        })
    })
    .await;
    let r = h
        .slash(ALICE, CHANNEL, "league", "standings", vec![], json!({}))
        .await;
    let desc = r["embeds"][0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(desc.contains("Alice") && desc.contains("1-0-0"), "{r}");
    assert!(
        has_file("standings.png"),
        "the standings come as an image too"
    );
    let r = h
        .slash(BOB, CHANNEL, "league", "me", vec![], json!({}))
        .await;
    assert!(text(&r).contains("0-1-0"), "{r}");
    // A standing answer: Bob always draws first from now on, without being asked.
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "league",
            "prefer",
            vec![opt("choice", 4, json!(2))],
            json!({}),
        )
        .await;
    assert!(
        ephemeral(&r) && text(&r).contains("draw first without being asked"),
        "{r}"
    );
    let member = svc
        .db
        .member(league, bob)
        .await
        .expect("db")
        .expect("member");
    assert_eq!(member.play_draw, "draw");
    // One run at a time: a new run only once this one is over.
    let r = h
        .slash(BOB, CHANNEL, "league", "run", vec![], json!({}))
        .await;
    assert!(text(&r).contains("is not over: 1 of 5"), "{r}");
    // The organiser sets when a league starts and when its entries close; a start that is
    // not a time is refused and creates nothing.
    let later = |starts: &str| {
        vec![
            opt("name", 3, json!("Later Sealed")),
            opt("product", 3, json!("3 TSP")),
            opt("days", 4, json!(10)),
            opt("starts", 3, json!(starts)),
            opt("entries_days", 4, json!(5)),
        ]
    };
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "league",
            "create",
            later("someday"),
            json!({}),
        )
        .await;
    assert!(text(&r).contains("start `someday`"), "{r}");
    assert!(
        svc.league_find(GUILD as i64, Some("Later Sealed"))
            .await
            .is_err()
    );
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "league",
            "create",
            later("in 2 days"),
            json!({}),
        )
        .await;
    assert!(
        text(&r).contains("UTC (in 2.0 days), entries close")
            && text(&r).contains("UTC (in 7.0 days), ends")
            && text(&r).contains("UTC (in 12.0 days)"),
        "{r}"
    );
    let l = svc
        .league_find(GUILD as i64, Some("Later Sealed"))
        .await
        .expect("the later league");
    let d = l.def.dates;
    assert_eq!(
        (d.entries_close_at - d.starts_at, d.ends_at - d.starts_at),
        (5 * 86_400, 10 * 86_400)
    );
    // Members join before the start; nobody plays yet.
    let later_opt = || vec![opt("league", 3, json!("Later Sealed"))];
    let r = h
        .slash(BOB, CHANNEL, "league", "join", later_opt(), json!({}))
        .await;
    assert!(text(&r).contains("You joined Later Sealed"), "{r}");
    let r = h
        .slash(BOB, CHANNEL, "league", "play", later_opt(), json!({}))
        .await;
    assert!(text(&r).contains("has not started yet"), "{r}");
    env.stop().await;
}

/// The custom ids of a reply's components that start with `prefix`.
fn ids_with(r: &Value, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for row in r["components"].as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if let Some(id) = c["custom_id"].as_str().filter(|id| id.starts_with(prefix)) {
                out.push(id.to_string());
            }
        }
    }
    out
}

/// League buttons and menus through the fake Discord: a join offers the builds menu and the
/// "Play my next match" button; a build saved in Discord joins the menu; choosing a build in
/// the menu plays it next; someone else's button, a mangled id and a league that does not
/// exist are refused with a message and change nothing; the play buttons pair two members
/// through the queue and start the match (the opponent mentioned in the league's channel);
/// pressing play again during the match is refused and starts nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_buttons_and_menus_through_a_fake_discord() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let create = vec![
        opt("name", 3, json!("Button Sealed")),
        opt("product", 3, json!("6 TSP")),
    ];
    let r = h
        .slash(ALICE, CHANNEL, "league", "create", create, json!({}))
        .await;
    assert!(text(&r).contains("created"), "{r}");
    let r = h
        .slash(BOB, CHANNEL, "league", "join", vec![], json!({}))
        .await;
    assert!(text(&r).contains("You joined"), "{r}");
    let menu = ids_with(&r, "ssl:d:");
    let play = ids_with(&r, "ssl:p:");
    assert_eq!((menu.len(), play.len()), (1, 1), "{r}");
    assert!(menu[0].ends_with(&format!(":{BOB}")) && play[0].ends_with(&format!(":{BOB}")));
    let league = svc
        .league_find(GUILD as i64, None)
        .await
        .expect("league")
        .row
        .id;
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let deck_in_use = || async {
        svc.db
            .member(league, bob)
            .await
            .expect("db")
            .expect("member")
            .deck_name
    };
    // A build saved in Discord: it is in use and in the menu.
    let r = h
        .slash(
            BOB,
            CHANNEL,
            "league",
            "deck",
            vec![
                opt("action", 3, json!("save")),
                opt("name", 3, json!("islands")),
                opt("list", 3, json!("20 Forest; 20 Island")),
            ],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("Build `islands` saved (40 cards"), "{r}");
    assert_eq!(deck_in_use().await.as_deref(), Some("islands"));
    let options = r["components"][0]["components"][0]["options"].clone();
    let values: Vec<&str> = options
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["value"].as_str())
        .collect();
    assert_eq!(values, vec!["auto", "islands"], "{r}");
    // Choosing `auto` in the menu plays it next.
    let r = h
        .click(BOB, CHANNEL, &menu[0], Some(vec!["auto".into()]))
        .await;
    assert!(ephemeral(&r) && text(&r).contains("You play `auto`"), "{r}");
    assert_eq!(deck_in_use().await.as_deref(), Some("auto"));
    // Someone else's menu and button, a mangled id, a league that does not exist.
    let r = h
        .click(MALLORY, CHANNEL, &menu[0], Some(vec!["islands".into()]))
        .await;
    assert!(text(&r).contains(&format!("for <@{BOB}>")), "{r}");
    let r = h.click(MALLORY, CHANNEL, &play[0], None).await;
    assert!(text(&r).contains(&format!("for <@{BOB}>")), "{r}");
    assert_eq!(deck_in_use().await.as_deref(), Some("auto"));
    let r = h.click(BOB, CHANNEL, "ssl:p:x", None).await;
    assert!(text(&r).contains("not mine"), "{r}");
    let r = h
        .click(
            BOB,
            CHANNEL,
            &format!("ssl:p:{}:{BOB}", league + 1000),
            None,
        )
        .await;
    assert!(text(&r).contains("there is no league"), "{r}");
    let member = svc
        .db
        .member(league, bob)
        .await
        .expect("db")
        .expect("member");
    assert!(member.queued_at.is_none(), "no click queued Bob");
    assert!(svc.db.league_matches(league).await.expect("m").is_empty());

    // Bob waits in the queue; Alice joins and her button pairs them.
    let r = h.click(BOB, CHANNEL, &play[0], None).await;
    assert!(text(&r).contains("in the queue"), "{r}");
    let r = h
        .slash(ALICE, CHANNEL, "league", "join", vec![], json!({}))
        .await;
    let alice_play = ids_with(&r, "ssl:p:");
    assert_eq!(alice_play.len(), 1, "{r}");
    let r = h.click(ALICE, CHANNEL, &alice_play[0], None).await;
    assert!(text(&r).contains("game 1 of"), "{r}");
    let matches = svc.db.league_matches(league).await.expect("m");
    assert_eq!(matches.len(), 1);
    assert_eq!(matches[0].status, "active");
    h.wait("the match announced with Bob mentioned", |c| {
        c.iter().any(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && text(&c.json).contains("game 1 of")
                && text(&c.json).contains(&format!("<@{BOB}>"))
                && mentions(&c.json, BOB)
        })
    })
    .await;
    // The announcement asks game 1's chooser to play or draw, with their buttons, and
    // mentions them; their click starts the game.
    let m = matches[0].clone();
    let chooser = if m.chooser == Some(bob) { BOB } else { ALICE };
    let play_first = format!("ssl:pf:{league}:{chooser}:{}:1", m.id);
    h.wait("the chooser's buttons in the channel", |c| {
        c.iter().any(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && custom_ids(&c.json).contains(&play_first)
                && mentions(&c.json, chooser)
        })
    })
    .await;
    let r = h.click(chooser, CHANNEL, &play_first, None).await;
    assert!(text(&r).contains("chose to play first"), "{r}");
    assert!(
        svc.db.league_matches(league).await.expect("m")[0]
            .game_id
            .is_some()
    );
    // Pressing play again during the match starts nothing.
    let r = h.click(ALICE, CHANNEL, &alice_play[0], None).await;
    assert!(text(&r).contains("in progress"), "{r}");
    assert_eq!(svc.db.league_matches(league).await.expect("m").len(), 1);
    env.stop().await;
}

/// Two bot processes (the `spellstack serve` binary, twice) against one database, each
/// running its own shard range (shard 0 and shard 1 of 2) and reaching the fake Discord
/// through `discord.proxy`: the fake gateway sends a server's interactions to the session of
/// its shard, direct messages to shard 0, and every interaction is answered exactly once, by
/// the process that runs its shard. PostgreSQL when `TEST_DATABASE_URL` is set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_take_their_own_shards() {
    use spellstack::config::Sharding;
    let dir = tempfile::tempdir().expect("tempdir");
    let url = match std::env::var("TEST_DATABASE_URL") {
        Ok(u) if !u.trim().is_empty() => u,
        _ => format!("sqlite://{}", dir.path().join("shards.db").display()),
    };
    // The schema exists before either process starts (each would migrate it otherwise,
    // racing on a fresh database).
    let svc = Service::new(Config {
        database_url: url.clone(),
        ..Config::default()
    })
    .await
    .expect("service");
    svc.db.close().await;
    let fake = Arc::new(Fake::default());
    let app = Router::new()
        .route("/ws", get(gateway))
        .fallback(rest)
        .with_state(Arc::clone(&fake));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    fake.port.store(u64::from(port), Ordering::SeqCst);
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    /// Kills the child process when the test ends, however it ends.
    struct Process(std::process::Child);
    impl Drop for Process {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut bots = Vec::new();
    for shard in 0..2u32 {
        let cfg = dir.path().join(format!("shard{shard}.toml"));
        std::fs::write(
            &cfg,
            format!(
                "database_url = \"{url}\"\n[discord]\ntest_guild_id = {GUILD}\n\
                 shards = [{shard}, {shard}]\nshard_total = 2\n\
                 proxy = \"http://127.0.0.1:{port}\"\n"
            ),
        )
        .expect("config");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_spellstack"))
            .arg("serve")
            .arg("--config")
            .arg(&cfg)
            .env("DISCORD_TOKEN", format!("fake-token-{shard}"))
            .env_remove("DATABASE_URL")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spellstack serve");
        bots.push(Process(child));
    }
    let h = Harness {
        fake: Arc::clone(&fake),
        next: AtomicU64::new(1),
        deadline: Instant::now() + Duration::from_secs(120),
    };
    let start = Instant::now();
    loop {
        let mut shards: Vec<(u64, u64)> = fake
            .ws
            .lock()
            .unwrap()
            .iter()
            .map(|(s, t, _)| (*s, *t))
            .collect();
        shards.sort();
        if shards == [(0, 2), (1, 2)] {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "each process identifies with its own shard: {shards:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Server 400 is on shard 0 of 2, server 3 << 22 on shard 1; a DM (no server) on 0.
    let cases = [
        (GUILD, 0),
        (3 << 22, 1),
        (0, 0),
        ((7 << 22) + 5, 1),
        (GUILD, 0),
    ];
    for (guild, shard) in cases {
        assert_eq!(
            Sharding::shard_of(guild, 2),
            shard,
            "the test's own expectation"
        );
        fake.guild.store(guild, Ordering::SeqCst);
        let token = format!("tok{}", h.next.load(Ordering::SeqCst));
        let r = h
            .slash(ALICE, CHANNEL, "mtg", "games", vec![], json!({}))
            .await;
        assert!(!text(&r).is_empty(), "{r}");
        // Let a second process answer too, if it (wrongly) got the event.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let answers: Vec<Call> = fake
            .calls()
            .into_iter()
            .filter(|c| {
                c.path.contains(&format!("/{token}/callback"))
                    || c.path.ends_with(&format!("/webhooks/{APP}/{token}"))
            })
            .collect();
        let callbacks = answers
            .iter()
            .filter(|c| c.path.ends_with("/callback"))
            .count();
        assert_eq!(callbacks, 1, "answered once (server {guild}): {answers:#?}");
        assert!(
            answers
                .iter()
                .all(|c| c.auth == format!("Bot fake-token-{shard}")),
            "by the process of shard {shard} (server {guild}): {:?}",
            answers.iter().map(|c| &c.auth).collect::<Vec<_>>()
        );
    }
    fake.assert_clean();
    drop(bots);
    server.abort();
}

/// `/mtg play what:WORDS` by `user` in `thread`, which the bot must accept ("Done").
async fn play_done(h: &Harness, user: u64, thread: u64, words: &str) {
    let r = h
        .slash(
            user,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(words))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("Done"), "{words}: {r}");
}

/// The newest message the bot sent by DM to `user` that carries components.
fn last_dm_with_components(fake: &Fake, user: u64) -> Option<Value> {
    let chans: Vec<u64> = fake
        .dm_channels
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, u)| **u == user)
        .map(|(c, _)| *c)
        .collect();
    fake.calls()
        .into_iter()
        .rev()
        .filter(|c| c.method == "POST" && c.status == 200)
        .filter(|c| {
            chans
                .iter()
                .any(|d| c.path == format!("/channels/{d}/messages"))
        })
        .map(|c| c.json)
        .find(|j| !custom_ids(j).is_empty())
}

/// The custom id and value that answer `phrase` in a reply's components: its button, or the
/// menu option with that value.
fn answer_in(v: &Value, phrase: &str) -> Option<(String, Option<String>)> {
    for r in v["components"].as_array()? {
        for c in r["components"].as_array()? {
            let id = c["custom_id"].as_str().unwrap_or("").to_string();
            if c["type"] == 2 && id.starts_with("ss:a:") && id.ends_with(&format!(":{phrase}")) {
                return Some((id, None));
            }
            if c["type"] == 3
                && c["options"]
                    .as_array()?
                    .iter()
                    .any(|o| o["value"] == phrase)
            {
                return Some((id, Some(phrase.to_string())));
            }
        }
    }
    None
}

/// A whole turn played from a direct message: the hand's DM carries the player's actions;
/// an old DM button says the game moved on and shows where it stands; a land is played and
/// the player passes through the rest of the turn from the DM (the opponent answering through
/// the service), each move posted in the game's thread, until the turn is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_turn_from_the_direct_message() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let (game, thread, who, land) = game_until_a_land(&env).await;
    let me = svc
        .user(
            &format!("discord:{who}"),
            if who == ALICE { "Alice" } else { "Bob" },
        )
        .await
        .expect("user");
    let dm = last_dm_with_components(fake, who).expect("the hand's DM carries actions");
    let ids = custom_ids(&dm);
    assert!(
        ids.iter().all(|i| i.contains(&format!(":{game}:"))),
        "every action names its game: {ids:?}"
    );
    // The DM is from before the game moved on (mulligans, passes): its button says so.
    let old = ids
        .iter()
        .find(|i| i.starts_with("ss:o:"))
        .or_else(|| ids.iter().find(|i| i.starts_with("ss:a:")))
        .expect("a button")
        .clone();
    fake.guild.store(0, Ordering::SeqCst);
    let dm_channel = fake
        .dm_channels
        .lock()
        .unwrap()
        .iter()
        .find(|(_, u)| **u == who)
        .map(|(c, _)| *c)
        .expect("dm channel");
    let mut r = h.click(who, dm_channel, &old, None).await;
    assert!(text(&r).contains("out of date"), "{r}");
    let turn = svc.load(game).await.expect("load").game.turn;
    let from = fake.calls().len();
    let (id, value) = answer_in(&r, &land).unwrap_or_else(|| panic!("{land} offered: {r}"));
    r = h.click(who, dm_channel, &id, value.map(|v| vec![v])).await;
    assert!(text(&r).starts_with(&format!("Done: `{land}`")), "{r}");
    let card = land.trim_start_matches("play ");
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains(card)),
        "the thread says the land was played"
    );
    // Pass through the rest of the turn from the DM's panels.
    let mut passes = 0;
    for _ in 0..40 {
        let l = svc.load(game).await.expect("load");
        if l.game.turn != turn || l.game.result.is_some() {
            break;
        }
        let p = l.game.pending().expect("pending").clone();
        let user = l.seats[p.player.index()].user_id;
        if user != me {
            let opts = spellstack::grammar::options(&l.game, p.player, false);
            let w = ["pass", "no blocks", "default", "no"]
                .into_iter()
                .find(|w| opts.iter().any(|o| o == w))
                .map(str::to_string)
                .unwrap_or_else(|| opts[0].clone());
            svc.command(user, game, &w, Some(l.row.version))
                .await
                .expect("the opponent answers");
            continue;
        }
        let phrase = ["pass", "no attack", "default", "no"]
            .into_iter()
            .find(|w| answer_in(&r, w).is_some());
        let Some(phrase) = phrase else {
            // No panel in the last reply: ask for the one of the moment, from the DM.
            r = h
                .slash(
                    who,
                    dm_channel,
                    "mtg",
                    "hand",
                    vec![opt("game", 4, json!(game))],
                    json!({}),
                )
                .await;
            continue;
        };
        let (id, value) = answer_in(&r, phrase).expect("found");
        r = h.click(who, dm_channel, &id, value.map(|v| vec![v])).await;
        passes += 1;
    }
    let l = svc.load(game).await.expect("load");
    assert!(
        l.game.turn > turn || l.game.result.is_some(),
        "the turn was played out from the DM ({passes} answers)"
    );
    // With nothing else to do the player's stops pass the rest of the turn on their own:
    // `passes` may be 0.
    assert!(
        !posts_in(fake, thread, from).is_empty(),
        "the thread followed the turn"
    );
    env.stop().await;
}

/// A started game whose state is a scenario board (`engine::scenario`), Alice (seat 0) and
/// Bob (seat 1) its players, with a thread of its own: (game, thread). Its stored setup is a
/// placeholder, so nothing here may replay the log (undo).
async fn scenario_game(env: &Env, src: &str) -> (i64, u64) {
    let game = engine::scenario::game_from_str(src).expect("scenario runs");
    stored_game(env, &game).await
}

/// A started game whose state is `game` (see [`scenario_game`]): (game, thread).
async fn stored_game(env: &Env, game: &engine::Game) -> (i64, u64) {
    use spellstack::storage::{NewGame, NewSeat};
    let svc = &env.svc;
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let thread = env.fake.id();
    let deck = json!({"name": "scenario", "cards": []}).to_string();
    let seats: Vec<NewSeat> = [alice, bob]
        .iter()
        .map(|u| NewSeat {
            user_id: *u,
            deck: Some(deck.clone()),
            accepted: true,
            is_agent: false,
        })
        .collect();
    let id = svc
        .db
        .create_game(
            &NewGame {
                status: "challenge".into(),
                ruleset: game.ruleset.name().into(),
                seed: game.seed,
                created_by: alice,
                guild_id: Some(GUILD as i64),
                channel_id: Some(CHANNEL as i64),
                thread_id: Some(thread as i64),
                now: svc.now(),
            },
            &seats,
        )
        .await
        .expect("create");
    let setup = spellstack::replay::StoredSetup {
        ruleset: game.ruleset,
        seed: game.seed,
        starting_life: 20,
        first_player: None,
        players: Vec::new(),
    };
    svc.db
        .start_game(
            id,
            &serde_json::to_string(&setup).expect("setup"),
            &game.to_json().expect("json"),
            None,
            svc.now(),
        )
        .await
        .expect("start");
    (id, thread)
}

/// The direct-message channel the bot opened with `user`.
fn dm_channel_of(fake: &Fake, user: u64) -> u64 {
    fake.dm_channels
        .lock()
        .unwrap()
        .iter()
        .find(|(_, u)| **u == user)
        .map(|(c, _)| *c)
        .expect("a DM channel")
}

/// The newest DM to `user` whose components belong to `game`.
fn last_dm_of(fake: &Fake, user: u64, game: i64) -> Option<Value> {
    let chans: Vec<u64> = fake
        .dm_channels
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, u)| **u == user)
        .map(|(c, _)| *c)
        .collect();
    // `ss:TAG:GAME:...`: the game is the third field.
    let of_game = |id: &str| id.split(':').nth(2) == Some(game.to_string().as_str());
    fake.calls()
        .into_iter()
        .rev()
        .filter(|c| c.method == "POST" && c.status == 200)
        .filter(|c| {
            chans
                .iter()
                .any(|d| c.path == format!("/channels/{d}/messages"))
        })
        .map(|c| c.json)
        .find(|j| {
            let ids = custom_ids(j);
            !ids.is_empty() && ids.iter().all(|i| of_game(i))
        })
}

/// A click on a component of a DM (an interaction without a server).
async fn dm_click(env: &Env, user: u64, id: &str, values: Option<Vec<String>>) -> Value {
    let ch = dm_channel_of(&env.fake, user);
    env.fake.guild.store(0, Ordering::SeqCst);
    let r = env.h.click(user, ch, id, values).await;
    env.fake.guild.store(GUILD, Ordering::SeqCst);
    r
}

/// Answers `phrase` with the component of `v` that carries it.
async fn dm_answer(env: &Env, user: u64, v: &Value, phrase: &str) -> Value {
    let (id, value) = answer_in(v, phrase).unwrap_or_else(|| panic!("`{phrase}` offered: {v}"));
    dm_click(env, user, &id, value.map(|x| vec![x])).await
}

/// Bob passes in the thread: the first delivery of a scenario game (Alice is asked next,
/// and her hand goes by DM with its actions).
async fn bob_passes(env: &Env, thread: u64) {
    let r = env
        .h
        .slash(BOB, thread, "mtg", "pass", vec![], json!({}))
        .await;
    assert!(text(&r).contains("Done: `pass`"), "{r}");
}

async fn version_of(svc: &Service, game: i64) -> i64 {
    svc.load(game).await.expect("load").row.version
}

/// The names of the cards of `p` in `zone`.
fn zone_names(g: &engine::Game, p: usize, zone: engine::zones::ZoneKind) -> Vec<String> {
    let cat = g.catalog();
    let mut v: Vec<String> = g
        .objects
        .iter()
        .filter(|o| o.zone == zone && o.owner.index() == p && !o.token)
        .map(|o| cat.get(o.card).name.clone())
        .collect();
    v.sort();
    v
}

/// Alice in her main phase (Bob has priority first), one land to play.
fn main_phase_with(hand: &[&str]) -> String {
    let hand: Vec<String> = hand.iter().map(|c| format!("\"{c}\"")).collect();
    format!(
        r#"
name = "main phase"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = [{}]
battlefield = ["Mountain"]
library = ["Forest", "Forest", "Forest", "Forest"]
[setup.bob]
library = ["Forest", "Forest", "Forest"]
"#,
        hand.join(", ")
    )
}

/// Two games at once, both driven from Alice's DMs: each DM's actions name its own game,
/// an answer from one game's DM moves that game only (the other keeps its version, hand and
/// board, and its thread hears nothing), an old DM of a game says that game moved on, and
/// `/mtg hand` in the DM asks which game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_at_once_from_the_direct_messages() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let (ga, ta) = scenario_game(&env, &main_phase_with(&["Island", "Plains"])).await;
    let (gb, tb) = scenario_game(&env, &main_phase_with(&["Swamp", "Forest"])).await;
    bob_passes(&env, ta).await;
    bob_passes(&env, tb).await;
    let dma = last_dm_of(fake, ALICE, ga).expect("game A's DM");
    let dmb = last_dm_of(fake, ALICE, gb).expect("game B's DM");
    for (dm, g) in [(&dma, ga), (&dmb, gb)] {
        assert!(
            text(dm).contains(&format!("**Game {g}**")),
            "the DM says its game: {dm}"
        );
    }
    assert!(answer_in(&dma, "play Island").is_some(), "{dma}");
    assert!(answer_in(&dma, "play Swamp").is_none(), "{dma}");
    let (va, vb) = (version_of(svc, ga).await, version_of(svc, gb).await);
    let a_before = svc.load(ga).await.expect("load").game;

    // Game B's DM plays game B's land.
    let from = fake.calls().len();
    let r = dm_answer(&env, ALICE, &dmb, "play Swamp").await;
    assert!(text(&r).starts_with("Done: `play Swamp`"), "{r}");
    let b = svc.load(gb).await.expect("load");
    assert!(b.row.version > vb);
    assert!(
        zone_names(&b.game, 0, engine::zones::ZoneKind::Battlefield).contains(&"Swamp".to_string())
    );
    let a = svc.load(ga).await.expect("load");
    assert_eq!(a.row.version, va, "game A did not move");
    assert_eq!(
        zone_names(&a.game, 0, engine::zones::ZoneKind::Hand),
        zone_names(&a_before, 0, engine::zones::ZoneKind::Hand)
    );
    assert!(
        posts_in(fake, tb, from)
            .iter()
            .any(|c| text(&c.json).contains("Swamp")),
        "game B's thread says so"
    );
    assert!(
        posts_in(fake, ta, from).is_empty(),
        "game A's thread hears nothing of game B"
    );

    // Game A's DM (older than game B's answer) still answers game A, at its version.
    let from = fake.calls().len();
    let r = dm_answer(&env, ALICE, &dma, "play Island").await;
    assert!(text(&r).starts_with("Done: `play Island`"), "{r}");
    let a = svc.load(ga).await.expect("load");
    assert!(a.row.version > va);
    assert!(
        zone_names(&a.game, 0, engine::zones::ZoneKind::Battlefield)
            .contains(&"Island".to_string())
    );
    let b2 = svc.load(gb).await.expect("load");
    assert_eq!(b2.row.version, b.row.version, "game B did not move");
    assert!(posts_in(fake, tb, from).is_empty());

    // Game B's first DM is out of date now: it says so and shows game B.
    let r = dm_answer(&env, ALICE, &dmb, "play Forest").await;
    assert!(text(&r).contains("out of date"), "{r}");
    assert!(text(&r).contains(&format!("**Game {gb}**")), "{r}");
    assert_eq!(version_of(svc, gb).await, b.row.version);

    // In the DM, `/mtg hand` without a game asks which one.
    let ch = dm_channel_of(fake, ALICE);
    fake.guild.store(0, Ordering::SeqCst);
    let r = h.slash(ALICE, ch, "mtg", "hand", vec![], json!({})).await;
    assert!(text(&r).contains("several games"), "{r}");
    assert!(text(&r).contains(&ga.to_string()) && text(&r).contains(&gb.to_string()));
    let r = h
        .slash(
            ALICE,
            ch,
            "mtg",
            "hand",
            vec![opt("game", 4, json!(gb))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains(&format!("**Game {gb}**")), "{r}");
    fake.guild.store(GUILD, Ordering::SeqCst);
    env.stop().await;
}

/// The hand's answers taken from the DM, each advancing the game as in the thread (this
/// test and the three after it): here a card suspended, then another cycled from the new
/// DM; the first DM's buttons then say the game moved on and change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suspend_and_cycle_from_the_direct_message() {
    use engine::zones::ZoneKind::{Exile, Graveyard, Hand};
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);

    // Suspend, then cycle, from the DM.
    let (g, thread) = scenario_game(&env, &main_phase_with(&["Rift Bolt", "Street Wraith"])).await;
    bob_passes(&env, thread).await;
    let first = last_dm_of(fake, ALICE, g).expect("the hand's DM");
    let from = fake.calls().len();
    let r = dm_answer(&env, ALICE, &first, "suspend Rift Bolt").await;
    assert!(text(&r).starts_with("Done: `suspend Rift Bolt`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert_eq!(zone_names(&l.game, 0, Exile), vec!["Rift Bolt".to_string()]);
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains("Rift Bolt")),
        "the thread says Rift Bolt was suspended"
    );
    let second = last_dm_of(fake, ALICE, g).expect("a new DM");
    assert_ne!(
        custom_ids(&second),
        custom_ids(&first),
        "the DM follows the game"
    );
    let r = dm_answer(&env, ALICE, &second, "cycle Street Wraith").await;
    assert!(text(&r).starts_with("Done: `cycle Street Wraith`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert_eq!(l.game.player(engine::PlayerId(0)).life, 18);
    assert!(zone_names(&l.game, 0, Graveyard).contains(&"Street Wraith".to_string()));
    assert_eq!(zone_names(&l.game, 0, Hand), vec!["Forest".to_string()]);
    // The first DM is out of date: it says so, and nothing moves.
    let v = l.row.version;
    let r = dm_answer(&env, ALICE, &first, "cycle Street Wraith").await;
    assert!(text(&r).contains("out of date"), "{r}");
    assert_eq!(version_of(svc, g).await, v);

    env.stop().await;
}

/// A search's result chosen in the DM that comes for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_answered_from_the_direct_message() {
    use engine::zones::ZoneKind::Battlefield;
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);

    // A search's result, from the DM.
    let search = r#"
name = "search"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Search for Tomorrow"]
battlefield = ["Forest", "Forest", "Forest"]
library = ["Swamp", "Plains", "Island"]
[setup.bob]
library = ["Forest", "Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, search).await;
    bob_passes(&env, thread).await;
    let dm = last_dm_of(fake, ALICE, g).expect("the hand's DM");
    let r = dm_answer(&env, ALICE, &dm, "cast Search for Tomorrow").await;
    assert!(
        text(&r).starts_with("Done: `cast Search for Tomorrow`"),
        "{r}"
    );
    let l = svc.load(g).await.expect("load");
    assert!(
        matches!(
            l.game.pending().map(|p| &p.decision),
            Some(Decision::Search { .. })
        ),
        "{:?}",
        l.game.pending()
    );
    let dm = last_dm_of(fake, ALICE, g).expect("the search's DM");
    assert!(
        text(&dm).contains("search"),
        "the DM says what is asked: {dm}"
    );
    let r = dm_answer(&env, ALICE, &dm, "find Plains").await;
    assert!(text(&r).starts_with("Done: `find Plains`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert!(zone_names(&l.game, 0, Battlefield).contains(&"Plains".to_string()));

    env.stop().await;
}

/// A discard of two: the DM comes for it (the hand unchanged) and its menu takes any two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discard_of_two_from_the_direct_message() {
    use engine::zones::ZoneKind::Hand;
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);

    // A discard of two in the cleanup step: the DM comes again for it though the hand is the
    // one the last DM showed, and its menu takes any two cards.
    let discard = r#"
name = "discard"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Sprout", "Forest", "Forest", "Island", "Island", "Plains", "Plains", "Swamp", "Swamp"]
battlefield = ["Forest"]
library = ["Forest", "Forest"]
lands_played = 1
[setup.bob]
library = ["Forest", "Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, discard).await;
    bob_passes(&env, thread).await;
    let mut r = last_dm_of(fake, ALICE, g).expect("the hand's DM");
    // Every DM the bot sent Alice (it may open a DM channel each time).
    let dms_before = |fake: &Fake| {
        let chans: Vec<u64> = fake
            .dm_channels
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, u)| **u == ALICE)
            .map(|(c, _)| *c)
            .collect();
        chans
            .iter()
            .map(|c| posts_in(fake, *c, 0).len())
            .sum::<usize>()
    };
    let mut sent = dms_before(fake);
    for _ in 0..6 {
        let l = svc.load(g).await.expect("load");
        if matches!(
            l.game.pending().map(|p| &p.decision),
            Some(Decision::Discard { .. })
        ) {
            break;
        }
        sent = dms_before(fake);
        r = dm_answer(&env, ALICE, &r, "pass").await;
    }
    let l = svc.load(g).await.expect("load");
    assert!(
        matches!(
            l.game.pending().map(|p| &p.decision),
            Some(Decision::Discard { count: 2 })
        ),
        "{:?}",
        l.game.pending()
    );
    assert!(dms_before(fake) > sent, "a DM came for the discard");
    let dm = last_dm_of(fake, ALICE, g).expect("the discard's DM");
    let menu = dm["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["type"] == 3)
        .expect("a menu");
    assert_eq!(
        (menu["min_values"].as_u64(), menu["max_values"].as_u64()),
        (Some(2), Some(2)),
        "{menu}"
    );
    let id = menu["custom_id"].as_str().expect("id").to_string();
    let r = dm_click(
        &env,
        ALICE,
        &id,
        Some(vec!["Plains 2 of 2".into(), "Swamp 2 of 2".into()]),
    )
    .await;
    assert!(
        text(&r).starts_with("Done: `discard Plains 2 of 2, Swamp 2 of 2`"),
        "{r}"
    );
    let l = svc.load(g).await.expect("load");
    let hand = zone_names(&l.game, 0, Hand);
    assert_eq!(hand.len(), 7, "{hand:?}");
    assert_eq!(hand.iter().filter(|c| *c == "Plains").count(), 1);
    assert_eq!(hand.iter().filter(|c| *c == "Swamp").count(), 1);
    // The discard's menu again: out of date.
    let r = dm_click(
        &env,
        ALICE,
        &id,
        Some(vec!["Forest 1 of 2".into(), "Island 1 of 2".into()]),
    )
    .await;
    assert!(text(&r).contains("out of date"), "{r}");
    assert_eq!(
        zone_names(&l.game, 0, Hand),
        zone_names(&svc.load(g).await.expect("load").game, 0, Hand)
    );

    env.stop().await;
}

/// The mulligans of a new game answered from the DMs, an old Keep out of date.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mulligans_from_the_direct_message() {
    use engine::zones::ZoneKind::Hand;
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);

    // Mulligans from the DM: the first to decide mulligans; the second is asked next (their
    // hand unchanged) and their DM carries Keep and Mulligan; then the first keeps.
    let r = env
        .h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(BOB.to_string())),
                opt("deck", 3, json!("green")),
            ],
            json!({BOB.to_string(): env.h.user(BOB)}),
        )
        .await;
    let menu = custom_ids(&r)
        .into_iter()
        .find(|i| i.starts_with("ss:Y:"))
        .expect("deck menu");
    let g: i64 = menu
        .split(':')
        .nth(2)
        .and_then(|x| x.parse().ok())
        .expect("id");
    let r = env
        .h
        .click(BOB, CHANNEL, &menu, Some(vec!["green".into()]))
        .await;
    assert!(text(&r).contains("accepted"), "{r}");
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let decider = |l: &spellstack::service::Loaded| {
        let p = l.game.pending().expect("pending");
        assert!(
            matches!(p.decision, Decision::Mulligan { .. }),
            "{:?}",
            p.decision
        );
        if l.seats[p.player.index()].user_id == alice {
            ALICE
        } else {
            BOB
        }
    };
    let l = svc.load(g).await.expect("load");
    let one = decider(&l);
    let seat_one = l.game.pending().expect("pending").player.index();
    let two = if one == ALICE { BOB } else { ALICE };
    let dm_one = last_dm_of(fake, one, g).expect("the first decider's DM");
    let r = dm_answer(&env, one, &dm_one, "mulligan").await;
    assert!(text(&r).starts_with("Done: `mulligan`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert_eq!(decider(&l), two);
    let dm_two = last_dm_of(fake, two, g).expect("the second decider's DM");
    assert!(
        answer_in(&dm_two, "keep").is_some(),
        "their DM carries Keep: {dm_two}"
    );
    let r = dm_answer(&env, two, &dm_two, "keep").await;
    assert!(text(&r).starts_with("Done: `keep`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert_eq!(decider(&l), one, "the mulligan was taken; asked again");
    let hand = zone_names(&l.game, seat_one, Hand);
    assert_eq!(hand.len(), 6, "{hand:?}");
    let again = last_dm_of(fake, one, g).expect("the new hand's DM");
    // The first DM's Keep is out of date.
    let v = l.row.version;
    let r = dm_answer(&env, one, &dm_one, "keep").await;
    assert!(text(&r).contains("out of date"), "{r}");
    assert_eq!(version_of(svc, g).await, v);
    let r = dm_answer(&env, one, &again, "keep").await;
    assert!(text(&r).starts_with("Done: `keep`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert!(
        l.game
            .pending()
            .is_none_or(|p| !matches!(p.decision, Decision::Mulligan { .. })),
        "both kept"
    );
    env.stop().await;
}

/// The menus of a picker reply: (custom id, option values), in order.
fn menus_of(v: &Value) -> Vec<(String, Vec<String>)> {
    v["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == 3)
        .map(|c| {
            let values = c["options"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|o| o["value"].as_str().map(str::to_string))
                .collect();
            (c["custom_id"].as_str().unwrap_or("").to_string(), values)
        })
        .collect()
}

/// The **Declare** (or **Clear**) button of a reply.
fn draft_button(v: &Value, clear: bool) -> String {
    let end = if clear { ":clear" } else { ":go" };
    custom_ids(v)
        .into_iter()
        .find(|i| i.starts_with("ss:d:") && i.ends_with(end))
        .unwrap_or_else(|| panic!("a draft button: {v}"))
}

/// Past 25 choices the attack and block pickers are paged: choices from two pages are
/// gathered and **Declare** declares them together (30 attackers; 28 legal blocks). Clear
/// forgets them; a Declare with nothing chosen says so; a Declare from an older state says
/// the game moved on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paged_declare_attackers_and_blockers_past_25_choices() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let bears = |n: usize| vec!["\"Ashcoat Bear\""; n].join(", ");

    // Thirty attackers.
    let src = format!(
        "name = \"thirty\"\nscript = [\"goto declare_attackers\"]\n[setup]\nactive = \"alice\"\nturn = 3\n[setup.alice]\nlibrary = [\"Forest\"]\nbattlefield = [{}]\n[setup.bob]\nlibrary = [\"Forest\"]\n",
        bears(30)
    );
    let (g, thread) = scenario_game(&env, &src).await;
    let r = h
        .slash(ALICE, thread, "mtg", "attack", vec![], json!({}))
        .await;
    assert!(text(&r).contains("30 choices"), "{r}");
    let menus = menus_of(&r);
    assert_eq!(menus.len(), 2, "{r}");
    assert_eq!(menus[0].1.len(), 25);
    assert_eq!(menus[1].1.len(), 5);
    let v = version_of(svc, g).await;
    let r = h
        .click(
            ALICE,
            thread,
            &menus[0].0,
            Some(vec![
                "Ashcoat Bear 1 of 30".into(),
                "Ashcoat Bear 2 of 30".into(),
            ]),
        )
        .await;
    assert!(text(&r).contains("chosen so far (2)"), "{r}");
    // Clear forgets them; Declare then has nothing to declare.
    let r = h.click(ALICE, thread, &draft_button(&r, true), None).await;
    assert!(text(&r).contains("Cleared"), "{r}");
    let go = format!("ss:d:{g}:{v}:{ALICE}:a:go");
    let r = h.click(ALICE, thread, &go, None).await;
    assert!(text(&r).contains("Nothing is chosen"), "{r}");
    assert_eq!(version_of(svc, g).await, v);
    // From both pages, then Declare.
    h.click(
        ALICE,
        thread,
        &menus[0].0,
        Some(vec![
            "Ashcoat Bear 1 of 30".into(),
            "Ashcoat Bear 2 of 30".into(),
        ]),
    )
    .await;
    let r = h
        .click(
            ALICE,
            thread,
            &menus[1].0,
            Some(vec!["Ashcoat Bear 30 of 30".into()]),
        )
        .await;
    assert!(text(&r).contains("chosen so far (3)"), "{r}");
    let r = h.click(ALICE, thread, &draft_button(&r, false), None).await;
    assert!(
        text(&r).starts_with(
            "Done: `attack with Ashcoat Bear 1 of 30, Ashcoat Bear 2 of 30, Ashcoat Bear 30 of 30`"
        ),
        "{r}"
    );
    // Three unblocked bears (Bob has no creatures): 6 damage.
    let l = svc.load(g).await.expect("load");
    assert_eq!(
        l.game.player(engine::PlayerId(1)).life,
        14,
        "three attackers declared"
    );
    // A Declare from the state before: the game moved on.
    h.click(
        ALICE,
        thread,
        &menus[1].0,
        Some(vec!["Ashcoat Bear 29 of 30".into()]),
    )
    .await;
    let r = h.click(ALICE, thread, &go, None).await;
    assert!(text(&r).contains("out of date"), "{r}");
    assert_eq!(
        svc.load(g).await.expect("load").row.version,
        l.row.version,
        "nothing moved"
    );

    // Fourteen blockers for two attackers: 28 legal blocks, paged.
    let src = format!(
        "name = \"fourteen\"\nscript = [\"goto declare_attackers\", \"bob: attack Ashcoat Bear@bob#1, Ashcoat Bear@bob#2\", \"goto declare_blockers\"]\n[setup]\nactive = \"bob\"\nturn = 3\n[setup.alice]\nlibrary = [\"Forest\"]\nbattlefield = [{}]\n[setup.bob]\nlibrary = [\"Forest\"]\nbattlefield = [{}]\n",
        bears(14),
        bears(2)
    );
    let (g, thread) = scenario_game(&env, &src).await;
    let r = h
        .slash(ALICE, thread, "mtg", "block", vec![], json!({}))
        .await;
    let menus = menus_of(&r);
    assert_eq!(menus.len(), 2, "{r}");
    assert_eq!(menus[0].1.len() + menus[1].1.len(), 28);
    let first = menus[0].1[0].clone();
    let last = menus[1].1.last().expect("a block").clone();
    h.click(ALICE, thread, &menus[0].0, Some(vec![first.clone()]))
        .await;
    let r = h
        .click(ALICE, thread, &menus[1].0, Some(vec![last.clone()]))
        .await;
    assert!(text(&r).contains("chosen so far (2)"), "{r}");
    let r = h.click(ALICE, thread, &draft_button(&r, false), None).await;
    assert!(
        text(&r).starts_with(&format!("Done: `{first}, {last}`")),
        "{r}"
    );
    // Each attacker met a bear of its own: both attackers and two blockers died, and Alice
    // took no damage.
    let l = svc.load(g).await.expect("load");
    assert_eq!(
        l.game.player(engine::PlayerId(0)).life,
        20,
        "{first}; {last}"
    );
    assert_eq!(
        zone_names(&l.game, 1, engine::zones::ZoneKind::Battlefield).len(),
        0
    );
    assert_eq!(
        zone_names(&l.game, 0, engine::zones::ZoneKind::Battlefield).len(),
        12
    );
    env.stop().await;
}
