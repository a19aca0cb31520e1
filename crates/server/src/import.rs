//! `moneydesk-server import accounts|permissions FILE`: CSV or JSON, every record checked
//! first (errors name the line and the field), then all written in one transaction — or,
//! on any error, nothing. Each group checks and writes its own records
//! (`accounts::import`, `permissions::import`).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Subcommand;

use crate::accounts::import::import_accounts;
use crate::collections::records::{Format, ImportFailure};
use crate::permissions::import::import_permissions;
use crate::state::Stores;
use crate::Config;

/// The `import` subcommand.
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Import accounts from a CSV (header row of the API's field names) or JSON file.
    Accounts { file: PathBuf },
    /// Import company user permissions from a CSV or JSON file.
    Permissions { file: PathBuf },
}

/// At most this many errors are printed.
const SHOWN_ERRORS: usize = 50;

pub async fn run(config: Config, cmd: ImportCommand) -> anyhow::Result<()> {
    let (what, file) = match &cmd {
        ImportCommand::Accounts { file } => ("accounts", file),
        ImportCommand::Permissions { file } => ("permissions", file),
    };
    let text = read_text(file)?;
    let format = Format::detect(file, &text);
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let stores = Stores::open(&config.database_url).await?;
    let result = match cmd {
        ImportCommand::Accounts { .. } => import_accounts(&stores.accounts, &text, format).await,
        ImportCommand::Permissions { .. } => import_permissions(&stores.permissions, &text, format).await,
    };
    match result {
        Ok(n) => {
            println!("Imported {n} {what} from {}", file.display());
            Ok(())
        }
        Err(ImportFailure::Invalid(errors)) => {
            for e in errors.iter().take(SHOWN_ERRORS) {
                eprintln!("{}:{}", file.display(), e.to_string().trim_start_matches("line "));
            }
            if errors.len() > SHOWN_ERRORS {
                eprintln!("... and {} more", errors.len() - SHOWN_ERRORS);
            }
            anyhow::bail!("nothing was imported: {} error(s) in {}", errors.len(), file.display())
        }
        Err(ImportFailure::Db(e)) => Err(anyhow::Error::new(e).context("nothing was imported: database error")),
    }
}

fn read_text(file: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{} is not UTF-8 text (byte {})", file.display(), e.utf8_error().valid_up_to()))
}
