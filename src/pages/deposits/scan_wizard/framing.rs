//! The live camera's judgement, as pure functions: the words over the video, when they are said
//! to screen readers, when the wizard has waited too long for a lock, the outline drawn over
//! the video, and why the camera cannot be used. When the picture is taken by itself is the
//! model's `Steadiness` (the capture benchmark takes pictures by the same rule).

use moneydesk_model::deposits::{CaptureHint, Corners, Place, FRAME_WIDTH};

use crate::i18n::{deposits::text, fill};

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

/// The words over the live video for `hint` (a glare spot said where it is).
pub fn words(hint: CaptureHint, glare_at: Option<Place>) -> String {
    let w = &text().wizard;
    match (hint, glare_at) {
        (CaptureHint::Glare, Some(place)) => fill(w.glare_at, &[w.places[place as usize]]),
        _ => w.hints[hint as usize].to_string(),
    }
}

/// A hint held this long is said to screen readers (the live region would otherwise speak at
/// every frame that changes it: ~7 a second).
const ANNOUNCE_AFTER_MS: f64 = 1000.0;

/// What the live region says: a hint once it has held for a second, and not again until it
/// changes.
#[derive(Default)]
pub struct Announcer {
    heard: Option<(String, f64)>,
    said: Option<String>,
}

impl Announcer {
    /// The words shown at `now` (milliseconds); `Some`: say them.
    pub fn hear(&mut self, words: &str, now: f64) -> Option<String> {
        match &self.heard {
            Some((w, _)) if w == words => {}
            _ => self.heard = Some((words.to_string(), now)),
        }
        let (w, since) = self.heard.as_ref()?;
        if now - since >= ANNOUNCE_AFTER_MS && self.said.as_deref() != Some(w.as_str()) {
            self.said = Some(w.clone());
            return Some(w.clone());
        }
        None
    }
}

/// Without a lock this long, the wizard says why it is waiting and brings "Take the picture"
/// forward.
pub const STUCK_AFTER_MS: f64 = 8000.0;

/// How long the camera has gone without a lock on the check (a "ready" frame).
#[derive(Default)]
pub struct Patience {
    since: Option<f64>,
}

impl Patience {
    /// A frame judged `hint` at `now`: whether the wizard has waited too long.
    pub fn frame(&mut self, hint: CaptureHint, now: f64) -> bool {
        let since = *self.since.get_or_insert(now);
        if hint == CaptureHint::Ready {
            self.since = Some(now);
            return false;
        }
        now - since >= STUCK_AFTER_MS
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

    #[wasm_bindgen_test]
    fn a_hint_is_said_to_screen_readers_once_it_has_held_a_second_and_not_again() {
        let mut a = Announcer::default();
        assert_eq!(a.hear("Move closer", 0.0), None);
        assert_eq!(a.hear("Hold still", 150.0), None, "changed: the second starts again");
        assert_eq!(a.hear("Hold still", 900.0), None);
        assert_eq!(a.hear("Hold still", 1150.0).as_deref(), Some("Hold still"));
        assert_eq!(a.hear("Hold still", 1300.0), None, "said once");
        assert_eq!(a.hear("Move closer", 1450.0), None);
        assert_eq!(a.hear("Move closer", 2500.0).as_deref(), Some("Move closer"));
    }

    #[wasm_bindgen_test]
    fn eight_seconds_without_a_lock_is_too_long_and_a_lock_starts_the_wait_again() {
        let mut p = Patience::default();
        assert!(!p.frame(CaptureHint::NoCheck, 1000.0));
        assert!(!p.frame(CaptureHint::NotWhole, 8999.0));
        assert!(p.frame(CaptureHint::NotWhole, 9000.0));
        assert!(!p.frame(CaptureHint::Ready, 9100.0));
        assert!(!p.frame(CaptureHint::HoldStill, 17_000.0));
        assert!(p.frame(CaptureHint::HoldStill, 17_100.0));
    }

    #[wasm_bindgen_test]
    fn the_words_say_where_the_glare_is() {
        assert_eq!(words(CaptureHint::TooFar, None), "Move closer");
        assert_eq!(words(CaptureHint::MoveBack, None), "Move back a little: the MICR line is cut off");
        assert_eq!(
            words(CaptureHint::Glare, Some(Place::BottomRight)),
            "Glare on the bottom right corner of the check: tilt away from the light"
        );
        assert_eq!(words(CaptureHint::Glare, None), "Tilt away from the light");
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
