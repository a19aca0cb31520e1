//! Today's figures as cards, one per member the server answered (absent members, which the
//! token's scopes do not open, have no card). Every figure is a link to the filtered list
//! behind it (links.rs).

use leptos::prelude::*;
use moneydesk_model::overview::{
    DepositsToday, DirectoryAge, Figure, LedgerToday, NextCashLetter, Outbox, Overview, VaultUse, Waiting, Webhooks,
};

use super::chart::{state_class, RailChart};
use super::links::place;
use crate::config::AppConfig;
use crate::format::{bytes, format_amount, format_date_time, group};
use crate::i18n::dashboard::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;

/// `12 · $1,250.00`, a link to the list; `figure` names it for tests (`data-figure`).
fn link(config: &AppConfig, name: &'static str, f: &Figure, unit: &'static str) -> impl IntoView {
    let amount = f.amount.as_ref().map(|a| view! { <span class="day-amount">{format_amount(a)}</span> });
    view! {
        <a class="day-figure" data-figure=name href=config.href(&place(&f.list))>
            <span class="day-count">{group(f.count)}</span> " " {unit} {amount}
        </a>
    }
}

fn card(id: &'static str, title: &'static str, body: impl IntoView + 'static) -> impl IntoView {
    view! {
        <section class="day-card" data-testid=id aria-labelledby=format!("{id}-head")>
            <h2 id=format!("{id}-head")>{title}</h2>
            {body}
        </section>
    }
}

/// Every member's card, in the order an operator's morning goes.
pub fn day(o: Overview, config: &AppConfig) -> impl IntoView {
    let nothing = o.deposits_today.is_none()
        && o.outbox.is_none()
        && o.routing_directory.is_none()
        && o.vault.is_none()
        && o.webhooks.is_none()
        && o.ledger.is_none();
    let t = text();
    view! {
        <p class="muted day-date">{fill(t.today, &[&o.day])}</p>
        {nothing.then(|| view! { <p class="muted">{t.no_figures}</p> })}
        <div class="day-cards">
            {o.deposits_today.map(|d| deposits(d, config))}
            {o.waiting.map(|w| waiting(w, config))}
            {o.next_cash_letter.map(|c| cash_letter(c, config))}
            {o.outbox.map(|x| outbox(x, config))}
            {o.routing_directory.map(|r| routing(r, config))}
            {o.vault.map(|v| vault(v, config))}
            {o.webhooks.map(|w| webhooks(w, config))}
            {o.ledger.map(|l| ledger(l, config))}
        </div>
    }
}

fn deposits(d: DepositsToday, config: &AppConfig) -> impl IntoView {
    let states = d
        .by_status
        .iter()
        .map(|s| {
            let swatch = format!("day-swatch {}", state_class(s.status));
            view! {
                <li>
                    <span class=swatch aria-hidden="true"></span>
                    {say(s.status.label())} ": " {link(config, s.status.as_str(), &s.figure, "")}
                </li>
            }
        })
        .collect_view();
    let chart = (!d.by_rail.is_empty()).then(|| view! { <RailChart rails=d.by_rail.clone()/> });
    let t = text();
    let body = view! {
        <p class="day-lead">{link(config, "depositsToday", &d.total, t.deposits_unit)}</p>
        {chart}
        <ul class="day-legend">{states}</ul>
    };
    card("day-deposits", t.deposits_today, body)
}

fn waiting(w: Waiting, config: &AppConfig) -> impl IntoView {
    let t = text();
    let body = view! {
        <ul class="day-list">
            <li>{t.to_confirm} {link(config, "toConfirm", &w.to_confirm, t.deposits_unit)}</li>
            <li>{t.returned} {link(config, "returned", &w.returned, t.deposits_unit)}</li>
            <li>{t.unmatched} {link(config, "unmatched", &w.unmatched, t.items_unit)}</li>
        </ul>
    };
    card("day-waiting", t.waiting, body)
}

