//! Shared state handed to every handler. Groups that need their own state add a field here
//! (built in `AppState::new`).

use std::sync::Arc;

use crate::static_files::Portal;
use crate::{routing, storage::Db, Config};

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// The built portal's derived headers and embed.js.
    pub portal: Arc<Portal>,
    /// The routing directory (routing group).
    pub routing: routing::State,
}

impl AppState {
    pub async fn new(config: Config, db: Db) -> anyhow::Result<AppState> {
        let routing = routing::State::load(&config, &db).await?;
        let portal = Arc::new(Portal::new(config.dist_dir.clone()));
        Ok(AppState { db, config: Arc::new(config), portal, routing })
    }
}
