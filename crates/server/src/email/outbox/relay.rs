//! The connections to the SMTP relay: lettre's SMTP client over sockets opened here with
//! `TCP_NODELAY`, whatever the TLS (none, STARTTLS, or implicit). lettre writes a message's
//! body and its closing `.` in two writes; with Nagle's algorithm on, the second waits for the
//! relay's delayed ACK of the first, and a local aiosmtpd took well under 1 message a second
//! per connection that way (measured with `scripts/bench-email`; lettre 0.11's own transport
//! sets no option for it). Each of the worker's lanes keeps its connection across messages and
//! opens a new one after any error.
//!
//! The relay's certificate must chain to a public root (webpki's), or to a certificate of
//! `MONEYDESK_SMTP_CA_FILE` (an internal CA).
//!
//! `MONEYDESK_SMTP_URL` in lettre's URL form: `smtp://host[:port]` (plain, port 25),
//! `smtp://user:pass@host:587?tls=required` (STARTTLS, refused if not offered),
//! `?tls=opportunistic` (STARTTLS when offered), `smtps://user:pass@host[:port]` (implicit TLS,
//! port 465).

use std::pin::Pin;
use std::task::Poll;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
#[allow(deprecated)] // see `Encrypted`
use lettre::transport::smtp::client::AsyncNetworkStream;
use lettre::transport::smtp::client::{AsyncSmtpConnection, AsyncTokioStream, Certificate, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::response::Response;
use tokio_util::compat::{Compat, FuturesAsyncReadCompatExt};

/// How long to wait for the relay to accept a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// A connection idle this long is checked (NOOP) before it is used again: relays close idle
/// ones, and a send on a closed connection would count as a failed attempt.
const IDLE_CHECK: Duration = Duration::from_secs(20);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // STARTTLS is the SMTP extension's own name
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
    /// PEM certificates trusted besides the public roots (`MONEYDESK_SMTP_CA_FILE`).
    ca: Option<Vec<u8>>,
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
    /// use moneydesk_server::email::outbox::relay::Relay;
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
            ("smtp", Some(other)) => {
                bail!("MONEYDESK_SMTP_URL: tls={other} is not one of required, opportunistic, none")
            }
            (other, _) => bail!("MONEYDESK_SMTP_URL must be smtp:// or smtps://, not {other}://"),
        };
        let decode = |s: &str| percent_decode(s);
        let credentials = (!url.username().is_empty())
            .then(|| Credentials::new(decode(url.username()), decode(url.password().unwrap_or(""))));
        let hello = url
            .query_pairs()
            .find(|(k, _)| k == "helo_name")
            .map(|(_, v)| ClientId::Domain(v.to_string()))
            .unwrap_or_default();
        Ok(Relay { host, port: url.port().unwrap_or(default_port), tls, credentials, hello, ca: None })
    }

    /// Also trusts the certificates of the PEM file `path` (`MONEYDESK_SMTP_CA_FILE`), read
    /// now: a missing file or one without a certificate stops the server from starting.
    pub fn trusting(mut self, path: Option<&std::path::Path>) -> anyhow::Result<Relay> {
        let Some(path) = path else { return Ok(self) };
        let pem = std::fs::read(path).with_context(|| format!("MONEYDESK_SMTP_CA_FILE: reading {}", path.display()))?;
        if !String::from_utf8_lossy(&pem).contains("-----BEGIN CERTIFICATE-----") {
            bail!("MONEYDESK_SMTP_CA_FILE: {} holds no PEM certificate", path.display());
        }
        Certificate::from_pem(&pem).map_err(|e| anyhow::anyhow!("MONEYDESK_SMTP_CA_FILE: {}: {e}", path.display()))?;
        self.ca = Some(pem);
        Ok(self)
    }

    fn tls_parameters(&self) -> Result<TlsParameters, SendError> {
        let mut b = TlsParameters::builder(self.host.clone());
        if let Some(pem) = &self.ca {
            b = b.add_root_certificate(Certificate::from_pem(pem).map_err(SendError::Smtp)?);
        }
        b.build().map_err(SendError::Smtp)
    }

    /// A TCP connection to the relay with `TCP_NODELAY`.
    async fn tcp(&self) -> Result<tokio::net::TcpStream, SendError> {
        let stream =
            tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect((self.host.as_str(), self.port)))
                .await
                .map_err(|_| {
                    SendError::Connect(format!("{}:{} did not answer within {CONNECT_TIMEOUT:?}", self.host, self.port))
                })?
                .map_err(|e| SendError::Connect(format!("{}:{}: {e}", self.host, self.port)))?;
        stream.set_nodelay(true).map_err(|e| SendError::Connect(e.to_string()))?;
        Ok(stream)
    }

    /// A new connection: TCP with `TCP_NODELAY`, greeted, TLS as asked, authenticated.
    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let tls = || self.tls_parameters();
        let stream = self.tcp().await?;
        let mut conn = if self.tls == Tls::Implicit {
            let peer = stream.peer_addr().map_err(|e| SendError::Connect(e.to_string()))?;
            let tls_stream = Encrypted::handshake(stream, peer, tls()?).await?;
            AsyncSmtpConnection::connect_with_transport(Box::new(tls_stream), &self.hello)
                .await
                .map_err(SendError::Smtp)?
        } else {
            AsyncSmtpConnection::connect_with_transport(Box::new(stream), &self.hello).await.map_err(SendError::Smtp)?
        };
        if let Tls::StartTls { required } = self.tls {
            if conn.can_starttls() {
                conn.starttls(tls()?, &self.hello).await.map_err(SendError::Smtp)?;
            } else if required {
                conn.abort().await;
                return Err(SendError::Connect(format!(
                    "{} does not offer STARTTLS, which tls=required asks for",
                    self.host
                )));
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

/// Implicit TLS (`smtps://`) on a socket of ours: lettre's TLS (the same as its STARTTLS,
/// with the same certificate checks) done on our `TCP_NODELAY` socket before the greeting,
/// then handed to lettre as the connection's stream. lettre's only way to open implicit TLS
/// itself opens its own socket, with Nagle on; its stream type, which does the handshake on a
/// given socket, is marked deprecated ("not meant to be public") but is the public API that
/// does it, so it is used here, in this one place.
#[allow(deprecated)]
struct Encrypted {
    inner: Compat<AsyncNetworkStream>,
    peer: std::net::SocketAddr,
}

#[allow(deprecated)]
impl Encrypted {
    async fn handshake(
        stream: tokio::net::TcpStream,
        peer: std::net::SocketAddr,
        tls: TlsParameters,
    ) -> Result<Encrypted, SendError> {
        let mut net = AsyncNetworkStream::use_existing_tokio1(Box::new(stream));
        net.upgrade_tls(tls).await.map_err(SendError::Smtp)?;
        Ok(Encrypted { inner: net.compat(), peer })
    }
}

impl std::fmt::Debug for Encrypted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "implicit TLS to {}", self.peer)
    }
}

impl AsyncTokioStream for Encrypted {
    fn peer_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        Ok(self.peer)
    }
}

impl tokio::io::AsyncRead for Encrypted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Encrypted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// `%XX` sequences of a URL's user or password, decoded.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}
