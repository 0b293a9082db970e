//! A simulated connection as its application sees it: tokio's AsyncRead and AsyncWrite over a
//! smoltcp socket, so rustls, h2 and hyper run on it as on a kernel socket. Each read or write
//! wakes the fabric's task, whose stacks answer at that same virtual instant.

use super::fabric::Net;
use super::host::SockId;
use smoltcp::socket::tcp;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

pub struct SimStream {
    net: Net,
    host: usize,
    handle: SockId,
    /// Writes wait while this many bytes are still unsent (TCP_NOTSENT_LOWAT); None: only a full
    /// buffer makes them wait.
    lowat: Option<usize>,
}

impl SimStream {
    pub fn new(net: Net, host: usize, handle: SockId, lowat: Option<usize>) -> SimStream {
        SimStream { net, host, handle, lowat }
    }

    fn with<R>(&self, f: impl FnOnce(&mut tcp::Socket<'static>) -> R) -> R {
        let mut fabric = self.net.lock();
        f(fabric.hosts[self.host].socket_mut(self.handle))
    }
}

impl AsyncRead for SimStream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let got = self.with(|socket| {
            if socket.can_recv() {
                let n = socket.recv_slice(buf.initialize_unfilled()).unwrap_or(0);
                buf.advance(n);
                Poll::Ready(Ok(socket.window_to_update()))
            } else if !socket.may_recv() {
                // The peer closed (FIN) or the connection is gone: end of stream.
                Poll::Ready(Ok(false))
            } else {
                socket.register_recv_waker(cx.waker());
                Poll::Pending
            }
        });
        // A read that doubled the receive window has the stack advertise it at this instant; any
        // other read leaves nothing for the stack to send, and waking it would cost a round (a
        // fifth of a load's rounds were these). The host polls the socket at its next event.
        if matches!(got, Poll::Ready(Ok(true))) {
            self.net.kick();
        }
        got.map_ok(|_| ())
    }
}

impl AsyncWrite for SimStream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let lowat = self.lowat;
        let (host, handle) = (self.host, self.handle);
        let wrote = {
            let mut fabric = self.net.lock();
            let socket = fabric.hosts[host].socket_mut(handle);
            if !socket.may_send() {
                Poll::Ready(Err(io::Error::from(io::ErrorKind::BrokenPipe)))
            } else if let Some(l) = lowat.filter(|l| socket.send_queue_unsent() >= *l) {
                fabric.wait_writable(host, handle, l, cx.waker());
                Poll::Pending
            } else if !socket.can_send() {
                socket.register_send_waker(cx.waker());
                Poll::Pending
            } else {
                Poll::Ready(socket.send_slice(data).map_err(|e| io::Error::other(e.to_string())))
            }
        };
        if matches!(wrote, Poll::Ready(Ok(_))) {
            self.net.kick();
        }
        wrote
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(tcp::Socket::close);
        self.net.kick();
        Poll::Ready(Ok(()))
    }
}

impl Drop for SimStream {
    fn drop(&mut self) {
        // As a closed socket: what is still buffered goes, then a FIN.
        self.with(tcp::Socket::close);
        self.net.kick();
    }
}
