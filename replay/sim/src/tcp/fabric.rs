//! The simulated network of a TCP run: a host per address (the client's, one per path, and each
//! server's), the paths between them, and the task that moves packets. At each instant it hands
//! the hosts what the paths delivered, lets their stacks run, puts what they sent on the paths,
//! then sleeps until the next delivery or stack timer, or until an application reads or writes.

use super::buffers::Buffers;
use super::counts::{segment, ConnectionCounts, Ledger};
use super::host::Host;
use super::profile::TcpProfile;
use super::stream::SimStream;
use crate::mptcp::connections::Mptcp;
use crate::mptcp::stream::MptcpStream;
use crate::paths::Paths;
use super::host::SockId;
use smoltcp::socket::tcp::{self, State};
use smoltcp::time::Instant as SmolInstant;
use smoltcp::wire::{IpAddress, IpEndpoint};
use std::collections::{HashMap, VecDeque};
use std::future::poll_fn;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};
use tokio::sync::Notify;
use std::time::Instant;

/// Rounds at one instant before the stacks' timers are left to the next microsecond.
const ROUNDS_PER_INSTANT: usize = 64;
/// The client's first ephemeral port.
const FIRST_PORT: u16 = 40_000;

pub struct Fabric {
    pub hosts: Vec<Host>,
    pub paths: Paths,
    client_ips: Vec<Ipv4Addr>,
    ledger: Ledger,
    listeners: HashMap<SocketAddr, Listener>,
    profile: TcpProfile,
    seed: u64,
    next_port: u16,
    base: Instant,
    /// Writers waiting for their socket's unsent bytes to fall below their TCP_NOTSENT_LOWAT:
    /// (host, socket, low water mark, waker). smoltcp wakes writers only when ACKs free buffer
    /// space, but a kernel's socket turns writable as soon as it has sent enough.
    writers: Vec<(usize, SockId, usize, Waker)>,
    /// Rounds run, for the simulation's own report.
    pub rounds: u64,
    /// Where a SYN came and the handshake is not over: the listeners to tend after each round.
    tending: Vec<SocketAddr>,
    /// The run's MPTCP connections, when the listeners and the client speak MPTCP.
    pub mptcp: Option<Mptcp>,
    /// The packets of a round: those the paths delivered, those a host sent. Kept from round to
    /// round, as fresh vectors cost allocations a packet.
    arrivals: Vec<Vec<u8>>,
    outgoing: Vec<Vec<u8>>,
    /// Last, so that it drops after the hosts' sockets that borrow from it.
    buffers: Buffers,
}

struct Listener {
    host: usize,
    listening: Vec<SockId>,
    half_open: Vec<SockId>,
    ready: VecDeque<SockId>,
    waker: Option<Waker>,
}

/// The fabric as its task and the streams share it; `kick` wakes the task when an application
/// read or wrote, so the stacks answer at that instant.
#[derive(Clone)]
pub struct Net {
    fabric: Arc<Mutex<Fabric>>,
    kick: Arc<Notify>,
}

impl Net {
    /// Time 0 is now on the thread's virtual clock.
    /// `mptcp`: the run's connections are MPTCP.
    pub fn new(paths: Paths, client_ips: Vec<Ipv4Addr>, profile: TcpProfile, seed: u64, mptcp: Option<Mptcp>) -> Net {
        let hosts = client_ips.iter().map(|ip| Host::new(*ip, seed)).collect();
        let fabric = Fabric {
            hosts,
            seed,
            paths,
            client_ips,
            ledger: Ledger::default(),
            listeners: HashMap::new(),
            profile,
            next_port: FIRST_PORT,
            base: pagepath_runtime::now(),
            writers: Vec::new(),
            rounds: 0,
            tending: Vec::new(),
            mptcp,
            arrivals: Vec::new(),
            outgoing: Vec::new(),
            buffers: Buffers::default(),
        };
        Net { fabric: Arc::new(Mutex::new(fabric)), kick: Arc::new(Notify::new()) }
    }

