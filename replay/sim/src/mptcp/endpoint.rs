//! One end of a simulated MPTCP connection (RFC 8684): its subflows, each a smoltcp TCP
//! connection on one path, the data stream it sends and the one it receives, and the multipath
//! scheduler (pagepath's interface, replay/multipath) that hands each segment's worth of data to
//! a subflow. How much a subflow is offered is the `Admission`: with pagepath's schedulers only
//! what its congestion window can send at once, so the scheduler decides packet by packet with the
//! paths' state as it is, as in the seeds' senders (seed 000 §4.4, seed 004 §3); with the model of
//! the kernel's (`kernel-default`) what Linux queues on a subflow. Each subflow runs its own congestion control,
//! uncoupled as Linux's MPTCP does, or coupled (LIA or OLIA, coupled.rs) where the run asks.

use super::coupled::{lia_scales, olia_scales, Coupling, LossIntervals, Window};

use super::frame::{Decoder, Frame, DATA_HEADER};
use super::reassembly::Reassembly;
use super::retransmission::{subflow_rto, Retransmission, RTO_MIN};
use super::sending::Sending;
use crate::tcp::counts::ConnectionCounts;
use crate::tcp::host::{Host, MTU};
use pagepath_multipath::{Context, Event, PathChoice, PathId, PathSnapshot, Scheduler, StreamId, StreamSnapshot};
use crate::tcp::host::SockId;
use smoltcp::socket::tcp;
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

/// A subflow's segment: the MTU less IPv4's and TCP's headers, as smoltcp's MSS.
const MSS: usize = MTU - 40;
/// What a scheduler takes a path's RTT to be before its first sample: RFC 6298's initial RTO.
const NO_SAMPLE: Duration = Duration::from_secs(1);
/// The one data stream an MPTCP connection carries, as the scheduler interface sees it.
const STREAM: StreamId = StreamId(0);
/// What Linux pushes onto the chosen subflow at once (MPTCP_SEND_BURST_SIZE, net/mptcp/protocol.c).
const KERNEL_BURST: usize = 65_428;

/// What a subflow may be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// What its congestion window can send now, a segment at a time: the seeds' model.
    Window,
    /// Linux's: a burst of up to 64 KB while its queue is below its send buffer (`send_buffer`).
    SendBuffer,
}

/// A subflow's send buffer as Linux's autotuning sizes it once established (tcp_sndbuf_expand):
/// two buffers of 4,096 bytes (an MSS's skb rounded up to a power of two) per segment of the
/// window, at least 10, at most tcp_wmem's 4 MB. The kernel counts an skb's true size, which for
/// its 64 KB bursts is about its payload, so the bound applies to queued payload bytes.
fn send_buffer(cwnd: usize) -> usize {
    (2 * cwnd.div_ceil(MSS).max(10) * 4096).min(4 << 20)
}

pub struct Subflow {
    pub host: usize,
    pub handle: SockId,
    /// The topology's path it runs on.
    pub path: usize,
    pub backup: bool,
    pub counts: Arc<ConnectionCounts>,
    decoder: Decoder,
    /// Its first frame (MP_CAPABLE or MP_JOIN) has been sent, or received.
    greeted: bool,
    /// Bytes of frames put into its send buffer, and OLIA's record of its losses.
    written: u64,
    intervals: LossIntervals,
}

impl Subflow {
    pub fn new(host: usize, handle: SockId, path: usize, backup: bool, counts: Arc<ConnectionCounts>) -> Subflow {
        Subflow { host, handle, path, backup, counts, decoder: Decoder::default(), greeted: false, written: 0, intervals: LossIntervals::default() }
    }

