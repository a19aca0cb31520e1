//! Demo data, seeded once, on the first start of a fresh database (`seed_demo` in the config).
//! Groups with demo records add a call here.

use std::net::SocketAddr;

use moneydesk_model::Scope;

use crate::AppState;

const SEEDED_KEY: &str = "demo_seeded_at";

/// Seeds on the first start only; prints the demo admin token once, to the terminal (stdout,
/// not the log). Its hash is all the database keeps.
pub async fn seed_demo(state: &AppState, addr: SocketAddr) -> anyhow::Result<()> {
    if !state.settings.set_once(SEEDED_KEY, &crate::storage::now_text()).await? {
        return Ok(());
    }
    let token = state.tokens.create("demo-admin", &[Scope::Admin], None).await?;
    crate::collections::seed::seed_demo(&state.accounts, &state.permissions).await?;
    let host = if addr.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], addr.port())) } else { addr };
    println!();
    println!("  Moneydesk is seeded with demo data. Open http://{host}/ and sign in with this admin token");
    println!("  (shown once; create more with `moneydesk-server token create`):");
    println!();
    println!("    {}", token.token);
    println!();
    Ok(())
}
