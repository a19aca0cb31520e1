//! The live camera: the rear camera preferred, a guide frame over the video, and every ~150 ms
//! a 640-pixel copy of the frame sent to the scanning worker, which says where the check is (the
//! front: where its MICR line is, which alone will do when the check fills the frame) and what
//! to tell the person holding it. Three "ready" frames in a row held still take the picture by
//! themselves (the model's `Steadiness`); "Take the picture" takes it at any time, and after 8
//! seconds without a lock the wizard says why it is waiting and brings that button forward.
//! The words over the video are light on a dark pill (legible over any video); screen readers
//! hear them through a polite live region once they have held a second. The picture is the
//! video's full resolution as a JPEG.
//!
//! No camera, or permission refused: `on_unavailable` gets a sentence saying so, and the wizard
//! offers the file input instead. When to take the picture, and the words, are framing.rs.

use std::rc::Rc;

use leptos::html::Video;
use leptos::prelude::*;
use moneydesk_model::deposits::{CaptureHint, Corners, FrameCheck, SideRead, Steadiness, FRAME_WIDTH};
use wasm_bindgen::{JsCast, JsValue};

use super::framing::{frame_height, points, unavailable, view_box, words, Announcer, Patience};
use super::side_word;
use crate::api::scan_worker::ScanWorker;
use crate::i18n::{deposits::text, fill};

/// The camera's stream, stopped when the component goes away.
fn stop(stream: &web_sys::MediaStream) {
    for track in stream.get_tracks().iter() {
        if let Ok(t) = track.dyn_into::<web_sys::MediaStreamTrack>() {
            t.stop();
        }
    }
}

fn canvas(width: u32, height: u32) -> Option<(web_sys::HtmlCanvasElement, web_sys::CanvasRenderingContext2d)> {
    let c: web_sys::HtmlCanvasElement = document().create_element("canvas").ok()?.dyn_into().ok()?;
    c.set_width(width);
    c.set_height(height);
    let ctx = c.get_context("2d").ok()??.dyn_into().ok()?;
    Some((c, ctx))
}

/// The video's current frame as a JPEG at its full resolution.
fn picture(video: &web_sys::HtmlVideoElement) -> Option<Vec<u8>> {
    use base64::Engine;
    let (w, h) = (video.video_width(), video.video_height());
    let (c, ctx) = canvas(w, h)?;
    ctx.draw_image_with_html_video_element(video, 0.0, 0.0).ok()?;
    let url = c.to_data_url_with_type_and_encoder_options("image/jpeg", &JsValue::from_f64(0.92)).ok()?;
    base64::engine::general_purpose::STANDARD.decode(url.split_once(',')?.1).ok()
}

/// The camera's state while it is open; `Copy`.
#[derive(Clone, Copy)]
struct Live {
    video: NodeRef<Video>,
    worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
    stream: StoredValue<Option<web_sys::MediaStream>, LocalStorage>,
    /// The front: the worker looks for the MICR line too.
    micr: bool,
    hint: RwSignal<CaptureHint>,
    /// The hint's words (a glare spot said where it is), and what screen readers were told.
    words: RwSignal<String>,
    announced: RwSignal<String>,
    /// No lock for 8 seconds.
    stuck: RwSignal<bool>,
    /// The check found in the last frame, its MICR line, and that frame's height (the
    /// overlay's view box: the line alone is drawn when the check fills the frame).
    outline: RwSignal<Option<Corners>>,
    band: RwSignal<Option<Corners>>,
    frame_height: RwSignal<Option<u32>>,
    taken: StoredValue<bool>,
    /// A picture taken by itself is being read, to be kept or let go.
    checking: StoredValue<bool>,
    steadiness: StoredValue<Steadiness, LocalStorage>,
    announcer: StoredValue<Announcer, LocalStorage>,
    patience: StoredValue<Patience, LocalStorage>,
    /// A frame is with the worker: the next tick skips.
    in_flight: StoredValue<bool>,
    on_capture: Callback<Captured>,
}

/// A picture the camera took, with the worker's reading of it when the camera read it already
/// (a front taken by itself, kept because that reading agreed with the frames').
pub type Captured = (Vec<u8>, Option<(SideRead, Vec<u8>)>);