    /// Segments it has sent again, in the direction `side` sends.
    fn retransmitted(&self, side: Side) -> u64 {
        let counter = match side {
            Side::Client => &self.counts.retransmitted_up,
            Side::Server => &self.counts.retransmitted_down,
        };
        counter.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A server's subflow whose greeting was read, with what followed it.
    pub fn greeted(mut self, decoder: Decoder) -> Subflow {
        self.decoder = decoder;
        self.greeted = true;
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Client,
    Server,
}

pub struct Endpoint {
    pub token: u64,
    pub side: Side,
    /// The server's address, where a client's subflows go.
    pub remote: std::net::SocketAddr,
    pub subflows: Vec<Subflow>,
    sending: Sending,
    retransmission: Retransmission,
    receiving: Reassembly,
    scheduler: Box<dyn Scheduler>,
    admission: Admission,
    /// The subflows' coupled congestion control; None: each its own.
    coupling: Option<Coupling>,
    /// Writes wait while this many bytes are unmapped (TCP_NOTSENT_LOWAT, the servers').
    lowat: Option<usize>,
    /// The connection's send buffer, for bytes unmapped and bytes not yet DATA_ACKed alike
    /// (`connection_send_buffer`).
    send_buffer: usize,
    /// When the unmapped bytes last went from none to some.
    ready_at: Duration,
    reader: Option<Waker>,
    writer: Option<Waker>,
    /// The client has opened its other subflows.
    pub joined: bool,
    pub error: Option<String>,
}

/// A subflow's send buffer before its handshake completes (tcp_wmem[1]); the connection's own
/// starts from tcp_wmem[0].
const SUBFLOW_INITIAL_SEND_BUFFER: usize = 16_384;
const CONNECTION_SEND_BUFFER_BASE: usize = 4_096;

/// The connection's send buffer as Linux sizes it (__mptcp_sync_sndbuf): tcp_wmem[0] plus every
/// subflow's. Bytes wait in it until DATA_ACKed, so data stuck on a slow subflow fills it and the
/// application's writes stop until the timer's reinjection frees it.
fn connection_send_buffer(subflows: &[Subflow], hosts: &[Host]) -> usize {
    CONNECTION_SEND_BUFFER_BASE
        + subflows
            .iter()
            .map(|sf| {
                let socket = hosts[sf.host].socket(sf.handle);
                if socket.may_send() { send_buffer(socket.congestion_window()) } else { SUBFLOW_INITIAL_SEND_BUFFER }
            })
            .sum::<usize>()
}

impl Endpoint {
    pub fn new(token: u64, side: Side, remote: std::net::SocketAddr, first: Subflow, scheduler: (Box<dyn Scheduler>, Admission), coupling: Option<Coupling>, lowat: Option<usize>) -> Endpoint {
        let (scheduler, admission) = scheduler;
        Endpoint {
            token,
            side,
            remote,
            subflows: vec![first],
            sending: Sending::default(),
            retransmission: Retransmission::default(),
            receiving: Reassembly::default(),
            scheduler,
            admission,
            coupling,
            lowat,
            send_buffer: SUBFLOW_INITIAL_SEND_BUFFER,
            ready_at: Duration::ZERO,
            reader: None,
            writer: None,
            joined: false,
            error: None,
        }
    }

    /// The application's write: how much was taken, None when it must wait (`waker` is woken).
    pub fn write(&mut self, bytes: &[u8], now: Duration, waker: &Waker) -> Option<usize> {
        if !self.writable() {
            self.writer = Some(waker.clone());
            return None;
        }
        if self.sending.unmapped() == 0 {
            self.ready_at = now;
        }
        let n = bytes.len().min(self.send_buffer - self.queued());
        self.sending.write(&bytes[..n]);
        Some(n)
    }

    /// Bytes in the send buffer: unmapped, or mapped and not yet DATA_ACKed.
    fn queued(&self) -> usize {
        self.sending.unmapped() + self.retransmission.held()
    }

    fn writable(&self) -> bool {
        self.queued() < self.send_buffer && self.lowat.is_none_or(|l| self.sending.unmapped() < l)
    }

    /// The application's read: Some(0) at the end of the stream, None when it must wait.
    pub fn read(&mut self, out: &mut [u8], waker: &Waker) -> Option<usize> {
        if self.receiving.has_readable() {
            return Some(self.receiving.read(out));
        }
        if self.receiving.at_end() || self.error.is_some() {
            return Some(0);
        }
        self.reader = Some(waker.clone());
        None
    }

    /// Linux's "fully established": a client's first subflow has carried data from the server
    /// (the packet after the handshake that acknowledges MP_CAPABLE's keys), when its in-kernel
    /// path manager opens the other subflows (net/mptcp/options.c, check_fully_established).
    pub fn fully_established(&self) -> bool {
        self.receiving.heard()
    }

    pub fn close(&mut self) {
        self.sending.close();
    }

    /// Moves what the subflows received into the data stream, greets new subflows, and hands
    /// the scheduler's choices of unmapped data to subflows; true if any subflow was given bytes.
    pub fn pump(&mut self, hosts: &mut [Host], now: Duration) -> bool {
        let mut wrote = false;
        for i in 0..self.subflows.len() {
            wrote |= self.tend_subflow(i, hosts);
        }
        self.couple(hosts);
        self.send_buffer = connection_send_buffer(&self.subflows, hosts);
        self.data_acked(hosts, now);
        wrote |= self.reinject(hosts, now);
        if self.map(hosts, now) {
            wrote = true;
            self.retransmission.arm(now, self.timer_interval(hosts));
        }
        wrote |= self.send_fin(hosts);
        if self.receiving.has_readable() || self.receiving.at_end() || self.error.is_some() {
            if let Some(w) = self.reader.take() {
                w.wake();
            }
        }
        if self.writable() {
            if let Some(w) = self.writer.take() {
                w.wake();
            }
        }
        wrote
    }

    fn tend_subflow(&mut self, i: usize, hosts: &mut [Host]) -> bool {
        let (host, handle) = (self.subflows[i].host, self.subflows[i].handle);
        let mut wrote = false;
        if self.side == Side::Client && !self.subflows[i].greeted && hosts[host].socket(handle).may_send() {
            let hello = if i == 0 { Frame::Capable(self.token) } else { Frame::Join(self.token) };
            wrote = send_frame(&hello, hosts, &mut self.subflows[i]);
            self.subflows[i].greeted = true;
        }
        let sf = &mut self.subflows[i];
        if hosts[host].socket(handle).can_recv() {
            receive(hosts[host].socket_mut(handle), &mut sf.decoder);
        }
        // A server's subflow comes with what followed its greeting already decoded.
        loop {
            match sf.decoder.next() {
                Ok(Some(Frame::Data { dsn, bytes })) => self.receiving.insert(dsn, bytes),
                Ok(Some(Frame::DataFin { dsn })) => self.receiving.finish_at(dsn),
                Ok(Some(Frame::Capable(_) | Frame::Join(_))) => {}
                Ok(None) => break,
                Err(e) => {
                    self.error = Some(e);
                    break;
                }
            }
        }
        wrote
    }

    /// Each subflow as a scheduler sees it, with the bytes it may be given now.
    fn snapshots(&self, hosts: &[Host]) -> Vec<(PathSnapshot, usize)> {
        self.subflows
            .iter()
            .map(|sf| {
                let socket = hosts[sf.host].socket(sf.handle);
                let (srtt, rttvar) = socket.smoothed_rtt().map_or((NO_SAMPLE, NO_SAMPLE / 2), |(s, v)| (s.into(), v.into()));
                let cwnd = socket.congestion_window();
                let ssthresh = socket.slow_start_threshold();
                let queued = socket.bytes_in_flight() + socket.send_queue_unsent();
                let usable = sf.greeted && socket.may_send();
                let room = match self.admission {
                    Admission::Window => cwnd.saturating_sub(queued).min(MSS - DATA_HEADER),
                    Admission::SendBuffer => send_buffer(cwnd).saturating_sub(queued).min(KERNEL_BURST),
                };
                let needed = MSS.min(DATA_HEADER + self.sending.unmapped());
                let snapshot = PathSnapshot {
                    id: PathId(sf.path),
                    srtt,
                    rttvar,
                    min_rtt: srtt,
                    cwnd: cwnd as u64,
                    bytes_in_flight: queued as u64,
                    pacing_rate: None,
                    in_slow_start: ssthresh.is_none_or(|t| cwnd < t),
                    ssthresh: ssthresh.map(|t| t as u64),
                    lost_packets: sf.retransmitted(self.side),
                    usable,
                    can_send: usable && room >= needed.min(MSS - DATA_HEADER),
                    backup: sf.backup,
                };
                (snapshot, room)
            })
            .collect()
    }

    /// When the connection's retransmit timer is next due, if it runs.
    pub fn deadline(&self) -> Option<Duration> {
        self.retransmission.deadline()
    }

    /// The DATA_ACK from what each subflow has had acknowledged; its progress restarts the timer.
    fn data_acked(&mut self, hosts: &[Host], now: Duration) {
        let mut moved = false;
        for (i, sf) in self.subflows.iter().enumerate() {
            let acked = sf.written - hosts[sf.host].socket(sf.handle).send_queue() as u64;
            moved |= self.retransmission.acknowledged(i, acked);
        }
        if moved {
            self.retransmission.restart(now, self.timer_interval(hosts));
        }
    }

    /// The kernel's timer interval (mptcp_set_timeout): the longest retransmission timeout of the
    /// subflows with data out (the kernel takes what is left of each pending timer; this, the
    /// whole timeout), TCP_RTO_MIN when none has.
    fn timer_interval(&self, hosts: &[Host]) -> Duration {
        self.subflows
            .iter()
            .map(|sf| hosts[sf.host].socket(sf.handle))
            .filter(|s| s.send_queue() > 0)
            .map(|s| subflow_rto(s.smoothed_rtt().map(|(a, b)| (a.into(), b.into()))))
            .max()
            .unwrap_or(RTO_MIN)
    }

    /// When the timer fires, the head of the retransmit queue again on an active subflow with
    /// nothing outstanding at the TCP level (mptcp_subflow_get_retrans; a backup only when every
    /// other has stalled, which without loss none does); none such: it waits another interval.
    fn reinject(&mut self, hosts: &mut [Host], now: Duration) -> bool {
        let Some(head) = self.retransmission.fire(now) else { return false };
        let idle = |sf: &Subflow| {
            let socket = hosts[sf.host].socket(sf.handle);
            sf.greeted && !sf.backup && socket.may_send() && socket.send_queue() == 0
        };
        let mut wrote = false;
        if let Some(i) = self.subflows.iter().position(idle) {
            for (dsn, bytes) in head {
                if free_space(hosts, &self.subflows[i]) < DATA_HEADER + bytes.len() {
                    break;
                }
                send_frame(&Frame::Data { dsn, bytes }, hosts, &mut self.subflows[i]);
                self.retransmission.carried(i, self.subflows[i].written, dsn);
                wrote = true;
            }
        }
        self.retransmission.arm(now, self.timer_interval(hosts));
        wrote
    }

    /// With coupled congestion control, each subflow's share of congestion avoidance's growth
    /// from the subflows' windows and RTTs as they are now (those with an RTT sample; the others
    /// are in slow start, which the coupling leaves alone).
    fn couple(&mut self, hosts: &mut [Host]) {
        let Some(coupling) = self.coupling else { return };
        let mut live = Vec::new();
        let mut windows = Vec::new();
        for (i, sf) in self.subflows.iter_mut().enumerate() {
            let socket = hosts[sf.host].socket(sf.handle);
            let Some((srtt, _)) = socket.smoothed_rtt().filter(|_| sf.greeted) else { continue };
            let rtt = Duration::from(srtt).as_secs_f64().max(1e-6);
            let acked = sf.written.saturating_sub(socket.send_queue() as u64) as f64;
            sf.intervals.update(acked, sf.retransmitted(self.side));
            live.push(i);
            windows.push(Window { cwnd: socket.congestion_window() as f64, rtt });
        }
        let scales = match coupling {
            Coupling::Lia => lia_scales(&windows),
            Coupling::Olia => olia_scales(&windows, &live.iter().map(|&i| self.subflows[i].intervals).collect::<Vec<_>>()),
        };
        for (i, scale) in live.into_iter().zip(scales) {
            let sf = &self.subflows[i];
            hosts[sf.host].socket_mut(sf.handle).set_increase_scale(scale);
        }
    }

    fn map(&mut self, hosts: &mut [Host], now: Duration) -> bool {
        let mut wrote = false;
        while self.sending.unmapped() > 0 {
            let (paths, rooms): (Vec<PathSnapshot>, Vec<usize>) = self.snapshots(hosts).into_iter().unzip();
            let streams = [StreamSnapshot {
                id: STREAM,
                remaining: self.sending.unmapped() as u64,
                sent: 0,
                total: None,
                urgency: 3,
                incremental: false,
                critical_priority: None,
                ready_at: self.ready_at,
            }];
            let decision = self.scheduler.decide(&Context { now, paths: &paths, streams: &streams });
            let chosen: Vec<usize> = match decision.path {
                PathChoice::Wait => break,
                PathChoice::One(id) => paths.iter().position(|p| p.id == id && p.can_send).into_iter().collect(),
                PathChoice::Every => paths.iter().enumerate().filter(|(_, p)| p.can_send).map(|(i, _)| i).collect(),
            };
            if chosen.is_empty() {
                break;
            }
            // A segment's worth, or the kernel's burst: as much as every chosen subflow may take.
            let mut budget = chosen.iter().map(|&i| rooms[i]).min().unwrap_or(0).max(1);
            while budget > 0 && self.sending.unmapped() > 0 {
                // A frame goes into a send buffer whole or not at all: a window larger than the
                // buffer (a long, deep path) must not cut one, or the stream's framing is lost.
                let fits = chosen.iter().map(|&i| free_space(hosts, &self.subflows[i])).min().unwrap_or(0);
                if fits <= DATA_HEADER {
                    break;
                }
                let (dsn, bytes) = self.sending.take((MSS - DATA_HEADER).min(budget).min(fits - DATA_HEADER));
                budget = budget.saturating_sub(bytes.len() + DATA_HEADER);
                let len = bytes.len() as u64;
                let frame = Frame::Data { dsn, bytes };
                for &i in &chosen {
                    if !send_frame(&frame, hosts, &mut self.subflows[i]) {
                        self.error = Some(format!("a data frame did not fit into subflow {}'s send buffer", self.subflows[i].path));
                    }
                    self.retransmission.carried(i, self.subflows[i].written, dsn);
                    self.scheduler.on_event(now, &Event::Sent { path: PathId(self.subflows[i].path), stream: Some(STREAM), bytes: len });
                }
                let Frame::Data { bytes, .. } = frame else { unreachable!("built as data above") };
                self.retransmission.keep(dsn, bytes);
            }
            wrote = true;
        }
        wrote
    }

    /// The DATA_FIN on the first subflow that can carry it, then every subflow's FIN.
    fn send_fin(&mut self, hosts: &mut [Host]) -> bool {
        let Some(i) = self.subflows.iter().position(|sf| sf.greeted && hosts[sf.host].socket(sf.handle).may_send() && free_space(hosts, sf) >= DATA_HEADER) else {
            return false;
        };
        let Some(dsn) = self.sending.fin_due() else { return false };
        send_frame(&Frame::DataFin { dsn }, hosts, &mut self.subflows[i]);
        for sf in &self.subflows {
            hosts[sf.host].socket_mut(sf.handle).close();
        }
        true
    }

}

/// Everything a subflow's socket has received, into its decoder (the ring buffer gives its bytes
/// in at most two slices).
pub fn receive(socket: &mut tcp::Socket<'static>, decoder: &mut Decoder) {
    while matches!(
        socket.recv(|b| {
            decoder.push(b);
            (b.len(), b.len())
        }),
        Ok(1..)
    ) {}
}

/// The bytes a subflow's send buffer can take now.
fn free_space(hosts: &[Host], sf: &Subflow) -> usize {
    let socket = hosts[sf.host].socket(sf.handle);
    socket.send_capacity() - socket.send_queue()
}

/// A frame into a subflow's send buffer, whole; false if it did not fit (the caller checks first).
fn send_frame(frame: &Frame, hosts: &mut [Host], sf: &mut Subflow) -> bool {
    let mut bytes = Vec::with_capacity(MSS);
    frame.encode(&mut bytes);
    let socket = hosts[sf.host].socket_mut(sf.handle);
    let sent = socket.send_slice(&bytes).unwrap_or(0);
    sf.written += sent as u64;
    sent == bytes.len()
}
