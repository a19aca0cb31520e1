//! The report reader against the shapes real servers send: Postfix's, Exim's, Gmail's DSNs
//! (headers of each kept as those servers write them; a folded line's leading white space is
//! written `\t` or `\x20`, which a string continuation would otherwise swallow), a Postfix delay notice, a Yahoo-style ARF
//! complaint, and mail that is not a report.

use super::*;

/// Postfix 3 (bounce(8)): text part, `message/delivery-status`, `text/rfc822-headers`.
const POSTFIX: &str = "Return-Path: <>\r\n\
From: MAILER-DAEMON@mx.client.example (Mail Delivery System)\r\n\
Subject: Undelivered Mail Returned to Sender\r\n\
To: bounces+msg_0a1b2c@mdbounce.bank.example\r\n\
Auto-Submitted: auto-replied\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status;\r\n\
\tboundary=\"8A1B2C3D4E.1700000000/mx.client.example\"\r\n\
\r\n\
This is a MIME-encapsulated message.\r\n\
\r\n\
--8A1B2C3D4E.1700000000/mx.client.example\r\n\
Content-Description: Notification\r\n\
Content-Type: text/plain; charset=us-ascii\r\n\
\r\n\
I'm sorry to have to inform you that your message could not\r\n\
be delivered to one or more recipients.\r\n\
\r\n\
--8A1B2C3D4E.1700000000/mx.client.example\r\n\
Content-Description: Delivery report\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mx.client.example\r\n\
X-Postfix-Queue-ID: 8A1B2C3D4E\r\n\
X-Postfix-Sender: rfc822; bounces+msg_0a1b2c@mdbounce.bank.example\r\n\
Arrival-Date: Tue, 14 Nov 2023 22:13:20 +0000 (UTC)\r\n\
\r\n\
Final-Recipient: rfc822; Gone@Client.example\r\n\
Original-Recipient: rfc822;gone@client.example\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Remote-MTA: dns; mail.client.example\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <gone@client.example>: Recipient address\r\n\
\t rejected: User unknown in local recipient table\r\n\
\r\n\
--8A1B2C3D4E.1700000000/mx.client.example\r\n\
Content-Description: Undelivered Message Headers\r\n\
Content-Type: text/rfc822-headers\r\n\
\r\n\
From: Bank <statements@bank.example>\r\n\
To: gone@client.example\r\n\
Subject: Your statement\r\n\
Message-ID: <3f2a@bank.example>\r\n\
\r\n\
--8A1B2C3D4E.1700000000/mx.client.example--\r\n";

/// Exim 4: the returned message whole (`message/rfc822`), two recipients, one of them failed
/// with a 4.x.x status after retries timed out (Exim says `failed`, the status says soft).
const EXIM: &str = "From: Mail Delivery System <Mailer-Daemon@smtp.client.example>\n\
To: bounces+msg_77@mdbounce.bank.example\n\
Subject: Mail delivery failed: returning message to sender\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=1700000000-eximdsn-1234\n\
MIME-Version: 1.0\n\
\n\
--1700000000-eximdsn-1234\n\
Content-type: text/plain; charset=us-ascii\n\
\n\
This message was created automatically by mail delivery software.\n\
\n\
--1700000000-eximdsn-1234\n\
Content-type: message/delivery-status\n\
\n\
Reporting-MTA: dns; smtp.client.example\n\
\n\
Action: failed\n\
Final-Recipient: rfc822;nobody@client.example\n\
Status: 5.0.0\n\
Remote-MTA: dns; mx.client.example\n\
Diagnostic-Code: smtp; 550 No Such User Here\n\
\n\
Action: failed\n\
Final-Recipient: rfc822;full@client.example\n\
Status: 4.2.2\n\
\n\
--1700000000-eximdsn-1234\n\
Content-type: message/rfc822\n\
\n\
Message-ID: <e1x@bank.example>\n\
From: statements@bank.example\n\
To: nobody@client.example, full@client.example\n\
Subject: Statement\n\
\n\
Hello\n\
\n\
--1700000000-eximdsn-1234--\n";

