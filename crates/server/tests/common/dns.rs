//! A small authoritative DNS server for the tests, over real UDP and TCP on a loopback port
//! (hickory-proto's wire format): the test sets the records it needs (MX, A, AAAA, CNAME, TXT,
//! a null MX) and may change them while the server runs. It answers for every name: the
//! records of the asked type, a CNAME followed one hop, NODATA when the name has other records
//! (or names below it), NXDOMAIN otherwise. Every query is logged for the tests to count.
//! [`silent`] is a server that never answers (DNS unreachable).

#![allow(dead_code)]

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use hickory_resolver::proto::op::{Message, MessageType, ResponseCode};
use hickory_resolver::proto::rr::rdata::{A, AAAA, CNAME, MX, TXT};
use hickory_resolver::proto::rr::{Name, RData, Record, RecordType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, UdpSocket};

#[derive(Default)]
struct Zone {
    records: Vec<Record>,
    queries: Vec<(String, RecordType)>,
}

pub struct DnsServer {
    pub addr: SocketAddr,
    zone: Arc<Mutex<Zone>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

fn name(n: &str) -> Name {
    let n = if n.ends_with('.') { n.to_string() } else { format!("{n}.") };
    Name::from_str(&n.to_ascii_lowercase()).unwrap()
}

/// A UDP socket and a TCP listener on the same loopback port.
async fn bind_pair() -> (UdpSocket, TcpListener) {
    loop {
        let udp = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let port = udp.local_addr().unwrap().port();
        if let Ok(tcp) = TcpListener::bind(("127.0.0.1", port)).await {
            return (udp, tcp);
        }
    }
}

impl DnsServer {
    pub async fn start() -> DnsServer {
        let (udp, tcp) = bind_pair().await;
        let addr = udp.local_addr().unwrap();
        let zone = Arc::new(Mutex::new(Zone::default()));
        let z = zone.clone();
        let udp_task = tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            loop {
                let Ok((n, from)) = udp.recv_from(&mut buf).await else { continue };
                if let Some(reply) = answer(&z, &buf[..n]) {
                    let _ = udp.send_to(&reply, from).await;
                }
            }
        });
        let z = zone.clone();
        let tcp_task = tokio::spawn(async move {
            loop {
                let Ok((mut conn, _)) = tcp.accept().await else { continue };
                let z = z.clone();
                tokio::spawn(async move {
                    loop {
                        let Ok(len) = conn.read_u16().await else { return };
                        let mut buf = vec![0u8; len as usize];
                        if conn.read_exact(&mut buf).await.is_err() {
                            return;
                        }
                        let Some(reply) = answer(&z, &buf) else { return };
                        if conn.write_u16(reply.len() as u16).await.is_err() || conn.write_all(&reply).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        DnsServer { addr, zone, tasks: vec![udp_task, tcp_task] }
    }

    fn add(&self, owner: &str, data: RData) {
        self.zone.lock().unwrap().records.push(Record::from_rdata(name(owner), 0, data));
    }

    pub fn mx(&self, domain: &str, preference: u16, host: &str) -> &Self {
        self.add(domain, RData::MX(MX::new(preference, name(host))));
        self
    }

    /// RFC 7505: `domain. MX 0 .`
    pub fn null_mx(&self, domain: &str) -> &Self {
        self.add(domain, RData::MX(MX::new(0, Name::root())));
        self
    }

    pub fn a(&self, host: &str, ip: &str) -> &Self {
        match IpAddr::from_str(ip).unwrap() {
            IpAddr::V4(v4) => self.add(host, RData::A(A(v4))),
            IpAddr::V6(v6) => self.add(host, RData::AAAA(AAAA(v6))),
        }
        self
    }

    pub fn cname(&self, owner: &str, target: &str) -> &Self {
        self.add(owner, RData::CNAME(CNAME(name(target))));
        self
    }

    pub fn txt(&self, owner: &str, text: &str) -> &Self {
        // Strings of at most 255 bytes, as a long TXT (a DKIM key) is published.
        let chunks: Vec<String> =
            text.as_bytes().chunks(255).map(|c| String::from_utf8_lossy(c).into_owned()).collect();
        self.add(owner, RData::TXT(TXT::new(chunks)));
        self
    }

    /// Removes every record of `owner`.
    pub fn remove(&self, owner: &str) -> &Self {
        let n = name(owner);
        self.zone.lock().unwrap().records.retain(|r| r.name != n);
        self
    }

    /// The queries asked so far for `owner` (any type).
    pub fn queries_for(&self, owner: &str) -> usize {
        let n = name(owner).to_ascii();
        self.zone.lock().unwrap().queries.iter().filter(|(q, _)| *q == n).count()
    }

    /// The queries asked so far for `owner` of type `MX`.
    pub fn mx_queries_for(&self, owner: &str) -> usize {
        let n = name(owner).to_ascii();
        self.zone.lock().unwrap().queries.iter().filter(|(q, t)| *q == n && *t == RecordType::MX).count()
    }
}

fn answer(zone: &Mutex<Zone>, request: &[u8]) -> Option<Vec<u8>> {
    let request = Message::from_vec(request).ok()?;
    if request.metadata.message_type != MessageType::Query {
        return None;
    }
    let mut reply = Message::response(request.metadata.id, request.metadata.op_code);
    reply.metadata.authoritative = true;
    reply.metadata.recursion_desired = request.metadata.recursion_desired;
    let Some(query) = request.queries.first().cloned() else {
        reply.metadata.response_code = ResponseCode::FormErr;
        return reply.to_vec().ok();
    };
    reply.add_query(query.clone());
    let mut zone = zone.lock().unwrap();
    let qname = Name::from_str(&query.name().to_ascii().to_ascii_lowercase()).ok()?;
    zone.queries.push((qname.to_ascii(), query.query_type()));
    let of = |n: &Name, t: RecordType| -> Vec<Record> {
        zone.records.iter().filter(|r| &r.name == n && r.record_type() == t).cloned().collect()
    };
    let mut answers = of(&qname, query.query_type());
    if answers.is_empty() && query.query_type() != RecordType::CNAME {
        if let Some(c) = of(&qname, RecordType::CNAME).into_iter().next() {
            if let RData::CNAME(CNAME(target)) = &c.data {
                let target = target.clone();
                answers.push(c);
                answers.extend(of(&target, query.query_type()));
            }
        }
    }
    if answers.is_empty() {
        let exists = zone.records.iter().any(|r| r.name == qname || qname.zone_of(&r.name));
        reply.metadata.response_code = if exists { ResponseCode::NoError } else { ResponseCode::NXDomain };
    }
    reply.add_answers(answers);
    reply.to_vec().ok()
}

/// A server that takes queries and never answers: DNS unreachable.
pub async fn silent() -> (SocketAddr, UdpSocket, TcpListener) {
    let (udp, tcp) = bind_pair().await;
    (udp.local_addr().unwrap(), udp, tcp)
}
