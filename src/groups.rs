//! The portal's one list of the API's groups: each group's route, the scope its page needs,
//! how its code loads and the stylesheets only it uses (its title and what the page does are
//! words of the shell's catalogue, `src/i18n/shell.rs`, one field per group there). Everything
//! else reads this list: the navigation and the dashboard (`shell/layout.rs`,
//! `pages/dashboard.rs`), the page dispatch (`pages/mod.rs`), the release build's page chunks
//! (`#[wasm_split]`, generated here from `page: split(...)`), each loading its stylesheets with it
//! (`src/pages/lazy.rs`), and the release build (`xtask`, which reads the `stylesheets: [...]`
//! of each entry below to name those files and preload them). Adding a group is one entry here; the README's
//! "Adding a group" lists the other places a group's name finds. A page whose first request
//! is the first page of a collection in the table's default view says so (`opens_on:
//! first_page(PATH)`, a constant of `moneydesk_model::paths`): index.html starts that request
//! on a cold load of the page's URL, with the main module (xtask/src/preload.rs).
//!
//! This module sits above the pages (it names their components), like `app.rs`.

use moneydesk_model::Scope;

use crate::i18n::shell::{shell, GroupText, Shell};
use crate::pages::lazy::LoadFuture;

pub struct Group {
    /// The route under the base path, also the nav link's last segment and the release
    /// build's chunk name.
    pub slug: &'static str,
    /// Its words in a language's shell catalogue (`src/i18n/shell/`): [`Group::title`] and
    /// [`Group::summary`] read them in the current language. (One field accessor per group
    /// rather than a closure per text through `shell()`: 800 bytes less of the start bundle.)
    pub text: fn(&'static Shell) -> &'static GroupText,
    pub scope: Scope,
    /// Any valid token opens it (`scope: any`; `scope` is then `admin`, which sees more there).
    pub any: bool,
    /// Another scope that opens the page too (the email page's Verify tab with
    /// `email:verify` alone); the page shows what each scope allows.
    pub or_scope: Option<Scope>,
    /// Its own wasm chunk in the release build, fetched on first use (called directly in
    /// other builds).
    pub page: fn() -> LoadFuture,
    // A group's `stylesheets: [...]` (the `style/NAME.css` files only its page uses) go to its
    // chunk (`split_page!`) and to the release build (xtask reads this file), not into this
    // struct: nothing reads them at run time, and they would be start-bundle bytes.
}

impl Group {
    /// Its title (navigation, page heading) in the current language.
    pub fn title(&self) -> &'static str {
        (self.text)(shell()).title
    }

    /// What the page does, for the dashboard, in the current language.
    pub fn summary(&self) -> &'static str {
        (self.text)(shell()).summary
    }

    pub fn path(&self) -> String {
        format!("/{}", self.slug)
    }

    /// Whether a holder of what `can` grants may open the page.
    pub fn opens(&self, can: impl Fn(Scope) -> bool) -> bool {
        self.any || can(self.scope) || self.or_scope.is_some_and(can)
    }
}

/// The list, in the navigation's order. `page: split(Component)` makes the page its own chunk.
/// (Every group's page is built: the placeholder a group showed until its feature landed, and
/// its "arrives with" text, went when the last one did — 240 bytes of the start bundle.)
macro_rules! groups {
    ($( $slug:ident {
        scope: $scope:ident $(| $or:ident)?,
        page: $kind:ident $(($component:path))?,
        stylesheets: [$($css:literal),*]
        $(, opens_on: first_page($first:ident))? $(,)?
    } )*) => {
        /// The page chunks, one module per split group.
        mod chunks {
            $( groups!(@chunk $slug $kind $($component)? [$($css),*]); )*
        }

        // `opens_on` is read by the release build (xtask/src/groups.rs); here it only has to
        // name a path of the model.
        $( $( const _: &str = moneydesk_model::paths::$first; )? )*

        pub const GROUPS: &[Group] = &[
            $( Group {
                slug: stringify!($slug),
                text: |t| &t.groups.$slug,
                scope: groups!(@scope $scope),
                any: groups!(@any $scope),
                or_scope: groups!(@or $($or)?),
                page: groups!(@code $slug $kind),
            }, )*
        ];
    };
    (@chunk $slug:ident split $component:path [$($css:literal),*]) => {
        crate::pages::lazy::split_page!($slug, $component, [$($css),*]);
    };
    (@scope any) => { Scope::Admin };
    (@scope $scope:ident) => { Scope::$scope };
    (@any any) => { true };
    (@any $scope:ident) => { false };
    (@or) => { None };
    (@or $or:ident) => { Some(Scope::$or) };
    (@code $slug:ident split) => { chunks::$slug::load };
}

groups! {
    fees {
        scope: FeesRead,
        page: split(crate::pages::fees::FeesPage),
        stylesheets: ["fees"],
    }
    vault {
        scope: VaultRead,
        page: split(crate::pages::vault::VaultPage),
        stylesheets: ["table", "record", "table_tools", "vault", "activity"],
    }
    email {
        scope: EmailSend | EmailVerify,
        page: split(crate::pages::email::EmailPage),
        stylesheets: ["table", "record", "table_tools", "email", "email_domains", "activity"],
    }
    routing {
        scope: RoutingRead,
        page: split(crate::pages::routing::RoutingPage),
        stylesheets: ["table", "record", "table_tools", "routing"],
    }
    deposits {
        scope: DepositsRead,
        page: split(crate::pages::deposits::DepositsPage),
        stylesheets: ["table", "record", "table_tools", "deposits", "ledger", "activity"],
    }
    cash_letters {
        scope: DepositsRead,
        page: split(crate::pages::cash_letters::CashLettersPage),
        stylesheets: ["table", "record", "table_tools", "cash_letters"],
    }
    accounts {
        scope: AccountsRead,
        page: split(crate::pages::accounts::AccountsPage),
        stylesheets: ["table", "record", "table_tools", "ledger", "activity"],
        opens_on: first_page(ACCOUNTS),
    }
    ledger {
        scope: LedgerRead | DepositsRead,
        page: split(crate::pages::ledger::LedgerPage),
        stylesheets: ["table", "record", "table_tools", "ledger"],
    }
    permissions {
        scope: PermissionsRead,
        page: split(crate::pages::permissions::PermissionsPage),
        stylesheets: ["table", "record", "table_tools"],
        opens_on: first_page(PERMISSIONS),
    }
    activity {
        scope: AuditRead,
        page: split(crate::pages::activity::ActivityPage),
        stylesheets: ["table", "record", "table_tools", "activity"],
    }
    webhooks {
        scope: WebhooksWrite,
        page: split(crate::pages::webhooks::WebhooksPage),
        stylesheets: ["table", "record", "table_tools", "webhooks"],
    }
    tokens {
        scope: any,
        page: split(crate::pages::tokens::TokensPage),
        stylesheets: ["table", "record", "table_tools"],
    }
}

/// The group a route's first segment names.
pub fn find(slug: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.slug == slug)
}
