//! The inbound SMTP listener (RFC 5321, ESMTP with SIZE, 8BITMIME, SMTPUTF8 and PIPELINING),
//! off unless `MONEYDESK_INBOUND_SMTP` names an address. It refuses at SMTP time what it will
//! not take — a recipient at a domain without a route (550 5.1.1; a sending domain's return
//! path `mdbounce.<domain>` takes bounce reports without one, `email::bounces`), a message larger than
//! `MONEYDESK_INBOUND_MAX_SIZE` (552 5.3.4, announced in `SIZE` and checked against MAIL's
//! `SIZE=` and while reading DATA) — and answers 250 to DATA only once the message is stored
//! (`super::receive`), so a crash before it leaves the sender to retry: nothing is lost.
//!
//! Written for the server rather than taken from a crate: the server side of SMTP is a small
//! state machine over lines, and the crates for it (samotop, mailin) bring their own runtimes
//! or TLS stacks and are not maintained. No STARTTLS: put the listener behind the MX that
//! terminates TLS, or on a private network. Each command waits at most 5 minutes (RFC 5321
//! §4.5.3.2), at most 256 sessions at once (the next ones get 421), at most 100 recipients a
//! message (RFC 5321 §4.5.3.1.8).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::parse::Envelope;
use crate::AppState;

const COMMAND_WAIT: Duration = Duration::from_secs(300);
const MAX_SESSIONS: usize = 256;
const MAX_RECIPIENTS: usize = 100;
/// RFC 5321 §4.5.3.1.4: a command line is at most 512 octets; a little room for extensions.
const MAX_COMMAND: usize = 2048;

/// The running listener; [`Listener::stop`] stops accepting (sessions under way finish).
pub struct Listener {
    pub addr: SocketAddr,
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl Listener {
    pub async fn stop(self) {
        self.cancel.cancel();
        let _ = self.task.await;
    }
}

pub async fn start(state: AppState, addr: SocketAddr) -> anyhow::Result<Listener> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("MONEYDESK_INBOUND_SMTP: listening on {addr}: {e}"))?;
    let addr = listener.local_addr()?;
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let sessions = Arc::new(Semaphore::new(MAX_SESSIONS));
    tracing::info!(%addr, "inbound SMTP listening");
    let task = tokio::spawn(async move {
        loop {
            let (mut socket, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        tracing::warn!(error = %e, "inbound SMTP accept");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                _ = stop.cancelled() => break,
            };
            let Ok(permit) = sessions.clone().try_acquire_owned() else {
                let _ = socket.write_all(b"421 4.3.2 Too many connections, try again later\r\n").await;
                continue;
            };
            let state = state.clone();
            tokio::spawn(async move {
                let _ = socket.set_nodelay(true);
                let (read, write) = socket.into_split();
                if let Err(e) = Session::new(&state, peer).run(read, write).await {
                    tracing::debug!(%peer, error = %e, "inbound SMTP session ended");
                }
                drop(permit);
            });
        }
    });
    Ok(Listener { addr, cancel, task })
}

/// One connection's state.
struct Session<'a> {
    state: &'a AppState,
    peer: SocketAddr,
    helo: Option<String>,
    mail_from: Option<String>,
    rcpt_to: Vec<String>,
    /// Recipients at a return-path host (`mdbounce.<sending domain>`): bounce reports.
    bounce_to: Vec<String>,
}

/// What reading a DATA section came to.
enum Data {
    Message(Vec<u8>),
    TooLarge(usize),
}

impl<'a> Session<'a> {
    fn new(state: &'a AppState, peer: SocketAddr) -> Self {
        Session { state, peer, helo: None, mail_from: None, rcpt_to: Vec::new(), bounce_to: Vec::new() }
    }

    fn reset(&mut self) {
        self.mail_from = None;
        self.rcpt_to.clear();
        self.bounce_to.clear();
    }

