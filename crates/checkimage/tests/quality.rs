//! Image quality on the real check images of ../shared and on pictures made bad on purpose:
//! the real ones pass, a blank page, a dark picture, a blurred one and a thumbnail do not, and a
//! flash's reflection over much of a real photo is glare (a warning) where a small highlight is not.

use std::path::PathBuf;

use moneydesk_checkimage::quality::{check, Finding};
use moneydesk_checkimage::{decode, Limits};

fn shared(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(relative)
}

fn gray(file: &str) -> image::GrayImage {
    let bytes = std::fs::read(shared(&format!("checks/full/{file}"))).unwrap();
    decode(&bytes, Limits::default()).unwrap().image.to_luma8()
}

fn codes(f: &[Finding]) -> Vec<&'static str> {
    f.iter().map(Finding::code).collect()
}

#[test]
fn the_real_check_fronts_have_no_blocking_finding() {
    for file in [
        "01_moov_x9_check_front.tif",
        "02_finos_sample_check.png",
        "04_wikimedia_check1005_calfed.jpg",
        "07_tmannherz_check1_deluxe_sample.jpg",
        "08_tmannherz_check2_blank.jpg",
    ] {
        let g = gray(file);
        let (m, findings) = check(&g);
        eprintln!("{file}: {m:?}");
        let blocking: Vec<&Finding> =
            findings.iter().filter(|f| f.is_blocking() && !matches!(f, Finding::TooSmall { .. })).collect();
        assert!(blocking.is_empty(), "{file}: {blocking:?} ({m:?})");
    }
}

#[test]
fn a_blank_page_a_dark_picture_a_blurred_one_and_a_thumbnail_are_found_out() {
    let blank = image::GrayImage::from_pixel(1200, 520, image::Luma([245]));
    assert!(codes(&check(&blank).1).contains(&"blank"));

    let sharp = gray("07_tmannherz_check1_deluxe_sample.jpg");
    let dark =
        image::GrayImage::from_fn(sharp.width(), sharp.height(), |x, y| image::Luma([sharp.get_pixel(x, y).0[0] / 6]));
    assert!(codes(&check(&dark).1).contains(&"too_dark"), "{:?}", check(&dark));

    let (ms, _) = check(&sharp);
    let blurred = image::imageops::blur(&sharp, 6.0);
    let (mb, fb) = check(&blurred);
    eprintln!("sharpness: sharp {} → blurred {}", ms.sharpness, mb.sharpness);
    assert!(codes(&fb).contains(&"blurred"), "sharp {} → blurred {}", ms.sharpness, mb.sharpness);

    let thumb = image::imageops::resize(&sharp, 300, 130, image::imageops::FilterType::Triangle);
    assert!(codes(&check(&thumb).1).contains(&"too_small"));

    let square = image::imageops::crop_imm(&sharp, 0, 0, sharp.height(), sharp.height()).to_image();
    assert!(codes(&check(&square).1).contains(&"not_check_shaped"));
}

/// A flash's reflection on a real photo: a saturated ellipse whose edge fades into the picture.
fn with_reflection(photo: &image::GrayImage, share_of_width: f64) -> image::GrayImage {
    let (w, h) = (f64::from(photo.width()), f64::from(photo.height()));
    let (cx, cy, rx, ry) = (w * 0.55, h * 0.45, w * share_of_width / 2.0, h * 0.45);
    image::GrayImage::from_fn(photo.width(), photo.height(), |x, y| {
        let d = ((f64::from(x) - cx) / rx).powi(2) + ((f64::from(y) - cy) / ry).powi(2);
        let under = f64::from(photo.get_pixel(x, y).0[0]);
        // Saturated inside 0.8 of the radius, fading to the picture at 1.2.
        let light = ((1.2 - d.sqrt()) / 0.4).clamp(0.0, 1.0);
        image::Luma([(under + (255.0 - under) * light).round() as u8])
    })
}

#[test]
fn a_flash_reflection_over_much_of_a_real_photo_is_glare_and_a_small_highlight_is_not() {
    let photo = gray("07_tmannherz_check1_deluxe_sample.jpg");
    let (m, _) = check(&photo);
    assert!(m.washed_out < 0.05, "the photo itself is not washed out: {m:?}");

    let (m, findings) = check(&with_reflection(&photo, 0.7));
    eprintln!("a reflection across 70 % of the width: {m:?}");
    assert!(codes(&findings).contains(&"glare"), "{findings:?} ({m:?})");
    assert!(!findings.iter().any(Finding::is_blocking), "glare is a warning: the MICR line may still read");

    let (m, findings) = check(&with_reflection(&photo, 0.2));
    eprintln!("a highlight across 20 % of the width: {m:?}");
    assert!(!codes(&findings).contains(&"glare"), "{findings:?} ({m:?})");
}