/// Gmail (mailer-daemon@googlemail.com): a folded multi-line diagnostic, quoted-printable text.
const GMAIL: &str = "Delivered-To: bounces+msg_9@mdbounce.bank.example\r\n\
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>\r\n\
To: bounces+msg_9@mdbounce.bank.example\r\n\
Auto-Submitted: auto-replied\r\n\
Subject: Delivery Status Notification (Failure)\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; boundary=\"000000000000a1b2c3\"; report-type=delivery-status\r\n\
\r\n\
--000000000000a1b2c3\r\n\
Content-Type: multipart/related; boundary=\"000000000000d4e5f6\"\r\n\
\r\n\
--000000000000d4e5f6\r\n\
Content-Type: text/plain; charset=\"UTF-8\"\r\n\
Content-Transfer-Encoding: quoted-printable\r\n\
\r\n\
** Address not found **=0D\r\n\
\r\n\
--000000000000d4e5f6--\r\n\
--000000000000a1b2c3\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; googlemail.com\r\n\
Received-From-MTA: dns; relay.bank.example\r\n\
Arrival-Date: Tue, 14 Nov 2023 14:13:20 -0800 (PST)\r\n\
X-Original-Message-ID: <g1@bank.example>\r\n\
\r\n\
Final-Recipient: rfc822; no.such.person@gmail.com\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n\
\x20550-5.1.1 double-checking the recipient's email address for typos or\r\n\
\x20550 5.1.1 https://support.google.com/mail/?p=NoSuchUser a1si123456qkb.1 - gsmtp\r\n\
Last-Attempt-Date: Tue, 14 Nov 2023 14:13:21 -0800 (PST)\r\n\
\r\n\
--000000000000a1b2c3\r\n\
Content-Type: message/rfc822\r\n\
\r\n\
Message-ID: <g1@bank.example>\r\n\
To: no.such.person@gmail.com\r\n\
Subject: Statement\r\n\
\r\n\
Hi\r\n\
--000000000000a1b2c3--\r\n";

/// Postfix's delay warning (`notify_classes = delay`): `Action: delayed`, 4.x.x.
const DELAYED: &str = "From: MAILER-DAEMON@mx.client.example\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\
\r\n\
--b\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mx.client.example\r\n\
\r\n\
Final-Recipient: rfc822; slow@client.example\r\n\
Action: delayed\r\n\
Status: 4.4.1\r\n\
Diagnostic-Code: X-Postfix; connect to mail.client.example[192.0.2.1]:25: Connection timed out\r\n\
\r\n\
--b--\r\n";

/// An ARF complaint (Yahoo / AOL feedback loops write it so).
const ARF: &str = "From: feedback@arf.mail.yahoo.com\r\n\
To: bounces+msg_c0@mdbounce.bank.example\r\n\
Subject: FW: Statement\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=feedback-report; boundary=\"arf\"\r\n\
\r\n\
--arf\r\n\
Content-Type: text/plain\r\n\
\r\n\
This is an email abuse report for an email message received from IP 192.0.2.10.\r\n\
--arf\r\n\
Content-Type: message/feedback-report\r\n\
\r\n\
Feedback-Type: abuse\r\n\
User-Agent: Yahoo!-Mail-Feedback/2.0\r\n\
Version: 1\r\n\
Original-Mail-From: <bounces+msg_c0@mdbounce.bank.example>\r\n\
Original-Rcpt-To: <Reader@Yahoo.example>\r\n\
Arrival-Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n\
Reported-Domain: bank.example\r\n\
\r\n\
--arf\r\n\
Content-Type: message/rfc822\r\n\
\r\n\
From: statements@bank.example\r\n\
To: reader@yahoo.example\r\n\
Message-ID: <c0@bank.example>\r\n\
Subject: Statement\r\n\
\r\n\
Hi\r\n\
--arf--\r\n";