    async fn run(mut self, read: impl AsyncRead + Unpin, mut write: impl AsyncWrite + Unpin) -> std::io::Result<()> {
        let host = self.state.inbound.mx_host.clone();
        let max = self.state.config.email.inbound.max_size;
        let mut read = BufReader::new(read);
        reply(&mut write, &format!("220 {host} ESMTP Moneydesk inbound")).await?;
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = match tokio::time::timeout(
                COMMAND_WAIT,
                (&mut read).take(MAX_COMMAND as u64).read_until(b'\n', &mut line),
            )
            .await
            {
                Ok(r) => r?,
                Err(_) => return reply(&mut write, "421 4.4.2 Timeout waiting for a command, closing").await,
            };
            if n == 0 {
                return Ok(());
            }
            if !line.ends_with(b"\n") {
                // Longer than any command: skip the rest of the line.
                let mut rest = Vec::new();
                (&mut read).take(1 << 20).read_until(b'\n', &mut rest).await?;
                reply(&mut write, "500 5.5.2 Line too long").await?;
                continue;
            }
            let text = String::from_utf8_lossy(&line).trim_end_matches(['\r', '\n']).to_string();
            let (verb, arg) = match text.split_once(' ') {
                Some((v, a)) => (v.to_ascii_uppercase(), a.trim().to_string()),
                None => (text.to_ascii_uppercase(), String::new()),
            };
            match verb.as_str() {
                "EHLO" | "HELO" if arg.is_empty() => {
                    reply(&mut write, "501 5.5.4 Say who you are: EHLO <your host name>").await?
                }
                "EHLO" => {
                    self.helo = Some(arg.clone());
                    self.reset();
                    let text = format!("250-{host} greets {arg}\r\n250-SIZE {max}\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n250 HELP");
                    reply(&mut write, &text).await?;
                }
                "HELO" => {
                    self.helo = Some(arg.clone());
                    self.reset();
                    reply(&mut write, &format!("250 {host}")).await?;
                }
                "MAIL" => {
                    let r = self.mail(&arg, max);
                    reply(&mut write, &r).await?;
                }
                "RCPT" => {
                    let r = self.rcpt(&arg).await;
                    reply(&mut write, &r).await?;
                }
                "DATA" if self.mail_from.is_none() => reply(&mut write, "503 5.5.1 MAIL first").await?,
                "DATA" if self.rcpt_to.is_empty() && self.bounce_to.is_empty() => {
                    reply(&mut write, "554 5.5.1 No valid recipients").await?
                }
                "DATA" => {
                    reply(&mut write, "354 End data with <CR><LF>.<CR><LF>").await?;
                    let data = match tokio::time::timeout(COMMAND_WAIT * 2, read_data(&mut read, max)).await {
                        Ok(d) => d?,
                        Err(_) => return reply(&mut write, "421 4.4.2 Timeout reading the message, closing").await,
                    };
                    let r = match data {
                        Data::TooLarge(n) => {
                            format!("552 5.3.4 The message is larger than {max} bytes (at least {n} sent)")
                        }
                        Data::Message(raw) => self.store(raw).await,
                    };
                    self.reset();
                    reply(&mut write, &r).await?;
                }
                "RSET" => {
                    self.reset();
                    reply(&mut write, "250 2.0.0 Reset").await?;
                }
                "NOOP" => reply(&mut write, "250 2.0.0 OK").await?,
                "VRFY" => reply(&mut write, "252 2.5.0 Cannot verify, but will take the message and try").await?,
                "HELP" => reply(&mut write, "214 2.0.0 EHLO MAIL RCPT DATA RSET NOOP QUIT").await?,
                "QUIT" => return reply(&mut write, "221 2.0.0 Bye").await,
                "STARTTLS" => reply(&mut write, "502 5.5.1 TLS is not offered here").await?,
                _ => reply(&mut write, "500 5.5.1 Command not recognised").await?,
            }
        }
    }

    /// `MAIL FROM:<addr> [SIZE=n] [BODY=8BITMIME] [SMTPUTF8]`.
    fn mail(&mut self, arg: &str, max: usize) -> String {
        if self.helo.is_none() {
            return "503 5.5.1 EHLO first".into();
        }
        if self.mail_from.is_some() {
            return "503 5.5.1 Nested MAIL command".into();
        }
        let Some((path, params)) = path_arg(arg, "FROM:") else {
            return "501 5.5.4 Syntax: MAIL FROM:<address>".into();
        };
        for p in params.split_whitespace() {
            if let Some(n) = p.to_ascii_uppercase().strip_prefix("SIZE=") {
                match n.parse::<usize>() {
                    Ok(n) if n > max => return format!("552 5.3.4 The message is larger than {max} bytes"),
                    Ok(_) => {}
                    Err(_) => return "501 5.5.4 SIZE must be a number".into(),
                }
            }
        }
        self.mail_from = Some(path);
        "250 2.1.0 OK".into()
    }

    /// `RCPT TO:<addr>`: taken when the address's domain has a route.
    async fn rcpt(&mut self, arg: &str) -> String {
        if self.mail_from.is_none() {
            return "503 5.5.1 MAIL first".into();
        }
        let Some((address, _)) = path_arg(arg, "TO:") else {
            return "501 5.5.4 Syntax: RCPT TO:<address>".into();
        };
        let Some(domain) = super::domain_of(&address) else {
            return format!("501 5.1.3 <{address}> is not an address");
        };
        if self.rcpt_to.len() + self.bounce_to.len() >= MAX_RECIPIENTS {
            return format!("452 4.5.3 Too many recipients: at most {MAX_RECIPIENTS} a message");
        }
        // A sending domain's return path takes bounces and complaints, route or not.
        match crate::email::bounces::is_bounce_host(&axum::extract::FromRef::from_ref(self.state), &domain).await {
            Ok(true) => {
                self.bounce_to.push(address);
                return "250 2.1.5 OK".into();
            }
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e.message, "inbound SMTP: looking a sending domain up");
                return "451 4.3.0 Temporary failure, try again later".into();
            }
        }
        match self.state.inbound.store.routed(std::slice::from_ref(&domain)).await {
            Ok(r) if r.is_empty() => format!("550 5.1.1 <{address}>: no mail is taken for {domain} here"),
            Ok(_) => {
                self.rcpt_to.push(address);
                "250 2.1.5 OK".into()
            }
            Err(e) => {
                tracing::warn!(error = %e, "inbound SMTP: looking a route up");
                "451 4.3.0 Temporary failure, try again later".into()
            }
        }
    }

    /// Stores the message with a `Received` trace field (RFC 5321 §4.4) before it.
    async fn store(&mut self, raw: Vec<u8>) -> String {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let trace = format!(
            "Received: from {} ([{}])\r\n\tby {} (Moneydesk) with ESMTP id {id};\r\n\t{}\r\n",
            self.helo.as_deref().unwrap_or("unknown"),
            self.peer.ip(),
            self.state.inbound.mx_host,
            chrono::Utc::now().to_rfc2822()
        );
        let mail_from = self.mail_from.clone().unwrap_or_default();
        // Before the trace, which differs each time: a relay's retry is the same delivery.
        let deliveries: Vec<String> =
            self.bounce_to.iter().map(|to| crate::email::bounces::delivery(to, &mail_from, &raw)).collect();
        let delivery = crate::email::bounces::delivery(&self.rcpt_to.join(","), &mail_from, &raw);
        let mut message = trace.into_bytes();
        message.extend_from_slice(&raw);
        let emails: crate::email::EmailState = axum::extract::FromRef::from_ref(self.state);
        // Bounces first, each kept as a report (an unparseable one too), once per delivery: a
        // 451 below makes the relay send the whole message again. On record as the server's
        // job, there being no token.
        let mut kept = Vec::new();
        for (to, delivery) in self.bounce_to.clone().into_iter().zip(deliveries) {
            let report = crate::email::bounces::receive(
                &emails,
                message.clone(),
                Some(to),
                mail_from.clone(),
                "smtp",
                Some(delivery),
            );
            match crate::storage::trail::job("email_bounce_report", report).await {
                Ok(r) => kept.push(r.id),
                Err(e) if e.status.is_client_error() => {
                    return format!("554 5.6.0 {}", e.message.replace(['\r', '\n'], " "))
                }
                Err(e) => {
                    tracing::error!(error = %e.message, "inbound SMTP: storing a bounce report");
                    return "451 4.3.0 The message could not be stored, try again later".into();
                }
            }
        }
        if self.rcpt_to.is_empty() {
            return format!("250 2.0.0 OK: kept as {}", kept.join(" "));
        }
        let envelope = Envelope { from: mail_from, to: self.rcpt_to.clone() };
        match super::receive(&emails, message, Some(envelope), "smtp", Some(delivery)).await {
            Ok(ids) => format!("250 2.0.0 OK: queued as {}", kept.into_iter().chain(ids).collect::<Vec<_>>().join(" ")),
            Err(e) if e.status.is_client_error() => format!("554 5.6.0 {}", e.message.replace(['\r', '\n'], " ")),
            Err(e) => {
                tracing::error!(error = %e.message, "inbound SMTP: storing a message");
                "451 4.3.0 The message could not be stored, try again later".into()
            }
        }
    }
}

