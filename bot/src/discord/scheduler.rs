//! Deadlines and reminders: calls [`Service::tick`](crate::service::Service::tick) every few
//! seconds and puts each resulting plan (a reminder, a default answer on timeout) in its game's
//! thread. Several processes may tick at once: the service's optimistic concurrency makes each
//! expiry happen once.

use super::{Data, delivery};
use poise::serenity_prelude::Http;
use std::sync::Arc;
use std::time::Duration;

/// One scan: every plan the service produced is delivered. Returns how many.
pub async fn tick_once(data: &Data, http: &Http) -> usize {
    super::league::tick(data, http).await;
    match data.svc.tick().await {
        Ok(plans) => {
            for p in &plans {
                if let Err(e) = delivery::deliver(data, http, p, None).await {
                    tracing::warn!(game_id = p.game_id, error = %e, "reminder delivery failed");
                }
            }
            plans.len()
        }
        Err(e) => {
            tracing::warn!(error = %e, "deadline scan failed");
            0
        }
    }
}

/// Starts the periodic scan (it ends with the runtime).
pub fn spawn(http: Arc<Http>, data: Arc<Data>, every: Duration) {
    tokio::spawn(async move {
        let mut iv = tokio::time::interval(every);
        iv.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            iv.tick().await;
            tick_once(&data, &http).await;
        }
    });
}