impl Live {
    /// The picture, once.
    fn take(self) {
        if let Some(bytes) = self.video.get_untracked().and_then(|v| picture(&v)) {
            self.keep((bytes, None));
        }
    }

    fn keep(self, captured: Captured) {
        if !self.taken.get_value() {
            self.taken.set_value(true);
            self.on_capture.run(captured);
        }
    }

    /// Taken by itself on the front: kept only when the picture's own reading is the line the
    /// frames read (a line read at 640 pixels can read otherwise in the full picture); let go
    /// otherwise, and the camera goes on. "Take the picture" still works meanwhile.
    fn take_if_read(self, line: String) {
        let Some(Some(worker)) = self.worker.try_get_value() else { return };
        if self.taken.get_value() || self.checking.get_value() {
            return;
        }
        let Some(bytes) = self.video.get_untracked().and_then(|v| picture(&v)) else { return };
        self.checking.set_value(true); // the frames wait meanwhile
        leptos::task::spawn_local(async move {
            let read = worker.side(&bytes, true, None).await;
            // `Some` back: the camera was closed meanwhile.
            if self.checking.try_set_value(false).is_some() {
                return;
            }
            match read {
                Ok((r, jpeg)) if r.micr.as_ref().is_some_and(|m| m.line == line) => self.keep((bytes, Some((r, jpeg)))),
                _ => self.steadiness.update_value(|s| *s = Steadiness::default()),
            }
        });
    }

    /// The camera started in the video element `el`.
    fn start(self, el: web_sys::HtmlVideoElement, on_unavailable: Callback<String>) {
        let Some(devices) = window().navigator().media_devices().ok() else {
            on_unavailable.run(text().wizard.no_camera_here.into());
            return;
        };
        let constraints = web_sys::MediaStreamConstraints::new();
        let video_wanted = js_sys::JSON::parse(
            r#"{"facingMode":{"ideal":"environment"},"width":{"ideal":1920},"height":{"ideal":1080}}"#,
        )
        .unwrap_or(JsValue::TRUE);
        constraints.set_video(&video_wanted);
        let Ok(promise) = devices.get_user_media_with_constraints(&constraints) else {
            on_unavailable.run(text().wizard.camera_failed.into());
            return;
        };
        let stream = self.stream;
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(s) => {
                    let s: web_sys::MediaStream = s.unchecked_into();
                    // `Some` back: the camera was closed meanwhile.
                    if stream.try_set_value(Some(s.clone())).is_some() {
                        stop(&s);
                        return;
                    }
                    el.set_src_object(Some(&s));
                    let _ = el.play();
                }
                Err(e) => {
                    let name = js_sys::Reflect::get(&e, &"name".into()).ok().and_then(|n| n.as_string());
                    on_unavailable.run(unavailable(&name.unwrap_or_default()))
                }
            }
        });
    }

    /// A copy of the current frame to the worker; its answer shown, and the picture taken when
    /// the check is steady.
    fn tick(self) {
        let Live { video, worker, in_flight, taken, checking, micr, .. } = self;
        let (Some(v), Some(Some(w))) = (video.get_untracked(), worker.try_get_value()) else { return };
        if in_flight.get_value()
            || taken.get_value()
            || checking.get_value()
            || v.ready_state() < 2
            || v.video_width() == 0
        {
            return;
        }
        let height = frame_height(v.video_width(), v.video_height());
        let Some((_, ctx)) = canvas(FRAME_WIDTH, height) else { return };
        if ctx
            .draw_image_with_html_video_element_and_dw_and_dh(&v, 0.0, 0.0, FRAME_WIDTH.into(), height.into())
            .is_err()
        {
            return;
        }
        let Ok(data) = ctx.get_image_data(0.0, 0.0, FRAME_WIDTH.into(), height.into()) else { return };
        in_flight.set_value(true);
        leptos::task::spawn_local(async move {
            let answer = w.frame(&data.data().0, FRAME_WIDTH, height, micr).await;
            // `Some` back: the camera was closed meanwhile.
            if in_flight.try_set_value(false).is_some() {
                return;
            }
            if let Ok(check) = answer {
                self.show(&check, height);
            }
        });
    }

    /// The worker's answer for a frame shown, said and acted on.
    fn show(self, check: &FrameCheck, height: u32) {
        let mut judged = (check.hint, false);
        self.steadiness.update_value(|s| judged = s.judge(check));
        let (hint, now) = judged;
        let said = words(hint, check.glare_at);
        let at = js_sys::Date::now();
        self.announcer.update_value(|a| {
            if let Some(w) = a.hear(&said, at) {
                self.announced.set(w);
            }
        });
        let mut stuck = false;
        self.patience.update_value(|p| stuck = p.frame(hint, at));
        if self.stuck.get_untracked() != stuck {
            self.stuck.set(stuck);
        }
        self.hint.set(hint);
        self.words.set(said);
        self.outline.set(check.corners);
        self.frame_height.set(Some(height));
        self.band.set(check.band);
        if now {
            match check.line.clone() {
                Some(line) => self.take_if_read(line),
                None => self.take(),
            }
        }
    }
}

