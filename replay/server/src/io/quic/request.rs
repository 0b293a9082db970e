//! A request as HTTP/3 carries it, and the response the service prepared for it.

use crate::core::matcher::MatchKind;
use crate::core::priority::Priority;
use crate::service::Prepared;
use bytes::Bytes;
use tquic::h3::{Header, NameValue};

/// The request fields the service answers from.
pub(super) struct RequestFields {
    pub(super) method: String,
    pub(super) target: String,
    pub(super) priority: Option<String>,
}

/// None when the request lacks `:method` or `:path`, or they are not text (a malformed request).
pub(super) fn request_fields(headers: &[Header]) -> Option<RequestFields> {
    let text = |h: &Header| std::str::from_utf8(h.value()).ok().map(str::to_owned);
    let (mut method, mut target, mut priority) = (None, None, None);
    for h in headers {
        match h.name() {
            b":method" => method = text(h),
            b":path" => target = text(h),
            b"priority" => priority = text(h),
            _ => {}
        }
    }
    Some(RequestFields { method: method?, target: target?, priority })
}

/// A response being served: its head until the first chunk sends it, its body, and what the
/// stream log reports once the schedule has finished it.
pub(super) struct Response {
    pub(super) method: String,
    pub(super) url: String,
    pub(super) status: u16,
    pub(super) kind: MatchKind,
    pub(super) delay_us: u64,
    pub(super) priority: Priority,
    pub(super) head: Option<Vec<Header>>,
    pub(super) body: Bytes,
}

impl Response {
    pub(super) fn new(method: String, prepared: Prepared) -> Response {
        let head = response_head(&prepared);
        Response {
            method,
            url: prepared.url,
            status: prepared.status,
            kind: prepared.kind,
            delay_us: prepared.delay_us,
            priority: prepared.priority,
            head: Some(head),
            body: prepared.body,
        }
    }
}

fn response_head(prepared: &Prepared) -> Vec<Header> {
    let mut head = vec![
        Header::new(b":status", prepared.status.to_string().as_bytes()),
        Header::new(b"content-length", prepared.body.len().to_string().as_bytes()),
    ];
    head.extend(prepared.headers.iter().map(|(name, value)| Header::new(name.as_bytes(), value.as_bytes())));
    head
}
