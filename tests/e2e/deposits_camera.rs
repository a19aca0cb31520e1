//! The scan wizard's live camera on Chromium's fake camera, one case of each way a phone sees
//! a check (`moneydesk_e2e::camera::Kind`): taken by itself wherever the MICR line is whole in
//! the frame, and read; "move back" where the line is cut off, then, after 8 seconds without a
//! lock, the reason and "Take the picture" brought forward. The live overlay is checked by
//! axe-core in both themes while the camera runs, on the front and the back step, and its words
//! are legible over any video. (`scripts/bench-capture` measures every front in every way.)

use moneydesk_e2e::camera::{video, Kind};
use moneydesk_e2e::{shared_data, Harness, Scope};
use serde_json::{json, Value};

use crate::a11y::{axe_source, violations};
use crate::deposits::{an_account, fake_camera};

/// The check every case films: its line reads exactly in every kind (scripts/bench-capture).
const CHECK: &str = "checks/full/07_tmannherz_check1_deluxe_sample.jpg";

/// A harness whose fake camera films the check seen as `kind`, signed in as an admin, on the
/// wizard's front step; the video's directory lives as long as the harness needs it.
async fn filming(kind: Kind) -> (Harness, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = video(&shared_data(CHECK), kind, &dir.path().join("check.y4m"));
    let h = Harness::start_with_flags(&fake_camera(&file), |c| c.seed_demo = true).await;
    // The sample check's routing number names no bank: the directory lookups answer 404.
    h.allow_console_error("routing/ach/validate?routingNumber=000067894 - Failed to load resource: the server responded with a status of 404");
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;
    open_front(&h, &account).await;
    (h, dir, account)
}

/// The wizard opened and its first step filled, up to the front's camera running.
async fn open_front(h: &Harness, account: &str) {
    h.goto("/deposits?new=scan").await;
    h.type_into("#scan-sleeve", account).await;
    h.type_into("#scan-payee-account", account).await;
    h.type_into("#scan-payee-user", "usr_0001").await;
    h.click("#scan-next").await;
    h.wait_for("video[aria-label='Camera: the front of the check']").await;
}

/// Takes the back by hand (the back has no MICR line to lock on), then the review's MICR fields.
async fn back_then_fields(h: &Harness) -> Value {
    h.click("#scan-next").await;
    h.wait_for("video[aria-label='Camera: the back of the check']").await;
    h.wait_js(
        "document.querySelector('video')?.readyState >= 2 || document.querySelector('#scan-back-found')",
        "the back's video playing",
    )
    .await;
    h.js("document.querySelector('#camera-take')?.click()", vec![]).await;
    h.wait_for("#scan-back-found img.straightened").await;
    h.click("#scan-next").await;
    h.wait_for("#scan-review").await;
    h.js(
        "return ['#scan-routing', '#scan-account', '#scan-check-number'].map(s => document.querySelector(s).value)",
        vec![],
    )
    .await
}

/// The front taken without a click, and its MICR line read exactly.
async fn taken_by_itself_and_read(kind: Kind) {
    let (h, _dir, _) = filming(kind).await;
    h.wait_for("#scan-front-found img.straightened").await;
    assert_eq!(h.count("#camera-take").await, 0, "{kind:?}: the camera closed once the picture was taken by itself");
    assert_eq!(back_then_fields(&h).await, json!(["000067894", "12345678", "0101"]), "{kind:?}: read exactly");
    h.finish().await;
}

#[tokio::test]
async fn a_check_filling_the_frame_edge_to_edge_is_taken_by_its_micr_line_and_read() {
    taken_by_itself_and_read(Kind::FillsFrame).await;
}

#[tokio::test]
async fn a_check_running_off_the_right_edge_with_its_line_whole_is_taken_and_read() {
    taken_by_itself_and_read(Kind::OffRight).await;
}

#[tokio::test]
async fn a_check_on_a_light_table_is_taken_and_read() {
    taken_by_itself_and_read(Kind::LightTable).await;
}

#[tokio::test]
async fn a_check_seen_at_22_degrees_is_taken_and_read() {
    taken_by_itself_and_read(Kind::Perspective).await;
}

