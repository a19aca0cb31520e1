//! The chart of fee against amount: one step line per fee type across the transfer type's
//! tiers, the amount axis on a log scale (fees change at $1,000 and at $1,000,000 alike), the
//! typed amount marked, and each tier edge readable on hover (its `<title>`) and by keyboard
//! (each edge is focusable; the readout under the chart says what changes there).
//!
//! The curve is computed with the model's own arithmetic (`FeeTier::fee_for`), so the chart
//! cannot disagree with a quote. Coordinates are `f64`: they place pixels, never money.

use leptos::prelude::*;
use moneydesk_model::fees::{describe_range, FeeAmount, FeeTier};
use moneydesk_model::Money;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;

use crate::i18n::fees::text;
use crate::i18n::fill;

const W: f64 = 640.0;
const H: f64 = 260.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 32.0;
/// Samples per tier (a percentage fee is a curve on a log axis).
const SAMPLES: usize = 24;

/// The axes' extent: amounts from $1 to a power of ten, fees from 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub max_amount: f64,
    pub max_fee: f64,
}

impl Scale {
    /// From $1 to ten times the largest tier edge (at least $1M), further when the typed
    /// amount is beyond; fees up to the largest one drawn, rounded up to a readable step.
    pub fn fit(tiers: &[&FeeTier], amount: Option<f64>) -> Scale {
        let edge = tiers.iter().filter_map(|t| t.to.map(|m| m.decimal().to_f64().unwrap_or(0.0))).fold(0.0, f64::max);
        let wanted = (edge * 10.0).max(1e6).max(amount.unwrap_or(0.0) * 1.5);
        let max_amount = 10f64.powf(wanted.log10().ceil());
        let mut s = Scale { max_amount, max_fee: 1.0 };
        let highest = tiers.iter().flat_map(|t| s.samples(t)).map(|(_, fee)| fee).fold(0.0, f64::max);
        s.max_fee = nice_ceiling(highest * 1.1);
        s
    }

    pub fn x(&self, amount: f64) -> f64 {
        let t = amount.max(1.0).log10() / self.max_amount.log10();
        LEFT + t.clamp(0.0, 1.0) * (W - LEFT - RIGHT)
    }

    pub fn y(&self, fee: f64) -> f64 {
        TOP + (1.0 - (fee / self.max_fee).clamp(0.0, 1.0)) * (H - TOP - BOTTOM)
    }

    /// (amount, fee) points across the part of the tier on the chart, log-spaced.
    fn samples(&self, tier: &FeeTier) -> Vec<(f64, f64)> {
        let lo = tier.from.decimal().to_f64().unwrap_or(0.0).max(1.0);
        let hi = tier.to.map_or(self.max_amount, |m| m.decimal().to_f64().unwrap_or(0.0) - 0.01).min(self.max_amount);
        if hi < lo {
            return Vec::new();
        }
        (0..=SAMPLES)
            .filter_map(|i| {
                let a = lo * (hi / lo).powf(i as f64 / SAMPLES as f64);
                fee_at(tier, a).map(|fee| (a, fee))
            })
            .collect()
    }

    /// The SVG `points` of one fee type's step line.
    pub fn line(&self, tiers: &[&FeeTier]) -> String {
        let mut points = String::new();
        for t in tiers {
            for (a, fee) in self.samples(t) {
                points.push_str(&format!("{:.1},{:.1} ", self.x(a), self.y(fee)));
            }
        }
        points.trim_end().to_string()
    }
}

/// The fee of `tier` at an amount given in dollars, through the model (rounded to cents).
pub fn fee_at(tier: &FeeTier, amount: f64) -> Option<f64> {
    let cents = Decimal::from_f64_retain((amount * 100.0).round())? / Decimal::ONE_HUNDRED;
    let amount = FeeAmount::parse(&cents.normalize().to_string()).ok()?;
    tier.fee_for(amount).decimal().to_f64()
}

/// 1, 2, 2.5 or 5 times a power of ten, at or above `v`.
pub fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().map(|m| m * p).find(|c| *c >= v - 1e-9).unwrap_or(10.0 * p)
}

