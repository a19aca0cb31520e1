//! The outbox's pages: newest first by `seq` (migration 0029), a request's messages in
//! personalization order. Filtered by states only (or not at all), a page is found through the
//! counted ranges (`storage::counted`, one partition a state), so page 10,000 costs what page 1
//! does and its total is exact without a count; a text search, a batch or a creation range is
//! counted and skipped through its index.

use moneydesk_model::email::{MessageState, OutboxMessage};
use moneydesk_model::{Page, PageRequest, Sort};

use super::outbox::{where_clause, MessageRow, OutboxFilter, ROW_COLUMNS};
use super::{EmailError, EmailStore};
use crate::storage::{counted, Sql, Tx};

impl EmailStore {
    /// The outbox, newest first (a request's messages in personalization order).
    pub async fn list(&self, filter: &OutboxFilter, page: PageRequest) -> Result<Page<OutboxMessage>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let (offset, limit) = (page.offset().min(i64::MAX as u64) as i64, i64::from(page.size));
        let (total, rows) = if counted_filter(filter) {
            let mut parts: Vec<&str> = match filter.states.as_slice() {
                [] => MessageState::ALL.iter().map(|s| s.as_str()).collect(),
                some => some.iter().map(|s| s.as_str()).collect(),
            };
            parts.sort_unstable();
            parts.dedup();
            let spot = counted::spot(&mut tx, "outbox", &parts, offset, limit, true).await?;
            let rows = match spot.window {
                None => Vec::new(),
                Some(w) => {
                    let mut q = self.db.sql(&format!("SELECT {ROW_COLUMNS} FROM email_messages"));
                    let table = counted::Table { name: "email_messages", key: "seq", part: "state", alias: "" };
                    let states = (!filter.states.is_empty()).then_some(&parts[..]);
                    counted::push_page(&mut tx, &mut q, table, states, w, limit).await?;
                    tx.exec().rows(&q).await?
                }
            };
            (spot.total, rows)
        } else {
            scan(&mut tx, filter, offset, limit).await?
        };
        tx.commit_unrecorded().await?;
        Ok(Page::build(page, total as u64, rows.iter().map(MessageRow::record).collect(), Sort::UNSORTED))
    }

    /// The same page by `COUNT(*)` and `OFFSET` (what the counted ranges must agree with).
    pub async fn list_by_scanning(
        &self,
        filter: &OutboxFilter,
        page: PageRequest,
    ) -> Result<Page<OutboxMessage>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let (offset, limit) = (page.offset().min(i64::MAX as u64) as i64, i64::from(page.size));
        let (total, rows) = scan(&mut tx, filter, offset, limit).await?;
        tx.commit_unrecorded().await?;
        Ok(Page::build(page, total as u64, rows.iter().map(MessageRow::record).collect(), Sort::UNSORTED))
    }
}

/// Whether the counted ranges answer the filter: states at most.
fn counted_filter(f: &OutboxFilter) -> bool {
    let searched = f.q.as_deref().map(str::trim).is_some_and(|t| !t.is_empty());
    !searched && f.batch_id.is_none() && f.created_from.is_none() && f.created_to.is_none()
}

async fn scan(tx: &mut Tx, filter: &OutboxFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<MessageRow>)> {
    let mut count = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM email_messages");
    where_clause(&mut count, filter);
    let total = tx.exec().int(&count).await?;
    let mut q = Sql::new(tx.dialect(), &format!("SELECT {ROW_COLUMNS} FROM email_messages"));
    where_clause(&mut q, filter);
    q.push(" ORDER BY seq DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
    Ok((total, tx.exec().rows(&q).await?))
}
