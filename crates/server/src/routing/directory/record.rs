//! A refresh on record: its `routing.directory.refreshed` event (the status the refresh
//! endpoint answers) and its audit record, in one transaction written before the new
//! directory goes into service. The directory itself lives in memory, so this transaction is
//! the refresh's only change in the database.

use moneydesk_model::events::EventType;
use moneydesk_model::routing::DirectoryStatus;

use super::LoadError;
use crate::storage::{events, trail, Database};

/// The one routing directory's id, in events and audit records.
const DIRECTORY: &str = "directory";

/// Records the move from `before` to `after`.
pub(super) async fn refreshed(db: &Database, before: &DirectoryStatus, after: &DirectoryStatus) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    trail::target("routing_directory", DIRECTORY);
    trail::change("loadedAt", Some(&before.loaded_at), Some(&after.loaded_at));
    trail::change("asOf", before.as_of.as_deref(), after.as_of.as_deref());
    trail::change("institutions", Some(before.institutions), Some(after.institutions));
    events::append(&mut tx, EventType::RoutingDirectoryRefreshed, "routing_directory", DIRECTORY, after).await?;
    tx.commit().await
}

/// A refresh that could not be recorded, as a load failure (the previous directory stays).
pub(super) fn failed(e: sqlx::Error) -> LoadError {
    LoadError {
        directory: "routing",
        file: "database".into(),
        line: None,
        message: format!("the refresh could not be recorded, so it was not put in service: {e}"),
    }
}