    pub fn lock(&self) -> MutexGuard<'_, Fabric> {
        self.fabric.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn kick(&self) {
        self.kick.notify_one();
    }

    /// Moves packets until the runtime is dropped.
    pub async fn run(self) {
        loop {
            let next = {
                let mut f = self.lock();
                let now = f.now_us();
                f.step(now);
                f.next_us(now).map(|us| f.base + std::time::Duration::from_micros(us))
            };
            match next {
                Some(at) => {
                    // Biased: select!'s random order made the rounds of one load differ from run to run.
                    tokio::select! {
                        biased;
                        _ = self.kick.notified() => {}
                        _ = pagepath_runtime::sleep_until(at) => {}
                    }
                }
                None => self.kick.notified().await,
            }
            // The applications' other writes at this instant go first, so that a burst of small
            // writes leaves as full segments, as Linux's autocorking sends them.
            pagepath_runtime::yield_now().await;
        }
    }

    /// Starts accepting connections at `at`, a server's address, on a host of its own.
    pub fn listen(&self, at: SocketAddr) -> Result<(), String> {
        let IpAddr::V4(ip) = at.ip() else { return Err(format!("{at}: the simulated topologies are IPv4")) };
        let mut f = self.lock();
        let host = match f.host_of(at.ip()) {
            Some(h) => h,
            None => {
                let seed = f.seed;
                f.hosts.push(Host::new(ip, seed));
                f.hosts.len() - 1
            }
        };
        f.listeners.insert(at, Listener { host, listening: Vec::new(), half_open: Vec::new(), ready: VecDeque::new(), waker: None });
        f.tend_listeners();
        Ok(())
    }