fn cash_letter(c: NextCashLetter, config: &AppConfig) -> impl IntoView {
    let cut_off = format_date_time(&c.cut_off).unwrap_or_else(|| c.cut_off.clone());
    let t = text();
    let body = view! {
        <p>{t.cut_off} <time datetime=c.cut_off.clone()>{cut_off}</time> {fill(t.business_day, &[&c.business_date])}</p>
        <p>{t.it_holds} {link(config, "cashLetter", &c.holds, t.checks_unit)}</p>
    };
    card("day-cash-letter", t.next_cash_letter, body)
}

fn outbox(x: Outbox, config: &AppConfig) -> impl IntoView {
    let states = x
        .by_state
        .iter()
        .map(|s| view! { <li>{say(s.state.label())} ": " {link(config, s.state.as_str(), &s.figure, "")}</li> })
        .collect_view();
    let t = text();
    let body = view! {
        <p class="day-lead">{link(config, "outboxDepth", &x.depth, t.waiting_to_go)}</p>
        <ul class="day-list">{states}</ul>
        <p>{t.bounced_today} {link(config, "bouncesToday", &x.bounces_today, t.messages_unit)}</p>
    };
    card("day-outbox", t.outbox, body)
}

fn routing(r: DirectoryAge, config: &AppConfig) -> impl IntoView {
    let loaded = format_date_time(&r.loaded_at).unwrap_or_else(|| r.loaded_at.clone());
    let t = text();
    let age = fill(t.hours_old, &[&r.age_hours.to_string()]);
    let verdict = if r.stale { fill(t.stale, &[&r.stale_after_hours.to_string()]) } else { t.current.to_string() };
    let body = view! {
        <p class="day-lead">
            <a class="day-figure" data-figure="routingDirectory" class:day-stale=r.stale href=config.href(&place(&r.list))>
                {verdict}
            </a>
        </p>
        <p>{fill(t.loaded, &[&loaded, &age])} {r.as_of.map(|d| fill(t.directory_as_of, &[&d]))}</p>
    };
    card("day-routing", t.routing_directory, body)
}

fn vault(v: VaultUse, config: &AppConfig) -> impl IntoView {
    let t = text();
    let used = match v.quota_bytes {
        Some(q) => fill(t.vault_of_quota, &[&bytes(v.bytes), &bytes(q), &group(v.files)]),
        None => fill(t.vault_no_quota, &[&bytes(v.bytes), &group(v.files)]),
    };
    let meter = v.quota_bytes.filter(|q| *q > 0).map(|q| {
        view! { <meter class="day-meter" min="0" max=q.to_string() value=v.bytes.to_string() aria-label=t.vault_usage></meter> }
    });
    let body = view! {
        <p class="day-lead"><a class="day-figure" data-figure="vault" href=config.href(&place(&v.list))>{used}</a></p>
        {meter}
    };
    card("day-vault", t.your_vault, body)
}

fn webhooks(w: Webhooks, config: &AppConfig) -> impl IntoView {
    let alarm = w.failing.count > 0;
    let t = text();
    let body = view! {
        <p class="day-lead" class:day-alarm=alarm>
            {link(config, "webhooksFailing", &w.failing, t.failing)} {fill(t.of_endpoints, &[&group(w.endpoints)])}
        </p>
    };
    card("day-webhooks", t.webhook_endpoints, body)
}

fn ledger(l: LedgerToday, config: &AppConfig) -> impl IntoView {
    let rows = l
        .moves
        .iter()
        .map(|m| {
            view! {
                <tr>
                    <th scope="row"><code>{m.code.clone()}</code></th>
                    <td class="num">{format_amount(&m.moved)}</td>
                    <td class="num">{format_amount(&m.balance)}</td>
                    <td class="num">{link(config, "ledgerEntries", &m.entries, "")}</td>
                </tr>
            }
        })
        .collect_view();
    let t = text();
    let c = &t.ledger_columns;
    let body = view! {
        <p>{fill(t.accounts_moved, &[&group(l.accounts_moved)])}</p>
        {(!l.moves.is_empty()).then(|| view! {
            <table class="day-table">
                <thead><tr><th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th><th scope="col">{c[3]}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        })}
    };
    card("day-ledger", t.ledger_moved, body)
}
