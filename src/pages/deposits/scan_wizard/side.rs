//! One side of the check: taken with the camera or chosen as a file, then given to the
//! scanning worker, which finds the check, straightens it, measures its quality and (the front)
//! reads its MICR line. The corners it found are shown on the picture and can be moved; the
//! straightened side, its quality findings and what was read are shown under it. The side's
//! state and its moves are capture.rs.

use std::rc::Rc;

use leptos::prelude::*;
use moneydesk_model::deposits::SideRead;

use super::camera::{Camera, Captured};
use super::capture::{title, Capture, Source};
use super::corners::CornersEditor;
use super::side_word;
use crate::api::scan_worker::ScanWorker;
use crate::i18n::{deposits::text, fill};

/// A side ready to send: the straightened JPEG and what the worker found in it.
#[derive(Clone)]
pub struct SideDone {
    pub jpeg: Vec<u8>,
    pub read: SideRead,
}

#[component]
pub fn SideCapture(
    worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
    /// "front" or "back".
    side: &'static str,
    /// Whether the MICR line is read (the front).
    micr: bool,
    done: RwSignal<Option<SideDone>>,
) -> impl IntoView {
    let c = Capture::new(worker, micr, done);
    on_cleanup(move || c.clear());
    // The side's, not the camera's part's: the camera may answer after that part is gone.
    let on_capture = Callback::new(move |(bytes, read): Captured| c.take(bytes, "image/jpeg".into(), read));
    let on_unavailable = Callback::new(move |why: String| c.unavailable(why));
    view! {
        <section class="scan-side" aria-labelledby=format!("scan-{side}-title")>
            <h3 id=format!("scan-{side}-title")>{title(side)}</h3>
            <Show when=move || c.shown.with(Option::is_none) && !c.kept.get()>
                <Take c side on_capture on_unavailable/>
            </Show>
            {move || c.editable().map(|(src, (width, height))| view! {
                <CornersEditor src width height corners=c.corners side on_change=Callback::new(move |x| c.read(Some(x)))/>
            })}
            {move || (c.shown.with(Option::is_some) || c.kept.get()).then(|| view! {
                <button type="button" class="button" id=format!("scan-{side}-retake") on:click=move |_| c.retake()>{text().wizard.retake}</button>
            })}
            {move || c.working.get().then(|| view! { <p class="muted" role="status">{text().wizard.working}</p> })}
            {move || c.problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || done.get().map(|d| view! { <SideFound done=d src=c.straightened.get() side/> })}
        </section>
    }
}

/// Taking the picture: the camera (unless it cannot be used, said why), or a file.
#[component]
fn Take(
    c: Capture,
    side: &'static str,
    on_capture: Callback<Captured>,
    on_unavailable: Callback<String>,
) -> impl IntoView {
    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        if file.size() > super::super::form::MAX_IMAGE_BYTES {
            c.problem.set(Some(fill(text().form.too_large, &[&file.name()])));
            return;
        }
        let kind = file.type_();
        leptos::task::spawn_local(async move {
            if let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                c.take(js_sys::Uint8Array::new(&buffer).to_vec(), kind, None);
            }
        });
    };
    let file_id = format!("scan-{side}-file");
    let w = &text().wizard;
    view! {
        {move || c.no_camera.get().map(|why| view! {
            <p class="notice" role="status">{why}{w.choose_instead}</p>
        })}
        <Show when=move || c.source.get() == Source::Camera>
            <Camera worker=c.worker side micr=c.micr on_capture on_unavailable/>
        </Show>
        <div class="field">
            <label for=file_id.clone()>{w.choose}</label>
            <input id=file_id type="file" accept="image/jpeg,image/png,image/tiff" on:change=on_file/>
        </div>
    }
}

/// The straightened side and what was found in it.
#[component]
fn SideFound(done: SideDone, src: Option<String>, side: &'static str) -> impl IntoView {
    let r = done.read;
    let findings = r.findings.clone();
    let w = &text().wizard;
    let size = fill(
        w.size,
        &[&r.straightened_width.to_string(), &r.straightened_height.to_string(), &format!("{:.0}", r.millis.total)],
    );
    view! {
        <div class="side-found" id=format!("scan-{side}-found")>
            {src.map(|s| view! {
                <img class="straightened" src=s alt=fill(w.straightened, &[side_word(side)])/>
            })}
            <p class="muted">{size}</p>
            {(!findings.is_empty()).then(|| view! {
                <ul class="scan-findings">
                    {findings.into_iter().map(|f| view! { <li class:blocking=f.blocking>{f.advice}</li> }).collect_view()}
                </ul>
            })}
        </div>
    }
}
