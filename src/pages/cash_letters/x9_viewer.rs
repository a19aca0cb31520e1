//! The X9 viewer: any image cash letter file — one the server made, or one a bank sent and the
//! operator opens — read and checked in the browser by the same crate that writes ours
//! (`moneydesk_x9`): its cash letters, bundles and items with their MICR fields, every problem
//! at its record, and each check's sides (G4, decoded by `moneydesk_checkimage::g4`) on demand.

use leptos::prelude::*;
use moneydesk_x9::{Problem, Severity};
use wasm_bindgen::{Clamped, JsCast};

use crate::format::{format_money, group};
use crate::i18n::{cash_letters::text, fill, locale};

/// Items listed at most (a file may hold thousands; the problems are all listed).
const LISTED: usize = 200;

/// One check of the file as the viewer shows it.
#[derive(Clone)]
struct Row {
    record: u64,
    routing: String,
    on_us: String,
    aux_on_us: String,
    cents: u64,
    sequence: String,
    images: Vec<(bool, Vec<u8>)>,
}

/// What a file says, read once.
#[derive(Clone)]
struct Read {
    name: String,
    summary: String,
    problems: Vec<Problem>,
    rows: Vec<Row>,
    more: usize,
}

/// `$1234.50` in en-US (as the file's amounts have always read here); the locale's money else.
fn dollars(cents: u64) -> String {
    let plain = format!("{}.{:02}", cents / 100, cents % 100);
    if locale::writes_itself() {
        return format!("${plain}");
    }
    format_money(&plain).unwrap_or(plain)
}

fn read(name: String, bytes: &[u8]) -> Read {
    let (file, problems) = moneydesk_x9::read_file(bytes);
    let items: Vec<_> = file.items().collect();
    let total: u64 = items.iter().map(|i| i.detail.item_amount).sum();
    let letters = file.cash_letters.len();
    let bundles: usize = file.cash_letters.iter().map(|c| c.bundles.len()).sum();
    let (from, to, made) = file.header.as_ref().map_or(Default::default(), |h| {
        (
            h.immediate_origin_routing_number.clone(),
            h.immediate_destination_routing_number.clone(),
            h.file_creation_date.clone(),
        )
    });
    let (t, v) = (text(), &text().viewer);
    let word = |n: usize, one, many| if n == 1 { one } else { many };
    let summary = fill(
        v.summary,
        &[
            &group(letters as u64),
            word(letters, v.letter, v.letters),
            &group(bundles as u64),
            word(bundles, t.bundle, t.bundles),
            &group(items.len() as u64),
            word(items.len(), t.check, t.checks),
            &dollars(total),
            &from,
            &to,
            &made,
        ],
    );
    let rows = items
        .iter()
        .take(LISTED)
        .map(|i| Row {
            record: i.record.0,
            routing: i.detail.payor_bank_routing(),
            on_us: i.detail.on_us.clone(),
            aux_on_us: i.detail.auxiliary_on_us.clone(),
            cents: i.detail.item_amount,
            sequence: i.detail.ece_institution_item_sequence_number.clone(),
            images: i.images.iter().filter_map(|im| im.bytes().map(|b| (im.is_back(), b.to_vec()))).collect(),
        })
        .collect();
    Read { name, summary, problems, rows, more: items.len().saturating_sub(LISTED) }
}

/// A G4 TIFF as a PNG data URL, or why not.
fn picture(tiff: &[u8]) -> Result<String, String> {
    let image =
        moneydesk_checkimage::g4::decode_tiff(tiff).map_err(|e| fill(text().viewer.image_error, &[&e.to_string()]))?;
    let (w, h) = (image.width, image.height);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for &black in image.row(y) {
            let v = if black { 0 } else { 255 };
            rgba.extend_from_slice(&[v, v, v, 255]);
        }
    }
    let canvas: web_sys::HtmlCanvasElement =
        document().create_element("canvas").map_err(|_| "no canvas")?.unchecked_into();
    canvas.set_width(w);
    canvas.set_height(h);
    let context: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").ok().flatten().ok_or("no 2D canvas")?.unchecked_into();
    let data =
        web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h).map_err(|_| "no image data")?;
    context.put_image_data(&data, 0.0, 0.0).map_err(|_| "the canvas refused the picture")?;
    canvas.to_data_url().map_err(|_| "the canvas refused the picture".to_string())
}

