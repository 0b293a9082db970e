//! The check that the server is the replay. tquic either verifies a certificate chain against
//! trust anchors (a replay's certificate is self-signed, made afresh per replay) or nothing, and
//! does not show the peer's certificate; so the client's TLS context is made here, on the
//! BoringSSL that tquic links, with a verify callback that accepts exactly the certificate whose
//! public key hashes to the replay's `spkiHash`, as Chromium's --ignore-certificate-errors-spki-list
//! does.

use super::spki::spki_hash;
use std::cell::RefCell;
use std::ffi::{c_int, c_long, c_void};
use std::sync::OnceLock;
use tquic::TlsConfig;

const ALERT_BAD_CERTIFICATE: u8 = 42;
const SSL_VERIFY_PEER: c_int = 1;
/// enum ssl_verify_result_t.
const VERIFY_OK: c_int = 0;
const VERIFY_INVALID: c_int = 1;
/// The key-share groups Chromium offers, in its order: a post-quantum hybrid, then X25519.
/// Chromium's hybrid is X25519MLKEM768 (0x11ec), which the BoringSSL tquic bundles predates; its
/// X25519Kyber768Draft00 (0x6399) has a key share of the same 1,216 bytes, so the ClientHello has
/// Chromium's size and spans two Initial packets, as Chromium's does, which also doubles the bytes
/// the server may send before the client's address is validated (RFC 9000 §8.1). The replay's
/// server supports neither hybrid and picks X25519 for both clients alike.
const OFFERED_GROUPS: [u16; 2] = [0x6399, 0x001d];

type ExFree = extern "C" fn(*mut c_void, *mut c_void, *mut c_void, c_int, c_long, *mut c_void);
type Verify = extern "C" fn(*mut c_void, *mut u8) -> c_int;

extern "C" {
    fn TLS_method() -> *const c_void;
    fn SSL_CTX_new(method: *const c_void) -> *mut c_void;
    fn SSL_CTX_free(ctx: *mut c_void);
    fn SSL_CTX_set_custom_verify(ctx: *mut c_void, mode: c_int, callback: Verify);
    fn SSL_CTX_set1_group_ids(ctx: *mut c_void, group_ids: *const u16, num_group_ids: usize) -> c_int;
    fn SSL_CTX_get_ex_new_index(argl: c_long, argp: *mut c_void, unused: *mut c_void, dup: *mut c_void, free: ExFree) -> c_int;
    fn SSL_CTX_set_ex_data(ctx: *mut c_void, index: c_int, data: *mut c_void) -> c_int;
    fn SSL_CTX_get_ex_data(ctx: *const c_void, index: c_int) -> *mut c_void;
    fn SSL_get_SSL_CTX(ssl: *const c_void) -> *mut c_void;
    fn SSL_get0_peer_certificates(ssl: *const c_void) -> *const c_void;
    fn OPENSSL_sk_num(stack: *const c_void) -> usize;
    fn OPENSSL_sk_value(stack: *const c_void, i: usize) -> *mut c_void;
    fn CRYPTO_BUFFER_data(buffer: *const c_void) -> *const u8;
    fn CRYPTO_BUFFER_len(buffer: *const c_void) -> usize;
}

/// What the callback checks against, and what it refused last (for the failure's reason).
struct Expected {
    spki_hash: String,
    refused: RefCell<Option<String>>,
}

/// A client TLS context accepting only the replay's certificate. Every connection's TLS session
/// holds a reference to it, so it lives until the last of them (and the endpoint) is gone.
pub struct Pin {
    ctx: *mut c_void,
    expected: *const Expected,
}

impl Pin {
    pub fn new(spki_hash: &str) -> Result<Pin, String> {
        let index = expected_index().ok_or("BoringSSL has no room for the expected certificate hash")?;
        // SAFETY: TLS_method returns a static method table; a null context is checked below.
        let ctx = unsafe { SSL_CTX_new(TLS_method()) };
        if ctx.is_null() {
            return Err("BoringSSL cannot make a TLS context".into());
        }
        let expected = Box::into_raw(Box::new(Expected { spki_hash: spki_hash.to_string(), refused: RefCell::new(None) }));
        // SAFETY: `ctx` is a live context; the ex_data slot's free callback frees `expected`
        // when the context's last reference goes.
        unsafe {
            if SSL_CTX_set_ex_data(ctx, index, expected.cast()) != 1 {
                drop(Box::from_raw(expected));
                SSL_CTX_free(ctx);
                return Err("BoringSSL cannot attach the expected certificate hash to the TLS context".into());
            }
            SSL_CTX_set_custom_verify(ctx, SSL_VERIFY_PEER, verify);
            if SSL_CTX_set1_group_ids(ctx, OFFERED_GROUPS.as_ptr(), OFFERED_GROUPS.len()) != 1 {
                SSL_CTX_free(ctx);
                return Err("BoringSSL refuses the key-share groups Chromium offers (X25519Kyber768Draft00, X25519)".into());
            }
        }
        Ok(Pin { ctx, expected })
    }