#[test]
fn postfix_hard_bounce() {
    let Report::DeliveryStatus { recipients, returned } = read(POSTFIX.as_bytes()).unwrap() else { panic!() };
    assert_eq!(recipients.len(), 1);
    let r = &recipients[0];
    assert_eq!(r.address, "gone@client.example");
    assert_eq!((r.action.as_str(), r.status.as_deref()), ("failed", Some("5.1.1")));
    assert_eq!(
        r.diagnostic.as_deref(),
        Some("550 5.1.1 <gone@client.example>: Recipient address rejected: User unknown in local recipient table")
    );
    assert_eq!(r.kind(), Some(BounceKind::Hard));
    assert_eq!(returned.message_id.as_deref(), Some("3f2a@bank.example"));
    assert_eq!(returned.to, ["gone@client.example"]);
}

#[test]
fn exim_with_two_recipients_one_soft() {
    let report = read(EXIM.as_bytes()).unwrap();
    assert_eq!(report.report_type(), "delivery-status");
    let Report::DeliveryStatus { recipients, returned } = report else { panic!() };
    let kinds: Vec<_> = recipients.iter().map(|r| (r.address.as_str(), r.kind())).collect();
    assert_eq!(
        kinds,
        [("nobody@client.example", Some(BounceKind::Hard)), ("full@client.example", Some(BounceKind::Soft))]
    );
    assert_eq!(recipients[0].diagnostic.as_deref(), Some("550 No Such User Here"));
    assert_eq!(returned.message_id.as_deref(), Some("e1x@bank.example"));
}

#[test]
fn gmail_with_a_folded_diagnostic() {
    let Report::DeliveryStatus { recipients, returned } = read(GMAIL.as_bytes()).unwrap() else { panic!() };
    let r = &recipients[0];
    assert_eq!(r.address, "no.such.person@gmail.com");
    assert_eq!(r.kind(), Some(BounceKind::Hard));
    let d = r.diagnostic.as_deref().unwrap();
    assert!(d.starts_with("550-5.1.1 The email account") && d.ends_with("- gsmtp"), "{d}");
    assert!(!d.contains(['\r', '\n']));
    assert_eq!(returned.message_id.as_deref(), Some("g1@bank.example"));
}

#[test]
fn a_delay_is_soft() {
    let Report::DeliveryStatus { recipients, returned } = read(DELAYED.as_bytes()).unwrap() else { panic!() };
    assert_eq!(recipients[0].kind(), Some(BounceKind::Soft));
    assert_eq!(recipients[0].status.as_deref(), Some("4.4.1"));
    assert_eq!(returned, Returned::default(), "no returned part");
}

#[test]
fn delivered_and_relayed_are_not_bounces() {
    let r = |action: &str, status: &str| RecipientStatus {
        address: "a@b.example".into(),
        action: action.into(),
        status: Some(status.into()),
        diagnostic: None,
    };
    assert_eq!(r("delivered", "2.0.0").kind(), None);
    assert_eq!(r("relayed", "2.0.0").kind(), None);
    assert_eq!(r("failed", "4.4.7").kind(), Some(BounceKind::Soft));
}

#[test]
fn an_arf_complaint() {
    let report = read(ARF.as_bytes()).unwrap();
    assert_eq!(report.report_type(), "feedback-report");
    let Report::Feedback { feedback_type, original_rcpt_to, returned } = report else { panic!() };
    assert_eq!(feedback_type, "abuse");
    assert_eq!(original_rcpt_to, ["reader@yahoo.example"]);
    assert_eq!(returned.message_id.as_deref(), Some("c0@bank.example"));
}

#[test]
fn mail_that_is_not_a_report_says_why() {
    let why = read(b"From: someone@client.example\r\nSubject: Out of office\r\n\r\nI am away.\r\n").unwrap_err();
    assert!(why.contains("not multipart/report"), "{why}");
    let no_status = "Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nGone.\r\n--x--\r\n";
    assert!(read(no_status.as_bytes()).unwrap_err().contains("without a message/delivery-status"));
    let no_recipient = "Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; a.example\r\n--x--\r\n";
    assert!(read(no_recipient.as_bytes()).unwrap_err().contains("no recipient"));
    assert!(read(b"").is_err());
}
