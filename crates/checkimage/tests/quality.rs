//! Image quality on the real check images of ../shared and on pictures made bad on purpose:
//! the real ones pass, a blank page, a dark picture, a blurred one and a thumbnail do not.

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
