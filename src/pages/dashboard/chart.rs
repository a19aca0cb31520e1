//! Today's deposits as a small stacked bar chart: a bar per rail (service type), its length
//! the rail's amount against the largest rail's, cut into the states its deposits are in (one
//! colour per state, in the state machine's order: `day-st-1` to confirm … `day-st-7`
//! cancelled, style/dashboard.css). A picture for the eye; the legend beside it says the same
//! in words, with the links.

use leptos::prelude::*;
use moneydesk_model::deposits::DepositStatus;
use moneydesk_model::overview::RailFigure;

use crate::format::format_amount;
use crate::i18n::dashboard::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;

/// Where bars start (after the rail's name) and the drawing's width, in the viewBox's units.
const LABEL: f64 = 130.0;
const WIDTH: f64 = 420.0;
const ROW: f64 = 26.0;
const BAR: f64 = 16.0;

fn cents(m: Option<&moneydesk_model::Money>) -> f64 {
    m.and_then(|m| m.to_string().parse::<f64>().ok()).unwrap_or(0.0).max(0.0)
}

/// The state's colour class: its place in the state machine, from 1.
pub fn state_class(s: DepositStatus) -> String {
    let at = DepositStatus::ALL.iter().position(|x| *x == s).unwrap_or(0) + 1;
    format!("day-st-{at}")
}

#[component]
pub fn RailChart(rails: Vec<RailFigure>) -> impl IntoView {
    let largest = rails.iter().map(|r| cents(r.figure.amount.as_ref())).fold(0.0, f64::max);
    let scale = if largest > 0.0 { (WIDTH - LABEL) / largest } else { 0.0 };
    let height = ROW * rails.len() as f64;
    let described: Vec<String> = rails
        .iter()
        .map(|r| {
            let amount = r.figure.amount.as_ref().map(format_amount).unwrap_or_default();
            fill(text().rail_figure, &[say(r.service_type.label()), &r.figure.count.to_string(), &amount])
        })
        .collect();
    let label = fill(text().chart_label, &[&described.join("; ")]);
    let bars = rails
        .into_iter()
        .enumerate()
        .map(|(i, rail)| {
            let y = ROW * i as f64;
            let mut x = LABEL;
            let parts = rail
                .by_status
                .iter()
                .map(|s| {
                    let w = cents(s.figure.amount.as_ref()) * scale;
                    let at = x;
                    x += w;
                    view! {
                        <rect class=state_class(s.status) x=format!("{at:.1}") y=format!("{:.1}", y + (ROW - BAR) / 2.0)
                            width=format!("{:.1}", w.max(1.0)) height=BAR></rect>
                    }
                })
                .collect_view();
            view! {
                <g>
                    <text class="day-chart-label" x="0" y=format!("{:.1}", y + ROW / 2.0 + 4.0)>{say(rail.service_type.label())}</text>
                    {parts}
                </g>
            }
        })
        .collect_view();
    let view_box = format!("0 0 {WIDTH} {height}");
    view! {
        <svg class="day-chart" data-testid="rail-chart" viewBox=view_box role="img"
            aria-label=label preserveAspectRatio="xMinYMin meet">
            {bars}
        </svg>
    }
}
