//! What the outbox's bulk actions need of the store besides resend (`delivery.rs`): the ids a
//! list filter matches, and cancelling a message not yet sent.

use chrono::{DateTime, Utc};
use moneydesk_model::email::MessageState;
use moneydesk_model::events::EventType;

use super::outbox::{event, where_clause, MessageRow, OutboxFilter, ROW_COLUMNS};
use super::{time_text, EmailError, EmailStore};
use crate::storage::{events, trail};

/// The states a message may be cancelled from: waiting for an attempt, none under way (a
/// `sending` message is with the relay; it may be delivered already).
pub const CANCELLABLE: [MessageState; 3] = [MessageState::Queued, MessageState::Scheduled, MessageState::Deferred];

impl EmailStore {
    /// The ids of the messages the list shows for `filter`, in its order, at most `limit`.
    pub(crate) async fn ids(&self, filter: &OutboxFilter, limit: usize) -> Result<Vec<String>, EmailError> {
        let mut q = self.db.sql("SELECT id FROM email_messages");
        where_clause(&mut q, filter);
        q.push(" ORDER BY seq DESC LIMIT ").bind(limit as i64);
        Ok(self.db.acquire().await?.exec().texts(&q).await?)
    }

    /// Cancels a message not yet sent (queued, scheduled or deferred): it becomes `failed`
    /// (the outbox's final state for what will not be sent; no attempt is made) with the
    /// cancel as its last reply, on record and as an `email.failed` event. `Ok(None)`: no such
    /// message; `Err(state)` inside: it was in another state.
    pub(crate) async fn cancel(
        &self,
        id: &str,
        token: &str,
        user: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Result<MessageRow, MessageState>>, EmailError> {
        let mut tx = self.db.begin().await?;
        let read = self.db.sql("SELECT state FROM email_messages WHERE id = ?").arg(id);
        let Some(before) = tx.exec().texts(&read).await?.into_iter().next() else { return Ok(None) };
        let before: MessageState = before.parse().unwrap_or(MessageState::Sending);
        if !CANCELLABLE.contains(&before) {
            return Ok(Some(Err(before)));
        }
        let reply = format!("cancelled by {token} ({user}) at {} before it was sent", time_text(now));
        // `state = before`: a claim taken since the read (the message now `sending`) wins.
        let q = self
            .db
            .sql(&format!(
                "UPDATE email_messages SET state = 'failed', last_reply = ? WHERE id = ? AND state = ? RETURNING {ROW_COLUMNS}"
            ))
            .arg(reply)
            .arg(id)
            .arg(before.as_str());
        let Some(row) = tx.exec().row::<MessageRow>(&q).await? else {
            drop(tx);
            let now_state = self.row(id).await?.map(|r| r.state());
            return Ok(now_state.map(Err));
        };
        trail::target("email_message", id);
        trail::change("state", Some(before), Some(MessageState::Failed));
        events::append_many(&mut tx, &[event(EventType::EmailFailed, &row)]).await?;
        tx.commit().await?;
        Ok(Some(Ok(row)))
    }
}
