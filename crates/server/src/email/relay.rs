//! The connections to the SMTP relay: lettre's SMTP client over sockets opened here with
//! `TCP_NODELAY`. lettre writes a message's body and its closing `.` in two writes; with
//! Nagle's algorithm on, the second waits for the relay's delayed ACK of the first, and a
//! local aiosmtpd took well under 1 message a second per connection that way (measured with
//! `scripts/bench-email`; lettre 0.11's own transport sets no option for it). Each of the
//! worker's lanes keeps its connection across messages and opens a new one after any error.
//!
//! `MONEYDESK_SMTP_URL` in lettre's URL form: `smtp://host[:port]` (plain, port 25),
//! `smtp://user:pass@host:587?tls=required` (STARTTLS, refused if not offered),
//! `?tls=opportunistic` (STARTTLS when offered), `smtps://user:pass@host[:port]` (implicit TLS,
//! port 465).

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::response::Response;

/// How long to wait for the relay to accept a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// A connection idle this long is checked (NOOP) before it is used again: relays close idle
/// ones, and a send on a closed connection would count as a failed attempt.
const IDLE_CHECK: Duration = Duration::from_secs(20);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tls {
    None,
    StartTls { required: bool },
    Implicit,
}

/// Where and how to reach the relay.
#[derive(Debug, Clone)]
pub struct Relay {
    host: String,
    port: u16,
    tls: Tls,
    credentials: Option<Credentials>,
    hello: ClientId,
}

/// Why an attempt did not get a reply from the relay, or the relay's refusal.
#[derive(Debug)]
pub enum SendError {
    /// The relay answered (a 4xx or 5xx), or lettre failed on the connection.
    Smtp(lettre::transport::smtp::Error),
    /// The relay could not be reached.
    Connect(String),
}

impl SendError {
    /// A 5xx: the relay refused the message for good.
    pub fn is_permanent(&self) -> bool {
        matches!(self, SendError::Smtp(e) if e.is_permanent())
    }

    /// What the outbox shows: the relay's reply, or what went wrong on the way to it.
    pub fn reply_text(&self) -> String {
        match self {
            SendError::Smtp(e) => match e.status() {
                Some(code) => format!("{code} {e}"),
                None => format!("relay not reached: {e}"),
            },
            SendError::Connect(e) => format!("relay not reached: {e}"),
        }
    }
}

/// A lane's connection and when it was last used.
pub struct Lane {
    conn: AsyncSmtpConnection,
    used: Instant,
}

impl Relay {
    /// Reads `MONEYDESK_SMTP_URL`.
    ///
    /// ```
    /// use moneydesk_server::email::relay::Relay;
    /// assert!(Relay::parse("smtp://user:pass@mail.bank.example:587?tls=required").is_ok());
    /// assert!(Relay::parse("smtps://mail.bank.example").is_ok());
    /// assert!(Relay::parse("smtp://mail.bank.example?tls=sometimes").is_err());
    /// assert!(Relay::parse("http://mail.bank.example").is_err());
    /// ```
    pub fn parse(text: &str) -> anyhow::Result<Relay> {
        let url = url::Url::parse(text).context("MONEYDESK_SMTP_URL is not a URL")?;
        let host = url.host_str().filter(|h| !h.is_empty()).context("MONEYDESK_SMTP_URL names no host")?.to_string();
        let tls_param = url.query_pairs().find(|(k, _)| k == "tls").map(|(_, v)| v.to_string());
        let (tls, default_port) = match (url.scheme(), tls_param.as_deref()) {
            ("smtps", _) => (Tls::Implicit, 465),
            ("smtp", None | Some("none")) => (Tls::None, 25),
            ("smtp", Some("required")) => (Tls::StartTls { required: true }, 587),
            ("smtp", Some("opportunistic")) => (Tls::StartTls { required: false }, 587),
            ("smtp", Some(other)) => bail!("MONEYDESK_SMTP_URL: tls={other} is not one of required, opportunistic, none"),
            (other, _) => bail!("MONEYDESK_SMTP_URL must be smtp:// or smtps://, not {other}://"),
        };
        let decode = |s: &str| percent_decode(s);
        let credentials = (!url.username().is_empty()).then(|| Credentials::new(decode(url.username()), decode(url.password().unwrap_or(""))));
        let hello = url
            .query_pairs()
            .find(|(k, _)| k == "helo_name")
            .map(|(_, v)| ClientId::Domain(v.to_string()))
            .unwrap_or_default();
        Ok(Relay { host, port: url.port().unwrap_or(default_port), tls, credentials, hello })
    }

    /// A new connection: TCP with `TCP_NODELAY`, greeted, TLS as asked, authenticated.
    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let tls = || TlsParameters::new(self.host.clone()).map_err(SendError::Smtp);
        let mut conn = if self.tls == Tls::Implicit {
            // lettre opens the socket itself for implicit TLS; Nagle stays on there.
            AsyncSmtpConnection::connect_tokio1((self.host.as_str(), self.port), Some(CONNECT_TIMEOUT), &self.hello, Some(tls()?), None)
                .await
                .map_err(SendError::Smtp)?
        } else {
            let stream = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect((self.host.as_str(), self.port)))
                .await
                .map_err(|_| SendError::Connect(format!("{}:{} did not answer within {CONNECT_TIMEOUT:?}", self.host, self.port)))?
                .map_err(|e| SendError::Connect(format!("{}:{}: {e}", self.host, self.port)))?;
            stream.set_nodelay(true).map_err(|e| SendError::Connect(e.to_string()))?;
            AsyncSmtpConnection::connect_with_transport(Box::new(stream), &self.hello).await.map_err(SendError::Smtp)?
        };
        if let Tls::StartTls { required } = self.tls {
            if conn.can_starttls() {
                conn.starttls(tls()?, &self.hello).await.map_err(SendError::Smtp)?;
            } else if required {
                conn.abort().await;
                return Err(SendError::Connect(format!("{} does not offer STARTTLS, which tls=required asks for", self.host)));
            }
        }
        if let Some(credentials) = &self.credentials {
            conn.auth(&[Mechanism::Plain, Mechanism::Login], credentials).await.map_err(SendError::Smtp)?;
        }
        Ok(conn)
    }

    /// Sends `raw` to `envelope`'s recipients over the lane's connection (opened when there is
    /// none). After any error the connection is dropped: its SMTP state is unknown.
    pub async fn send(&self, lane: &mut Option<Lane>, envelope: &Envelope, raw: &[u8]) -> Result<Response, SendError> {
        if let Some(l) = lane {
            if l.used.elapsed() > IDLE_CHECK && !l.conn.test_connected().await {
                *lane = None;
            }
        }
        if lane.is_none() {
            *lane = Some(Lane { conn: self.connect().await?, used: Instant::now() });
        }
        let l = lane.as_mut().expect("connected above");
        match l.conn.send(envelope, raw).await {
            Ok(reply) => {
                l.used = Instant::now();
                Ok(reply)
            }
            Err(e) => {
                if let Some(mut l) = lane.take() {
                    l.conn.abort().await;
                }
                Err(SendError::Smtp(e))
            }
        }
    }
}

/// `%XX` sequences of a URL's user or password, decoded.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}
