//! Deposited amounts per day, stacked by status, over the table's filters (the daily-totals
//! extension): an SVG the page draws itself. Each day is focusable; hovering or focusing it
//! reads out its total and each status's count and sum, so the values are there by keyboard
//! and for screen readers (each day's bar has the same text as its label). Heights are drawn
//! from the amounts as floats; every amount shown is the server's exact decimal.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::deposits::{Date, DepositDayTotal, DepositStatus};

use super::FILTERS;
use crate::api;
use crate::api::request::Answer;
use crate::format::{format_money, group};
use crate::i18n::{deposits::text, fill, vocab::say};
use crate::session::use_auth;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 160.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 20.0;
/// The most days drawn: a longer range shows its last days (narrow the dates to see more).
const MAX_DAYS: i64 = 92;

fn short(d: Date) -> String {
    format!("{} {}", d.month_abbreviation(), d.day())
}

fn money(m: &impl ToString) -> String {
    let s = m.to_string();
    format_money(&s).unwrap_or(s)
}

/// One day's bar: the day, its segments (status, count, amount) and the readout.
struct Day {
    date: Date,
    parts: Vec<DepositDayTotal>,
}

impl Day {
    fn total(&self) -> rust_decimal::Decimal {
        self.parts.iter().map(|p| p.amount.decimal()).sum()
    }

    fn label(&self) -> String {
        let t = &text().chart;
        if self.parts.is_empty() {
            return fill(t.no_deposits, &[&short(self.date)]);
        }
        let count: i64 = self.parts.iter().map(|p| p.count).sum();
        let figure = |n: i64| group(n.unsigned_abs());
        let each: Vec<String> = self
            .parts
            .iter()
            .map(|p| fill(t.part, &[&figure(p.count), &say(p.status.label()).to_lowercase(), &money(&p.amount)]))
            .collect();
        let noun = if count == 1 { t.deposit.0 } else { t.deposit.1 };
        fill(t.day, &[&short(self.date), &money(&self.total()), &figure(count), noun, &each.join(", ")])
    }
}

/// Every day from the first to the last with deposits (empty days included), at most
/// `MAX_DAYS`, the latest.
fn days(totals: &[DepositDayTotal]) -> Vec<Day> {
    let (Some(first), Some(last)) = (totals.first(), totals.last()) else { return Vec::new() };
    let end = last.day.epoch_days();
    let start = first.day.epoch_days().max(end - MAX_DAYS + 1);
    (start..=end)
        .filter_map(Date::from_epoch_days)
        .map(|date| Day { date, parts: totals.iter().filter(|t| t.day == date).cloned().collect() })
        .collect()
}

#[component]
pub fn DepositsChart(#[prop(into)] changed: Signal<u32>) -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let totals = Answer::<Vec<DepositDayTotal>>::new();
    Effect::new(move |_| {
        changed.track();
        let filters: Vec<(String, String)> = query.with(|q| {
            FILTERS
                .iter()
                .filter_map(|f| {
                    q.get_str(f.param).filter(|v| !v.trim().is_empty()).map(|v| (f.param.to_string(), v.to_string()))
                })
                .collect()
        });
        totals.load(api::deposits::daily_totals(&auth.client(), &filters));
    });
    let shown = RwSignal::new(None::<String>);
    let t = &text().chart;

    let chart = move || {
        totals.with(|answer| match answer {
            None => view! { <p class="muted">{t.adding_up}</p> }.into_any(),
            Some(Err(e)) => view! { <p class="muted">{t.unavailable} {e.to_string()}</p> }.into_any(),
            Some(Ok(list)) if list.is_empty() => view! { <p class="muted">{t.none}</p> }.into_any(),
            Some(Ok(list)) => {
                let days = days(list);
                let max = days.iter().map(|d| d.total()).max().unwrap_or_default();
                let max = max.to_string().parse::<f64>().unwrap_or(1.0).max(0.01);
                let slot = WIDTH / days.len() as f64;
                let bar = (slot * 0.7).max(1.0);
                let plot = HEIGHT - TOP - BOTTOM;
                let every = (days.len() / 8).max(1);
                let bars = days
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let x = i as f64 * slot + (slot - bar) / 2.0;
                        let mut y = HEIGHT - BOTTOM;
                        let segments = d
                            .parts
                            .iter()
                            .map(|p| {
                                let v: f64 = p.amount.to_string().parse().unwrap_or(0.0);
                                let h = (v / max * plot).max(if v > 0.0 { 1.0 } else { 0.0 });
                                y -= h;
                                let rank = DepositStatus::ALL.iter().position(|s| *s == p.status).unwrap_or(0) + 1;
                                let class = format!("bar status-{rank}");
                                view! { <rect class=class x=x y=y width=bar height=h/> }
                            })
                            .collect_view();
                        let label = d.label();
                        let (over, focused) = (label.clone(), label.clone());
                        let tick = (i % every == 0).then(|| {
                            view! { <text class="tick" x=x + bar / 2.0 y=HEIGHT - 6.0 text-anchor="middle">{short(d.date)}</text> }
                        });
                        view! {
                            <g class="day" tabindex="0" role="img" aria-label=label data-day=d.date.to_string()
                                on:mouseenter=move |_| shown.set(Some(over.clone()))
                                on:focus=move |_| shown.set(Some(focused.clone()))>
                                // The whole slot answers the pointer, not only the bar.
                                <rect class="hit" x=i as f64 * slot y=TOP width=slot height=plot/>
                                {segments}
                                {tick}
                            </g>
                        }
                    })
                    .collect_view();
                let present: Vec<DepositStatus> =
                    DepositStatus::ALL.into_iter().filter(|s| list.iter().any(|t| t.status == *s)).collect();
                let legend = present
                    .into_iter()
                    .map(|s| {
                        let rank = DepositStatus::ALL.iter().position(|x| *x == s).unwrap_or(0) + 1;
                        let class = format!("swatch status-{rank}");
                        view! { <li><span class=class aria-hidden="true"></span>{say(s.label())}</li> }
                    })
                    .collect_view();
                let view_box = format!("0 0 {WIDTH} {HEIGHT}");
                view! {
                    <svg class="deposit-chart" viewBox=view_box role="group"
                        aria-label=t.label on:mouseleave=move |_| shown.set(None)>
                        {bars}
                    </svg>
                    <ul class="chart-legend">{legend}</ul>
                }
                .into_any()
            }
        })
    };

    view! {
        <section class="panel deposit-chart-panel" aria-labelledby="deposit-chart-title" data-testid="deposit-chart">
            <h2 id="deposit-chart-title">{t.heading}</h2>
            <p class="chart-readout" data-testid="deposit-chart-readout" aria-live="polite">
                {move || shown.get().unwrap_or_else(|| t.readout.into())}
            </p>
            {chart}
        </section>
    }
}
