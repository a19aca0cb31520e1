//! `moneydesk-server`: serve (default), manage API tokens, import, load fee schedules, verify
//! the ledger.

use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use moneydesk_model::Scope;
use moneydesk_server::storage::trail;
use moneydesk_server::{state::Stores, Config};

// Each request allocates a few dozen small objects across the layers; mimalloc serves them
// from per-thread pages (glibc's malloc and free were ~15 % of the server's CPU under load).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "moneydesk-server",
    version,
    about = "Moneydesk API reference server and portal host. Configured by MONEYDESK_* variables (see README)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the portal (the default).
    Serve,
    /// Create, list and revoke API tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Import accounts or permissions from a CSV or JSON file (all or nothing).
    #[command(subcommand)]
    Import(moneydesk_server::import::ImportCommand),
    /// Fee schedule versions: load a schedule file, show the versions.
    #[command(subcommand)]
    Fees(FeesCommand),
    /// The ledger: prove the balance rows equal the entries.
    #[command(subcommand)]
    Ledger(LedgerCommand),
    /// The audit trail: walk its hash chains.
    #[command(subcommand)]
    Audit(AuditCommand),
}

#[derive(Subcommand)]
enum AuditCommand {
    /// Chains what is not chained yet, walks every day's hash chain (or those from `--from`
    /// to `--to`, YYYY-MM-DD) and names the first broken link; exits 1 if there is one.
    Verify {
        #[arg(long)]
        from: Option<chrono::NaiveDate>,
        #[arg(long)]
        to: Option<chrono::NaiveDate>,
    },
}

#[derive(Subcommand)]
enum LedgerCommand {
    /// Rebuilds every ledger account's balance from its entries and compares it with the
    /// balance row and the last running balance, and checks that every transaction sums to
    /// zero; prints each disagreement and exits 1 if there is one.
    Verify,
}

#[derive(Subcommand)]
enum FeesCommand {
    /// Loads a schedule file (TOML, or JSON when it ends in .json), validated all or nothing;
    /// a running server picks it up within 5 seconds.
    Load { file: std::path::PathBuf },
    /// Prints the version in force and every later one, as JSON.
    Show,
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Create a token and print it once (only its hash is stored).
    Create {
        #[arg(long)]
        name: String,
        /// Repeat for each scope: fees:read, fees:override, vault:read, vault:write, email:send, email:verify,
        /// routing:read, deposits:read, deposits:write, accounts:read, permissions:read, ledger:read, audit:read, webhooks:write, admin.
        #[arg(long = "scope", required = true, value_parser = parse_scope)]
        scopes: Vec<Scope>,
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3650))]
        expires_in_days: Option<u32>,
        /// The user the token belongs to: whose document vault it reaches (default: the
        /// user named like the token).
        #[arg(long)]
        user: Option<String>,
    },
    /// List tokens (never their text).
    List,
    /// Revoke the token with this id, or every active token with this name.
    Revoke { id_or_name: String },
}

fn parse_scope(s: &str) -> Result<Scope, String> {
    s.parse::<Scope>().map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("moneydesk-server: configuration error: {e:#}");
            return ExitCode::from(2);
        }
    };
    init_logs(&config.log);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("moneydesk-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match cli.command.unwrap_or(Command::Serve) {
            Command::Serve => serve(config).await,
            Command::Token(cmd) => token(config, cmd).await,
            Command::Import(cmd) => moneydesk_server::import::run(config, cmd).await,
            Command::Fees(cmd) => fees(config, cmd).await,
            Command::Ledger(LedgerCommand::Verify) => ledger_verify(config).await,
            Command::Audit(AuditCommand::Verify { from, to }) => audit_verify(config, from, to).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("moneydesk-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logs(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter).unwrap_or_else(|e| {
        eprintln!("moneydesk-server: MONEYDESK_LOG {filter:?} is not a tracing filter ({e}); using \"info\"");
        tracing_subscriber::EnvFilter::new("info")
    });
    // Logs go to stderr; stdout is kept for what the user asked for (tokens, lists). One JSON
    // object a line with MONEYDESK_LOG_FORMAT=json (for a log collector), text otherwise.
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match std::env::var("MONEYDESK_LOG_FORMAT").as_deref().map(str::trim) {
        Ok("json") => builder.json().flatten_event(true).with_current_span(false).init(),
        Ok("text") | Ok("") | Err(_) => builder.init(),
        Ok(other) => {
            builder.init();
            tracing::warn!("MONEYDESK_LOG_FORMAT {other:?} is neither json nor text; writing text");
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let running = moneydesk_server::start(config).await?;
    eprintln!("moneydesk-server: listening on {}", running.base_url());
    shutdown_signal().await;
    tracing::info!("shutting down: finishing requests in flight");
    running.stop().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

async fn fees(config: Config, cmd: FeesCommand) -> anyhow::Result<()> {
    use moneydesk_server::fees::{parse_schedule_text, versions, Format};
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let db = Stores::open(&config.database_url).await?.fees;
    // The first start's default, so that a file loaded before any start is not the only one.
    let held = versions::Versions::load(&db).await?;
    match cmd {
        FeesCommand::Load { file } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let format = if file.extension().is_some_and(|e| e == "json") { Format::Json } else { Format::Toml };
            let schedule =
                parse_schedule_text(&text, format).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let now = versions::now_rfc3339(chrono::Utc::now());
            if schedule.effective_from < now {
                anyhow::bail!(
                    "{}: effective_from {} is in the past (now {now}); a schedule cannot change quotes already made",
                    file.display(),
                    schedule.effective_from
                );
            }
            match trail::job("cli:fees.load", db.put(&schedule, "cli", &now)).await? {
                Some(id) => eprintln!("Loaded fee schedule version {id}, effective from {}", schedule.effective_from),
                None => anyhow::bail!("a version effective from {} is already in force", schedule.effective_from),
            }
        }
        FeesCommand::Show => {
            let now = chrono::Utc::now();
            let shown: Vec<_> = held
                .current_and_future(now)
                .into_iter()
                .map(|v| serde_json::json!({"id": v.id, "effective_from": v.schedule.effective_from, "loaded_at": v.loaded_at, "loaded_by": v.loaded_by, "schedule": *v.schedule}))
                .collect();
            println!("{}", serde_json::to_string_pretty(&shown)?);
        }
    }
    Ok(())
}

async fn ledger_verify(config: Config) -> anyhow::Result<()> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let stores = Stores::open(&config.database_url).await?;
    let (mismatches, unbalanced) = stores.ledger.verify().await?;
    for m in &mismatches {
        let part = m.part.map(|p| format!(" part {p}")).unwrap_or_default();
        println!(
            "mismatch {}{part}: balance row {}, sum of entries {}, last running balance {}",
            m.code, m.balance_row, m.sum_of_entries, m.last_running_balance
        );
    }
    for id in &unbalanced {
        println!("unbalanced transaction {id}: its entries do not sum to zero (or it has fewer than two)");
    }
    anyhow::ensure!(
        mismatches.is_empty() && unbalanced.is_empty(),
        "the ledger does not balance: {} account(s) disagree with their entries, {} transaction(s) unbalanced",
        mismatches.len(),
        unbalanced.len()
    );
    let db = stores.ledger.database();
    let count = |table: &str| db.sql(&format!("SELECT COUNT(*) FROM {table}"));
    let accounts = db.acquire().await?.exec().int(&count("ledger_accounts")).await?;
    let entries = db.acquire().await?.exec().int(&count("ledger_entries")).await?;
    println!("ledger balanced: {accounts} accounts, {entries} entries");
    Ok(())
}

