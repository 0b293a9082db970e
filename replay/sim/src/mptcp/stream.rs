//! A simulated MPTCP connection as its application sees it: tokio's AsyncRead and AsyncWrite over
//! the connection's data stream, whatever subflows carry it.

use super::endpoint::Endpoint;
use crate::tcp::fabric::{Fabric, Net};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

pub struct MptcpStream {
    net: Net,
    id: usize,
}

impl MptcpStream {
    pub fn new(net: Net, id: usize) -> MptcpStream {
        MptcpStream { net, id }
    }

    pub fn id(&self) -> usize {
        self.id
    }

    fn with<R>(&self, f: impl FnOnce(&mut Endpoint, Duration) -> R) -> R {
        let mut fabric = self.net.lock();
        let now = Duration::from_micros(fabric.now_us());
        f(endpoint(&mut fabric, self.id), now)
    }
}

fn endpoint(fabric: &mut Fabric, id: usize) -> &mut Endpoint {
    &mut fabric.mptcp.as_mut().expect("an MPTCP stream lives in an MPTCP network").endpoints[id]
}

impl AsyncRead for MptcpStream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let got = self.with(|e, _| e.read(buf.initialize_unfilled(), cx.waker()));
        match got {
            Some(n) => {
                buf.advance(n);
                Poll::Ready(Ok(()))
            }
            None => Poll::Pending,
        }
    }
}

impl AsyncWrite for MptcpStream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let wrote = self.with(|e, now| e.write(data, now, cx.waker()));
        match wrote {
            Some(n) => {
                self.net.kick();
                Poll::Ready(Ok(n))
            }
            None => Poll::Pending,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|e, _| e.close());
        self.net.kick();
        Poll::Ready(Ok(()))
    }
}

impl Drop for MptcpStream {
    fn drop(&mut self) {
        // As a closed socket: what is still unsent goes, then a DATA_FIN.
        self.with(|e, _| e.close());
        self.net.kick();
    }
}