#[component]
pub fn Camera(
    worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
    /// "front" or "back": named in the labels.
    side: &'static str,
    /// The front: its MICR line is looked for.
    micr: bool,
    on_capture: Callback<Captured>,
    on_unavailable: Callback<String>,
) -> impl IntoView {
    let live = Live {
        video: NodeRef::new(),
        worker,
        stream: StoredValue::new_local(None),
        micr,
        hint: RwSignal::new(CaptureHint::NoCheck),
        words: RwSignal::new(words(CaptureHint::NoCheck, None)),
        announced: RwSignal::new(String::new()),
        stuck: RwSignal::new(false),
        outline: RwSignal::new(None),
        frame_height: RwSignal::new(None),
        band: RwSignal::new(None),
        taken: StoredValue::new(false),
        checking: StoredValue::new(false),
        steadiness: StoredValue::new_local(Steadiness::default()),
        announcer: StoredValue::new_local(Announcer::default()),
        patience: StoredValue::new_local(Patience::default()),
        in_flight: StoredValue::new(false),
        on_capture,
    };
    let Live { video, stream, hint, words, announced, stuck, outline, band, frame_height, .. } = live;

    // Start the camera once the video element is in the page.
    Effect::new(move |_| {
        if let Some(el) = video.get() {
            live.start(el, on_unavailable);
        }
    });
    let interval = set_interval_with_handle(move || live.tick(), std::time::Duration::from_millis(150)).ok();
    on_cleanup(move || {
        if let Some(i) = interval {
            i.clear();
        }
        if let Some(Some(s)) = stream.try_get_value() {
            stop(&s);
        }
    });

    let w = &text().wizard;
    let camera_label = fill(w.camera, &[side_word(side)]);
    view! {
        <div class="camera">
            <div class="camera-view">
                <video node_ref=video autoplay muted playsinline aria-label=camera_label></video>
                <svg class="camera-overlay" viewBox=move || view_box(frame_height.get()) preserveAspectRatio="none" aria-hidden="true">
                    <rect class="camera-guide" x="5%" y="22%" width="90%" height="56%" rx="8"></rect>
                    {move || outline.get().map(|c| view! { <polygon class="camera-found" class:ready=move || hint.get() == CaptureHint::Ready points=points(&c)></polygon> })}
                    {move || band.get().map(|c| view! { <polygon class="camera-band" points=points(&c)></polygon> })}
                </svg>
                // Seen, not read out at every frame: the live region below says it once it holds.
                <p class="camera-hint" id="camera-hint" aria-hidden="true" data-hint=move || format!("{:?}", hint.get())>
                    {move || words.get()}
                </p>
            </div>
            <p class="sr-only" id="camera-said" role="status" aria-live="polite">{move || announced.get()}</p>
            {move || stuck.get().then(|| view! {
                <p class="notice camera-stuck" id="camera-stuck" role="status">{fill(w.stuck, &[&announced.get()])}</p>
            })}
            <button type="button" class="button primary" class:forward=move || stuck.get() id="camera-take" on:click=move |_| live.take()>{w.take}</button>
        </div>
    }
}
