//! X9 return files against a real cash letter, and the watched folder they can be dropped in.

use super::*;

on_both_backends!(
    an_x9_return_file_returns_its_match_keeps_the_rest_and_is_read_once,
    the_watched_folder_reads_what_is_dropped_in_it,
);

async fn an_x9_return_file_returns_its_match_keeps_the_rest_and_is_read_once(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let opening = balances(&d, 0).await.0;
    let (first, fee) = check(&d, 1, 12_550, 0).await;
    let (second, _) = check(&d, 2, 30_000, 1).await;
    cash_letter(&d, &[first, second]).await;

    let (f, s) = (first.to_string(), second.to_string());
    let items = [
        returned(1, 12_550, 'A', &f),
        returned(2, 777, 'D', "999999"),
        returned(3, 12_550, 'A', &f),
        returned(4, 30_000, 'B', &s),
    ];
    let mut bytes = x9_file(&items);
    // Records: 01, 10, 20, then each item's 31 and 32 (4, 6, 8, 10). The last one's return
    // reason (position 42) becomes '0', which is no code.
    let at = record_at(&bytes, 10);
    assert_eq!(&bytes[at..at + 2], b"31");
    bytes[at + 41] = b'0';

    let (status, result) = upload(&d, bytes.clone(), "returns-1.x937", "application/octet-stream").await;
    assert_eq!(status, 201, "{result}");
    let file_id = result["data"]["fileId"].as_i64().unwrap();
    assert_eq!(
        (result["data"]["format"].as_str(), result["data"]["fileName"].as_str()),
        (Some("x9"), Some("returns-1.x937"))
    );
    assert_eq!(result["data"]["items"].as_array().unwrap().len(), 4, "nothing dropped: {result}");
    let matched = by_record(&result, 4);
    assert_eq!((matched["state"].as_str(), matched["depositId"].as_i64()), (Some("matched"), Some(first)), "{matched}");
    assert_eq!((matched["reasonCode"].as_str(), matched["reason"].as_str()), (Some("A"), Some("Not Sufficient Funds")));
    assert_eq!(matched["reference"], f.as_str());
    let unknown = by_record(&result, 6);
    assert_eq!(unknown["state"], "unmatched", "{unknown}");
    assert!(unknown["note"].as_str().unwrap().contains("999999"), "{unknown}");
    assert_eq!(by_record(&result, 8)["state"], "duplicate", "the same item again posts nothing");
    let damaged = by_record(&result, 10);
    assert_eq!((damaged["state"].as_str(), damaged["depositId"].as_i64()), (Some("unmatched"), None), "{damaged}");
    let errors = result["data"]["errors"].as_array().unwrap();
    assert!(
        errors.iter().any(|e| e["recordNumber"] == 10 && e["field"] == "Return Reason"),
        "the damaged record is named: {errors:?}"
    );

    let returned = detail(&d, first).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    let last = returned["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["reason"], format!("A Not Sufficient Funds (return file {file_id}, record 4)"));
    assert_eq!(detail(&d, second).await["record"]["status"], "Sent_3", "a damaged record is never posted");
    let after = opening - fee - Decimal::from(15);
    assert_eq!(
        balances(&d, 0).await,
        (after, after, after, Decimal::ZERO),
        "credit reversed, fee and returned-item fee charged"
    );

    let (status, again) = upload(&d, bytes, "other-name.x937", "application/octet-stream").await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"], result["data"], "the same file answers its first result");
    assert_eq!(balances(&d, 0).await.0, after, "and posts nothing");

    let (status, refused) = upload(&d, b"hello, this is not a return file".to_vec(), "x.txt", "text/plain").await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused.to_string().contains("neither an X9.100-187 file"), "{refused}");
    let (mismatches, unbalanced) = d.server.running.state.stores.ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]));
}

async fn the_watched_folder_reads_what_is_dropped_in_it(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let drop_dir = dir.path().join("returns");
    std::fs::create_dir_all(&drop_dir).unwrap();
    std::fs::write(drop_dir.join("junk.txt"), "not a return file").unwrap();
    std::fs::write(drop_dir.join(".half-written"), "ignored until renamed").unwrap();
    let url = backend.database_url(dir.path()).await;
    let folder_dir = drop_dir.clone();
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.returns.dir = Some(folder_dir);
    })
    .await;
    // The job reads the folder when the server starts.
    let failed = drop_dir.join("failed");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !failed.join("junk.txt.error.txt").exists() {
        assert!(std::time::Instant::now() < deadline, "the job did not read the folder");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(failed.join("junk.txt").exists() && drop_dir.join(".half-written").exists());
    let why = std::fs::read_to_string(failed.join("junk.txt.error.txt")).unwrap();
    assert!(why.contains("cannot be read"), "{why}");

    let d = desk_on(server).await;
    let (id, _) = check(&d, 8, 6_100, 0).await;
    cash_letter(&d, &[id]).await;
    std::fs::write(drop_dir.join("fed-returns.x937"), x9_file(&[returned(1, 6_100, 'A', &id.to_string())])).unwrap();
    let state = DepositsState::from_ref(&d.server.running.state);
    // The job's next run may take it first: either way it is read once and moved.
    let swept = folder::sweep(&state, &drop_dir).await.unwrap();
    assert_eq!(swept.failed, 0);
    assert!(drop_dir.join("processed/fed-returns.x937").exists() && !drop_dir.join("fed-returns.x937").exists());
    let returned = detail(&d, id).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    assert_eq!(returned["history"].as_array().unwrap().last().unwrap()["actor"], folder::ACTOR);
    assert_eq!(folder::sweep(&state, &drop_dir).await.unwrap(), folder::Swept::default(), "nothing left to read");
}
