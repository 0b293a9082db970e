//! How the simulated TCP behaves where stacks differ: Linux's defaults, which the real replay's
//! kernel runs, or the thesis's settings (seed 001 §3.7.7.2, Table 3.3), so that its experiments
//! can be rerun as it ran them.

use crate::mptcp::coupled::Coupling;
use smoltcp::socket::tcp::{CongestionControl, Socket};
use smoltcp::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpProfile {
    pub congestion: Congestion,
    /// Segments in the congestion window at the handshake.
    pub initial_window: usize,
    pub min_rto_ms: u64,
    /// How long a lone segment's ACK may wait; a second full segment is ACKed at once.
    pub ack_delay_ms: u64,
    /// Tail loss probes (RFC 8985 §7) on the client's sockets and on the servers', which the
    /// servers' `--tail-loss-probes` turns off as it does in a replay's server namespace.
    pub client_probes: bool,
    pub server_probes: bool,
    /// Linux's receiver: an ACK for each segment in quick ACK mode, which growing its window
    /// keeps it in through slow start (smoltcp's quick_ack.rs in the patch).
    pub quick_acks: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    Cubic,
    Reno,
    /// Reno on each subflow of an MPTCP connection, their growth coupled (mptcp/coupled.rs).
    Coupled(Coupling),
}

impl Congestion {
    /// As `--congestion` and the servers' connection logs name it.
    pub fn name(self) -> &'static str {
        match self {
            Congestion::Cubic => "cubic",
            Congestion::Reno => "reno",
            Congestion::Coupled(Coupling::Lia) => "lia",
            Congestion::Coupled(Coupling::Olia) => "olia",
        }
    }

    /// `--coupled lia|olia`, the simulator's own option (the kernel has neither).
    pub fn coupled(name: &str) -> Result<Congestion, String> {
        match name {
            "lia" => Ok(Congestion::Coupled(Coupling::Lia)),
            "olia" => Ok(Congestion::Coupled(Coupling::Olia)),
            other => Err(format!("--coupled {other}: the simulated MPTCP couples its subflows with lia (RFC 6356) or olia")),
        }
    }

    pub fn coupling(self) -> Option<Coupling> {
        match self {
            Congestion::Coupled(c) => Some(c),
            _ => None,
        }
    }
}

impl TcpProfile {
    /// Linux's defaults: CUBIC, RFC 6928's initial window of 10, TCP_RTO_MIN 200 ms,
    /// TCP_DELACK_MIN 40 ms, tail loss probes and quick ACKs.
    pub fn linux(congestion: Congestion) -> TcpProfile {
        TcpProfile { congestion, initial_window: 10, min_rto_ms: 200, ack_delay_ms: 40, client_probes: true, server_probes: true, quick_acks: true }
    }

    /// The thesis's ns-3 settings (seed 001 Table 3.3): New Reno, an initial window of 4, a
    /// 200 ms minimum RTO, delayed ACKs after 100 ms or two segments, and no tail loss probes.
    pub fn thesis() -> TcpProfile {
        TcpProfile { congestion: Congestion::Reno, initial_window: 4, min_rto_ms: 200, ack_delay_ms: 100, client_probes: false, server_probes: false, quick_acks: false }
    }

    /// `--tcp-profile NAME` with the server's `--congestion`.
    pub fn parse(name: &str, congestion: &str) -> Result<TcpProfile, String> {
        let congestion = match congestion {
            "cubic" => Congestion::Cubic,
            "reno" => Congestion::Reno,
            other => return Err(format!("--congestion {other}: the simulated TCP (smoltcp) has cubic and reno")),
        };
        match name {
            "linux" => Ok(TcpProfile::linux(congestion)),
            "thesis" => Ok(TcpProfile::thesis()),
            other => Err(format!("--tcp-profile {other}: not a TCP profile; there are linux (the kernel's defaults) and thesis (seed 001 Table 3.3)")),
        }
    }

    /// The servers' tail loss probes off, as `--tail-loss-probes off` turns them off.
    pub fn without_server_probes(self) -> TcpProfile {
        TcpProfile { server_probes: false, ..self }
    }

    /// Sets a new socket up, a server's (`server`) or the client's.
    pub fn apply(&self, socket: &mut Socket, server: bool) {
        socket.set_congestion_control(match self.congestion {
            Congestion::Cubic => CongestionControl::Cubic,
            Congestion::Reno | Congestion::Coupled(_) => CongestionControl::Reno,
        });
        socket.set_initial_window(self.initial_window);
        socket.set_min_rto(Duration::from_millis(self.min_rto_ms));
        socket.set_ack_delay(Some(Duration::from_millis(self.ack_delay_ms)));
        socket.set_tail_loss_probes(if server { self.server_probes } else { self.client_probes });
        socket.set_linux_quick_acks(self.quick_acks);
        // Chromium and the replay servers both set TCP_NODELAY.
        socket.set_nagle_enabled(false);
    }
}
