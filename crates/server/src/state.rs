//! Shared state handed to every handler: each group's store (built on the one database),
//! the blob store, and group state such as the routing directory. A new group adds its
//! store to `storage::Stores` and a field here (built in `AppState::new`).

use std::sync::Arc;

use crate::accounts::store::AccountStore;
use crate::deposits::store::DepositStore;
use crate::email::domains::Domains;
use crate::email::inbound::Inbound;
use crate::email::store::EmailStore;
use crate::email::templates::TemplateStore;
use crate::email::validation::Verifier;
use crate::permissions::store::PermissionStore;
use crate::routing::directory;
use crate::static_files::Portal;
use crate::storage::blobs::Blobs;
use crate::storage::{Database, SettingStore, Stores, TokenStore};
use crate::vault::store::VaultStore;
use crate::{fees, Config};

/// Cloned for every request (axum hands each handler its own copy), so it is one `Arc`:
/// one reference count to touch instead of one per field. Fields read through `Deref`.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    /// The database the stores share (for tools and tests; handlers use their group's store).
    pub database: Database,
    pub tokens: TokenStore,
    pub settings: SettingStore,
    pub accounts: AccountStore,
    pub permissions: PermissionStore,
    /// Files of the groups that keep them (`object_store`; local under the data dir).
    pub blobs: Blobs,
    /// The local blob store's directory (`None` on S3): the vault sweeper also removes
    /// half-written parts there, which the store's listing hides.
    pub blob_dir: Option<std::path::PathBuf>,
    pub config: Arc<Config>,
    /// The built portal's derived headers and embed.js.
    pub portal: Arc<Portal>,
    /// The routing directory (routing group).
    pub routing: directory::State,
    /// The fee schedule versions, their store and the rate limiter (fees group).
    pub fees: fees::State,
    pub deposits: DepositStore,
    /// Image cash letters made of confirmed check deposits (cash_letters group).
    pub cash_letters: crate::cash_letters::store::CashLetterStore,
    /// Folders, files and versions (vault group); contents are in `blobs`.
    pub vault: VaultStore,
    /// The outbox (email group); attachment contents are in `blobs`.
    pub email: EmailStore,
    /// Stored email templates (email group).
    pub templates: TemplateStore,
    /// Address verification: resolver, domain cache, lists (email group).
    pub verifier: Verifier,
    /// Custom sending domains: store, checks, DKIM signers (email group).
    pub domains: Domains,
    /// Inbound mail: routes, messages, the webhook worker's wake-up (email group).
    pub inbound: Inbound,
}

impl AppState {
    pub async fn new(config: Config, stores: Stores) -> anyhow::Result<AppState> {
        let routing = directory::State::load(&config).await?;
        let portal = Arc::new(Portal::new(config.dist_dir.clone()));
        let (blobs, blob_dir) = crate::storage::blobs::open(&config.blobs, &config.data_dir)?;
        let Stores {
            database,
            tokens,
            settings,
            accounts,
            permissions,
            fees,
            deposits,
            cash_letters,
            vault,
            email,
            templates,
            domains,
            inbound,
        } = stores;
        let fees = fees::State::load(&config, fees).await?;
        let verifier = Verifier::new(&config.email.verify);
        let domains = Domains::new(domains, &config.email);
        let inbound = Inbound::new(inbound, &config.email);
        Ok(AppState(Arc::new(Shared {
            database,
            tokens,
            settings,
            accounts,
            permissions,
            blobs,
            blob_dir,
            config: Arc::new(config),
            portal,
            routing,
            fees,
            deposits,
            cash_letters,
            vault,
            email,
            templates,
            verifier,
            domains,
            inbound,
        })))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}
