//! Demo data, seeded once, on the first start of a fresh database (`seed_demo` in the config).
//! Groups with demo records add a call here.

use std::net::SocketAddr;

use moneydesk_model::Scope;

use crate::accounts::seed::Accounts;
use crate::collections::seed::{DEMO_ACCOUNTS, DEMO_SCOPES_PER_USER, DEMO_USERS_PER_COMPANY};
use crate::permissions::seed::permissions;
use crate::AppState;

const SEEDED_KEY: &str = "demo_seeded_at";

/// Seeds on the first start only; prints the demo admin token once, to the terminal (stdout,
/// not the log). Its hash is all the database keeps.
pub async fn seed_demo(state: &AppState, addr: SocketAddr) -> anyhow::Result<()> {
    if !state.stores.settings.set_once(SEEDED_KEY, &crate::storage::time::now_text()).await? {
        return Ok(());
    }
    let token = state.stores.tokens.create("demo-admin", &[Scope::Admin], None).await?;
    seed_collections(state).await?;
    let host = if addr.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], addr.port())) } else { addr };
    let scheme = state.config.transport.scheme();
    println!();
    println!("  Moneydesk is seeded with demo data. Open {scheme}://{host}/ and sign in with this admin token");
    println!("  (shown once; create more with `moneydesk-server token create`):");
    println!();
    println!("    {}", token.token);
    println!();
    Ok(())
}

/// The demo accounts and permissions.
async fn seed_collections(state: &AppState) -> anyhow::Result<()> {
    let accounts: Vec<_> = Accounts::new(DEMO_ACCOUNTS, 0x4d6f_6e65_7964_6573).collect();
    let mut w = state.stores.accounts.writer().await?;
    w.insert(&accounts).await?;
    w.commit().await?;
    let mut w = state.stores.permissions.writer().await?;
    w.insert(&permissions(DEMO_USERS_PER_COMPANY, DEMO_SCOPES_PER_USER, 7)).await?;
    w.commit().await?;
    Ok(())
}
