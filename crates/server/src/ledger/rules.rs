//! What a deposit's move posts (the table in `chart.rs`), written in the deposit store's own
//! transaction: the move and its postings commit together or not at all, so a `kill -9` in the
//! middle leaves neither.

use std::collections::BTreeMap;

use moneydesk_model::deposits::{DepositAction, DepositStatus};
use moneydesk_model::ledger::{LedgerAccountKind as K, PostingKind};

use super::chart::{clearing, Code};
use super::policy::DepositKind;
use super::store::{post, Leg, PostError, Posting};
use super::Books;
use crate::storage::sql::Arg;
use crate::storage::{Sql, Tx};

/// What the books need of a deposit.
#[derive(Debug, Clone)]
pub struct DepositFacts<'a> {
    pub id: i64,
    pub service_type: &'a str,
    pub amount_cents: i64,
    pub fee_cents: i64,
    /// The managed sleeve account credited: the deposit's `payerId` (the sleeve account, 2.5),
    /// or its payee's account when it names none.
    pub sleeve: &'a str,
}

/// Cents as the books' units.
pub const fn units(cents: i64) -> i64 {
    cents * 100
}

/// Posts what `action` from `from` means for the books; the actor and the reason go on the
/// transaction (an operator's Settle is recorded as the exception it is).
pub async fn on_move(
    tx: &mut Tx,
    books: &Books,
    d: &DepositFacts<'_>,
    from: DepositStatus,
    action: DepositAction,
    actor: &str,
    reason: Option<&str>,
) -> Result<(), PostError> {
    let now = books.now_ms();
    match (from, action) {
        (DepositStatus::InProgress, DepositAction::Confirm) => confirm(tx, books, d, actor, now).await,
        (DepositStatus::Confirmed, DepositAction::Send) => {
            let Some(rail) = clearing(d.service_type) else { return Ok(()) };
            let q = Sql::new(tx.dialect(), "UPDATE deposits SET sent_on = ? WHERE id = ?")
                .arg(books.today().to_string())
                .arg(d.id);
            tx.exec().execute(&q).await?;
            let a = units(d.amount_cents);
            let mut p = posting(PostingKind::DepositSent, actor, d, reason);
            p.legs = vec![Leg::debit(Code::bank(rail), a), Leg::credit(Code::bank(K::ItemsInProcess), a)];
            post(tx, &p, now).await.map(drop)
        }
        (DepositStatus::Sent, DepositAction::Settle) => settle(tx, d, actor, reason, now).await,
        (DepositStatus::Sent | DepositStatus::Settled, DepositAction::Return) => {
            let mut p = posting(PostingKind::DepositReturned, actor, d, reason);
            p.legs = reversal(tx, d.id).await?;
            // The deposit's fee stays charged; the returned-item fee is charged too.
            let posted = Code::sleeve(d.sleeve, K::Posted);
            for fee in [units(d.fee_cents), units(books.returned_item_fee_cents())] {
                p.legs.push(Leg::debit(posted.clone(), fee));
                p.legs.push(Leg::credit(Code::bank(K::FeeIncome), fee));
            }
            finish_holds(tx, d.id, p, now).await
        }
        (DepositStatus::Confirmed, DepositAction::Reject | DepositAction::Cancel) => {
            let kind = PostingKind::DepositConfirmed.as_str();
            let q = Sql::new(tx.dialect(), "SELECT id FROM ledger_transactions WHERE deposit_id = ? AND kind = ?")
                .arg(d.id)
                .arg(kind);
            let mut p = posting(PostingKind::DepositReversed, actor, d, reason);
            p.reverses = tx.exec().ints(&q).await?.into_iter().next();
            p.legs = reversal(tx, d.id).await?;
            finish_holds(tx, d.id, p, now).await
        }
        _ => Ok(()),
    }
}

fn posting(kind: PostingKind, actor: &str, d: &DepositFacts<'_>, memo: Option<&str>) -> Posting {
    let mut p = Posting::new(kind, actor);
    p.deposit_id = Some(d.id);
    p.memo = memo.map(str::to_string);
    p
}

