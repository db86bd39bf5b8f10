//! Leagues between friends: the pure league logic, with no I/O (no database, no clock, no
//! Discord). Storage is in `storage/league.rs`, commands in `league_service.rs`.
//!
//! | module | what it does |
//! | --- | --- |
//! | `boosters` | seeded sampler over the MTGJSON booster sheets (TSP, PLC, FUT) |
//! | `pool` | sealed pools (packs with their seeds), deck checks against a pool, an automatic build |
//! | `definition` | the league's settings, product strings (`2 TSP + 2 PLC + 2 FUT`) |
//! | `pairing` | MTGO-style queue, Swiss rounds, round robin, challenge checks |
//! | `standings` | Magic Tournament Rules Appendix C: points, OMW%, GW%, OGW% |
//! | `ratings` | Glicko-2 per format (`skillratings`), idle-time deviation growth |
//! | `clocks` | game clocks in days, vacations, claimed forfeits, league phases |

pub mod boosters;
pub mod clocks;
pub mod definition;
pub mod pairing;
pub mod pool;
pub mod ratings;
pub mod standings;
