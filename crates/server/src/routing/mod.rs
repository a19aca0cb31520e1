//! The Fed's routing directory. STUB: replaced by the routing issue's agent.

use crate::{storage::Db, Config};

/// Per-group state kept in `AppState` (the loaded directory, once it exists).
#[derive(Clone, Debug, Default)]
pub struct State;

impl State {
    pub async fn load(_config: &Config, _db: &Db) -> anyhow::Result<State> {
        Ok(State)
    }
}
