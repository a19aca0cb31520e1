//! An endpoint's last 7 days as an SVG the page draws itself: per day a bar of the attempts
//! delivered and one of those failed (left scale), and the day's 95th percentile latency as a
//! line (right scale); each value in a `<title>` and in a table for screen readers.

use leptos::prelude::*;
use moneydesk_model::webhooks::WebhookDayStats;

use crate::i18n::fill;
use crate::i18n::webhooks::text;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 180.0;
/// Room for the scales (left, right) and the days' labels (bottom).
const LEFT: f64 = 40.0;
const RIGHT: f64 = 56.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

fn plot_height() -> f64 {
    HEIGHT - TOP - BOTTOM
}

/// The width of one day's slot for `days` days.
pub fn slot(days: usize) -> f64 {
    (WIDTH - LEFT - RIGHT) / days.max(1) as f64
}

/// The y of `value` on a scale whose top is `max` (0 at the bottom).
pub fn y(value: f64, max: f64) -> f64 {
    let max = if max > 0.0 { max } else { 1.0 };
    TOP + plot_height() * (1.0 - value / max)
}

/// The latency line's points: the middle of each day that has a p95, on the right scale.
pub fn latency_points(days: &[WebhookDayStats], max_ms: f64) -> String {
    let w = slot(days.len());
    days.iter()
        .enumerate()
        .filter_map(|(i, d)| {
            d.p95_ms.map(|ms| format!("{:.1},{:.1}", LEFT + w * (i as f64 + 0.5), y(ms as f64, max_ms)))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The top of the count scale: the largest bar (at least 1).
pub fn max_count(days: &[WebhookDayStats]) -> u64 {
    days.iter().map(|d| d.delivered.max(d.failed)).max().unwrap_or(0).max(1)
}

fn bar(class: &'static str, x: f64, w: f64, value: u64, max: f64, label: String) -> impl IntoView {
    let top = y(value as f64, max);
    view! { <rect class=class x=format!("{x:.1}") y=format!("{top:.1}") width=format!("{w:.1}") height=format!("{:.1}", TOP + plot_height() - top)><title>{label}</title></rect> }
}

#[component]
pub fn DeliveryChart(days: Vec<WebhookDayStats>) -> impl IntoView {
    let count = max_count(&days) as f64;
    let max_ms = days.iter().filter_map(|d| d.p95_ms).max().unwrap_or(0) as f64;
    let w = slot(days.len());
    let t = text();
    let bars = days
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let x = LEFT + w * i as f64 + w * 0.15;
            let bw = w * 0.35;
            let label = d.day.get(5..).unwrap_or(&d.day).to_string();
            view! {
                {bar("delivered", x, bw, d.delivered, count, fill(t.day_delivered, &[&d.day, &d.delivered.to_string()]))}
                {bar("failed", x + bw, bw, d.failed, count, fill(t.day_failed, &[&d.day, &d.failed.to_string()]))}
                <text class="day" x=format!("{:.1}", LEFT + w * (i as f64 + 0.5)) y=HEIGHT - 6.0 text-anchor="middle">{label}</text>
            }
        })
        .collect_view();
    let rows = days
        .iter()
        .map(|d| {
            let p95 = d.p95_ms.map(|ms| format!("{ms} ms")).unwrap_or_else(|| "—".into());
            view! { <tr><th scope="row">{d.day.clone()}</th><td class="num">{d.delivered}</td><td class="num">{d.failed}</td><td class="num">{p95}</td></tr> }
        })
        .collect_view();
    let has_latency = days.iter().any(|d| d.p95_ms.is_some());
    let view_box = format!("0 0 {WIDTH} {HEIGHT}");
    let top_ms = format!("{} ms", max_ms as u64);
    view! {
        <figure class="webhook-chart" data-testid="webhook-chart">
            <figcaption>{t.chart_caption}</figcaption>
            <svg viewBox=view_box role="img" aria-label=t.chart_label>
                <line class="axis" x1=LEFT x2=WIDTH - RIGHT y1=TOP + plot_height() y2=TOP + plot_height()/>
                <text class="scale" x=LEFT - 4.0 y=TOP + 8.0 text-anchor="end">{count as u64}</text>
                <text class="scale" x=LEFT - 4.0 y=TOP + plot_height() text-anchor="end">"0"</text>
                {has_latency.then(|| view! {
                    <text class="scale latency" x=WIDTH - RIGHT + 4.0 y=TOP + 8.0>{top_ms}</text>
                })}
                {bars}
                <polyline class="latency" points=latency_points(&days, max_ms)><title>{t.p95_title}</title></polyline>
            </svg>
            <ul class="chart-legend webhook-legend">
                <li class="delivered">{t.delivered}</li>
                <li class="failed">{t.failed}</li>
                <li class="latency">{t.p95}</li>
            </ul>
            <details>
                <summary>{t.the_values}</summary>
                <table class="data-table webhook-values">
                    <thead><tr><th scope="col">{t.day}</th><th scope="col" class="num">{t.delivered}</th><th scope="col" class="num">{t.failed}</th><th scope="col" class="num">{t.p95}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </details>
        </figure>
    }
}
