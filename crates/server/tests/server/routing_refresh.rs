//! Refresh: a bad file (short line, bad digit, bad JSON) keeps the previous directory and says
//! where it is wrong; lookups keep answering while reloads swap the index.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use moneydesk_model::routing::RoutingNumber;
use moneydesk_server::routing::directory::{Sources, State};

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

fn real(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

/// A copy of a real file in a temporary directory (never in the repo), so a test can spoil it.
fn scratch(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

async fn state(dir: &Path) -> (State, PathBuf, PathBuf) {
    let ach = scratch(dir, "ach.txt", &real("FedACHdir.txt"));
    let wire = scratch(dir, "wire.json", &real("fpddir.json"));
    let s =
        State::with_sources(Sources { fedach: Some(ach.clone()), fedwire: Some(wire.clone()) }, None).await.unwrap();
    (s, ach, wire)
}

fn rn(s: &str) -> RoutingNumber {
    RoutingNumber::parse(s).unwrap()
}

#[tokio::test]
async fn bad_files_keep_the_previous_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, ach, wire) = state(tmp.path()).await;
    let before = s.current();
    assert_eq!((before.ach.len(), before.wire.len()), (18_198, 10));
    let good = real("FedACHdir.txt");
    let lines: Vec<&str> = good.split("\r\n").collect();

    // A short line (line 17 loses its last 35 characters).
    let mut short = lines.clone();
    let cut = &lines[16][..120];
    short[16] = cut;
    std::fs::write(&ach, short.join("\r\n")).unwrap();
    let e = s.refresh().await.unwrap_err();
    assert_eq!(
        e.to_string(),
        "FedACH file ach.txt line 17: record is 120 characters long, expected 155 for a FedACH record"
    );
    assert!(Arc::ptr_eq(&before, &s.current()), "the previous directory stays in service");
    assert!(s.current().ach(&rn("011000015")).is_some());
    let status = s.status();
    assert!(status.last_error.as_ref().unwrap().message.contains("line 17"));
    assert_eq!(status.ach.records, 18_198);

    // A bad digit in a routing number (line 5's check digit changed).
    let mut bad = lines.clone();
    let l5 = lines[4];
    let wrong = (l5.as_bytes()[8] - b'0' + 1) % 10;
    let spoiled = format!("{}{}{}", &l5[..8], wrong, &l5[9..]);
    bad[4] = &spoiled;
    std::fs::write(&ach, bad.join("\r\n")).unwrap();
    let e = s.refresh().await.unwrap_err().to_string();
    assert!(
        e.starts_with(&format!(
            "FedACH file ach.txt line 5: routingNumber \"{}{}\": checksum digit should be",
            &l5[..8],
            wrong
        )),
        "{e}"
    );
    assert!(Arc::ptr_eq(&before, &s.current()));

    // A letter where a digit belongs.
    let mut letter = lines.clone();
    let spoiled = format!("{}X{}", &l5[..3], &l5[4..]);
    letter[4] = &spoiled;
    std::fs::write(&ach, letter.join("\r\n")).unwrap();
    assert!(s.refresh().await.unwrap_err().to_string().contains("line 5: routingNumber"));

    // Bad JSON in the wire file (the ACH file fixed again).
    std::fs::write(&ach, &good).unwrap();
    let json = real("fpddir.json");
    let broken = json.replacen("\"telegraphicName\" : \"FRB-BOS\",", "\"telegraphicName\" : \"FRB-BOS\"", 1);
    std::fs::write(&wire, broken).unwrap();
    let e = s.refresh().await.unwrap_err();
    assert_eq!((e.directory, e.file.as_str()), ("Fedwire", "wire.json"));
    assert!(e.line.is_some(), "{e}");
    assert!(Arc::ptr_eq(&before, &s.current()));
    // A missing file.
    std::fs::remove_file(&wire).unwrap();
    assert!(s.refresh().await.unwrap_err().to_string().contains("cannot read"));
    assert!(Arc::ptr_eq(&before, &s.current()));

    // Fixed: the refresh swaps in a new directory and clears the error.
    std::fs::write(&wire, &json).unwrap();
    let status = s.refresh().await.unwrap();
    assert!(status.last_error.is_none());
    assert!(!Arc::ptr_eq(&before, &s.current()));
    assert_eq!(status.ach.records, 18_198);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn lookups_keep_answering_while_reloads_swap() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, ach, _) = state(tmp.path()).await;
    let full = real("FedACHdir.txt");
    // The other version: the first 5,000 records only.
    let part: String = full.split_inclusive("\r\n").take(5_000).collect();
    let keys: Vec<RoutingNumber> =
        full.split("\r\n").take(4_000).filter(|l| l.len() > 9).map(|l| rn(&l[..9])).collect();

    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicUsize::new(0));
    let mut readers = Vec::new();
    for t in 0..4 {
        let (s, keys, stop, done) = (s.clone(), keys.clone(), stop.clone(), done.clone());
        readers.push(tokio::spawn(async move {
            let mut i = t;
            while !stop.load(Ordering::Relaxed) {
                let dir = s.current();
                // Never half a directory: one of the two versions, whole.
                assert!(dir.ach.len() == 18_198 || dir.ach.len() == 5_000, "saw {} records", dir.ach.len());
                assert!(dir.ach(&keys[i % keys.len()]).is_some(), "a number in both versions always answers");
                done.fetch_add(1, Ordering::Relaxed);
                i += 7;
                tokio::task::yield_now().await;
            }
        }));
    }
    for round in 0..6 {
        std::fs::write(&ach, if round % 2 == 0 { &part } else { &full }).unwrap();
        let status = s.refresh().await.unwrap();
        assert_eq!(status.ach.records, if round % 2 == 0 { 5_000 } else { 18_198 });
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.await.unwrap();
    }
    assert!(done.load(Ordering::Relaxed) > 0);
}
