//! Fuzzes the server through its own OpenAPI document with schemathesis 4 (issue 11): every
//! operation, `--checks all`, a fixed seed and a bounded number of examples per operation,
//! against a real server on a temporary SQLite database with the demo data and an `admin`
//! token. Fails on any server error and on any answer that violates the document.
//! `scripts/setup` installs schemathesis into `$MONEYDESK_CACHE/schemathesis`; without it the
//! test is skipped with a note, except in CI (`CI` set), where it fails.
//!
//! Rules that span several parameters (several page sizes must agree, a routing number's
//! checksum, the search's "at least one criterion") cannot be written in the document; the
//! hooks in `tests/server/schemathesis/hooks.py` keep generated requests within them. The coverage
//! phase (boundary values, every rule broken in turn) does not run those hooks, so it runs
//! separately, without the one check those rules defeat (`positive_data_acceptance`: a
//! request the document allows is accepted); the examples and fuzzing phases run every check.

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use common::{json, Server};
use moneydesk_model::{paths, Scope};

/// Examples per operation: enough to reach every parameter's rules, small enough for a run
/// well under two minutes.
const EXAMPLES: &str = "40";
const SEED: &str = "20261124";

fn st_binary() -> PathBuf {
    let cache = std::env::var_os("MONEYDESK_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/moneydesk"));
    cache.join("schemathesis/bin/st")
}

/// One `[[operations]]` entry per operation that documents a 410 (a sign-in link used, expired
/// or revoked): there valid data whose object is gone is answered 410, as the fuzzer replays a
/// secret it was given once. No operation answers 501: a 501 is a server error like any other.
fn documented_410s(doc: &serde_json::Value) -> String {
    let mut config = String::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            assert!(op["responses"].get("501").is_none(), "{method} {path} documents a 501");
            if op["responses"].get("410").is_some() {
                writeln!(
                    config,
                    "[[operations]]\ninclude-path = {path:?}\ninclude-method = {:?}\n\
                     checks.positive_data_acceptance.expected-statuses = [\"2xx\", \"3xx\", \"401\", \"403\", \"404\", \"409\", \"410\", \"429\", \"5xx\"]\n",
                    method.to_ascii_uppercase()
                )
                .unwrap();
            }
        }
    }
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_keeps_its_openapi_document_under_fuzzing() {
    let st = st_binary();
    if !st.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "schemathesis is not installed at {} (run scripts/setup); CI must run this test",
            st.display()
        );
        eprintln!("SKIPPED: schemathesis is not installed at {} (run scripts/setup)", st.display());
        return;
    }
    // Address verification asks this DNS server (every generated domain: NXDOMAIN at once).
    let dns = common::dns::DnsServer::start().await;
    dns.mx("example.com", 10, "mx.example.com");
    let s = Server::start_with(|c| {
        c.email.verify.dns_server = Some(dns.addr);
        c.seed_demo = true;
        c.routing_refresh = None;
        // The fuzzer is one client sending as fast as it can; the fee quotes' limit is tested
        // in tests/server/fees.rs, here it would leave the quotes' logic untested behind 429s.
        c.fees_rate = moneydesk_server::rate_limit::Quota { per_second: 10_000, burst: 10_000 };
        // Webhook endpoints point at a closed loopback port the hooks write (a URL's host must
        // resolve and be allowed: rules of the data).
        c.webhooks.allow = vec![moneydesk_server::config::webhooks::Allowed::Host("127.0.0.1".into())];
    })
    .await;
    let token = s.token(&[Scope::Admin]).await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    let config = s.dir.path().join("schemathesis.toml");
    std::fs::write(&config, documented_410s(&doc)).unwrap();
    // A deposit's payee is an account of the collection: the hooks use one of the demo data's.
    let accounts = json(s.get_auth(&format!("{}?size=1", paths::ACCOUNTS), &token).await).await;
    let account_id = accounts["data"]["content"][0]["id"].as_str().expect("a demo account").to_string();
    // A return file upload is a file the server must read: an ACH return of an entry it never
    // sent (answered with the item listed unmatched), which the hooks send as the body.
    let return_file = s.dir.path().join("return.ach");
    std::fs::write(&return_file, ach_return_file()).unwrap();
    let hooks = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("tests/server/schemathesis");

    let url = s.url(paths::OPENAPI);
    let auth = format!("Authorization: Bearer {token}");
    let runs: [&[&str]; 2] =
        [&["--phases", "examples,fuzzing"], &["--phases", "coverage", "--exclude-checks", "positive_data_acceptance"]];
    for phases in runs {
        let (st, config, hooks, url, auth) = (st.clone(), config.clone(), hooks.clone(), url.clone(), auth.clone());
        let account_id = account_id.clone();
        let return_file = return_file.clone();
        let out = tokio::task::spawn_blocking(move || {
            Command::new(st)
                .arg("--config-file")
                .arg(&config)
                .args(["run", &url, "--checks", "all", "--max-examples", EXAMPLES])
                .args(phases)
                .args(["--seed", SEED, "--workers", "1", "--no-color", "--header", &auth])
                .env("SCHEMATHESIS_HOOKS", "hooks")
                .env("PYTHONPATH", hooks)
                .env("MONEYDESK_ST_ACCOUNT_ID", account_id)
                .env("MONEYDESK_ST_RETURN_FILE", &return_file)
                .current_dir(config.parent().unwrap())
                .output()
                .expect("run schemathesis")
        })
        .await
        .unwrap();
        let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "schemathesis {phases:?} found problems:\n{report}");
        assert!(report.contains("Tested: "), "schemathesis {phases:?} tested nothing:\n{report}");
    }
    s.running.stop().await;
}

/// An RDFI's ACH file returning (R01) a $25.00 pull this server never originated.
fn ach_return_file() -> String {
    use moneydesk_nacha::*;
    let day = Date::from_ymd(2026, 11, 20).unwrap();
    let mut builder = FileBuilder::new(FileInfo::new("121042882", "031300012", day));
    let entry = EntryInfo::new(TransactionCode::CheckingDebitReturn, "121042882", "744567899", 2_500, "Acme");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: TraceNumber { odfi: 2109002, sequence: 9_999_999 },
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: "Not enough money".into(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    let batch = BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, "031300012");
    builder.return_batch(batch, vec![(entry, r01)]);
    write(&builder.build().expect("the return file builds")).expect("the return file writes")
}
