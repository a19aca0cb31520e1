//! The Outbox's "Resend" against a real SMTP relay on a loopback socket: the relay refuses the
//! first recipient it is given with a 550 (permanent: the message fails, not retried), the
//! failed message is resent from its page, and the relay takes it the second time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use moneydesk_e2e::{Harness, Scope};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A relay that answers the first RCPT with 550 and takes every later message; counts the
/// messages it took.
async fn relay_refusing_once() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (rcpts, taken) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let counted = taken.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (rcpts, taken) = (rcpts.clone(), counted.clone());
            tokio::spawn(async move {
                let (r, mut w) = socket.into_split();
                let mut lines = BufReader::new(r).lines();
                w.write_all(b"220 relay.test ESMTP\r\n").await.ok()?;
                while let Some(line) = lines.next_line().await.ok()? {
                    let verb = line.split(' ').next().unwrap_or_default().to_ascii_uppercase();
                    let reply = match verb.as_str() {
                        "EHLO" | "HELO" => "250 relay.test",
                        "MAIL" | "RSET" | "NOOP" => "250 2.0.0 Ok",
                        "RCPT" if rcpts.fetch_add(1, Ordering::SeqCst) == 0 => {
                            "550 5.1.1 Recipient address rejected: no such mailbox"
                        }
                        "RCPT" => "250 2.1.5 Ok",
                        "DATA" => {
                            w.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await.ok()?;
                            while lines.next_line().await.ok()?? != "." {}
                            taken.fetch_add(1, Ordering::SeqCst);
                            "250 2.0.0 Ok: queued"
                        }
                        "QUIT" => {
                            w.write_all(b"221 2.0.0 Bye\r\n").await.ok()?;
                            return Some(());
                        }
                        _ => "502 5.5.2 Command not recognized",
                    };
                    w.write_all(format!("{reply}\r\n").as_bytes()).await.ok()?;
                }
                Some(())
            });
        }
    });
    (url, taken)
}

#[tokio::test]
async fn a_message_the_relay_refused_is_resent_from_its_page_and_then_sent() {
    let (relay, taken) = relay_refusing_once().await;
    let h = Harness::start_with(|c| {
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
    })
    .await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email").await;
    h.wait_for_text("#email-from-address", "ops@moneydesk.test").await;
    h.type_into("#email-to", "zoe@client.example,").await;
    h.type_into("#email-subject", "Your statement").await;
    h.type_into("#email-text", "Hello Zoe").await;
    h.click("#email-send").await;
    h.wait_for_text("#email-notice", "1 message queued").await;

    h.goto("/email?tab=outbox").await;
    h.wait_for_text("#email-outbox-table .badge", "Failed").await;
    h.wait_for_text("#email-outbox-table", "550").await;
    h.click("#email-outbox-table .email-open").await;
    h.wait_for_text("#email-message-state", "Failed").await;
    h.wait_for_text("#email-message", "SMTP relay").await;
    h.click("#email-resend").await;
    // Queued again with the resend in its log, then taken by the relay.
    h.wait_for_text("#email-message .email-attempts", "Resent by").await;
    // The list asks again only while a message is on its way: a fresh look shows it sent.
    h.goto("/email?tab=outbox").await;
    h.wait_for_text("#email-outbox-table .badge", "Sent").await;
    h.click("#email-outbox-table .email-open").await;
    h.wait_for_text("#email-message-state", "Sent").await;
    assert_eq!(h.count("#email-message .email-attempts tbody tr").await, 3, "failed, resent, sent");
    assert_eq!(taken.load(Ordering::SeqCst), 1, "the relay took it once");
    h.finish().await;
}