/// `$1`, `$10`, … `$1k`, `$1M`, `$1B`.
fn amount_label(v: f64) -> String {
    match v {
        v if v >= 1e9 => format!("${}B", v / 1e9),
        v if v >= 1e6 => format!("${}M", v / 1e6),
        v if v >= 1e3 => format!("${}k", v / 1e3),
        v => format!("${v}"),
    }
}

/// One fee type's tiers, in amount order.
pub struct Series<'a> {
    pub fee_type: String,
    pub tiers: Vec<&'a FeeTier>,
}

/// A tier edge: where amounts of `at` and up are priced by the tiers in `tiers`.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub at: Money,
    pub text: String,
}

/// The edges of the series (every `from` above zero), each described for the readout.
pub fn edges(series: &[Series]) -> Vec<Edge> {
    let mut at: Vec<Money> =
        series.iter().flat_map(|s| s.tiers.iter().map(|t| t.from)).filter(|m| !m.decimal().is_zero()).collect();
    at.sort();
    at.dedup();
    at.into_iter()
        .map(|edge| {
            let parts: Vec<String> = series
                .iter()
                .filter_map(|s| s.tiers.iter().find(|t| t.from == edge))
                .map(|t| format!("{} {}: {}", t.fee_type, describe_range(t.from, t.to), t.formula()))
                .collect();
            Edge {
                at: edge,
                text: fill(text().edge_from, &[&super::amount::dollars(&edge.to_string()), &parts.join("; ")]),
            }
        })
        .collect()
}

