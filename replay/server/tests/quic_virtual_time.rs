//! tquic in virtual time (replay/patches/tquic-1.6.0-virtual-clock.patch): a client and a server
//! endpoint exchange datagrams through a queue with a 25 ms one-way delay, on a clock the test
//! moves. tquic's own RTT estimate must be the simulated 50 ms, which only holds if every time it
//! reads comes from the virtual clock: no real time passes between the packets.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tquic::{clock, Config, Connection, Endpoint, PacketInfo, PacketSendHandler, TlsConfig, TransportHandler};

const ONE_WAY: Duration = Duration::from_millis(25);

/// Datagrams in flight, by arrival time (virtual) and sequence: (destination side, bytes, info).
type Wire = Rc<RefCell<BTreeMap<(Instant, u64), (bool, Vec<u8>, PacketInfo)>>>;

struct Link {
    wire: Wire,
    to_server: bool,
    sent: RefCell<u64>,
}

impl PacketSendHandler for Link {
    fn on_packets_send(&self, pkts: &[(Vec<u8>, PacketInfo)]) -> tquic::Result<usize> {
        for (bytes, info) in pkts {
            let mut n = self.sent.borrow_mut();
            *n += 1;
            let at = clock::now() + ONE_WAY;
            self.wire.borrow_mut().insert((at, *n * 2 + self.to_server as u64), (self.to_server, bytes.clone(), *info));
        }
        Ok(pkts.len())
    }
}

#[derive(Default)]
struct Events {
    established: Rc<RefCell<Option<(Instant, u64)>>>,
}

impl TransportHandler for Events {
    fn on_conn_created(&mut self, _: &mut Connection) {}
    fn on_conn_established(&mut self, conn: &mut Connection) {
        let (local, remote) = conn.paths_iter().map(|t| (t.local, t.remote)).next().unwrap();
        let srtt = conn.get_path_stats(local, remote).unwrap().srtt;
        *self.established.borrow_mut() = Some((clock::now(), srtt));
    }
    fn on_conn_closed(&mut self, _: &mut Connection) {}
    fn on_stream_created(&mut self, _: &mut Connection, _: u64) {}
    fn on_stream_readable(&mut self, _: &mut Connection, _: u64) {}
    fn on_stream_writable(&mut self, _: &mut Connection, _: u64) {}
    fn on_stream_closed(&mut self, _: &mut Connection, _: u64) {}
    fn on_new_token(&mut self, _: &mut Connection, _: Vec<u8>) {}
}

fn server_tls(dir: &std::path::Path) -> TlsConfig {
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["sim.test".to_string()]).unwrap().self_signed(&key).unwrap();
    let (cert_file, key_file) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert_file, cert.pem()).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    TlsConfig::new_server_config(cert_file.to_str().unwrap(), key_file.to_str().unwrap(), vec![b"h3".to_vec()], false).unwrap()
}

#[test]
fn a_handshake_in_virtual_time_measures_the_simulated_rtt() {
    let dir = std::env::temp_dir().join(format!("pagepath-quic-virtual-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = Instant::now();
    clock::set_virtual(Some(start));
    let wire: Wire = Rc::default();
    let (client_addr, server_addr): (SocketAddr, SocketAddr) = ("10.0.0.1:4000".parse().unwrap(), "10.0.0.2:443".parse().unwrap());

    let mut server_config = Config::new().unwrap();
    server_config.set_tls_config(server_tls(&dir));
    let server_events = Events::default();
    let server_sent = Rc::new(Link { wire: wire.clone(), to_server: false, sent: RefCell::new(0) });
    let mut server = Endpoint::new(Box::new(server_config), true, Box::new(server_events), server_sent);

    let mut client_tls = TlsConfig::new_client_config(vec![b"h3".to_vec()], false).unwrap();
    client_tls.set_verify(false);
    let mut client_config = Config::new().unwrap();
    client_config.set_tls_config(client_tls);
    let client_events = Events::default();
    let established = client_events.established.clone();
    let client_sent = Rc::new(Link { wire: wire.clone(), to_server: true, sent: RefCell::new(0) });
    let mut client = Endpoint::new(Box::new(client_config), false, Box::new(client_events), client_sent);
    client.connect(client_addr, server_addr, Some("sim.test"), None, None, None).unwrap();
    client.process_connections().unwrap();

    // Virtual time moves from event to event: the next arrival or the earlier endpoint timeout.
    for _ in 0..1000 {
        if established.borrow().is_some() {
            break;
        }
        let now = clock::now();
        let arrival = wire.borrow().keys().next().map(|k| k.0);
        let timeouts = [client.timeout(), server.timeout()].into_iter().flatten().map(|d| now + d).min();
        let next = [arrival, timeouts].into_iter().flatten().min().expect("something is due");
        clock::set_virtual(Some(next.max(now)));
        let due: Vec<_> = {
            let mut w = wire.borrow_mut();
            let keys: Vec<_> = w.keys().copied().filter(|k| k.0 <= clock::now()).collect();
            keys.into_iter().map(|k| w.remove(&k).unwrap()).collect()
        };
        for (to_server, mut bytes, info) in due {
            let info = PacketInfo { src: info.src, dst: info.dst, time: clock::now() };
            let endpoint = if to_server { &mut server } else { &mut client };
            endpoint.recv(&mut bytes, &info).unwrap();
        }
        client.on_timeout(clock::now());
        server.on_timeout(clock::now());
        client.process_connections().unwrap();
        server.process_connections().unwrap();
    }
    clock::set_virtual(None);
    let _ = std::fs::remove_dir_all(&dir);

    let (at, srtt_us) = established.borrow().expect("the client's handshake completed");
    let took = at - start;
    // Initial -> server flight -> established: one round trip of virtual time.
    assert!(took >= Duration::from_millis(50) && took < Duration::from_millis(60), "handshake took {took:?} of virtual time");
    assert!((45_000..=55_000).contains(&srtt_us), "tquic's smoothed RTT is {srtt_us} us, not the simulated 50 ms");
}
