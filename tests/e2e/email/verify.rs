//! Verify and Domains against the tests' DNS server: an address's checks, a list in bulk, a
//! sending domain through verification, and a token with `email:verify` alone.

use moneydesk_e2e::{Harness, Scope};

/// Verify against the tests' DNS server: one address with its checks explained and the
/// suggestion followed, then a pasted list in bulk, filtered by verdict.
#[tokio::test]
async fn an_address_is_verified_with_each_check_explained_and_a_list_in_bulk() {
    let dns = moneydesk_e2e::dns::DnsServer::start().await;
    dns.mx("gmial.com", 10, "mx.gmial.com").mx("gmail.com", 5, "gmail-smtp-in.l.google.com").mx(
        "bank.example",
        10,
        "mx.bank.example",
    );
    let h = Harness::start_with(|c| c.email.verify.dns_server = Some(dns.addr)).await;
    // The Email page is the email:send group's; its Verify tab asks with email:verify.
    let token = h.token(&[Scope::EmailSend, Scope::EmailVerify]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=verify").await;
    h.type_into("#verify-address", "jane@gmial.com").await;
    h.click(".email-verify-one button[type=submit]").await;
    h.wait_for_text("#verification .badge", "Risky").await;
    h.wait_js("new URLSearchParams(location.search).get('address') === 'jane@gmial.com'", "the address in the URL")
        .await;
    h.wait_for_text("#verification tr[data-check=typo]", "did you mean gmail.com?").await;
    h.wait_for_text("#verification tr[data-check=mail_server]", "MX: mx.gmial.com (10)").await;
    h.wait_for_text("#verification-score", "60 / 100").await;
    // The suggestion, verified in one click.
    h.click(".verification-suggestion button").await;
    h.wait_for_text("#verification .badge", "Valid").await;
    h.wait_for_text("#verification .verification-email", "jane@gmail.com").await;

    h.type_into("#verify-list", "ops@bank.example\nsomeone@nowhere.example, not-an-address\nops@bank.example").await;
    h.wait_for_text("#verify-list-count", "3 addresses").await;
    h.click(".email-verify-list button[type=submit]").await;
    h.wait_for_text("#verify-results-title", "3 verified, 2 domains looked up").await;
    assert_eq!(h.count("#verify-results tbody tr").await, 3);
    h.click("#verify-show-invalid").await;
    h.wait_js("document.querySelectorAll('#verify-results tbody tr').length === 2", "only the invalid ones").await;
    h.wait_for_text("#verify-results", "does not exist (NXDOMAIN)").await;
    h.finish().await;
}

/// Domains against the tests' DNS server: a domain registered, its records shown, verified
/// with nothing installed (missing), installed and verified again (found), then activated.
#[tokio::test]
async fn a_sending_domain_is_registered_verified_and_activated() {
    let dns = moneydesk_e2e::dns::DnsServer::start().await;
    let h = Harness::start_with(|c| c.email.verify.dns_server = Some(dns.addr)).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=domains").await;
    h.wait_for("#domains-empty").await;
    h.type_into("#domain-name", "notices.bank.example").await;
    h.click(".email-domain-new button[type=submit]").await;
    h.wait_for_text("#domain-title", "notices.bank.example").await;
    h.wait_js("new URLSearchParams(location.search).get('domain') === 'notices.bank.example'", "the domain in the URL")
        .await;
    h.wait_for_text("#domain-title .badge", "Pending").await;
    h.wait_for_text("#domain-records tr[data-purpose=return_path]", "mdbounce.notices.bank.example").await;
    h.wait_for_text("#domains-table", "notices.bank.example").await;

    h.click("#domain-verify").await;
    h.wait_for_text("#domain-records tr[data-purpose=dkim1] .badge", "Missing").await;
    h.wait_for_text("#domain-said", "Not all records").await;

    // The records are the same for every registration of a domain: install them.
    for r in moneydesk_model::email::domains::records_for("notices.bank.example", "moneydesk.test") {
        match r.kind {
            moneydesk_model::email::domains::RecordKind::Cname => dns.cname(&r.host, &r.value),
            moneydesk_model::email::domains::RecordKind::Txt => dns.txt(&r.host, &r.value),
        };
    }
    h.click("#domain-verify").await;
    h.wait_for_text("#domain-records tr[data-purpose=dkim2] .badge", "Found").await;
    h.wait_for_text("#domain-title .badge", "Verified").await;
    h.click("#domain-activate").await;
    h.wait_for_text("#domain-title .badge", "Active").await;
    h.wait_for_text("#domain-said", "DKIM-signed").await;
    h.finish().await;
}

/// A token with `email:verify` alone opens the Email page on its Verify tab and sees no other.
#[tokio::test]
async fn a_verify_only_token_opens_the_page_on_the_verify_tab_alone() {
    let dns = moneydesk_e2e::dns::DnsServer::start().await;
    dns.mx("bank.example", 10, "mx.bank.example");
    let h = Harness::start_with(|c| c.email.verify.dns_server = Some(dns.addr)).await;
    let token = h.token(&[Scope::EmailVerify]).await;
    h.sign_in(&token).await;
    h.goto("/email").await;
    h.wait_for("#verify-address").await;
    assert_eq!(h.count(".email-tab").await, 1, "only the Verify tab");
    h.wait_for_text("#email-tab-verify", "Verify").await;
    h.type_into("#verify-address", "ops@bank.example").await;
    h.click(".email-verify-one button[type=submit]").await;
    h.wait_for_text("#verification .badge", "Valid").await;
    h.finish().await;
}
