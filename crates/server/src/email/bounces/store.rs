//! Bounce reports and bounces (tables of `0027_email_bounces.sql`), both backends: a report
//! recorded with its bounces, the suppressions they make and their events in one transaction;
//! a message's bounces; the lists; the deliverability figures.

use chrono::{DateTime, Duration, Utc};
use moneydesk_model::email::bounces::{
    Bounce, BounceKind, BounceReport, BounceReportState, DomainDeliverability, SOFT_BOUNCE_LIMIT,
    SOFT_BOUNCE_WINDOW_DAYS,
};
use moneydesk_model::email::suppressions::SuppressionReason;
use moneydesk_model::events::EventType;

use crate::email::outbox::store::outbox::{MessageRow, ROW_COLUMNS};
use crate::email::outbox::store::{time_text, EmailError, EmailStore};
use crate::email::suppressions::store::Entry;
use crate::storage::events::{self, NewEvent};
use crate::storage::{trail, Dialect};

/// A report to record (its raw bytes are stored already).
#[derive(Debug, Clone)]
pub struct NewReport {
    pub id: String,
    pub state: BounceReportState,
    pub report_type: Option<&'static str>,
    pub problem: Option<String>,
    pub received_by: &'static str,
    pub mail_from: String,
    pub rcpt_to: Option<String>,
    pub raw_sha256: String,
    pub size: u64,
    /// The SMTP delivery it came in (`bounces::delivery`), kept once.
    pub delivery: Option<String>,
}

/// One recipient's bounce or complaint, before it is recorded.
#[derive(Debug, Clone)]
pub struct NewBounce {
    pub message_id: Option<String>,
    pub domain: Option<String>,
    pub address: String,
    pub kind: BounceKind,
    pub action: String,
    pub status: Option<String>,
    pub diagnostic: Option<String>,
}

#[derive(sqlx::FromRow)]
struct BounceRow {
    id: String,
    report_id: String,
    message_id: Option<String>,
    domain: Option<String>,
    address: String,
    kind: String,
    action: String,
    status: Option<String>,
    diagnostic: Option<String>,
    suppressed: i64,
    received_at: String,
}

const BOUNCE_COLUMNS: &str =
    "id, report_id, message_id, domain, address, kind, action, status, diagnostic, suppressed, received_at";
const REPORT_COLUMNS: &str =
    "id, state, report_type, problem, received_by, mail_from, rcpt_to, raw_sha256, size, received_at";

impl BounceRow {
    fn record(self) -> Bounce {
        Bounce {
            id: self.id,
            report_id: self.report_id,
            message_id: self.message_id,
            domain: self.domain,
            email: self.address,
            kind: self.kind.parse().unwrap_or(BounceKind::Hard),
            action: self.action,
            status: self.status,
            diagnostic: self.diagnostic,
            suppressed: self.suppressed != 0,
            received_at: self.received_at,
        }
    }
}

#[derive(sqlx::FromRow)]
struct ReportRow {
    id: String,
    state: String,
    report_type: Option<String>,
    problem: Option<String>,
    received_by: String,
    #[allow(dead_code)]
    mail_from: String,
    rcpt_to: Option<String>,
    #[allow(dead_code)]
    raw_sha256: String,
    size: i64,
    received_at: String,
}

impl ReportRow {
    fn record(self, bounces: Vec<Bounce>) -> BounceReport {
        BounceReport {
            id: self.id,
            state: BounceReportState::parse(&self.state).unwrap_or(BounceReportState::Unparseable),
            report_type: self.report_type,
            problem: self.problem,
            received_by: self.received_by,
            rcpt_to: self.rcpt_to,
            size: self.size as u64,
            received_at: self.received_at,
            bounces,
        }
    }
}

/// What the bounce list is filtered by.
#[derive(Debug, Clone, Default)]
pub struct BounceFilter {
    pub domain: Option<String>,
    pub kinds: Vec<BounceKind>,
    pub message_id: Option<String>,
    /// Received at or after / at or before (stored form).
    pub from: Option<String>,
    pub to: Option<String>,
}