#[tokio::test]
async fn a_check_with_a_glare_spot_away_from_the_line_and_the_amount_is_taken_and_read() {
    taken_by_itself_and_read(Kind::Glare).await;
}

#[tokio::test]
async fn a_slightly_blurred_check_whose_line_still_reads_is_taken_and_read() {
    taken_by_itself_and_read(Kind::Blurred).await;
}

/// The hint's colours: white text on a pill at least 78 % black, so at least 11:1 over a
/// white video (and more over anything darker).
async fn hint_is_legible(h: &Harness) {
    let style: Value = h
        .js(
            "const s = getComputedStyle(document.querySelector('#camera-hint')); return [s.color, s.backgroundColor]",
            vec![],
        )
        .await;
    assert_eq!(style[0], json!("rgb(255, 255, 255)"), "the hint's text: {style}");
    let background = style[1].as_str().unwrap_or_default().to_string();
    let alpha: f64 = background
        .strip_prefix("rgba(0, 0, 0, ")
        .and_then(|a| a.strip_suffix(')'))
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("the hint's pill is translucent black: {background}"));
    // Over white, the pill is (1 − alpha) × 255 gray; the contrast of white on it.
    let gray = (1.0 - alpha) * 255.0 / 255.0;
    let lum = if gray <= 0.040_45 { gray / 12.92 } else { ((gray + 0.055) / 1.055).powf(2.4) };
    let contrast = 1.05 / (lum + 0.05);
    assert!(contrast >= 4.5, "white on the pill over a white video: {contrast:.1}:1 ({background})");
}

#[tokio::test]
async fn a_check_whose_line_runs_off_the_left_edge_asks_to_move_back_then_offers_the_button_with_the_reason() {
    let (h, _dir, account) = filming(Kind::OffLeft).await;
    h.wait_js("document.querySelector('#camera-hint')?.dataset.hint === 'MoveBack'", "the hint to move back").await;
    assert_eq!(h.text("#camera-hint").await, "Move back a little: the MICR line is cut off");
    hint_is_legible(&h).await;
    // Said to screen readers once it has held, in a polite live region (the video's words are
    // hidden from them: they change at every frame).
    h.wait_for_text("#camera-said", "Move back a little").await;
    let live: Value = h
        .js("const l = document.querySelector('#camera-said'), v = document.querySelector('#camera-hint'); return [l.getAttribute('aria-live'), v.getAttribute('aria-hidden')]", vec![])
        .await;
    assert_eq!(live, json!(["polite", "true"]));
    assert_eq!(h.count("#camera-stuck").await, 0, "not stuck yet");

    // The camera runs: its overlay is checked in both themes, then on the back step.
    let axe = axe_source();
    let found = violations(&h, &axe).await;
    assert!(found.is_empty(), "the front's live camera, light theme:\n{}", found.join("\n"));

    // After 8 seconds without a lock: why, and the button brought forward; taking by hand.
    let stuck = h.wait_for_text("#camera-stuck", "Still waiting after 8 seconds").await;
    assert!(stuck.contains("Move back a little: the MICR line is cut off"), "{stuck}");
    assert!(stuck.contains("take the picture yourself"), "{stuck}");
    assert_eq!(h.count("#camera-take.forward").await, 1, "the button is brought forward");
    let found = violations(&h, &axe).await;
    assert!(found.is_empty(), "the front's live camera, waiting:\n{}", found.join("\n"));
    h.click("#camera-take").await;
    h.wait_for("#scan-front-found img.straightened").await;
    h.click("#scan-next").await;
    h.wait_for("video[aria-label='Camera: the back of the check']").await;
    h.wait_for("#camera-hint").await;
    let found = violations(&h, &axe).await;
    assert!(found.is_empty(), "the back's live camera, light theme:\n{}", found.join("\n"));

    // The dark theme: the wizard again, its front camera running.
    h.js("localStorage.setItem('moneydesk.theme', 'dark')", vec![]).await;
    open_front(&h, &account).await;
    h.wait_for("#camera-hint").await;
    hint_is_legible(&h).await;
    let found = violations(&h, &axe).await;
    assert!(found.is_empty(), "the front's live camera, dark theme:\n{}", found.join("\n"));
    h.finish().await;
}
