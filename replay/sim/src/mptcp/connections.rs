//! Every simulated MPTCP connection of a run, both ends: the server's subflows waiting for their
//! first frame to say which connection they belong to, the connections each listener has
//! accepted, and the scheduler each end runs.

use super::coupled::Coupling;
use super::endpoint::{receive, Admission, Endpoint, Side, Subflow};
use crate::tcp::counts::ConnectionCounts;
use crate::tcp::host::SockId;
use std::sync::Arc;
use super::frame::{Decoder, Frame};
use crate::tcp::host::Host;
use pagepath_multipath::{Options, Scheduler};

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::task::Waker;
use std::time::Duration;

/// Which scheduler both ends run: pagepath's (replay/multipath) by name, or `default`.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulerChoice {
    pub name: String,
    pub options: Vec<String>,
}

/// What `default` (the kernel's net.mptcp.scheduler default) runs in simulation: the model of the
/// kernel's rule (after net/mptcp/protocol.c), with its 64 KB bursts into subflow send buffers.
/// Against the kernel's MPTCP in replays it came closer than lowest-RTT on five of six summary
/// figures (docs/simulator.md, Over MPTCP).
pub const KERNEL_DEFAULT: &str = "kernel-default";

impl SchedulerChoice {
    /// The scheduler, and how its subflows are offered data: `kernel-default` queues on a subflow
    /// as Linux does; the others decide a segment at a time.
    pub fn build(&self) -> Result<(Box<dyn Scheduler>, Admission), String> {
        let name = if self.name == "default" { KERNEL_DEFAULT } else { self.name.as_str() };
        let options = Options::parse(self.options.iter().map(String::as_str))?;
        let scheduler = pagepath_multipath::build(name, &options).map_err(|e| format!("--mptcp-scheduler: {e}, or default"))?;
        let admission = if name == "kernel-default" { Admission::SendBuffer } else { Admission::Window };
        Ok((scheduler, admission))
    }
}

struct Greeting {
    at: SocketAddr,
    subflow: Subflow,
    decoder: Decoder,
}

#[derive(Default)]
struct Accepting {
    ready: VecDeque<usize>,
    waker: Option<Waker>,
}

pub struct Mptcp {
    pub endpoints: Vec<Endpoint>,
    greeting: Vec<Greeting>,
    by_token: HashMap<u64, usize>,
    accepting: HashMap<SocketAddr, Accepting>,
    scheduler: SchedulerChoice,
    /// The servers' TCP_NOTSENT_LOWAT, at the connection's level.
    server_lowat: usize,
    /// Per path: a backup (the topology's), used only when no other path can send.
    backups: Vec<bool>,
    /// The subflows' coupled congestion control, None: uncoupled.
    coupling: Option<Coupling>,
}

impl Mptcp {
    pub fn new(scheduler: SchedulerChoice, server_lowat: usize, backups: Vec<bool>, coupling: Option<Coupling>) -> Result<Mptcp, String> {
        scheduler.build()?;
        Ok(Mptcp { endpoints: Vec::new(), greeting: Vec::new(), by_token: HashMap::new(), accepting: HashMap::new(), scheduler, server_lowat, backups, coupling })
    }

    /// A subflow of host `host`'s socket on path `path`, a backup if the path is one.
    pub fn subflow(&self, host: usize, handle: SockId, path: usize, counts: Arc<ConnectionCounts>) -> Subflow {
        Subflow::new(host, handle, path, self.backups.get(path).copied().unwrap_or(false), counts)
    }

    /// A client's connection whose first subflow is `first`, to `remote`; its id.
    pub fn open(&mut self, remote: SocketAddr, first: Subflow) -> usize {
        let token = self.endpoints.len() as u64 + 1;
        let scheduler = self.scheduler.build().expect("checked in new()");
        self.endpoints.push(Endpoint::new(token, Side::Client, remote, first, scheduler, self.coupling, None));
        self.endpoints.len() - 1
    }

    /// A subflow a server's listener at `at` accepted; its first frame will place it.
    pub fn greet(&mut self, at: SocketAddr, subflow: Subflow) {
        self.greeting.push(Greeting { at, subflow, decoder: Decoder::default() });
    }

    /// The next connection accepted at `at`, or None (`waker` is woken when there is one).
    pub fn accepted(&mut self, at: SocketAddr, waker: &Waker) -> Option<usize> {
        let a = self.accepting.entry(at).or_default();
        let next = a.ready.pop_front();
        if next.is_none() {
            a.waker = Some(waker.clone());
        }
        next
    }

    /// When the earliest connection's retransmit timer is due.
    pub fn next_deadline(&self) -> Option<Duration> {
        self.endpoints.iter().filter_map(Endpoint::deadline).min()
    }

    /// Places greeted subflows and pumps every connection; returns whether any subflow was given
    /// bytes, and the client connections whose other subflows are due (their first has brought
    /// the server's first data, as Linux's path manager waits for).
    pub fn pump(&mut self, hosts: &mut [Host], now: Duration) -> (bool, Vec<usize>) {
        self.place_greeted(hosts);
        let mut wrote = false;
        let mut joins = Vec::new();
        for (id, e) in self.endpoints.iter_mut().enumerate() {
            wrote |= e.pump(hosts, now);
            if e.side == Side::Client && !e.joined && established(hosts, &e.subflows[0]) && e.fully_established() {
                e.joined = true;
                joins.push(id);
            }
        }
        (wrote, joins)
    }

    fn place_greeted(&mut self, hosts: &mut [Host]) {
        let mut i = 0;
        while i < self.greeting.len() {
            let g = &mut self.greeting[i];
            let socket = hosts[g.subflow.host].socket_mut(g.subflow.handle);
            receive(socket, &mut g.decoder);
            let hello = g.decoder.next();
            if matches!(hello, Ok(None)) && socket.may_recv() {
                i += 1;
                continue;
            }
            let Greeting { at, subflow, decoder } = self.greeting.swap_remove(i);
            match hello {
                Ok(Some(Frame::Capable(token))) => {
                    let scheduler = self.scheduler.build().expect("checked in new()");
                    let endpoint = Endpoint::new(token, Side::Server, at, subflow.greeted(decoder), scheduler, self.coupling, Some(self.server_lowat));
                    self.endpoints.push(endpoint);
                    let id = self.endpoints.len() - 1;
                    self.by_token.insert(token, id);
                    let a = self.accepting.entry(at).or_default();
                    a.ready.push_back(id);
                    if let Some(w) = a.waker.take() {
                        w.wake();
                    }
                }
                Ok(Some(Frame::Join(token))) if self.by_token.contains_key(&token) => {
                    self.endpoints[self.by_token[&token]].subflows.push(subflow.greeted(decoder));
                }
                // Not a subflow of a connection this run knows, or closed before it said: reset, as
                // a kernel answers an MP_JOIN with an unknown token.
                _ => hosts[subflow.host].socket_mut(subflow.handle).abort(),
            }
        }
    }
}

fn established(hosts: &[Host], sf: &Subflow) -> bool {
    hosts[sf.host].socket(sf.handle).may_send()
}
