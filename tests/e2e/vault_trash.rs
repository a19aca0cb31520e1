//! The vault's trash in the browser (issue 46): a folder deleted from the listing is found in
//! the trash (its own view, `trash=1` in the URL) and restored where it was; an older version
//! of a file restored as the newest from the file's drawer.

use moneydesk_e2e::{Harness, Scope};

use crate::vault::{new_folder, row, upload};

#[tokio::test]
async fn a_deleted_folder_is_found_in_the_trash_and_restored_and_an_old_version_made_the_newest() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::VaultRead, Scope::VaultWrite]).await;
    h.sign_in(&token).await;
    h.goto("/vault").await;
    h.wait_for("#vault-empty").await;
    new_folder(&h, "Reports").await;
    h.wait_for(&row("Reports")).await;
    h.click(&format!("{} .vault-name", row("Reports"))).await;
    h.wait_js("location.search.includes('path=Reports')", "Reports open").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q3.txt");
    std::fs::write(&file, "first").unwrap();
    upload(&h, &file, 1).await;
    std::fs::write(&file, "second, longer").unwrap();
    upload(&h, &file, 2).await;
    h.wait_js(
        "document.querySelector('tr[data-path=\"Reports/q3.txt\"] td[data-key=versions]')?.textContent === '2'",
        "two versions",
    )
    .await;

    // Version 1 made the newest from the drawer: a third version, the history kept.
    h.click(&format!("{} .vault-name", row("Reports/q3.txt"))).await;
    h.wait_for("#vault-versions li[data-version=\"1\"] .vault-restore-version").await;
    assert_eq!(h.count("#vault-versions .vault-restore-version").await, 1, "the newest has none");
    h.click("#vault-versions li[data-version=\"1\"] .vault-restore-version").await;
    h.wait_for_text(".toasts", "Version 1 restored as version 3.").await;
    h.wait_for("#vault-versions li[data-version=\"3\"]").await;
    h.click(".drawer-close").await;
    h.wait_gone(".drawer").await;

    // Deleted: the confirmation says it goes to the trash.
    h.click(".vault-crumbs li:first-child button").await;
    h.wait_for(&row("Reports")).await;
    h.click(&format!("{} input[type=checkbox]", row("Reports"))).await;
    h.click("#vault-delete").await;
    h.wait_for_text("#vault-delete-counts", "will be moved to the trash").await;
    h.click("#vault-delete-confirm").await;
    h.wait_gone(&row("Reports")).await;
    h.wait_for("#vault-empty").await;

    // In the trash, then restored where it was.
    h.click("#vault-trash-link").await;
    h.wait_js("location.search.includes('trash=1')", "the trash in the URL").await;
    h.wait_for(&row("Reports")).await;
    h.wait_for_text("#vault-trash-table", "/Reports").await;
    h.snapshot("trash").await;
    let axe = crate::a11y::axe_source();
    let mut problems = crate::a11y::violations(&h, &axe).await;
    h.click(&format!("{} .vault-restore", row("Reports"))).await;
    h.wait_for("#vault-restore-path").await;
    h.snapshot("trash-restore").await;
    problems.extend(crate::a11y::violations(&h, &axe).await);
    assert!(problems.is_empty(), "axe-core on the trash and its restore drawer:\n{}", problems.join("\n"));
    h.click("#vault-restore-confirm").await;
    h.wait_for_text(".toasts", "“Reports” restored to /Reports.").await;
    h.wait_for("#vault-trash-empty").await;
    h.click("#vault-trash-back").await;
    h.wait_js("!location.search.includes('trash=1')", "back at the vault").await;
    h.wait_for(&row("Reports")).await;
    h.click(&format!("{} .vault-name", row("Reports"))).await;
    h.wait_for(&row("Reports/q3.txt")).await;
    h.finish().await;
}
