//! The permissions page over the seeded demo data: sort and filter, and the page refused to a
//! token without its scope.

use moneydesk_e2e::{Harness, Scope};

use crate::tables::{api, column, group, ids, settled};

#[tokio::test]
async fn permissions_page_shows_and_filters_rows() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::PermissionsRead]).await;
    h.sign_in(&token).await;
    h.goto("/permissions?size=25&sort=grantedAt,desc").await;
    h.wait_for_text("main h1", "Permissions").await;
    let total = api(&h, &token, "/api/v2/services/company/users/permissions?size=1").await["data"]["totalElements"]
        .as_u64()
        .unwrap();
    h.wait_for_text(".table-total", &format!("1–25 of {} permissions", group(total))).await;
    settled(&h).await;
    assert_eq!(ids(&h).await.len(), 25);
    assert_eq!(
        h.wait_for("th[data-key=grantedAt]").await.attr("aria-sort").await.unwrap().as_deref(),
        Some("descending")
    );
    assert!(column(&h, "userName").await.iter().all(|n| !n.is_empty()));

    h.select("#permissions-filter-scope", "admin").await;
    h.wait_js("location.search.includes('scope=admin')", "the scope filter in the URL").await;
    settled(&h).await;
    let scopes = column(&h, "scope").await;
    assert!(!scopes.is_empty() && scopes.iter().all(|s| s == "admin"), "{scopes:?}");

    // A token without accounts:read is refused the accounts page.
    h.goto("/accounts").await;
    h.wait_for("[data-testid=access-denied]").await;
    h.finish().await;
}
