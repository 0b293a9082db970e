//! The command line of pagepath-fetch.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use pagepath_tquic_scheduler::{choose, Choice};

pub const HELP: &str = "\
pagepath-fetch: fetch targets over HTTP/3 on one QUIC or multipath QUIC connection

usage: pagepath-fetch --connect ADDR:PORT --host NAME [options] TARGET...

  --connect ADDR:PORT   the server to connect to
  --host NAME           the server name: TLS SNI and the :authority of every request
  --local IP            a local address to send from; give it again, with --multipath, for
                        each further path (the first address opens the connection, each
                        further one adds a path once it is up). Default: the address the
                        routing table picks.
  --multipath           offer multipath QUIC (draft-ietf-quic-multipath)
  --scheduler NAME      how this client spreads its packets (requests, acknowledgements)
                        over the paths: one of pagepath's multipath schedulers (default
                        lowest-rtt; `pagepath-server schedulers` lists them) or tquic's own
                        minrtt or roundrobin; only with --multipath. The server's own
                        scheduler spreads the responses.
  --scheduler-opt KEY=VALUE  an option of pagepath's scheduler (repeatable)
  --qlog DIR            write the connection's qlog (JSON-SEQ) into the existing folder DIR
  --timeout-s N         give up after N seconds in all (default 30)
  -h, --help            this text

TARGET is a path with its query, sent as :path, e.g. /index.html or /search?q=a. All targets
are requested at once, concurrently. A suffix @PRIORITY sends an RFC 9218 priority header:
/app.js@u=1,i sends `priority: u=1, i` (u=0..7 urgency, i incremental).

The server's certificate is not verified: replay certificates are self-signed, made afresh
for each replay.

On success one JSON line goes to stdout:
  {\"protocol\":\"h3\",\"transport\":\"quic\"|\"mpquic\",\"handshakeUs\":N,
   \"responses\":[{\"target\",\"status\",\"bytes\",\"sha256\",\"startUs\",\"headersUs\",\"endUs\"}],
   \"paths\":[{\"local\",\"remote\",\"bytesSent\",\"bytesReceived\",\"packetsSent\",\"packetsLost\",\"rttUs\"}],
   \"cpuUs\":N}
with times in µs since the connection was opened, bytes counted on this side, and cpuUs the CPU
time (user and system) the fetch used.
Exit status: 0 success, 1 the connection or a request failed or timed out, 2 bad arguments.
";

/// A day: far beyond any page load, and well inside what a Duration holds.
const MAX_TIMEOUT_S: f64 = 86_400.0;

pub struct Target {
    pub path: String,
    /// The `priority` header value, e.g. `u=1, i`.
    pub priority: Option<String>,
}

pub struct Args {
    pub connect: SocketAddr,
    pub host: String,
    pub locals: Vec<IpAddr>,
    pub multipath: Option<Choice>,
    pub qlog: Option<PathBuf>,
    pub timeout: Duration,
    pub targets: Vec<Target>,
}

/// None when help was asked for; Err names the argument at fault.
pub fn parse(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let (mut connect, mut host, mut locals) = (None, None, Vec::new());
    let (mut multipath, mut scheduler, mut qlog, mut timeout_s) = (false, None, None, 30.0);
    let mut scheduler_options = Vec::new();
    let mut targets = Vec::new();
    while let Some(arg) = argv.next() {
        let mut value = |name: &str| argv.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--connect" => {
                let v = value("--connect")?;
                connect = Some(v.parse::<SocketAddr>().map_err(|_| format!("--connect {v}: not an ADDR:PORT"))?);
            }
            "--host" => host = Some(value("--host")?),
            "--local" => {
                let v = value("--local")?;
                locals.push(v.parse::<IpAddr>().map_err(|_| format!("--local {v}: not an IP address"))?);
            }
            "--multipath" => multipath = true,
            "--scheduler" => scheduler = Some(value("--scheduler")?),
            "--scheduler-opt" => scheduler_options.push(value("--scheduler-opt")?),
            "--qlog" => {
                let dir = PathBuf::from(value("--qlog")?);
                if !dir.is_dir() {
                    return Err(format!("--qlog {}: not an existing folder", dir.display()));
                }
                qlog = Some(dir);
            }
            "--timeout-s" => {
                let v = value("--timeout-s")?;
                timeout_s = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| *s > 0.0 && *s <= MAX_TIMEOUT_S)
                    .ok_or_else(|| format!("--timeout-s {v}: not a number of seconds above 0 and up to {MAX_TIMEOUT_S}"))?;
            }
            a if a.starts_with('-') => return Err(format!("{a}: unknown option")),
            _ => targets.push(target(&arg)?),
        }
    }
    let connect = connect.ok_or("--connect is required")?;
    let host = host.ok_or("--host is required")?;
    if targets.is_empty() {
        return Err("no TARGET given: name at least one path, e.g. /index.html".into());
    }
    if (scheduler.is_some() || !scheduler_options.is_empty()) && !multipath {
        return Err(format!("{} needs --multipath", if scheduler.is_some() { "--scheduler" } else { "--scheduler-opt" }));
    }
    if locals.len() > 1 && !multipath {
        return Err(format!("--local given {} times: more than one path needs --multipath", locals.len()));
    }
    if let Some(ip) = locals.iter().find(|ip| ip.is_ipv4() != connect.is_ipv4()) {
        return Err(format!("--local {ip}: not of the address family of --connect {connect}"));
    }
    let multipath = if multipath { Some(choose(scheduler.as_deref(), &scheduler_options)?) } else { None };
    let timeout = Duration::from_secs_f64(timeout_s);
    Ok(Some(Args { connect, host, locals, multipath, qlog, timeout, targets }))
}

/// `/path` or `/path@u=N,i`; an `@` followed by anything else is part of the path.
fn target(arg: &str) -> Result<Target, String> {
    if !arg.starts_with('/') {
        return Err(format!("{arg}: a TARGET is a path starting with /"));
    }
    if let Some((path, spec)) = arg.rsplit_once('@') {
        let looks_like_priority = spec.starts_with("u=") || spec == "i" || spec.starts_with("i,");
        if looks_like_priority {
            return Ok(Target { path: path.to_string(), priority: Some(priority(spec).map_err(|e| format!("{arg}: {e}"))?) });
        }
    }
    Ok(Target { path: arg.to_string(), priority: None })
}

/// `u=1,i` to the header value `u=1, i`.
fn priority(spec: &str) -> Result<String, String> {
    let mut members = Vec::new();
    for member in spec.split(',') {
        match member.strip_prefix("u=") {
            Some(u) if matches!(u.parse::<u8>(), Ok(0..=7)) => members.push(member),
            Some(_) => return Err(format!("priority {spec}: the urgency u must be 0 to 7")),
            None if member == "i" => members.push(member),
            None => return Err(format!("priority {spec}: expected u=0..7 and/or i, separated by commas")),
        }
    }
    Ok(members.join(", "))
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
