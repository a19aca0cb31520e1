//! One side of the check: taken with the camera or chosen as a file, then given to the
//! scanning worker, which finds the check, straightens it, measures its quality and (the front)
//! reads its MICR line. The corners it found are shown on the picture and can be moved; the
//! straightened side, its quality findings and what was read are shown under it.

use std::rc::Rc;

use leptos::prelude::*;
use moneydesk_model::deposits::{Corners, SideRead};

use super::camera::Camera;
use super::corners::{whole, CornersEditor};
use crate::api::scan_worker::ScanWorker;

/// A side ready to send: the straightened JPEG and what the worker found in it.
#[derive(Clone)]
pub struct SideDone {
    pub jpeg: Vec<u8>,
    pub read: SideRead,
}

/// How the picture is being taken.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    Choose,
    Camera,
}

/// `at` shows an object URL for `bytes` (`None`: nothing); the URL it showed is revoked.
fn show(at: RwSignal<Option<String>>, bytes: Option<(&[u8], &str)>) {
    if let Some(Some(old)) = at.try_get_untracked() {
        let _ = web_sys::Url::revoke_object_url(&old);
    }
    at.try_set(bytes.and_then(|(b, kind)| object_url(b, kind)));
}

fn object_url(bytes: &[u8], kind: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

fn camera_possible() -> bool {
    window().navigator().media_devices().is_ok()
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
    let source = RwSignal::new(if camera_possible() { Source::Camera } else { Source::Choose });
    let no_camera = RwSignal::new(None::<String>);
    let picture = StoredValue::new(None::<Vec<u8>>);
    // The picture shown under the corners, its pixels (as the worker decoded it), the corners.
    let shown = RwSignal::new(None::<String>);
    let pixels = RwSignal::new(None::<(u32, u32)>);
    let corners = RwSignal::new([[0.0f32; 2]; 4]);
    let straightened = RwSignal::new(None::<String>);
    let working = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    // Back to a side already taken: its straightened copy, and "Take it again".
    let kept = RwSignal::new(done.with_untracked(Option::is_some));
    done.with_untracked(|d| d.as_ref().map(|d| show(straightened, Some((&d.jpeg, "image/jpeg")))));
    on_cleanup(move || {
        show(shown, None);
        show(straightened, None);
    });
    // A newer request (a corner moved again) makes an older answer stale.
    let seq = StoredValue::new(0u32);

    let read = move |adjusted: Option<Corners>| {
        let (Some(Some(w)), Some(Some(bytes))) = (worker.try_get_value(), picture.try_get_value()) else { return };
        let n = seq.with_value(|s| s + 1);
        seq.set_value(n);
        working.set(true);
        problem.set(None);
        leptos::task::spawn_local(async move {
            let answer = w.side(&bytes, micr, adjusted).await;
            if seq.try_get_value() != Some(n) {
                return;
            }
            working.set(false);
            match answer {
                Ok((read, jpeg)) => {
                    show(straightened, Some((&jpeg, "image/jpeg")));
                    if adjusted.is_none() {
                        corners.set(read.corners.unwrap_or_else(|| whole(read.width, read.height)));
                        pixels.set(Some((read.width, read.height)));
                    }
                    done.set(Some(SideDone { jpeg, read }));
                }
                Err(e) => {
                    done.set(None);
                    problem.set(Some(e));
                }
            }
        });
    };

    let take = move |bytes: Vec<u8>, kind: String| {
        done.set(None);
        show(straightened, None);
        pixels.set(None);
        show(shown, Some((&bytes, &kind)));
        picture.set_value(Some(bytes));
        read(None);
    };
    let on_capture = Callback::new(move |bytes: Vec<u8>| take(bytes, "image/jpeg".into()));
    let on_unavailable = Callback::new(move |why: String| {
        no_camera.set(Some(why));
        source.set(Source::Choose);
    });
    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        if file.size() > super::super::form::MAX_IMAGE_BYTES {
            problem.set(Some(format!("{} is larger than 10 MB.", file.name())));
            return;
        }
        let kind = file.type_();
        leptos::task::spawn_local(async move {
            if let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                take(js_sys::Uint8Array::new(&buffer).to_vec(), kind);
            }
        });
    };
    let retake = move |_| {
        kept.set(false);
        done.set(None);
        show(shown, None);
        show(straightened, None);
        picture.set_value(None);
        source.set(if no_camera.with_untracked(Option::is_none) && camera_possible() {
            Source::Camera
        } else {
            Source::Choose
        });
    };
    let file_id = format!("scan-{side}-file");
    let title = if side == "front" { "The front of the check" } else { "The back of the check, endorsed" };

    view! {
        <section class="scan-side" aria-labelledby=format!("scan-{side}-title")>
            <h3 id=format!("scan-{side}-title")>{title}</h3>
            <Show when=move || shown.with(Option::is_none) && !kept.get()>
                {move || no_camera.get().map(|why| view! {
                    <p class="notice" role="status">{why}" Choose a picture of the check instead."</p>
                })}
                <Show when=move || source.get() == Source::Camera>
                    <Camera worker side on_capture on_unavailable/>
                </Show>
                <div class="field">
                    <label for=file_id.clone()>"Or choose a picture (JPEG, PNG or TIFF)"</label>
                    <input id=file_id.clone() type="file" accept="image/jpeg,image/png,image/tiff" on:change=on_file/>
                </div>
            </Show>
            // Browsers draw no TIFF: a TIFF (a scan, already the check edge to edge) shows only
            // its straightened copy below.
            {move || shown.get().zip(pixels.get()).filter(|_| !picture.with_value(|p| p.as_deref().is_some_and(is_tiff))).map(|(src, (width, height))| view! {
                <CornersEditor src width height corners side on_change=Callback::new(move |c| read(Some(c)))/>
            })}
            {move || (shown.with(Option::is_some) || kept.get()).then(|| view! {
                <button type="button" class="button" id=format!("scan-{side}-retake") on:click=retake>"Take it again"</button>
            })}
            {move || working.get().then(|| view! { <p class="muted" role="status">"Straightening and reading…"</p> })}
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || done.get().map(|d| view! { <SideFound done=d src=straightened.get() side/> })}
        </section>
    }
}

/// The straightened side and what was found in it.
#[component]
fn SideFound(done: SideDone, src: Option<String>, side: &'static str) -> impl IntoView {
    let r = done.read;
    let findings = r.findings.clone();
    view! {
        <div class="side-found" id=format!("scan-{side}-found")>
            {src.map(|s| view! {
                <img class="straightened" src=s alt=format!("The {side} of the check, straightened")/>
            })}
            <p class="muted">{format!("{} × {} pixels, read in {:.0} ms", r.straightened_width, r.straightened_height, r.millis.total)}</p>
            {(!findings.is_empty()).then(|| view! {
                <ul class="scan-findings">
                    {findings.into_iter().map(|f| view! { <li class:blocking=f.blocking>{f.advice}</li> }).collect_view()}
                </ul>
            })}
        </div>
    }
}

fn is_tiff(bytes: &[u8]) -> bool {
    bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*")
}
