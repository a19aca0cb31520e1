//! The Document vault page against the real server: folders created (a bad name and a taken
//! one refused where they were typed), files uploaded (one twice, so it has two versions; one
//! dropped on the page),
//! a folder moved through the folder picker, a folder downloaded as a zip, and a folder
//! deleted after a confirmation that counts what goes; a selection (click, shift-click) moved
//! in one bulk request with each entry's outcome, and downloaded as one zip.

use moneydesk_e2e::{Harness, Scope};

pub(crate) fn row(path: &str) -> String {
    format!("tr[data-path=\"{path}\"]")
}

pub(crate) async fn new_folder(h: &Harness, name: &str) {
    h.click("#vault-new-folder").await;
    h.type_into("#vault-folder-name", name).await;
    h.click(".vault-new-folder button[type=submit]").await;
}

pub(crate) async fn upload(h: &Harness, file: &std::path::Path, done: usize) {
    h.upload("#vault-upload-input", file).await;
    h.wait_js(
        &format!("document.querySelectorAll('.vault-upload[data-state=done]').length >= {done}"),
        "the upload to finish",
    )
    .await;
}

#[tokio::test]
async fn folders_are_made_files_uploaded_with_versions_a_folder_moved_zipped_and_deleted() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::VaultRead, Scope::VaultWrite]).await;
    h.sign_in(&token).await;
    h.goto("/vault").await;
    h.wait_for("#vault-empty").await;

    new_folder(&h, "Clients").await;
    h.wait_for(&row("Clients")).await;
    new_folder(&h, "Archive").await;
    h.wait_for(&row("Archive")).await;
    // Refused names are explained on the field, and nothing is created (the browser logs
    // the server's 400 and 409, which this test provokes).
    h.allow_console_error("name=.. - Failed to load resource: the server responded with a status of 400");
    h.allow_console_error("name=Clients - Failed to load resource: the server responded with a status of 409");
    new_folder(&h, "..").await;
    h.wait_for_text("#vault-folder-name-error", "reserved").await;
    h.type_into("#vault-folder-name", "Clients").await;
    h.click(".vault-new-folder button[type=submit]").await;
    h.wait_for_text("#vault-folder-name-error", "already exists").await;
    assert_eq!(h.count("tbody tr").await, 2);
    h.click(".vault-new-folder button[type=button]").await;

    // Into Clients: the path is in the URL and the breadcrumbs.
    h.click(&format!("{} .vault-name", row("Clients"))).await;
    h.wait_js("location.search.includes('path=Clients')", "the folder in the URL").await;
    h.wait_for_text(".vault-crumbs [aria-current=location]", "Clients").await;
    new_folder(&h, "2026").await;
    h.wait_for(&row("Clients/2026")).await;

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report été.txt");
    std::fs::write(&file, "first draft").unwrap();
    upload(&h, &file, 1).await;
    h.wait_for(&row("Clients/report été.txt")).await;
    std::fs::write(&file, "the final text, longer").unwrap();
    upload(&h, &file, 2).await;
    h.wait_js(
        "document.querySelector('tr[data-path=\"Clients/report été.txt\"] td[data-key=versions]')?.textContent === '2'",
        "two versions",
    )
    .await;
    h.snapshot("listing").await;
    h.click(&format!("{} .vault-name", row("Clients/report été.txt"))).await;
    h.wait_for("#vault-versions li[data-version=\"2\"]").await;
    h.snapshot("versions").await;
    assert_eq!(h.count("#vault-versions li").await, 2, "both versions are listed");
    h.click(".drawer-close").await;
    h.wait_gone(".drawer").await;

    // A file dropped on the page is uploaded into the open folder.
    h.js(
        "const dt = new DataTransfer();
         dt.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
         document.querySelector('.vault-page').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));",
        vec![],
    )
    .await;
    h.wait_for(&row("Clients/dropped.txt")).await;
    h.wait_js("document.querySelectorAll('.vault-upload[data-state=done]').length === 3", "the dropped file's upload")
        .await;

    // Move Clients/2026 into Archive with the folder picker.
    h.click(&format!("{} input[type=checkbox]", row("Clients/2026"))).await;
    h.click("#vault-move").await;
    h.wait_for(".drawer .vault-picker").await;
    h.click(".drawer .vault-crumbs li:first-child button").await;
    h.wait_for_text(".drawer .vault-picker", "Archive").await;
    h.js("[...document.querySelectorAll('.drawer .vault-picker button')].find(b => b.textContent.includes('Archive')).click()", vec![]).await;
    h.wait_for_text("#vault-move-target", "/Archive").await;
    h.click("#vault-move-here").await;
    h.wait_gone(".drawer").await;
    h.wait_gone(&row("Clients/2026")).await;

    // The folder tree shows Archive; unfolded, it holds 2026, and a click there opens it.
    h.click(".vault-tree button[aria-label=\"Subfolders of Archive\"]").await;
    h.wait_for_text(".vault-tree", "2026").await;
    h.js(
        "[...document.querySelectorAll('.vault-tree .link-button')].find(b => b.textContent === '2026').click()",
        vec![],
    )
    .await;
    h.wait_js("location.search.includes('path=Archive%2F2026')", "the tree's folder in the URL").await;
    h.wait_for_text(".vault-crumbs [aria-current=location]", "2026").await;

    // Back at the top: Archive now holds 2026.
    h.click(".vault-crumbs li:first-child button").await;
    h.click(&format!("{} .vault-name", row("Archive"))).await;
    h.wait_for(&row("Archive/2026")).await;
    h.click(".vault-crumbs li:first-child button").await;

    // Clients as a zip: the archive arrives (its size is in the message).
    h.wait_for(&row("Clients")).await;
    h.click(&format!("{} input[type=checkbox]", row("Clients"))).await;
    h.wait_for_text("#vault-zip", "Download 1 folder as zip").await;
    h.click("#vault-zip").await;
    h.wait_for("#vault-zip-name").await;
    h.click("#vault-zip-download").await;
    h.wait_for_text(".toasts", "Downloaded Clients.zip").await;

    // Delete Clients: the confirmation counts the folder, its file and both versions.
    h.wait_gone(".drawer").await;
    h.click("#vault-delete").await;
    h.wait_for_text("#vault-delete-counts", "1 folder, 2 files and 3 versions (46 bytes) will be moved to the trash")
        .await;
    h.snapshot("delete").await;
    h.click("#vault-delete-confirm").await;
    h.wait_gone(&row("Clients")).await;
    // The listing is read again after a delete: counted once it shows (counted while it was
    // being replaced, it was 0 rows in one CI run).
    h.wait_for(&row("Archive")).await;
    assert_eq!(h.count("tbody tr").await, 1, "only Archive is left");
    h.wait_for_text("#vault-usage", "2 folders, 0 files").await;
    h.finish().await;
}

