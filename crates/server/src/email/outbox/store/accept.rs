//! A send's messages queued with what the suppression lists did to them (issue 46), in one
//! transaction: a message left with nobody to send to is `failed` at once (never claimed), its
//! last reply saying why, with an `email.failed` event after its `email.accepted`; recipients
//! sent to despite the list (`bypass_list_management`) are on record with the batch.

use moneydesk_model::events::EventType;

use super::outbox::{event, insert_in, MessageRow, NewMessage, RECORD_COLUMNS};
use super::{EmailError, EmailStore};
use crate::storage::{events, trail, Sql};

impl EmailStore {
    /// Queues `messages` (as [`EmailStore::insert`]); those in `unsendable` (ids) are made
    /// `failed` with `reply`.
    pub async fn accept(&self, messages: &[NewMessage], unsendable: &[String], reply: &str) -> Result<(), EmailError> {
        let mut tx = self.db.begin().await?;
        if messages.is_empty() {
            return Ok(tx.commit_unrecorded().await?);
        }
        insert_in(&mut tx, messages).await?;
        let suppressed: usize = messages.iter().map(|m| m.message.recipients.suppressed.len()).sum();
        let bypassed: usize =
            messages.iter().flat_map(|m| &m.message.recipients.suppressed).filter(|s| s.bypassed).count();
        if suppressed > 0 {
            trail::change("suppressed", None::<usize>, Some(suppressed - bypassed));
        }
        if bypassed > 0 {
            trail::change("bypass_list_management", None::<usize>, Some(bypassed));
        }
        if !unsendable.is_empty() {
            let mut q = Sql::new(tx.dialect(), "UPDATE email_messages SET state = 'failed', last_reply = ");
            q.bind(reply).push(" WHERE id IN (");
            q.bind_list(unsendable.iter().map(String::as_str));
            q.push(format!(") RETURNING {RECORD_COLUMNS}"));
            let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
            let failed: Vec<_> = rows.iter().map(|r| event(EventType::EmailFailed, r)).collect();
            events::append_many(&mut tx, &failed).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
