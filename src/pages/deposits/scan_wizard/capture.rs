//! One side's capture: its state (`Capture`: how the picture is taken, the picture, what the
//! worker made of it) and its moves (a picture taken, corners moved, taken again), with the
//! object URLs shown revoked as they are replaced; and, as pure functions, the choices made.

use std::rc::Rc;

use leptos::prelude::*;
use moneydesk_model::deposits::{Corners, SideRead};

use super::corners::whole;
use super::SideDone;
use crate::api::scan_worker::ScanWorker;
use crate::i18n::deposits::text;

/// How the picture is being taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    Choose,
    Camera,
}

/// The side's state; `Copy` (signals), handed to its parts.
#[derive(Clone, Copy)]
pub struct Capture {
    pub worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
    /// Whether the MICR line is read (the front).
    pub micr: bool,
    pub done: RwSignal<Option<SideDone>>,
    pub source: RwSignal<Source>,
    /// Why the camera cannot be used, once it said so.
    pub no_camera: RwSignal<Option<String>>,
    pub picture: StoredValue<Option<Vec<u8>>>,
    /// The picture shown under the corners, its pixels (as the worker decoded it), the corners.
    pub shown: RwSignal<Option<String>>,
    pub pixels: RwSignal<Option<(u32, u32)>>,
    pub corners: RwSignal<Corners>,
    pub straightened: RwSignal<Option<String>>,
    pub working: RwSignal<bool>,
    pub problem: RwSignal<Option<String>>,
    /// Back to a side already taken: its straightened copy, and "Take it again".
    pub kept: RwSignal<bool>,
    /// A newer request (a corner moved again) makes an older answer stale.
    seq: StoredValue<u32>,
}

impl Capture {
    pub fn new(
        worker: StoredValue<Option<Rc<ScanWorker>>, LocalStorage>,
        micr: bool,
        done: RwSignal<Option<SideDone>>,
    ) -> Self {
        let c = Capture {
            worker,
            micr,
            done,
            source: RwSignal::new(first_source(false, camera_possible())),
            no_camera: RwSignal::new(None),
            picture: StoredValue::new(None),
            shown: RwSignal::new(None),
            pixels: RwSignal::new(None),
            corners: RwSignal::new([[0.0f32; 2]; 4]),
            straightened: RwSignal::new(None),
            working: RwSignal::new(false),
            problem: RwSignal::new(None),
            kept: RwSignal::new(done.with_untracked(Option::is_some)),
            seq: StoredValue::new(0),
        };
        done.with_untracked(|d| d.as_ref().map(|d| show(c.straightened, Some((&d.jpeg, "image/jpeg")))));
        c
    }

    /// The pictures shown go away (the side is left).
    pub fn clear(&self) {
        show(self.shown, None);
        show(self.straightened, None);
    }

    /// The worker finds the check in the picture (or takes the corners `adjusted`),
    /// straightens it and reads it.
    pub fn read(self, adjusted: Option<Corners>) {
        let Capture { worker, picture, seq, working, problem, done, .. } = self;
        let (Some(Some(w)), Some(Some(bytes))) = (worker.try_get_value(), picture.try_get_value()) else { return };
        let n = seq.with_value(|s| s + 1);
        seq.set_value(n);
        working.set(true);
        problem.set(None);
        let micr = self.micr;
        leptos::task::spawn_local(async move {
            let answer = w.side(&bytes, micr, adjusted).await;
            if seq.try_get_value() != Some(n) {
                return;
            }
            working.set(false);
            match answer {
                Ok((read, jpeg)) => self.found(read, jpeg, adjusted.is_none()),
                Err(e) => {
                    done.set(None);
                    problem.set(Some(e));
                }
            }
        });
    }

    /// What the worker made of the picture shown; `found_here`: the corners are its own (not
    /// moved by hand).
    fn found(self, read: SideRead, jpeg: Vec<u8>, found_here: bool) {
        show(self.straightened, Some((&jpeg, "image/jpeg")));
        if found_here {
            self.corners.set(read.corners.unwrap_or_else(|| whole(read.width, read.height)));
            self.pixels.set(Some((read.width, read.height)));
        }
        self.done.set(Some(SideDone { jpeg, read }));
    }

    /// A picture taken (the camera's) or chosen (a file of type `kind`), and what the worker
    /// made of it when that is known already (a front the camera kept once its reading agreed).
    pub fn take(self, bytes: Vec<u8>, kind: String, read: Option<(SideRead, Vec<u8>)>) {
        self.done.set(None);
        show(self.straightened, None);
        self.pixels.set(None);
        show(self.shown, Some((&bytes, &kind)));
        self.picture.set_value(Some(bytes));
        match read {
            Some((read, jpeg)) => {
                self.seq.update_value(|s| *s += 1); // an older reading still on its way is stale
                self.working.set(false);
                self.problem.set(None);
                self.found(read, jpeg, true);
            }
            None => self.read(None),
        }
    }

    /// The camera cannot be used: a file then.
    pub fn unavailable(self, why: String) {
        self.no_camera.set(Some(why));
        self.source.set(Source::Choose);
    }

    /// "Take it again": back to the camera, unless it could not be used.
    pub fn retake(self) {
        self.kept.set(false);
        self.done.set(None);
        self.clear();
        self.picture.set_value(None);
        let refused = self.no_camera.with_untracked(Option::is_some);
        self.source.set(first_source(refused, !refused && camera_possible()));
    }

    /// The picture to move the corners on, with its pixels. Browsers draw no TIFF: a TIFF (a
    /// scan, already the check edge to edge) shows only its straightened copy.
    pub fn editable(&self) -> Option<(String, (u32, u32))> {
        self.shown
            .get()
            .zip(self.pixels.get())
            .filter(|_| !self.picture.with_value(|p| p.as_deref().is_some_and(is_tiff)))
    }
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

/// The camera when the browser offers one and it did not refuse (`refused`), else a file.
pub fn first_source(refused: bool, camera_possible: bool) -> Source {
    if !refused && camera_possible {
        Source::Camera
    } else {
        Source::Choose
    }
}

/// The side's heading.
pub fn title(side: &str) -> &'static str {
    let w = &text().wizard;
    if side == "front" {
        w.front_title
    } else {
        w.back_title
    }
}

pub fn is_tiff(bytes: &[u8]) -> bool {
    bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*")
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_camera_unless_there_is_none_or_it_refused() {
        assert_eq!(first_source(false, true), Source::Camera);
        assert_eq!(first_source(false, false), Source::Choose);
        assert_eq!(first_source(true, true), Source::Choose);
    }

    #[wasm_bindgen_test]
    fn a_tiff_is_known_by_its_first_bytes() {
        assert!(is_tiff(b"II*\0rest") && is_tiff(b"MM\0*rest"));
        assert!(!is_tiff(b"\xff\xd8\xff\xe0") && !is_tiff(b"II"));
        assert_eq!(title("front"), "The front of the check");
        assert_eq!(title("back"), "The back of the check, endorsed");
    }
}