/// The viewer; `opened` is set to a file's name and bytes (from the file input, or a cash
/// letter the list downloaded).
#[component]
pub fn X9Viewer(opened: RwSignal<Option<(String, Vec<u8>)>>) -> impl IntoView {
    let shown = move || opened.with(|o| o.as_ref().map(|(name, bytes)| read(name.clone(), bytes)));
    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let name = file.name();
        leptos::task::spawn_local(async move {
            if let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                opened.try_set(Some((name, js_sys::Uint8Array::new(&buffer).to_vec())));
            }
        });
    };
    let v = &text().viewer;
    view! {
        <div class="x9-viewer">
            <div class="field">
                <label for="x9-file">{v.open}</label>
                <input id="x9-file" type="file" accept=".x937,.x9,.icl,.dat,application/octet-stream" on:change=on_file
                    aria-describedby="x9-file-hint"/>
                <p class="hint" id="x9-file-hint">{v.open_hint}</p>
            </div>
            {move || shown().map(|r| view! { <Report read=r/> })}
        </div>
    }
}

#[component]
fn Report(read: Read) -> impl IntoView {
    let errors = read.problems.iter().filter(|p| p.severity == Severity::Error).count();
    let v = &text().viewer;
    let c = v.columns;
    let verdict = if errors == 0 { v.no_problems.to_string() } else { fill(v.problems, &[&group(errors as u64)]) };
    view! {
        <section class="x9-report" id="x9-report" aria-label=fill(v.report_label, &[&read.name])>
            <h3>{read.name.clone()}</h3>
            <p>{read.summary.clone()}" "{verdict}</p>
            {(!read.problems.is_empty()).then(|| view! {
                <ul class="x9-problems">
                    {read.problems.iter().map(|p| view! {
                        <li class:note=p.severity != Severity::Error>{p.to_string()}</li>
                    }).collect_view()}
                </ul>
            })}
            <div class="table-scroll" tabindex="0" role="region" aria-label=v.items_label>
                <table class="data-table" id="x9-items">
                    <caption class="sr-only">{v.items_label}</caption>
                    <thead><tr>
                        <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                        <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th><th scope="col">{c[5]}</th>
                        <th scope="col">{c[6]}</th>
                    </tr></thead>
                    <tbody>{read.rows.into_iter().map(|row| view! { <ItemRow row/> }).collect_view()}</tbody>
                </table>
            </div>
            {(read.more > 0).then(|| view! { <p class="muted">{fill(v.more, &[&group(read.more as u64)])}</p> })}
        </section>
    }
}

#[component]
fn ItemRow(row: Row) -> impl IntoView {
    let pictures = RwSignal::new(None::<Vec<(bool, Result<String, String>)>>);
    let images = StoredValue::new(row.images.clone());
    let count = row.images.len();
    let v = &text().viewer;
    let show = move |_| {
        if pictures.with_untracked(Option::is_none) {
            pictures
                .set(Some(images.with_value(|all| all.iter().map(|(back, tiff)| (*back, picture(tiff))).collect())));
        }
    };
    view! {
        <tr>
            <td class="mono">{row.record}</td>
            <td class="mono">{row.routing}</td>
            <td class="mono">{row.on_us}</td>
            <td class="mono">{row.aux_on_us}</td>
            <td class="num">{dollars(row.cents)}</td>
            <td class="mono">{row.sequence}</td>
            <td>
                {move || match pictures.get() {
                    None if count > 0 => view! {
                        <button type="button" class="button x9-show" on:click=show>{fill(v.show, &[&count.to_string()])}</button>
                    }.into_any(),
                    None => view! { <span class="muted">{v.no_images}</span> }.into_any(),
                    Some(list) => list.into_iter().map(|(back, p)| {
                        // `data-side` is the API's word; the alt text the language's.
                        let (side, said) = if back { ("back", v.back) } else { ("front", v.front) };
                        match p {
                            Ok(src) => view! { <img class="x9-image" src=src alt=fill(v.side_alt, &[said]) data-side=side/> }.into_any(),
                            Err(e) => view! { <span class="field-error">{e}</span> }.into_any(),
                        }
                    }).collect_view().into_any(),
                }}
            </td>
        </tr>
    }
}