/// `FROM:<path> params` → (path without brackets, params). The null path `<>` is empty.
fn path_arg(arg: &str, keyword: &str) -> Option<(String, String)> {
    let upper = arg.to_ascii_uppercase();
    if !upper.starts_with(keyword) {
        return None;
    }
    let rest = arg[keyword.len()..].trim_start();
    let rest = rest.strip_prefix('<')?;
    let (path, params) = rest.split_once('>')?;
    // A source route (`<@a,@b:user@c>`, RFC 5321 §4.1.2) is ignored, as §C allows.
    let path = path.rsplit_once(':').map(|(_, p)| p).unwrap_or(path).trim();
    if path.contains(['\r', '\n', '<', '>', ' ']) || path.len() > 320 {
        return None;
    }
    Some((path.to_string(), params.trim().to_string()))
}

/// Reads DATA up to the lone `.` line, undoing dot-stuffing (RFC 5321 §4.5.2). Past `max`
/// bytes it keeps reading (the sender cannot be stopped mid-message) but keeps nothing.
async fn read_data(read: &mut (impl AsyncBufReadExt + AsyncRead + Unpin), max: usize) -> std::io::Result<Data> {
    let mut message = Vec::new();
    let mut seen = 0usize;
    let mut line = Vec::new();
    // Lines are read in pieces of at most 64 KiB (RFC 5321 allows 1000 octets; longer ones
    // are taken, not buffered whole); only a piece that starts a line can be the end or stuffed.
    let mut line_start = true;
    loop {
        line.clear();
        if (&mut *read).take(64 * 1024).read_until(b'\n', &mut line).await? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the connection closed in DATA"));
        }
        if line_start && (line == b".\r\n" || line == b".\n") {
            return Ok(if seen > max { Data::TooLarge(seen) } else { Data::Message(message) });
        }
        let content = if line_start && line.starts_with(b".") { &line[1..] } else { &line[..] };
        line_start = line.ends_with(b"\n");
        seen += content.len();
        if seen <= max {
            message.extend_from_slice(content);
        } else if !message.is_empty() {
            message = Vec::new();
        }
    }
}

async fn reply(write: &mut (impl AsyncWrite + Unpin), text: &str) -> std::io::Result<()> {
    write.write_all(text.as_bytes()).await?;
    write.write_all(b"\r\n").await?;
    write.flush().await
}
