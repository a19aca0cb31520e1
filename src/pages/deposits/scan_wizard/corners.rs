//! The check's corners over its picture, adjustable: each corner is a handle dragged with a
//! pointer (mouse, pen or finger) or moved with the arrow keys (Shift for bigger steps). A
//! change is reported when a drag ends or a key moves a corner, and the wizard straightens the
//! side again from the new corners.

use leptos::prelude::*;
use moneydesk_model::deposits::Corners;
use wasm_bindgen::JsCast;

use super::side_word;
use crate::i18n::{deposits::text, fill};

/// The picture's corners, inset a little: where the handles start when no check was found.
pub fn whole(width: u32, height: u32) -> Corners {
    let (w, h) = (width as f32, height as f32);
    let (dx, dy) = (w * 0.02, h * 0.02);
    [[dx, dy], [w - dx, dy], [w - dx, h - dy], [dx, h - dy]]
}

/// A pointer's position in the picture's pixels.
fn in_picture(ev: &web_sys::PointerEvent, width: u32, height: u32) -> Option<[f32; 2]> {
    let svg = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let r = svg.get_bounding_client_rect();
    if r.width() <= 0.0 || r.height() <= 0.0 {
        return None;
    }
    let x = (f64::from(ev.client_x()) - r.left()) / r.width() * f64::from(width);
    let y = (f64::from(ev.client_y()) - r.top()) / r.height() * f64::from(height);
    Some([x.clamp(0.0, width.into()) as f32, y.clamp(0.0, height.into()) as f32])
}

#[component]
pub fn CornersEditor(
    /// The picture (an object URL) and its pixels.
    src: String,
    width: u32,
    height: u32,
    corners: RwSignal<Corners>,
    /// A drag ended or a key moved a corner.
    on_change: Callback<Corners>,
    /// "front" or "back".
    side: &'static str,
) -> impl IntoView {
    let dragging = RwSignal::new(None::<usize>);
    let radius = (width.max(height) as f32 / 45.0).max(6.0);
    let step = width.max(height) as f32 / 200.0;
    let points = move || corners.with(|c| c.iter().map(|p| format!("{},{}", p[0], p[1])).collect::<Vec<_>>().join(" "));
    let on_move = move |ev: web_sys::PointerEvent| {
        if let (Some(i), Some(p)) = (dragging.get_untracked(), in_picture(&ev, width, height)) {
            ev.prevent_default();
            corners.update(|c| c[i] = p);
        }
    };
    let on_up = move |_: web_sys::PointerEvent| {
        if dragging.get_untracked().is_some() {
            dragging.set(None);
            on_change.run(corners.get_untracked());
        }
    };
    let handle = move |i: usize| {
        let on_key = move |ev: web_sys::KeyboardEvent| {
            let s = if ev.shift_key() { step * 5.0 } else { step };
            let (dx, dy) = match ev.key().as_str() {
                "ArrowLeft" => (-s, 0.0),
                "ArrowRight" => (s, 0.0),
                "ArrowUp" => (0.0, -s),
                "ArrowDown" => (0.0, s),
                _ => return,
            };
            ev.prevent_default();
            corners.update(|c| {
                c[i][0] = (c[i][0] + dx).clamp(0.0, width as f32);
                c[i][1] = (c[i][1] + dy).clamp(0.0, height as f32);
            });
            on_change.run(corners.get_untracked());
        };
        view! {
            <circle
                class="corner-handle"
                class:dragging=move || dragging.get() == Some(i)
                cx=move || corners.with(|c| c[i][0])
                cy=move || corners.with(|c| c[i][1])
                r=radius
                tabindex="0"
                role="slider"
                aria-label=fill(text().wizard.corner, &[text().wizard.corners[i], side_word(side)])
                aria-valuenow=move || corners.with(|c| c[i][0].round())
                aria-valuetext=move || corners.with(|c| format!("{:.0}, {:.0}", c[i][0], c[i][1]))
                on:pointerdown=move |ev: web_sys::PointerEvent| {
                    ev.prevent_default();
                    if let Some(t) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                        let _ = t.parent_element().map(|svg| svg.set_pointer_capture(ev.pointer_id()));
                    }
                    dragging.set(Some(i));
                }
                on:keydown=on_key
            ></circle>
        }
    };
    let w = &text().wizard;
    let view_box = format!("0 0 {width} {height}");
    view! {
        <figure class="corners-editor">
            <svg
                viewBox=view_box
                role="group"
                aria-label=fill(w.corners_label, &[side_word(side)])
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_up
            >
                <image href=src width=width height=height></image>
                <polygon class="corners-outline" points=points></polygon>
                {(0..4).map(handle).collect_view()}
            </svg>
            <figcaption class="hint">{w.corners_hint}</figcaption>
        </figure>
    }
}