async fn audit_verify(
    config: Config,
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> anyhow::Result<()> {
    let stores = Stores::open(&config.database_url).await?;
    let v = moneydesk_server::audit::store::verify(&stores.database, from, to).await?;
    if let Some(b) = &v.broken {
        anyhow::bail!(
            "the audit trail is broken on {} at record {} (place {}): {}",
            b.day,
            b.record_id,
            b.seq,
            b.reason
        );
    }
    println!(
        "audit trail intact: {} records in {} day(s) ({} to {}), {} purged day(s) on record",
        v.records,
        v.days,
        v.from.as_deref().unwrap_or("-"),
        v.to.as_deref().unwrap_or("-"),
        v.purged_days
    );
    Ok(())
}

async fn token(config: Config, cmd: TokenCommand) -> anyhow::Result<()> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let tokens = Stores::open(&config.database_url).await?.tokens;
    match cmd {
        TokenCommand::Create { name, scopes, expires_in_days, user } => {
            let expires = expires_in_days.map(|d| chrono::Duration::days(d as i64));
            // On the audit trail as the operator's, `job:cli:token.create` (no token made it).
            let created = tokens.create_for(&name, user.as_deref(), &scopes, expires);
            let new = trail::job("cli:token.create", created).await?;
            let r = &new.record;
            eprintln!(
                "Created token {} ({}) with scopes {}{}. It is shown once; store it now:",
                r.id,
                r.name,
                scope_list(&r.scopes),
                r.expires_at.as_ref().map(|e| format!(", expiring {e}")).unwrap_or_default()
            );
            println!("{}", new.token);
        }
        TokenCommand::List => {
            let list = tokens.list().await?;
            println!(
                "{:<5} {:<20} {:<10} {:<21} {:<21} {:<21} SCOPES",
                "ID", "NAME", "STATUS", "CREATED", "EXPIRES", "LAST USED"
            );
            let now = chrono::Utc::now();
            for t in list {
                let status = if t.is_revoked() {
                    "revoked"
                } else if t.is_expired(now) {
                    "expired"
                } else {
                    "active"
                };
                println!(
                    "{:<5} {:<20} {:<10} {:<21} {:<21} {:<21} {}",
                    t.id,
                    t.name,
                    status,
                    t.created_at,
                    t.expires_at.as_deref().unwrap_or("never"),
                    t.last_used_at.as_deref().unwrap_or("never"),
                    scope_list(&t.scopes)
                );
            }
        }
        TokenCommand::Revoke { id_or_name } => {
            let revoked = trail::job("cli:token.revoke", tokens.revoke(&id_or_name)).await?;
            anyhow::ensure!(
                !revoked.is_empty(),
                "no active token has the id or name {id_or_name:?} (see `token list`)"
            );
            for t in revoked {
                println!("Revoked token {} ({})", t.id, t.name);
            }
            // Running servers trust a token they checked for a moment (tokens::TokenCache).
            let ttl = config.token_cache_ttl;
            let within = if ttl.as_millis().is_multiple_of(1000) {
                format!("{} s", ttl.as_secs())
            } else {
                format!("{} ms", ttl.as_millis())
            };
            eprintln!("Running servers refuse it within {within} (MONEYDESK_TOKEN_CACHE_TTL).");
        }
    }
    Ok(())
}

fn scope_list(scopes: &[Scope]) -> String {
    scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",")
}
