//! The live camera's judgement, as pure functions: when the check is still enough to take the
//! picture by itself, the outline drawn over the video, and why the camera cannot be used.

use moneydesk_model::deposits::{CaptureHint, Corners, FrameCheck};

use crate::i18n::deposits::text;

/// Frames analysed are this wide: enough to find a check's edges, small enough for ~20 ms.
pub const FRAME_WIDTH: u32 = 640;
/// Consecutive ready, still frames before the picture is taken by itself.
const STEADY_FRAMES: u32 = 3;
/// Corners moving less than this share of the frame's width between frames are "still".
const STILL: f32 = 0.015;

/// Why the camera cannot be used, in words, from getUserMedia's error name.
pub fn unavailable(name: &str) -> String {
    let w = &text().wizard;
    match name {
        "NotAllowedError" | "SecurityError" => w.camera_refused.into(),
        "NotFoundError" | "OverconstrainedError" => w.no_camera.into(),
        "NotReadableError" => w.camera_busy.into(),
        _ => w.camera_failed.into(),
    }
}

fn moved(a: &Corners, b: &Corners) -> f32 {
    a.iter().zip(b).map(|(p, q)| (p[0] - q[0]).abs().max((p[1] - q[1]).abs())).fold(0.0, f32::max)
}

/// What the worker said of a frame, and whether it is the moment to take the picture.
#[derive(Default)]
pub struct Steadiness {
    last: Option<Corners>,
    ready_frames: u32,
}

impl Steadiness {
    pub fn judge(&mut self, check: &FrameCheck) -> (CaptureHint, bool) {
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

/// The height of a frame analysed, for a video of `width` × `height`.
pub fn frame_height(width: u32, height: u32) -> u32 {
    (FRAME_WIDTH * height / width).max(1)
}

/// The check's outline as an SVG polygon's points: `10,20 30,20 …`.
pub fn points(c: &Corners) -> String {
    c.iter().map(|p| format!("{},{}", p[0], p[1])).collect::<Vec<_>>().join(" ")
}

/// The overlay's view box: the frame analysed (16:9 before the first).
pub fn view_box(frame_height: Option<u32>) -> String {
    format!("0 0 {FRAME_WIDTH} {}", frame_height.unwrap_or(FRAME_WIDTH * 9 / 16))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn frame(x: f32, hint: CaptureHint) -> FrameCheck {
        let corners = [[x, 10.0], [x + 500.0, 10.0], [x + 500.0, 230.0], [x, 230.0]];
        FrameCheck { corners: Some(corners), fill: 0.8, sharpness: 100.0, hint }
    }

    #[wasm_bindgen_test]
    fn three_ready_still_frames_take_the_picture() {
        let mut s = Steadiness::default();
        assert_eq!(s.judge(&frame(20.0, CaptureHint::Ready)), (CaptureHint::HoldStill, false), "nothing to compare");
        assert_eq!(s.judge(&frame(21.0, CaptureHint::Ready)), (CaptureHint::Ready, false));
        assert_eq!(s.judge(&frame(22.0, CaptureHint::Ready)), (CaptureHint::Ready, false));
        assert_eq!(s.judge(&frame(23.0, CaptureHint::Ready)), (CaptureHint::Ready, true));
        assert_eq!(s.judge(&frame(60.0, CaptureHint::Ready)), (CaptureHint::HoldStill, false), "moved 37 pixels");
        assert_eq!(s.judge(&frame(60.0, CaptureHint::NoCheck)), (CaptureHint::NoCheck, false));
    }

    #[wasm_bindgen_test]
    fn the_outline_and_the_frame() {
        assert_eq!(points(&[[1.0, 2.0], [3.5, 2.0], [3.5, 4.0], [1.0, 4.0]]), "1,2 3.5,2 3.5,4 1,4");
        assert_eq!(view_box(None), "0 0 640 360");
        assert_eq!(view_box(Some(480)), "0 0 640 480");
        assert_eq!(frame_height(1920, 1080), 360);
        assert_eq!(frame_height(100_000, 1), 1);
    }

    #[wasm_bindgen_test]
    fn why_the_camera_cannot_be_used() {
        assert_eq!(unavailable("NotAllowedError"), "Camera permission was refused.");
        assert_eq!(unavailable("OverconstrainedError"), "This device has no camera.");
        assert_eq!(unavailable("NotReadableError"), "The camera is in use by another application.");
        assert_eq!(unavailable(""), "The camera could not be started.");
    }
}