/// The confirmation: the credit, the fee against it, and the hold with its schedule; cash is
/// posted (and available) at once.
async fn confirm(tx: &mut Tx, books: &Books, d: &DepositFacts<'_>, actor: &str, now: i64) -> Result<(), PostError> {
    let (a, f) = (units(d.amount_cents), units(d.fee_cents));
    let mut p = posting(PostingKind::DepositConfirmed, actor, d, None);
    let Some(_) = clearing(d.service_type) else {
        let posted = Code::sleeve(d.sleeve, K::Posted);
        p.legs = vec![
            Leg::debit(Code::bank(K::CashVault), a),
            Leg::credit(posted.clone(), a),
            Leg::debit(posted, f),
            Leg::credit(Code::bank(K::FeeIncome), f),
        ];
        return post(tx, &p, now).await.map(drop);
    };
    let pending = Code::sleeve(d.sleeve, K::Pending);
    p.legs = vec![
        Leg::debit(Code::bank(K::ItemsInProcess), a),
        Leg::credit(pending.clone(), a),
        Leg::debit(pending, f),
        Leg::credit(Code::bank(K::FeeIncomePending), f),
    ];
    let kind = if d.service_type == "Electronic_Deposit" { DepositKind::Electronic } else { DepositKind::Check };
    let q = Sql::new(tx.dialect(), "SELECT create_ms FROM accounts WHERE id = ?").arg(d.sleeve);
    let opened = tx.exec().ints(&q).await?.into_iter().next().and_then(|ms| books.day_of_ms(ms));
    let releases = books.policy.schedule(&books.calendar, kind, d.amount_cents - d.fee_cents, books.today(), opened);
    let held: i64 = releases.iter().map(|r| r.amount_cents).sum();
    p.legs.push(Leg::debit(Code::sleeve(d.sleeve, K::Held), units(held)));
    p.legs.push(Leg::credit(Code::bank(K::Holds), units(held)));
    post(tx, &p, now).await?;
    for r in releases {
        let mut q =
            Sql::new(tx.dialect(), "INSERT INTO ledger_holds (deposit_id, account_id, amount, release_on) VALUES ");
        q.bind_row([
            Arg::from(d.id),
            Arg::from(d.sleeve),
            Arg::from(units(r.amount_cents)),
            Arg::from(r.on.to_string()),
        ]);
        tx.exec().execute(&q).await?;
    }
    Ok(())
}

/// Settlement: what the deposit left pending posts (the sleeve's, the fee's), and its clearing
/// closes into the settlement account.
async fn settle(
    tx: &mut Tx,
    d: &DepositFacts<'_>,
    actor: &str,
    reason: Option<&str>,
    now: i64,
) -> Result<(), PostError> {
    let memo = match (actor, reason) {
        ("settlement", r) => r.map(str::to_string),
        (_, Some(r)) => Some(format!("settled by hand (exception): {r}")),
        (_, None) => Some("settled by hand (exception)".to_string()),
    };
    let mut p = posting(PostingKind::DepositSettled, actor, d, None);
    p.memo = memo;
    for (code, net) in nets(tx, d.id).await? {
        let (_, kind) = code.owner_and_kind();
        let to = match kind {
            K::Pending => Code::sleeve(d.sleeve, K::Posted),
            K::FeeIncomePending => Code::bank(K::FeeIncome),
            K::ItemsInProcess | K::ClearingX9 | K::ClearingAch => Code::bank(K::Settlement),
            _ => continue,
        };
        p.legs.push(Leg { account: code, amount: -net });
        p.legs.push(Leg { account: to, amount: net });
    }
    post(tx, &p, now).await.map(drop)
}

/// Legs that undo every net amount the deposit's transactions left on each ledger account.
/// Its hold's tranches are locked first, so a release running now (`jobs::release_due`, which
/// claims its tranche the same way) is either wholly before these nets are read or waits.
async fn reversal(tx: &mut Tx, deposit_id: i64) -> Result<Vec<Leg>, PostError> {
    let q = Sql::new(tx.dialect(), "UPDATE ledger_holds SET amount = amount WHERE deposit_id = ?").arg(deposit_id);
    tx.exec().execute(&q).await?;
    Ok(nets(tx, deposit_id).await?.into_iter().map(|(account, net)| Leg { account, amount: -net }).collect())
}

/// The net a deposit's transactions left on each ledger account (zero nets left out).
pub async fn nets(tx: &mut Tx, deposit_id: i64) -> sqlx::Result<BTreeMap<Code, i64>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT a.code, CAST(SUM(e.amount) AS BIGINT) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE t.deposit_id = ? GROUP BY a.code",
    )
    .arg(deposit_id);
    let rows: Vec<(String, i64)> = tx.exec().rows(&q).await?;
    Ok(rows.into_iter().filter(|(_, n)| *n != 0).filter_map(|(c, n)| Some((Code::parse(&c).ok()?, n))).collect())
}

/// Posts `p` and marks the deposit's holds not yet released as ended by it.
async fn finish_holds(tx: &mut Tx, deposit_id: i64, p: Posting, now: i64) -> Result<(), PostError> {
    let Some(id) = post(tx, &p, now).await? else { return Ok(()) };
    let q = Sql::new(
        tx.dialect(),
        "UPDATE ledger_holds SET cancelled_tx = ? WHERE deposit_id = ? AND released_tx IS NULL AND cancelled_tx IS NULL",
    )
    .arg(id)
    .arg(deposit_id);
    tx.exec().execute(&q).await?;
    Ok(())
}
