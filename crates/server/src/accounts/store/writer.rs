//! Writing accounts: batched inserts in one transaction, the marks rebuilt before it commits.

use moneydesk_model::accounts::Account;

use super::{marks, status_code, type_code, value_key};
use crate::storage::sql::Arg;
use crate::storage::{Sql, Tx};

/// An open write transaction on accounts.
pub struct AccountsWriter {
    pub(super) tx: Tx,
}

/// Rows per INSERT statement (26 binds each, under SQLite's 32,766 limit).
const INSERT_BATCH: usize = 500;

impl AccountsWriter {
    /// Which of `ids` already exist.
    pub async fn existing_ids(&mut self, ids: &[&str]) -> sqlx::Result<Vec<String>> {
        let mut found = Vec::new();
        for chunk in ids.chunks(INSERT_BATCH) {
            let mut qb = Sql::new(self.tx.dialect(), "SELECT id FROM accounts WHERE id IN (");
            qb.bind_list(chunk.iter().copied()).push(")");
            found.extend(self.tx.exec().texts(&qb).await?);
        }
        Ok(found)
    }

    pub async fn insert(&mut self, accounts: &[Account]) -> sqlx::Result<()> {
        for chunk in accounts.chunks(INSERT_BATCH) {
            let mut qb = Sql::new(
                self.tx.dialect(),
                "INSERT INTO accounts (id, account_name, type_code, business_entity_type, account_email, sub_routing_number, \
                 sub_routing_name, parent_account_id, account_number, status_code, tin, record_type_id, billing_street, \
                 billing_city, billing_state, billing_postal_code, billing_country, mailing_street, mailing_city, mailing_state, \
                 mailing_postal_code, mailing_country, market_value, create_ms, name_key, value_key) VALUES ",
            );
            for (i, a) in chunk.iter().enumerate() {
                qb.push(if i == 0 { "" } else { ", " }).bind_row([
                    a.id.as_str().into(),
                    a.account_name.as_str().into(),
                    Arg::from(type_code(a.account_type)),
                    a.business_entity_type.as_deref().into(),
                    a.account_email.as_deref().into(),
                    a.sub_routing_number.as_deref().into(),
                    a.sub_routing_name.as_deref().into(),
                    a.parent_account_id.as_deref().into(),
                    a.account_number.as_deref().into(),
                    Arg::from(status_code(a.account_status)),
                    a.tin.as_deref().into(),
                    a.record_type_id.as_deref().into(),
                    a.billing_street.as_deref().into(),
                    a.billing_city.as_deref().into(),
                    a.billing_state.as_deref().into(),
                    a.billing_zipcode.as_deref().into(),
                    a.billing_country.as_deref().into(),
                    a.mailing_street.as_deref().into(),
                    a.mailing_city.as_deref().into(),
                    a.mailing_state.as_deref().into(),
                    a.mailing_zipcode.as_deref().into(),
                    a.mailing_country.as_deref().into(),
                    Arg::from(a.market_value.map(|v| v.to_string())),
                    Arg::from(a.create_time.millis()),
                    Arg::from(a.account_name.to_lowercase()),
                    Arg::from(value_key(a.market_value)),
                ]);
            }
            self.tx.exec().execute(&qb).await?;
            let ids: Vec<&str> = chunk.iter().map(|a| a.id.as_str()).collect();
            let now = chrono::Utc::now().timestamp_millis();
            crate::ledger::store::open_balances(&mut self.tx, &ids, now, "accounts import").await?;
        }
        Ok(())
    }

    /// Rebuilds the marks and commits: all of the write, or (on any error) none of it.
    pub async fn commit(mut self) -> sqlx::Result<()> {
        marks::rebuild(&mut self.tx).await?;
        self.tx.commit().await
    }
}
