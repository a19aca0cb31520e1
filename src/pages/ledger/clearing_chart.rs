//! The clearing accounts' closing balances over the report's 30 days: an SVG the page draws
//! itself, a line per account, each day's values in its `<title>` and in a table for screen
//! readers. Heights come from the amounts as floats; the amounts written are the exact
//! decimals.

use leptos::prelude::*;
use moneydesk_model::ledger::ClearingDay;
use moneydesk_model::Money;

use crate::format::format_amount;
use crate::i18n::fill;
use crate::i18n::ledger::text;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 140.0;
const PAD: f64 = 8.0;

/// The three series: a class for its colour, its label's place in the catalogue's `series`,
/// and how to read it from a day.
const SERIES: [(&str, usize, fn(&ClearingDay) -> &Money); 3] =
    [("x9", 0, |d| &d.clearing_x9), ("ach", 1, |d| &d.clearing_ach), ("iip", 2, |d| &d.items_in_process)];

fn value(m: &Money) -> f64 {
    m.to_string().parse().unwrap_or(0.0)
}

/// The polyline's points for `values`, scaled so `low..=high` fills the height.
pub fn points(values: &[f64], low: f64, high: f64) -> String {
    let span = if high > low { high - low } else { 1.0 };
    let step = if values.len() > 1 { (WIDTH - 2.0 * PAD) / (values.len() - 1) as f64 } else { 0.0 };
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let y = HEIGHT - PAD - (v - low) / span * (HEIGHT - 2.0 * PAD);
            format!("{:.1},{:.1}", PAD + i as f64 * step, y)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[component]
pub fn ClearingChart(days: Vec<ClearingDay>) -> impl IntoView {
    if days.is_empty() {
        return None;
    }
    let all: Vec<f64> = days.iter().flat_map(|d| SERIES.map(|(_, _, get)| value(get(d)))).collect();
    let low = all.iter().copied().fold(0.0, f64::min);
    let high = all.iter().copied().fold(0.0, f64::max);
    let t = text();
    let lines = SERIES
        .map(|(class, label, get)| {
            let label = t.series[label];
            let values: Vec<f64> = days.iter().map(|d| value(get(d))).collect();
            let class = format!("series {class}");
            view! { <polyline class=class points=points(&values, low, high)><title>{label}</title></polyline> }
        })
        .to_vec();
    let rows = days
        .iter()
        .map(|d| {
            let cells = SERIES.map(|(_, _, get)| view! { <td class="num">{format_amount(get(d))}</td> }).to_vec();
            view! { <tr><th scope="row">{d.date.clone()}</th>{cells}</tr> }
        })
        .collect_view();
    let (first, last) = (days[0].date.clone(), days[days.len() - 1].date.clone());
    let view_box = format!("0 0 {WIDTH} {HEIGHT}");
    Some(view! {
        <figure class="clearing-chart" data-testid="clearing-chart">
            <figcaption>{fill(t.chart_caption, &[&first, &last])}</figcaption>
            <svg viewBox=view_box role="img" aria-label=t.chart_label>
                <line class="zero" x1=PAD x2=WIDTH - PAD y1=HEIGHT - PAD - (0.0 - low) / (high - low).max(1.0) * (HEIGHT - 2.0 * PAD)
                    y2=HEIGHT - PAD - (0.0 - low) / (high - low).max(1.0) * (HEIGHT - 2.0 * PAD)/>
                {lines}
            </svg>
            <ul class="chart-legend">{SERIES.map(|(class, label, _)| view! { <li class=class>{t.series[label]}</li> }).to_vec()}</ul>
            <details>
                <summary>{t.the_values}</summary>
                <table class="data-table ledger-table">
                    <thead><tr><th scope="col">{t.day}</th>{SERIES.map(|(_, l, _)| view! { <th scope="col" class="num">{t.series[l]}</th> }).to_vec()}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </details>
        </figure>
    })
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn points_span_the_width_and_the_height() {
        assert_eq!(points(&[0.0, 10.0], 0.0, 10.0), "8.0,132.0 712.0,8.0");
        assert_eq!(points(&[5.0], 5.0, 5.0), "8.0,132.0", "one flat day sits at the bottom");
    }
}
