//! The writes measured, each with and without its audit record (and, for the adjustment, its
//! event): what one client does once.

#[path = "../../tests/common/deposits.rs"]
mod test_deposits;

use moneydesk_model::deposits::{DepositAction, ServiceType};
use moneydesk_model::ledger::{LedgerAccountKind, PostingKind};
use moneydesk_model::paths;
use moneydesk_server::deposits::store::{CreateOutcome, DepositRow};
use moneydesk_server::ledger::chart::Code;
use moneydesk_server::ledger::store::{EntryRow, Leg, Posting, TransactionRow};
use moneydesk_server::ledger::Books;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::trail::Recording;

use crate::Rng;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Write {
    Adjustment,
    Deposit,
}

impl Write {
    pub fn name(self) -> &'static str {
        match self {
            Write::Adjustment => "adjustment",
            Write::Deposit => "deposit",
        }
    }

    /// Transactions (and so audit records when recorded) one write commits.
    pub fn transactions(self) -> u64 {
        match self {
            Write::Adjustment => 1,
            Write::Deposit => 2,
        }
    }

    /// Events one write appends, with or without its record.
    pub fn events(self, recorded: bool) -> u64 {
        match (self, recorded) {
            (Write::Adjustment, true) => 1,
            (Write::Adjustment, false) => 0,
            (Write::Deposit, _) => 2,
        }
    }
}

/// What the clients share.
pub struct Ctx {
    pub stores: Stores,
    pub books: Books,
    pub accounts: Vec<String>,
}

/// The recording the auth guard opens for a write request (`auth/audit.rs`): a token, its
/// user and name, the peer, the operation, its route and the request id.
fn recording(operation: &str, route: &str, path_id: Option<i64>, request: u64) -> Recording {
    // Field by field: what the store adds (`noted`) is the crate's own.
    let mut r = Recording::default();
    r.token_id = Some(1);
    r.user_id = Some("bench-user".into());
    r.token_name = Some("bench-admin".into());
    r.client_address = Some("127.0.0.1".into());
    r.user_agent = Some("moneydesk-bench-audit/1".into());
    r.operation = operation.into();
    r.method = Some("POST".into());
    r.path = Some(route.into());
    r.request_id = Some(format!("bench-{request:016x}"));
    r.path_id = path_id.map(|id| id.to_string());
    r
}

/// The transaction as the adjustments endpoint answers it (its fields, as JSON).
fn answer(h: &TransactionRow, entries: &[EntryRow]) -> serde_json::Value {
    serde_json::json!({
        "id": h.id, "kind": h.kind, "postedAt": h.at_ms, "actor": h.actor, "memo": h.memo,
        "depositId": h.deposit_id, "reverses": h.reverses,
        "entries": entries.iter().map(|e| serde_json::json!({
            "id": e.id, "transactionId": e.transaction_id, "account": e.code, "kind": e.kind,
            "amount": e.amount, "balanceAfter": e.balance_after, "postedAt": e.at_ms,
        })).collect::<Vec<_>>(),
    })
}

/// An adjustment as the endpoint makes it: Dr one sleeve's posted, Cr another's, $0.01–$100.00,
/// with the available-balance guard.
fn adjustment(ctx: &Ctx, rng: &mut Rng) -> Posting {
    let n = ctx.accounts.len() as u64;
    let debit = rng.below(n) as usize;
    let credit = (debit + 1 + rng.below(n - 1) as usize) % n as usize;
    let units = (1 + rng.below(10_000) as i64) * 100;
    let mut p = Posting::new(PostingKind::Adjustment, "bench-admin");
    p.memo = Some("bench adjustment".into());
    p.legs = vec![
        Leg::debit(Code::sleeve(&ctx.accounts[debit], LedgerAccountKind::Posted), units),
        Leg::credit(Code::sleeve(&ctx.accounts[credit], LedgerAccountKind::Posted), units),
    ];
    p.guard_available = true;
    p
}

/// A new check deposit to a sleeve, In_Progress_1: the tests' builder, dated today.
fn deposit(ctx: &Ctx, rng: &mut Rng) -> DepositRow {
    let sleeve = &ctx.accounts[rng.below(ctx.accounts.len() as u64) as usize];
    let mut row = test_deposits::row(ServiceType::Check, sleeve, 1 + rng.below(100_000) as i64, 0);
    row.schedule_date = chrono::Utc::now().date_naive().to_string();
    row.memo = Some("bench deposit".into());
    row.submitter = "bench-admin".into();
    row
}

/// One write, recorded or not; `request` numbers it (its request ids).
pub async fn once(ctx: &Ctx, write: Write, recorded: bool, rng: &mut Rng, request: u64) -> Result<(), String> {
    match write {
        Write::Adjustment => adjust(ctx, recorded, rng, request).await,
        Write::Deposit => deposit_and_confirm(ctx, recorded, rng, request).await,
    }
}

async fn adjust(ctx: &Ctx, recorded: bool, rng: &mut Rng, request: u64) -> Result<(), String> {
    let p = adjustment(ctx, rng);
    let ledger = &ctx.stores.ledger;
    let now = ctx.books.now_ms();
    let answered = if recorded {
        let r = recording("adjust", paths::LEDGER_ADJUSTMENTS, None, request);
        r.run(ledger.post_adjustment(&p, now, answer)).await.map_err(|e| e.to_string())?
    } else {
        let id = ledger.post_at(&p, now).await.map_err(|e| e.to_string())?.ok_or("posted nothing")?;
        let found = ledger.transaction(id).await.map_err(|e| e.to_string())?;
        found.map(|(h, entries)| answer(&h, &entries))
    };
    // The body the endpoint would send, in both variants.
    let body = answered.ok_or("posted nothing")?.to_string();
    std::hint::black_box(body);
    Ok(())
}

async fn deposit_and_confirm(ctx: &Ctx, recorded: bool, rng: &mut Rng, request: u64) -> Result<(), String> {
    let row = deposit(ctx, rng);
    let deposits = &ctx.stores.deposits;
    let create = deposits.create(&row, None);
    let created =
        if recorded { recording("create", paths::DEPOSITS, None, request).run(create).await } else { create.await };
    let id = match created.map_err(|e| e.to_string())? {
        CreateOutcome::Created(r) => r.id,
        CreateOutcome::Repeated(r) => return Err(format!("deposit {} repeated", r.id)),
    };
    let confirm = deposits.apply(id, DepositAction::Confirm, "bench-admin", None, &ctx.books);
    let confirmed = if recorded {
        recording("apply", paths::DEPOSIT_ACTIONS, Some(id), request).run(confirm).await
    } else {
        confirm.await
    };
    confirmed.map(drop).map_err(|e| e.to_string())
}