    /// A tquic TLS configuration on this context, offering HTTP/3.
    pub fn tls_config(&self) -> Result<TlsConfig, String> {
        // The cast infers tquic's own (unnameable) SSL_CTX type.
        let mut tls = TlsConfig::new_with_ssl_ctx(self.ctx as *mut _);
        tls.set_application_protos(vec![b"h3".to_vec()]).map_err(|e| format!("cannot offer HTTP/3 (ALPN h3): {e}"))?;
        tls.set_early_data_enabled(false);
        Ok(tls)
    }

    /// Why the last certificate was refused, if one was.
    pub fn refused(&self) -> Option<String> {
        // SAFETY: `expected` lives as long as the context, which this Pin holds a reference to.
        unsafe { (*self.expected).refused.borrow().clone() }
    }
}

impl Drop for Pin {
    fn drop(&mut self) {
        // SAFETY: drops this Pin's reference; sessions still open keep the context alive.
        unsafe { SSL_CTX_free(self.ctx) }
    }
}

/// The ex_data slot of every SSL_CTX that holds a Pin's Expected, made once per process.
fn expected_index() -> Option<c_int> {
    static INDEX: OnceLock<c_int> = OnceLock::new();
    // SAFETY: registers a slot with a free callback matching CRYPTO_EX_free.
    let index = *INDEX.get_or_init(|| unsafe {
        SSL_CTX_get_ex_new_index(0, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), free_expected)
    });
    (index >= 0).then_some(index)
}

extern "C" fn free_expected(_ctx: *mut c_void, data: *mut c_void, _ad: *mut c_void, _index: c_int, _argl: c_long, _argp: *mut c_void) {
    if !data.is_null() {
        // SAFETY: the slot only ever holds a Box<Expected> made by Pin::new.
        drop(unsafe { Box::from_raw(data.cast::<Expected>()) });
    }
}

/// BoringSSL's custom verify callback: the leaf certificate's SPKI hash must be the expected one.
extern "C" fn verify(ssl: *mut c_void, alert: *mut u8) -> c_int {
    let Some(index) = expected_index() else { return VERIFY_INVALID };
    // SAFETY: BoringSSL calls this during the handshake of a live SSL whose SSL_CTX is a Pin's,
    // whose slot `index` holds an Expected for as long as the context lives.
    let expected = unsafe { &*SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), index).cast::<Expected>() };
    // SAFETY: as above; the chain and its buffers belong to the SSL during this call.
    let seen = match unsafe { leaf_certificate(ssl) } {
        Some(der) => spki_hash(der),
        None => Err("the server sent no certificate".into()),
    };
    match seen {
        Ok(hash) if hash == expected.spki_hash => VERIFY_OK,
        Ok(hash) => refuse(expected, format!("its certificate's SPKI hash is {hash}, not the replay's {}", expected.spki_hash), alert),
        Err(e) => refuse(expected, e, alert),
    }
}

fn refuse(expected: &Expected, why: String, alert: *mut u8) -> c_int {
    *expected.refused.borrow_mut() = Some(why);
    // SAFETY: BoringSSL passes a valid alert slot.
    unsafe { *alert = ALERT_BAD_CERTIFICATE };
    VERIFY_INVALID
}

/// The DER of the peer's own certificate, the first of its chain.
unsafe fn leaf_certificate<'a>(ssl: *mut c_void) -> Option<&'a [u8]> {
    let chain = SSL_get0_peer_certificates(ssl);
    if chain.is_null() || OPENSSL_sk_num(chain) == 0 {
        return None;
    }
    let leaf = OPENSSL_sk_value(chain, 0);
    let data = CRYPTO_BUFFER_data(leaf);
    (!data.is_null()).then(|| std::slice::from_raw_parts(data, CRYPTO_BUFFER_len(leaf)))
}
