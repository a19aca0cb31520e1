//! Issue 10's second figure, side by side with its peer (tests/perf/peer.rs): the accounts list
//! loaded at its default 10 rows, then the page size set to 500, timed from the choice to the
//! next frame painted with the 500-row page (the fetch included), both apps in the same
//! browser, taking turns run by run.
//!
//! - Moneydesk: its page-size `<select>` changed in the page (a `change` event, as a pick from
//!   the list fires); the end is the table's own `moneydesk-table:accounts:frame:500` measure
//!   (src/components/data_table/mod.rs: a task queued by the next animation frame after the
//!   rows are in the DOM, i.e. after that frame's paint). Its rows are windowed: those near
//!   the viewport are in the DOM.
//! - Peer: MUI's rows-per-page menu opened by a WebDriver click (not timed), then a click on
//!   its "500" item; the end is the same construction from outside: once 500 rows are in its
//!   `<tbody>` (a MutationObserver), a task queued by the next animation frame. react-admin
//!   renders every row.
//!
//! Each also reports when the 500-row response had arrived (its resource timing's
//! `responseEnd`, ms after the choice): the rest is the app's rendering.

use moneydesk_e2e::Browser;
use serde_json::Value;

use crate::peer;

/// Moneydesk: [ms to the next frame painted, ms to the response's end] after the choice.
const MONEYDESK: &str = "const done = arguments[arguments.length - 1];
    const select = document.querySelector('select[data-action=size]');
    const t0 = performance.now();
    select.value = '500';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const check = () => {
        const m = performance.getEntriesByName('moneydesk-table:accounts:frame:500', 'measure')
            .find(e => e.startTime >= t0);
        if (!m) return setTimeout(check, 5);
        const r = performance.getEntriesByType('resource')
            .filter(e => e.startTime >= t0 && e.name.includes('/accounts')).pop();
        done([m.startTime + m.duration - t0, r ? r.responseEnd - t0 : null]);
    };
    check();";

/// The peer: the same two times, the menu already open.
const PEER: &str = "const done = arguments[arguments.length - 1];
    const item = document.querySelector('li[role=option][data-value=\"500\"]');
    const rows = () => document.querySelectorAll('.RaDatagrid-tbody tr.RaDatagrid-row').length;
    const finish = () => requestAnimationFrame(() => setTimeout(() => {
        const t1 = performance.now();
        const r = performance.getEntriesByType('resource')
            .filter(e => e.startTime >= t0 && e.name.includes('/api/accounts')).pop();
        done([t1 - t0, r ? r.responseEnd - t0 : null]);
    }));
    new MutationObserver((_, o) => { if (rows() >= 500) { o.disconnect(); finish(); } })
        .observe(document.body, { childList: true, subtree: true });
    const t0 = performance.now();
    item.click();";

#[derive(Default)]
pub struct Turns {
    pub frame: Vec<f64>,
    pub data: Vec<f64>,
}

impl Turns {
    fn push(&mut self, v: Value) {
        self.frame.push(v[0].as_f64().unwrap_or(f64::NAN));
        self.data.push(v[1].as_f64().unwrap_or(f64::NAN));
    }
}

/// Moneydesk's /accounts (the browser signed in), then the size set to 500.
async fn moneydesk(b: &Browser, origin: &str) -> Value {
    b.open(&format!("{origin}/accounts")).await;
    b.wait_for("tbody tr[data-id]").await;
    b.wait_for("select[data-action=size]").await;
    b.js_async(MONEYDESK, vec![]).await
}

/// The peer's list from a clean store (react-admin keeps the last page size in localStorage),
/// then the size set to 500.
async fn peer(b: &Browser, origin: &str) -> Value {
    b.open(&format!("{origin}/ping")).await;
    b.js("localStorage.clear()", vec![]).await;
    b.open(&format!("{origin}{}", peer::PATH)).await;
    b.wait_for(peer::ROW).await;
    b.click(".MuiTablePagination-root [role=combobox]").await;
    b.wait_for("li[role=option][data-value=\"500\"]").await;
    b.js_async(PEER, vec![]).await
}

/// `runs` turns of each, alternating which goes first.
pub async fn compare(b: &Browser, origin: &str, peer_origin: &str, runs: usize) -> (Turns, Turns) {
    let (mut m, mut p) = (Turns::default(), Turns::default());
    for run in 0..runs {
        if run % 2 == 0 {
            m.push(moneydesk(b, origin).await);
            p.push(peer(b, peer_origin).await);
        } else {
            p.push(peer(b, peer_origin).await);
            m.push(moneydesk(b, origin).await);
        }
    }
    (m, p)
}

pub fn median(xs: &[f64]) -> f64 {
    let mut xs: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

pub fn print(m: &Turns, p: &Turns) {
    println!("bench-table: page size 10 -> 500, median ms from the choice ({} turns each):", m.frame.len());
    println!("    {:<22} {:>14} {:>16} {:>16}", "", "frame painted", "response ended", "render after it");
    let after = |t: &Turns| median(&t.frame.iter().zip(&t.data).map(|(f, d)| f - d).collect::<Vec<_>>());
    for (label, t) in [("Moneydesk", m), ("react-admin peer", p)] {
        println!("    {:<22} {:>14.0} {:>16.0} {:>16.0}", label, median(&t.frame), median(&t.data), after(t));
    }
    println!(
        "    {:<22} {:>14.2} {:>16.2} {:>16.2}",
        "Moneydesk / peer",
        median(&m.frame) / median(&p.frame),
        median(&m.data) / median(&p.data),
        after(m) / after(p)
    );
    let list = |xs: &[f64]| xs.iter().map(|x| format!("{x:.0}")).collect::<Vec<_>>().join(" ");
    println!("    Moneydesk frames:  {}", list(&m.frame));
    println!("    peer frames:       {}", list(&p.frame));
}
