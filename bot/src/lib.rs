//! The `spellstack` service library: everything between the rules engine and a front end
//! (the Discord adapter, the terminal). Only the `discord` module knows Discord; the rest is
//! free of Discord types so that all of it is tested here. The `spellstack` binary (main.rs)
//! puts it behind subcommands.

pub mod board_text;
pub mod card_text;
pub mod config;
pub mod db_bench;
pub mod decks;
pub mod discord;
pub mod grammar;
pub mod league;
pub mod league_service;
pub mod local;
pub mod replay;
pub mod scene;
pub mod service;
pub mod storage;