/// Bulk actions on a selection: three files ticked by a click and a shift-click, moved in one
/// request into a folder that already holds one of their names (two moved, one refused, each
/// row saying which), then everything in the folder downloaded as one zip.
#[tokio::test]
async fn a_selection_is_moved_in_one_request_with_each_entrys_outcome_and_zipped() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::VaultRead, Scope::VaultWrite]).await;
    h.sign_in(&token).await;
    h.goto("/vault").await;
    h.wait_for("#vault-empty").await;
    new_folder(&h, "Dest").await;
    h.wait_for(&row("Dest")).await;
    let dir = tempfile::tempdir().unwrap();
    // Dest holds a b.txt already.
    h.click(&format!("{} .vault-name", row("Dest"))).await;
    h.wait_js("location.search.includes('path=Dest')", "Dest open").await;
    let b = dir.path().join("b.txt");
    std::fs::write(&b, "the b already in Dest").unwrap();
    upload(&h, &b, 1).await;
    h.wait_for(&row("Dest/b.txt")).await;
    h.click(".vault-crumbs li:first-child button").await;
    h.wait_for(&row("Dest")).await;
    for (n, name) in ["a.txt", "b.txt", "c.txt"].into_iter().enumerate() {
        let f = dir.path().join(name);
        std::fs::write(&f, format!("file {name}")).unwrap();
        upload(&h, &f, n + 2).await;
        h.wait_for(&row(name)).await;
    }

    // A click on a.txt, a shift-click on c.txt: the three files (Dest, the folder, is first).
    h.click(&format!("{} input[type=checkbox]", row("a.txt"))).await;
    h.js(
        &format!("document.querySelector('{} input[type=checkbox]').dispatchEvent(new MouseEvent('click', {{ shiftKey: true, bubbles: true, cancelable: true }}))", row("c.txt").replace('\'', "\\'")),
        vec![],
    )
    .await;
    h.wait_for_text("#vault-bulk-bar .bulk-count", "3 entries selected.").await;
    h.click("#vault-move").await;
    h.wait_for(".drawer .vault-picker").await;
    h.js("[...document.querySelectorAll('.drawer .vault-picker button')].find(b => b.textContent.includes('Dest')).click()", vec![]).await;
    h.wait_for_text("#vault-move-target", "/Dest").await;
    h.click("#vault-move-here").await;
    h.wait_gone(".drawer").await;

    // The partial success is said: the summary counts both, b.txt stays with why.
    h.wait_for_text("#vault-bulk-summary", "2 moved, 1 refused.").await;
    h.wait_gone(&row("a.txt")).await;
    h.wait_for_text(&format!("{} [data-key=outcome]", row("b.txt")), "Refused:").await;
    h.wait_for_text(&format!("{} [data-key=outcome]", row("b.txt")), "Dest/b.txt exists").await;
    h.click("#vault-bulk-summary [data-bulk=show-refused]").await;
    h.wait_for_text("#vault-bulk-refused", "b.txt").await;
    h.snapshot("bulk-move").await;

    // Everything in Dest, as one zip: the page ticked, then all of the folder.
    h.click(&format!("{} .vault-name", row("Dest"))).await;
    h.wait_for(&row("Dest/c.txt")).await;
    h.click("#vault-table thead input[type=checkbox]").await;
    h.wait_for_text("#vault-bulk-bar .bulk-count", "3 entries selected.").await;
    h.wait_for_text("#vault-zip", "Download 3 items as zip").await;
    h.click("#vault-zip").await;
    h.wait_for_text("#vault-zip-what", "/Dest/a.txt").await;
    h.click("#vault-zip-download").await;
    h.wait_for_text(".toasts", "Downloaded Dest selection.zip").await;
    h.finish().await;
}
