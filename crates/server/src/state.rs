//! The composition root: every store opened on the one database ([`Stores`]), the group state
//! built from them and the configuration ([`Shared`]), and each group's view of it (axum
//! `FromRef`, declared in the group with [`group_state!`](crate::group_state)), so that a
//! handler reaches its own group's store and what that group depends on, nothing else.
//!
//! A new group lists its router in `http::GROUPS` and its store in [`Stores`]; nothing else
//! is listed twice. `storage/` stays below every group: it knows the database, not the stores.

use std::sync::Arc;

use crate::accounts::store::AccountStore;
use crate::cash_letters::store::CashLetterStore;
use crate::deposits::store::DepositStore;
use crate::email::domains::store::DomainStore;
use crate::email::domains::Domains;
use crate::email::inbound::store::InboundStore;
use crate::email::inbound::Inbound;
use crate::email::outbox::store::EmailStore;
use crate::email::templates::TemplateStore;
use crate::email::validation::Verifier;
use crate::fees::store::FeeStore;
use crate::ledger::store::LedgerStore;
use crate::ledger::Books;
use crate::permissions::store::PermissionStore;
use crate::routing::directory;
use crate::static_files::Portal;
use crate::storage::blobs::Blobs;
use crate::storage::{Database, SettingStore};
use crate::tokens::link_store::LinkStore;
use crate::tokens::TokenStore;
use crate::vault::store::VaultStore;
use crate::views::store::ViewStore;
use crate::webhooks::store::WebhookStore;
use crate::{fees, Config};

/// Every store, opened on one database: what [`AppState`] and the CLI hold.
#[derive(Clone, Debug)]
pub struct Stores {
    pub database: Database,
    pub tokens: TokenStore,
    pub sign_in_links: LinkStore,
    pub settings: SettingStore,
    pub accounts: AccountStore,
    pub permissions: PermissionStore,
    pub fees: FeeStore,
    pub deposits: DepositStore,
    pub cash_letters: CashLetterStore,
    pub ledger: LedgerStore,
    pub vault: VaultStore,
    pub email: EmailStore,
    pub templates: TemplateStore,
    pub domains: DomainStore,
    pub inbound: InboundStore,
    pub webhooks: WebhookStore,
    pub views: ViewStore,
}

impl Stores {
    pub async fn open(url: &str) -> anyhow::Result<Stores> {
        Ok(Stores::on(Database::open(url).await?))
    }

    pub fn on(database: Database) -> Stores {
        Stores {
            tokens: TokenStore::new(database.clone(), Arc::default()),
            sign_in_links: LinkStore::new(database.clone()),
            settings: SettingStore::new(database.clone()),
            accounts: AccountStore::new(database.clone()),
            permissions: PermissionStore::new(database.clone()),
            fees: FeeStore::new(database.clone()),
            deposits: DepositStore::new(database.clone()),
            cash_letters: CashLetterStore::new(database.clone()),
            ledger: LedgerStore::new(database.clone()),
            vault: VaultStore::new(database.clone()),
            email: EmailStore::new(database.clone()),
            templates: TemplateStore::new(database.clone()),
            domains: DomainStore::new(database.clone()),
            inbound: InboundStore::new(database.clone()),
            webhooks: WebhookStore::new(database.clone()),
            views: ViewStore::new(database.clone()),
            database,
        }
    }
}

/// Cloned for every request (axum hands each handler its own copy, and a group's view holds
/// it too), so it is one `Arc`: one reference count to touch instead of one per field.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    pub stores: Stores,
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
    /// Address verification: resolver, domain cache, lists (email group).
    pub verifier: Verifier,
    /// Custom sending domains: store, checks, DKIM signers (email group).
    pub domains: Domains,
    /// Inbound mail: routes, messages, the webhook worker's wake-up (email group).
    pub inbound: Inbound,
    /// The books' calendar, hold policy and clock (ledger group).
    pub books: Books,
    /// Sign-in link exchanges per client address (tokens group; the exchange has no token).
    pub sign_in_limiter: Arc<crate::rate_limit::RateLimiter>,
    /// The overview's answers of the last few seconds, per (user, scopes) (overview group).
    pub overview: crate::overview::Cache,
}

impl AppState {
    pub async fn new(config: Config, stores: Stores) -> anyhow::Result<AppState> {
        let routing = directory::State::load(&config).await?;
        routing.record_in(stores.database.clone());
        let portal = Arc::new(Portal::new(config.dist_dir.clone()));
        let (blobs, blob_dir) = crate::storage::blobs::open(&config.blobs, &config.data_dir)?;
        let fees = fees::State::load(&config, stores.fees.clone()).await?;
        let verifier = Verifier::new(&config.email.verify);
        let domains = Domains::new(stores.domains.clone(), &config.email);
        let inbound = Inbound::new(stores.inbound.clone(), &config.email);
        // A return is charged the returned-item fee of the fee schedule in force.
        let versions = fees.versions.clone();
        let books = Books::new(&config).with_schedule_fee(Arc::new(move |at| versions.returned_item_fee_cents(at)));
        Ok(AppState(Arc::new(Shared {
            stores,
            blobs,
            blob_dir,
            config: Arc::new(config),
            portal,
            routing,
            fees,
            verifier,
            domains,
            inbound,
            books,
            sign_in_limiter: crate::tokens::exchange_limiter(),
            overview: Default::default(),
        })))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Declares a group's view of [`AppState`]: a type its handlers take as `State<View>` (axum
/// `FromRef`), with one accessor a thing the group reaches (`name: Type = path.in.Shared`).
/// The view holds the state's one `Arc`, so taking it costs a request what `State<AppState>`
/// did; what it hides is everything the group has no business with.
///
/// ```ignore
/// moneydesk_server::group_state! {
///     /// What the deposits handlers reach.
///     pub struct DepositsState {
///         deposits: DepositStore = stores.deposits,
///         blobs: Blobs = blobs,
///     }
/// }
/// ```
#[macro_export]
macro_rules! group_state {
    ($(#[$m:meta])* $vis:vis struct $name:ident {
        $($(#[$fm:meta])* $field:ident: $ty:ty = $($path:ident).+),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        $vis struct $name($crate::AppState);

        impl axum::extract::FromRef<$crate::AppState> for $name {
            fn from_ref(state: &$crate::AppState) -> Self {
                $name(state.clone())
            }
        }

        #[allow(dead_code)]
        impl $name {
            $($(#[$fm])* pub fn $field(&self) -> &$ty {
                &self.0.$($path).+
            })*
        }
    };
}