#[component]
pub fn FeeChart(
    /// One entry per fee type, tiers in amount order (owned: the chart keeps them).
    series: Vec<(String, Vec<FeeTier>)>,
    /// The typed amount, when there is one.
    #[prop(into)]
    amount: Signal<Option<String>>,
) -> impl IntoView {
    let borrowed: Vec<Series> =
        series.iter().map(|(f, t)| Series { fee_type: f.clone(), tiers: t.iter().collect() }).collect();
    let all: Vec<&FeeTier> = borrowed.iter().flat_map(|s| s.tiers.iter().copied()).collect();
    let amount_f = move || amount.get().and_then(|a| a.parse::<f64>().ok());
    let scale = Scale::fit(&all, untrack(amount_f));
    let lines = borrowed
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let class = format!("fee-line series-{i}");
            view! { <polyline class=class points=scale.line(&s.tiers) data-fee-type=s.fee_type.clone()/> }
        })
        .collect_view();
    let edge_list = edges(&borrowed);
    let readout = RwSignal::new(String::new());
    let edge_marks = edge_list
        .into_iter()
        .map(|e| {
            let x = scale.x(e.at.decimal().to_f64().unwrap_or(0.0));
            let text = e.text.clone();
            let show = move || readout.set(text.clone());
            let show2 = show.clone();
            view! {
                <g class="tier-edge" tabindex="0" role="img" aria-label=e.text.clone()
                    on:focus=move |_| show() on:mouseenter=move |_| show2()>
                    <title>{e.text.clone()}</title>
                    <line x1=x x2=x y1=TOP y2=H - BOTTOM/>
                    // A wider invisible target than the 1px line, for the mouse.
                    <rect x=x - 4.0 y=TOP width="8" height=H - TOP - BOTTOM/>
                </g>
            }
        })
        .collect_view();
    let x_ticks = (0..=scale.max_amount.log10() as i32)
        .map(|k| {
            let v = 10f64.powi(k);
            let x = scale.x(v);
            view! { <text class="tick" x=x y=H - 10.0 text-anchor="middle">{amount_label(v)}</text> }
        })
        .collect_view();
    let y_ticks = (0..=4)
        .map(|k| {
            let fee = scale.max_fee * k as f64 / 4.0;
            let y = scale.y(fee);
            view! {
                <line class="grid" x1=LEFT x2=W - RIGHT y1=y y2=y/>
                <text class="tick" x=LEFT - 6.0 y=y + 4.0 text-anchor="end">{format!("${fee:.2}")}</text>
            }
        })
        .collect_view();
    let dots_series: Vec<(usize, Vec<FeeTier>)> = series.iter().map(|(_, t)| t.clone()).enumerate().collect();
    let marker = move || {
        let a = amount_f()?;
        let x = scale.x(a);
        let dots = dots_series
            .iter()
            .filter_map(|(i, tiers)| {
                let t = tiers.iter().find(|t| t.contains(Decimal::from_f64_retain(a).unwrap_or_default()))?;
                let fee = fee_at(t, a)?;
                let class = format!("fee-dot series-{i}");
                Some(view! { <circle class=class cx=x cy=scale.y(fee) r="4"/> })
            })
            .collect_view();
        Some(view! {
            <g class="amount-marker" data-testid="fee-chart-marker" data-x=format!("{x:.1}")>
                <line x1=x x2=x y1=TOP y2=H - BOTTOM/>
                {dots}
            </g>
        })
    };
    let legend = series
        .iter()
        .enumerate()
        .map(|(i, (f, _))| {
            let class = format!("swatch series-{i}");
            view! { <li><span class=class aria-hidden="true"></span>{f.clone()}</li> }
        })
        .collect_view();
    let view_box = format!("0 0 {W} {H}");
    view! {
        <figure class="fee-chart" data-testid="fee-chart">
            <svg viewBox=view_box role="group" aria-labelledby="fee-chart-caption">
                {y_ticks}
                {x_ticks}
                {lines}
                {edge_marks}
                {marker}
            </svg>
            <figcaption id="fee-chart-caption">
                {text().chart_caption}
                <ul class="legend">{legend}</ul>
                <p class="edge-readout" data-testid="fee-chart-readout" aria-live="polite">{move || readout.get()}</p>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::fees::{FeeSchedule, TransferType};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn schedule() -> FeeSchedule {
        let file: moneydesk_model::fees::ScheduleFile = serde_json::from_str(
            r#"{"effective_from":"2026-01-01","fees":[
            {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","to":"1000","flat":"0.25"},
            {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"1000","flat":"0.25","percent":"0.10","fee_max":"25"},
            {"rail":"ach","transfer_type":"SAME_DAY_ACH","fee_type":"standard","from":"0","flat":"1"},
            {"rail":"wire","transfer_type":"DOMESTIC_WIRE","fee_type":"standard","from":"0","flat":"15"},
            {"rail":"wire","transfer_type":"INTERNATIONAL_WIRE","fee_type":"standard","from":"0","flat":"45"}]}"#,
        )
        .unwrap();
        FeeSchedule::from_file(&file).unwrap()
    }

    #[wasm_bindgen_test]
    fn the_scale_spans_the_tiers_and_the_typed_amount_on_a_log_axis() {
        let s = schedule();
        let tiers: Vec<&FeeTier> = s.tiers_for(TransferType::Eft).collect();
        let scale = Scale::fit(&tiers, None);
        assert_eq!(scale.max_amount, 1e6);
        assert_eq!(scale.max_fee, 50.0, "the 25.00 cap and 10 % headroom, rounded up");
        assert!((scale.x(1.0) - LEFT).abs() < 1e-9 && (scale.x(1e6) - (W - RIGHT)).abs() < 1e-9);
        assert!((scale.x(1e3) - (LEFT + (W - LEFT - RIGHT) / 2.0)).abs() < 1e-9, "1,000 halfway on a log axis");
        assert_eq!(Scale::fit(&tiers, Some(5e7)).max_amount, 1e8);
        assert_eq!(fee_at(tiers[1], 5000.0), Some(5.25));
        assert_eq!(nice_ceiling(27.5), 50.0);
        assert_eq!(nice_ceiling(1.1), 2.0);
    }

    #[wasm_bindgen_test]
    fn each_tier_edge_says_what_changes_there() {
        let s = schedule();
        let series = [Series { fee_type: "standard".into(), tiers: s.tiers_for(TransferType::Eft).collect() }];
        let e = edges(&series);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].text, "From $1,000.00: standard 1,000.00 and above: 0.25 + 0.10 %, max 25.00");
    }
}
