//! The live camera: the rear camera preferred, a guide frame over the video, and every ~150 ms
//! a 640-pixel copy of the frame sent to the scanning worker, which says where the check is and
//! what to tell the person holding it. Three "ready" frames in a row with the check's corners
//! still (under 1.5 % of the width apart) take the picture by themselves; "Take the picture"
//! takes it at any time. The picture is the video's full resolution as a JPEG.
//!
//! No camera, or permission refused: `on_unavailable` gets a sentence saying so, and the wizard
//! offers the file input instead.

use std::rc::Rc;

use leptos::html::Video;
use leptos::prelude::*;
use moneydesk_model::deposits::{CaptureHint, Corners, FrameCheck};
use wasm_bindgen::{JsCast, JsValue};

use crate::api::scan_worker::ScanWorker;

/// Frames analysed are this wide: enough to find a check's edges, small enough for ~20 ms.
const FRAME_WIDTH: u32 = 640;
/// Consecutive ready, still frames before the picture is taken by itself.
const STEADY_FRAMES: u32 = 3;
/// Corners moving less than this share of the frame's width between frames are "still".
const STILL: f32 = 0.015;

/// Why the camera cannot be used, in words, from getUserMedia's error name.
fn unavailable(e: &JsValue) -> String {
    let name = js_sys::Reflect::get(e, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_default();
    match name.as_str() {
        "NotAllowedError" | "SecurityError" => "Camera permission was refused.".into(),
        "NotFoundError" | "OverconstrainedError" => "This device has no camera.".into(),
        "NotReadableError" => "The camera is in use by another application.".into(),
        _ => "The camera could not be started.".into(),
    }
}

fn moved(a: &Corners, b: &Corners) -> f32 {
    a.iter().zip(b).map(|(p, q)| (p[0] - q[0]).abs().max((p[1] - q[1]).abs())).fold(0.0, f32::max)
}

/// What the worker said of a frame, and whether it is the moment to take the picture.
struct Steadiness {
    last: Option<Corners>,
    ready_frames: u32,
}

impl Steadiness {
    fn judge(&mut self, check: &FrameCheck) -> (CaptureHint, bool) {
        let still = match (&self.last, &check.corners) {
            (Some(a), Some(b)) => moved(a, b) < STILL * FRAME_WIDTH as f32,
            _ => false,
        };
        self.last = check.corners;
        let hint = if check.hint == CaptureHint::Ready && !still { CaptureHint::HoldStill } else { check.hint };
        self.ready_frames = if hint == CaptureHint::Ready { self.ready_frames + 1 } else { 0 };
        (hint, self.ready_frames >= STEADY_FRAMES)
    }
}

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

#[component]
pub fn Camera(
    worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
    /// "front" or "back": named in the labels.
    side: &'static str,
    on_capture: Callback<Vec<u8>>,
    on_unavailable: Callback<String>,
) -> impl IntoView {
    let video = NodeRef::<Video>::new();
    let stream = StoredValue::new_local(None::<web_sys::MediaStream>);
    let hint = RwSignal::new(CaptureHint::NoCheck);
    let outline = RwSignal::new(None::<(Corners, u32)>);
    let taken = StoredValue::new(false);
    let steadiness = StoredValue::new_local(Steadiness { last: None, ready_frames: 0 });
    let in_flight = StoredValue::new(false);

    let take = move || {
        if taken.get_value() {
            return;
        }
        if let Some(bytes) = video.get_untracked().and_then(|v| picture(&v)) {
            taken.set_value(true);
            on_capture.run(bytes);
        }
    };

    // Start the camera once the video element is in the page.
    Effect::new(move |_| {
        let Some(el) = video.get() else { return };
        let Some(devices) = window().navigator().media_devices().ok() else {
            on_unavailable.run("This browser offers no camera here (it needs HTTPS or localhost).".into());
            return;
        };
        let constraints = web_sys::MediaStreamConstraints::new();
        let video_wanted = js_sys::JSON::parse(
            r#"{"facingMode":{"ideal":"environment"},"width":{"ideal":1920},"height":{"ideal":1080}}"#,
        )
        .unwrap_or(JsValue::TRUE);
        constraints.set_video(&video_wanted);
        let Ok(promise) = devices.get_user_media_with_constraints(&constraints) else {
            on_unavailable.run("The camera could not be started.".into());
            return;
        };
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
                Err(e) => on_unavailable.run(unavailable(&e)),
            }
        });
    });

    let tick = move || {
        let (Some(v), Some(Some(w))) = (video.get_untracked(), worker.try_get_value()) else { return };
        if in_flight.get_value() || taken.get_value() || v.ready_state() < 2 || v.video_width() == 0 {
            return;
        }
        let height = (FRAME_WIDTH * v.video_height() / v.video_width()).max(1);
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
            let answer = w.frame(&data.data().0, FRAME_WIDTH, height).await;
            // `Some` back: the camera was closed meanwhile.
            if in_flight.try_set_value(false).is_some() {
                return;
            }
            if let Ok(check) = answer {
                let mut judged = (check.hint, false);
                steadiness.update_value(|s| judged = s.judge(&check));
                let (said, now) = judged;
                hint.set(said);
                outline.set(check.corners.map(|c| (c, height)));
                if now {
                    take();
                }
            }
        });
    };
    let interval = set_interval_with_handle(tick, std::time::Duration::from_millis(150)).ok();
    on_cleanup(move || {
        if let Some(i) = interval {
            i.clear();
        }
        if let Some(Some(s)) = stream.try_get_value() {
            stop(&s);
        }
    });

    let points = move || {
        outline.get().map(|(c, _)| c.iter().map(|p| format!("{},{}", p[0], p[1])).collect::<Vec<_>>().join(" "))
    };
    let view_box = move || format!("0 0 {FRAME_WIDTH} {}", outline.get().map_or(FRAME_WIDTH * 9 / 16, |(_, h)| h));
    view! {
        <div class="camera">
            <div class="camera-view">
                <video node_ref=video autoplay muted playsinline aria-label=format!("Camera: the {side} of the check")></video>
                <svg class="camera-overlay" viewBox=view_box preserveAspectRatio="none" aria-hidden="true">
                    <rect class="camera-guide" x="5%" y="22%" width="90%" height="56%" rx="8"></rect>
                    {move || points().map(|p| view! { <polygon class="camera-found" class:ready=move || hint.get() == CaptureHint::Ready points=p></polygon> })}
                </svg>
                <p class="camera-hint" id="camera-hint" aria-live="polite" data-hint=move || format!("{:?}", hint.get())>
                    {move || hint.get().words()}
                </p>
            </div>
            <button type="button" class="button primary" id="camera-take" on:click=move |_| take()>"Take the picture"</button>
        </div>
    }
}
