//! The transport's thread: a QuicClient on UDP sockets, fed fetches through a channel and woken by
//! a datagram on its wake socket, by packets, or by tquic's timers.

use super::client::QuicClient;
use crate::core::Pool;
use crate::io::transport::{ConnectionRecord, Events, Fetch, TransportConfig};
use pagepath_client::sockets::Sockets;
use std::net::SocketAddr;
use std::os::fd::AsFd;
use std::os::unix::net::UnixDatagram;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

pub enum Command {
    Fetch(Fetch),
    Preconnect { origin: String, pool: Pool },
    Finish,
}

const DATAGRAM_MAX: usize = 65_535;
/// The longest sleep with no tquic timer pending; fetches and packets wake the loop earlier.
const WAIT_MAX: Duration = Duration::from_secs(60);

/// Runs the client until told to finish (or until the transport is dropped), then closes every
/// connection and returns their records. `ready` says first whether the endpoint could start.
pub fn run(
    config: TransportConfig,
    events: Events,
    commands: Receiver<Command>,
    wake: UnixDatagram,
    ready: Sender<Result<(), String>>,
) -> Vec<ConnectionRecord> {
    let (mut client, sockets) = match start(config, events) {
        Ok(started) => started,
        Err(e) => {
            let _ = ready.send(Err(e));
            return Vec::new();
        }
    };
    let _ = ready.send(Ok(()));
    let mut buf = vec![0u8; DATAGRAM_MAX];
    loop {
        loop {
            match commands.try_recv() {
                Ok(Command::Fetch(fetch)) => client.fetch(fetch),
                Ok(Command::Preconnect { origin, pool }) => client.preconnect(&origin, pool),
                Ok(Command::Finish) | Err(TryRecvError::Disconnected) => return client.finish(),
                Err(TryRecvError::Empty) => break,
            }
        }
        client.send();
        let wait = client.timeout().unwrap_or(WAIT_MAX).min(WAIT_MAX);
        for i in sockets.wait_readable(wait, Some(wake.as_fd())) {
            while let Some((len, from, local)) = sockets.recv(i, &mut buf) {
                client.recv(&mut buf[..len], from, local, Instant::now());
            }
        }
        while wake.recv(&mut buf).is_ok() {}
        client.on_timeout(Instant::now());
    }
}

fn start(config: TransportConfig, events: Events) -> Result<(QuicClient, Rc<Sockets>), String> {
    // Without multipath only the first local address is used.
    let locals = if config.multipath { &config.locals[..] } else { &config.locals[..config.locals.len().min(1)] };
    // Without local addresses the routing table picks one, towards the replay's servers (all
    // in one place); with no https origin nothing will connect and any address will do.
    let towards = config.origins.iter().find(|o| o.tls).map_or(SocketAddr::from(([127, 0, 0, 1], 443)), |o| o.address);
    let sockets = Rc::new(Sockets::bind(locals, towards)?);
    let client = QuicClient::new(config, events, sockets.locals(), sockets.clone())?;
    Ok((client, sockets))
}
