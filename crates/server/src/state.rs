//! Shared state handed to every handler. Groups that need their own state add a field here
//! (built in `AppState::new`).

use std::sync::Arc;

use crate::static_files::Portal;
use crate::routing::directory;
use crate::{storage::Db, Config};

/// Cloned for every request (axum hands each handler its own copy), so it is one `Arc`:
/// one reference count to touch instead of one per field. Fields read through `Deref`.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    pub db: Db,
    pub config: Arc<Config>,
    /// The built portal's derived headers and embed.js.
    pub portal: Arc<Portal>,
    /// The routing directory (routing group).
    pub routing: directory::State,
}

impl AppState {
    pub async fn new(config: Config, db: Db) -> anyhow::Result<AppState> {
        let routing = directory::State::load(&config).await?;
        let portal = Arc::new(Portal::new(config.dist_dir.clone()));
        Ok(AppState(Arc::new(Shared { db, config: Arc::new(config), portal, routing })))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}