impl EmailStore {
    /// The outbox message a report answers: by its id (the VERP address), else by the
    /// Message-ID the returned headers carry.
    pub(crate) async fn bounced_message(
        &self,
        id: Option<&str>,
        header_id: Option<&str>,
    ) -> Result<Option<MessageRow>, EmailError> {
        if let Some(row) = match id {
            Some(id) => self.row(id).await?,
            None => None,
        } {
            return Ok(Some(row));
        }
        let Some(header_id) = header_id else { return Ok(None) };
        let q = self.db.sql(&format!("SELECT {ROW_COLUMNS} FROM email_messages WHERE message_id = ?")).arg(header_id);
        Ok(self.db.acquire().await?.exec().row(&q).await?)
    }

    /// Records a report and its bounces in one transaction: hard bounces and complaints put
    /// their address on the domain's list, a soft bounce does when it is the
    /// `SOFT_BOUNCE_LIMIT`th of the address within the window; an `email.bounced` or
    /// `email.complained` event for each, on record under the report.
    pub async fn record_report(
        &self,
        report: &NewReport,
        bounces: &[NewBounce],
        now: DateTime<Utc>,
    ) -> Result<BounceReport, EmailError> {
        let at = time_text(now);
        let mut tx = self.db.begin().await?;
        trail::target("email_bounce_report", &report.id);
        trail::change("state", None::<&str>, Some(report.state.as_str()));
        let q = self
            .db
            .sql(&format!(
                "INSERT INTO email_bounce_reports ({REPORT_COLUMNS}, delivery) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))
            .arg(report.id.as_str())
            .arg(report.state.as_str())
            .arg(report.report_type)
            .arg(report.problem.clone())
            .arg(report.received_by)
            .arg(report.mail_from.as_str())
            .arg(report.rcpt_to.clone())
            .arg(report.raw_sha256.as_str())
            .arg(report.size as i64)
            .arg(at.as_str())
            .arg(report.delivery.clone());
        tx.exec().execute(&q).await?;
        let mut recorded = Vec::with_capacity(bounces.len());
        let since = time_text(now - Duration::days(SOFT_BOUNCE_WINDOW_DAYS));
        for b in bounces {
            let suppress = match (&b.domain, b.kind) {
                (None, _) => false,
                (Some(_), BounceKind::Hard | BounceKind::Complaint) => true,
                (Some(domain), BounceKind::Soft) => {
                    let q = self
                        .db
                        .sql("SELECT COUNT(*) FROM email_bounces WHERE domain = ? AND address = ? AND kind = 'soft' AND received_at >= ?")
                        .arg(domain.as_str())
                        .arg(b.address.as_str())
                        .arg(since.as_str());
                    tx.exec().int(&q).await? + 1 >= i64::from(SOFT_BOUNCE_LIMIT)
                }
            };
            if let (true, Some(domain)) = (suppress, &b.domain) {
                let (reason, what) = match b.kind {
                    BounceKind::Complaint => (SuppressionReason::SpamComplaint, "complaint"),
                    _ => (SuppressionReason::Bounce, "bounce"),
                };
                let source = match &b.message_id {
                    Some(m) => format!("{what}:{m}"),
                    None => format!("{what}:report:{}", report.id),
                };
                let detail = match b.kind {
                    BounceKind::Soft => Some(format!(
                        "{SOFT_BOUNCE_LIMIT} soft bounces within {SOFT_BOUNCE_WINDOW_DAYS} days; the last: {}",
                        b.diagnostic.as_deref().or(b.status.as_deref()).unwrap_or(&b.action)
                    )),
                    BounceKind::Complaint => Some(format!("feedback type {}", b.action)),
                    BounceKind::Hard => b.diagnostic.clone().or_else(|| b.status.clone()),
                };
                let entry = Entry { address: b.address.clone(), reason, category: String::new(), detail };
                self.suppress_in(&mut tx, domain, &[entry], &source, None, now).await?;
            }
            let bounce = Bounce {
                id: format!("bnc_{}", uuid::Uuid::new_v4().simple()),
                report_id: report.id.clone(),
                message_id: b.message_id.clone(),
                domain: b.domain.clone(),
                email: b.address.clone(),
                kind: b.kind,
                action: b.action.clone(),
                status: b.status.clone(),
                diagnostic: b.diagnostic.clone(),
                suppressed: suppress,
                received_at: at.clone(),
            };
            let q = self
                .db
                .sql(&format!("INSERT INTO email_bounces ({BOUNCE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
                .arg(bounce.id.as_str())
                .arg(bounce.report_id.as_str())
                .arg(bounce.message_id.clone())
                .arg(bounce.domain.clone())
                .arg(bounce.email.as_str())
                .arg(bounce.kind.as_str())
                .arg(bounce.action.as_str())
                .arg(bounce.status.clone())
                .arg(bounce.diagnostic.clone())
                .arg(i64::from(suppress))
                .arg(at.as_str());
            tx.exec().execute(&q).await?;
            recorded.push(bounce);
        }
        if !recorded.is_empty() {
            trail::change("bounces", None::<usize>, Some(recorded.len()));
        }
        let kinds: Vec<NewEvent> = recorded
            .iter()
            .map(|b| {
                let kind = match b.kind {
                    BounceKind::Complaint => EventType::EmailComplained,
                    _ => EventType::EmailBounced,
                };
                NewEvent::new(kind, "email_bounce", &b.id, b)
            })
            .collect();
        events::append_many(&mut tx, &kinds).await?;
        tx.commit().await?;
        Ok(BounceReport {
            id: report.id.clone(),
            state: report.state,
            report_type: report.report_type.map(str::to_string),
            problem: report.problem.clone(),
            received_by: report.received_by.to_string(),
            rcpt_to: report.rcpt_to.clone(),
            size: report.size,
            received_at: at,
            bounces: recorded,
        })
    }

    /// Bounces and complaints, newest first (at most `limit`).
    pub async fn bounces(&self, f: &BounceFilter, limit: i64) -> Result<Vec<Bounce>, EmailError> {
        let mut q = self.db.sql(&format!("SELECT {BOUNCE_COLUMNS} FROM email_bounces WHERE TRUE"));
        if let Some(d) = &f.domain {
            q.push(" AND domain = ").bind(d.as_str());
        }
        if !f.kinds.is_empty() {
            q.push(" AND kind IN (");
            q.bind_list(f.kinds.iter().map(|k| k.as_str()));
            q.push(")");
        }
        if let Some(m) = &f.message_id {
            q.push(" AND message_id = ").bind(m.as_str());
        }
        if let Some(from) = &f.from {
            q.push(" AND received_at >= ").bind(from.as_str());
        }
        if let Some(to) = &f.to {
            q.push(" AND received_at <= ").bind(to.as_str());
        }
        q.push(" ORDER BY received_at DESC, id DESC LIMIT ").bind(limit);
        let rows: Vec<BounceRow> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(BounceRow::record).collect())
    }

    /// A message's bounces, oldest first, in the caller's snapshot.
    pub(crate) async fn message_bounces(
        &self,
        tx: &mut crate::storage::Tx,
        id: &str,
    ) -> Result<Vec<Bounce>, EmailError> {
        let q = self
            .db
            .sql(&format!("SELECT {BOUNCE_COLUMNS} FROM email_bounces WHERE message_id = ? ORDER BY received_at, id"))
            .arg(id);
        let rows: Vec<BounceRow> = tx.exec().rows(&q).await?;
        Ok(rows.into_iter().map(BounceRow::record).collect())
    }

    /// The report an SMTP delivery (`bounces::delivery`) was kept as, with its bounces.
    pub async fn report_by_delivery(&self, delivery: &str) -> Result<Option<BounceReport>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let q =
            self.db.sql(&format!("SELECT {REPORT_COLUMNS} FROM email_bounce_reports WHERE delivery = ?")).arg(delivery);
        let report = match tx.exec().row::<ReportRow>(&q).await? {
            Some(r) => Some(self.with_bounces(&mut tx, r).await?),
            None => None,
        };
        tx.commit_unrecorded().await?;
        Ok(report)
    }

    /// Reports, newest first (at most `limit`), optionally in one state, with their bounces.
    pub async fn bounce_reports(
        &self,
        state: Option<BounceReportState>,
        limit: i64,
    ) -> Result<Vec<BounceReport>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut q = self.db.sql(&format!("SELECT {REPORT_COLUMNS} FROM email_bounce_reports"));
        if let Some(s) = state {
            q.push(" WHERE state = ").bind(s.as_str());
        }
        q.push(" ORDER BY received_at DESC, id DESC LIMIT ").bind(limit);
        let rows: Vec<ReportRow> = tx.exec().rows(&q).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            out.push(self.with_bounces(&mut tx, r).await?);
        }
        tx.commit_unrecorded().await?;
        Ok(out)
    }