    /// The next connection established at `at`, with its peer's address.
    pub async fn accept(&self, at: SocketAddr) -> (SimStream, Arc<ConnectionCounts>, SocketAddr) {
        let (host, handle) = poll_fn(|cx| {
            let mut f = self.lock();
            let Some(l) = f.listeners.get_mut(&at) else { return Poll::Pending };
            match l.ready.pop_front() {
                Some(handle) => Poll::Ready((l.host, handle)),
                None => {
                    l.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
        .await;
        let mut f = self.lock();
        let peer = f.peer_of(host, handle).unwrap_or(at);
        let counts = f.ledger.open(peer, at);
        drop(f);
        // The replay servers set TCP_NOTSENT_LOWAT, which keeps their schedulers' order on the wire.
        let lowat = pagepath_server::io::sockets::NOTSENT_LOWAT as usize;
        (SimStream::new(self.clone(), host, handle, Some(lowat)), counts, peer)
    }

    /// Opens a connection from the client's `from` to `to`; Err when it is refused.
    pub async fn connect(&self, from: IpAddr, to: SocketAddr) -> Result<(SimStream, Arc<ConnectionCounts>), String> {
        let (host, handle, counts) = self.lock().open_subflow(from, to)?;
        self.established(host, handle).await?;
        Ok((SimStream::new(self.clone(), host, handle, None), counts))
    }

    /// Opens an MPTCP connection from the client's `from` to `to`: its first subflow, the others
    /// once that one is up.
    pub async fn connect_mptcp(&self, from: IpAddr, to: SocketAddr) -> Result<MptcpStream, String> {
        let (host, handle, id) = {
            let mut f = self.lock();
            let (host, handle, counts) = f.open_subflow(from, to)?;
            let path = path_of(&f.client_ips, from).unwrap_or(0);
            let m = f.mptcp.as_mut().ok_or("the simulated network does not run MPTCP")?;
            let first = m.subflow(host, handle, path, counts);
            let id = m.open(to, first);
            (host, handle, id)
        };
        self.established(host, handle).await?;
        Ok(MptcpStream::new(self.clone(), id))
    }

    /// The next MPTCP connection accepted at `at`, with its peer's address.
    pub async fn accept_mptcp(&self, at: SocketAddr) -> (MptcpStream, SocketAddr) {
        let id = poll_fn(|cx| match self.lock().mptcp.as_mut() {
            Some(m) => m.accepted(at, cx.waker()).map_or(Poll::Pending, Poll::Ready),
            None => Poll::Pending,
        })
        .await;
        let peer = {
            let f = self.lock();
            let first = &f.mptcp.as_ref().expect("accepted above").endpoints[id].subflows[0];
            f.peer_of(first.host, first.handle).unwrap_or(at)
        };
        (MptcpStream::new(self.clone(), id), peer)
    }

    /// Waits for a connection's handshake; Err when it is refused.
    async fn established(&self, host: usize, handle: SockId) -> Result<(), String> {
        self.kick();
        poll_fn(|cx| {
            let mut f = self.lock();
            let socket = f.hosts[host].socket_mut(handle);
            match socket.state() {
                State::SynSent | State::SynReceived => {
                    socket.register_send_waker(cx.waker());
                    Poll::Pending
                }
                State::Closed | State::TimeWait => Poll::Ready(Err("connection refused".to_string())),
                _ => Poll::Ready(Ok(())),
            }
        })
        .await
    }
}

impl Fabric {
    pub fn profile(&self) -> TcpProfile {
        self.profile
    }

    /// Segments sent again so far, over every connection.
    pub fn retransmitted(&self) -> u64 {
        self.ledger.retransmitted()
    }

    pub fn now_us(&self) -> u64 {
        pagepath_runtime::now().saturating_duration_since(self.base).as_micros() as u64
    }

    fn host_of(&self, ip: IpAddr) -> Option<usize> {
        self.hosts.iter().position(|h| IpAddr::V4(h.ip) == ip)
    }

    /// The client's address on `path`.
    pub fn client_ip(&self, path: usize) -> Option<IpAddr> {
        self.client_ips.get(path).map(|ip| IpAddr::V4(*ip))
    }

    /// The remote end of host `host`'s socket.
    pub fn peer_of(&self, host: usize, handle: SockId) -> Option<SocketAddr> {
        self.hosts[host].socket(handle).remote_endpoint().map(socket_addr)
    }

    /// A socket of the client's `from` connecting to `to`, from the next ephemeral port.
    fn open_subflow(&mut self, from: IpAddr, to: SocketAddr) -> Result<(usize, SockId, Arc<ConnectionCounts>), String> {
        let host = self.host_of(from).ok_or_else(|| format!("{from}: not an address of the simulated client"))?;
        let port = self.next_port;
        self.next_port = self.next_port.checked_add(1).ok_or("the simulated client ran out of ports")?;
        let mut socket = new_socket(&self.profile, &mut self.buffers, false);
        let remote = IpEndpoint::new(smol_ip(to.ip())?, to.port());
        let h = &mut self.hosts[host];
        socket.connect(h.iface.context(), remote, port).map_err(|e| format!("cannot connect: {e}"))?;
        let handle = h.add(socket, Some((port, remote)));
        let counts = self.ledger.open(SocketAddr::new(from, port), to);
        Ok((host, handle, counts))
    }

    /// Pumps the MPTCP connections and opens the subflows of those just established, from every
    /// other client address (Linux's in-kernel path manager with a `subflow` endpoint per path).
    fn pump_mptcp(&mut self, now_us: u64) -> bool {
        let Some(m) = self.mptcp.as_mut() else { return false };
        let (wrote, joins) = m.pump(&mut self.hosts, std::time::Duration::from_micros(now_us));
        for id in joins {
            let (remote, first_path) = {
                let e = &self.mptcp.as_ref().expect("pumped above").endpoints[id];
                (e.remote, e.subflows[0].path)
            };
            for path in (0..self.client_ips.len()).filter(|p| *p != first_path) {
                let from = IpAddr::V4(self.client_ips[path]);
                if let Ok((host, handle, counts)) = self.open_subflow(from, remote) {
                    let m = self.mptcp.as_mut().expect("pumped above");
                    let subflow = m.subflow(host, handle, path, counts);
                    m.endpoints[id].subflows.push(subflow);
                }
            }
        }
        wrote
    }

    /// Everything due at `now_us`: deliveries, the stacks' input, timers and output.
    fn step(&mut self, now_us: u64) {
        let now = SmolInstant::from_micros(now_us as i64);
        for _ in 0..ROUNDS_PER_INSTANT {
            self.rounds += 1;
            let mut sent = false;
            // One packet at a time, its host answering each before the next, as a kernel takes
            // a burst: smoltcp would otherwise read the whole burst before it writes, and ACK
            // it once where Linux ACKs every second segment.
            let mut arrivals = std::mem::take(&mut self.arrivals);
            self.paths.arrived(now_us, &mut arrivals);
            for packet in arrivals.drain(..) {
                let Some(s) = segment(&packet) else { continue };
                if self.is_client(s.dst.ip()) {
                    self.ledger.delivered_to_client(&s);
                }
                if let Some(h) = self.host_of(s.dst.ip()) {
                    if s.opens {
                        self.listen_for(s.dst, s.src);
                    }
                    let to = smol_ip(s.src.ip()).ok().and_then(|ip| self.hosts[h].route(s.dst.port(), IpEndpoint::new(ip, s.src.port())));
                    self.hosts[h].deliver(packet, to, now, &mut self.outgoing);
                    sent |= self.send_outgoing(now_us);
                }
            }
            self.arrivals = arrivals;
            // A host with nothing due (no segment to send, no window to update, no timer) would
            // only be walked through: smoltcp's poll_at says when one is.
            for h in 0..self.hosts.len() {
                self.hosts[h].poll_due(now, &mut self.outgoing);
                sent |= self.send_outgoing(now_us);
            }
            self.tend_listeners();
            sent |= self.pump_mptcp(now_us);
            self.wake_writers();
            if !sent && self.paths.next_event().is_none_or(|t| t > now_us) {
                break;
            }
        }
    }

    /// Puts what a host sent (`outgoing`) on the paths; true if it sent anything.
    fn send_outgoing(&mut self, now_us: u64) -> bool {
        let mut packets = std::mem::take(&mut self.outgoing);
        let sent = !packets.is_empty();
        for packet in packets.drain(..) {
            if let Some(s) = segment(&packet) {
                let from_client = self.is_client(s.src.ip());
                self.ledger.sent(&s, from_client);
            }
            self.paths.send(now_us, packet);
        }
        self.outgoing = packets;
        sent
    }

    /// Wakes `waker` once host `host`'s socket has fewer than `lowat` bytes unsent.
    pub fn wait_writable(&mut self, host: usize, handle: SockId, lowat: usize, waker: &Waker) {
        self.writers.push((host, handle, lowat, waker.clone()));
    }

    fn wake_writers(&mut self) {
        let hosts = &mut self.hosts;
        self.writers.retain(|(h, handle, lowat, waker)| {
            let unsent = hosts[*h].socket(*handle).send_queue_unsent();
            if unsent < *lowat {
                waker.wake_by_ref();
            }
            unsent >= *lowat
        });
    }

    fn is_client(&self, ip: IpAddr) -> bool {
        path_of(&self.client_ips, ip).is_some()
    }

    /// When anything is next due after `now_us`: a packet leaving a queue or arriving, or a
    /// stack's timer.
    fn next_us(&mut self, now_us: u64) -> Option<u64> {
        let now = SmolInstant::from_micros(now_us as i64);
        let timers = self.hosts.iter_mut().filter_map(|h| h.poll_at(now)).map(|t| t.total_micros().max(0) as u64);
        let mptcp = self.mptcp.as_ref().and_then(Mptcp::next_deadline).map(|d| d.as_micros() as u64);
        // A timer already due ran in step(): what it still wants waits a microsecond.
        timers.chain(mptcp).chain(self.paths.next_event()).min().map(|t| t.max(now_us + 1))
    }

    /// A socket listening at `at` for an arriving SYN, if anything listens there, as a kernel's
    /// backlog takes every SYN: made when the SYN comes, since a socket's buffers cost
    /// milliseconds to allocate and a load opens few connections.
    fn listen_for(&mut self, at: SocketAddr, from: SocketAddr) {
        let Some(l) = self.listeners.get_mut(&at) else { return };
        let Ok(remote) = smol_ip(from.ip()).map(|ip| IpEndpoint::new(ip, from.port())) else { return };
        let host = &mut self.hosts[l.host];
        // A SYN sent again goes to the socket the first one opened.
        if host.route(at.port(), remote).is_some() {
            return;
        }
        if !self.tending.contains(&at) {
            self.tending.push(at);
        }
        let mut socket = new_socket(&self.profile, &mut self.buffers, true);
        let ip = smol_ip(at.ip()).expect("listen() took only IPv4 addresses");
        if socket.listen(IpEndpoint::new(ip, at.port())).is_ok() {
            l.listening.push(host.add(socket, Some((at.port(), remote))));
        }
    }

    /// Moves connections whose handshake completed to their listener's queue and forgets failed
    /// ones, at the addresses a SYN came to; reading the sockets' states leaves the host's cached
    /// poll time alone.
    fn tend_listeners(&mut self) {
        if self.tending.is_empty() {
            return;
        }
        for at in std::mem::take(&mut self.tending) {
            let Fabric { hosts, listeners, mptcp, ledger, client_ips, tending, .. } = self;
            let l = listeners.get_mut(&at).expect("only listeners are tended");
            let Listener { host, listening, half_open, ready, waker } = l;
            let state = |h: &SockId| hosts[*host].socket(*h).state();
            listening.retain(|h| {
                let still = state(h) == State::Listen;
                if !still {
                    half_open.push(*h);
                }
                still
            });
            let mut gone = Vec::new();
            half_open.retain(|h| match state(h) {
                State::SynReceived => true,
                State::Closed | State::TimeWait | State::Listen => {
                    gone.push(*h);
                    false
                }
                _ => {
                    ready.push_back(*h);
                    false
                }
            });
            gone.into_iter().for_each(|h| hosts[*host].remove(h));
            if let Some(m) = mptcp.as_mut() {
                for h in ready.drain(..) {
                    let Some(peer) = hosts[*host].socket(h).remote_endpoint().map(socket_addr) else { continue };
                    let path = path_of(client_ips, peer.ip()).unwrap_or(0);
                    let subflow = m.subflow(*host, h, path, ledger.open(peer, at));
                    m.greet(at, subflow);
                }
            }
            if !ready.is_empty() {
                if let Some(w) = waker.take() {
                    w.wake();
                }
            }
            if !half_open.is_empty() {
                tending.push(at);
            }
        }
    }
}

/// The path a client address is on: path i joins the client's i-th address.
fn path_of(client_ips: &[Ipv4Addr], ip: IpAddr) -> Option<usize> {
    client_ips.iter().position(|c| IpAddr::V4(*c) == ip)
}

fn new_socket(profile: &TcpProfile, buffers: &mut Buffers, server: bool) -> tcp::Socket<'static> {
    let mut socket = tcp::Socket::new(tcp::SocketBuffer::new(buffers.take()), tcp::SocketBuffer::new(buffers.take()));
    profile.apply(&mut socket, server);
    socket
}

fn smol_ip(ip: IpAddr) -> Result<IpAddress, String> {
    match ip {
        IpAddr::V4(a) => Ok(IpAddress::Ipv4(a)),
        IpAddr::V6(a) => Err(format!("{a}: the simulated topologies are IPv4")),
    }
}

fn socket_addr(e: IpEndpoint) -> SocketAddr {
    let IpAddress::Ipv4(a) = e.addr;
    SocketAddr::new(IpAddr::V4(a), e.port)
}