    /// A report row as the record, with its bounces read in the caller's snapshot.
    async fn with_bounces(&self, tx: &mut crate::storage::Tx, r: ReportRow) -> Result<BounceReport, EmailError> {
        let q = self
            .db
            .sql(&format!("SELECT {BOUNCE_COLUMNS} FROM email_bounces WHERE report_id = ? ORDER BY id"))
            .arg(r.id.as_str());
        let bounces: Vec<BounceRow> = tx.exec().rows(&q).await?;
        Ok(r.record(bounces.into_iter().map(BounceRow::record).collect()))
    }

    /// Each sender domain's figures for messages accepted, and bounces received, between
    /// `from` and `to` (stored forms, both included), by domain; and the unparseable reports.
    pub async fn deliverability(&self, from: &str, to: &str) -> Result<(Vec<DomainDeliverability>, u64), EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let domain = match self.db.dialect() {
            Dialect::Sqlite => "LOWER(SUBSTR(from_email, INSTR(from_email, '@') + 1))",
            Dialect::Postgres => "LOWER(SPLIT_PART(from_email, '@', 2))",
        };
        let q = self
            .db
            .sql(&format!("SELECT {domain} AS domain, COUNT(*) AS sent, SUM(CASE WHEN state = 'sent' THEN 1 ELSE 0 END) AS delivered FROM email_messages WHERE created_at >= ? AND created_at <= ? GROUP BY 1"))
            .arg(from)
            .arg(to);
        let sent: Vec<(String, i64, Option<i64>)> = tx.exec().rows(&q).await?;
        let q = self
            .db
            .sql("SELECT domain, kind, COUNT(*) FROM email_bounces WHERE domain IS NOT NULL AND received_at >= ? AND received_at <= ? GROUP BY domain, kind")
            .arg(from)
            .arg(to);
        let bounced: Vec<(String, String, i64)> = tx.exec().rows(&q).await?;
        let q = self
            .db
            .sql("SELECT COUNT(*) FROM email_bounce_reports WHERE state = 'unparseable' AND received_at >= ? AND received_at <= ?")
            .arg(from)
            .arg(to);
        let unparseable = tx.exec().int(&q).await? as u64;
        tx.commit_unrecorded().await?;
        let mut domains: Vec<String> =
            sent.iter().map(|s| s.0.clone()).chain(bounced.iter().map(|b| b.0.clone())).collect();
        domains.sort();
        domains.dedup();
        let figures = domains
            .into_iter()
            .map(|d| {
                let (s, delivered) =
                    sent.iter().find(|s| s.0 == d).map(|s| (s.1 as u64, s.2.unwrap_or(0) as u64)).unwrap_or((0, 0));
                let count = |kind: BounceKind| {
                    bounced.iter().filter(|b| b.0 == d && b.1 == kind.as_str()).map(|b| b.2 as u64).sum::<u64>()
                };
                let (hard, soft, complaints) =
                    (count(BounceKind::Hard), count(BounceKind::Soft), count(BounceKind::Complaint));
                DomainDeliverability::from_counts(d, s, delivered, hard, soft, complaints)
            })
            .collect();
        Ok((figures, unparseable))
    }
}

/// A new report's id.
pub fn new_report_id() -> String {
    format!("bnr_{}", uuid::Uuid::new_v4().simple())
}
