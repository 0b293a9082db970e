//! The hash that names the replay's certificate: base64 SHA-256 of its SubjectPublicKeyInfo, as
//! origins.json's `spkiHash` and Chromium's --ignore-certificate-errors-spki-list write it.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ring::digest::{digest, SHA256};

const SEQUENCE: u8 = 0x30;
/// `[0] EXPLICIT Version`, absent from version 1 certificates.
const VERSION: u8 = 0xa0;
/// What comes between the version and the key: serialNumber, signature, issuer, validity, subject.
const FIELDS_BEFORE_KEY: usize = 5;

/// The SPKI hash of a DER X.509 certificate.
pub fn spki_hash(certificate: &[u8]) -> Result<String, String> {
    let spki = subject_public_key_info(certificate)
        .ok_or("the certificate is not a DER X.509 certificate (no SubjectPublicKeyInfo where RFC 5280 puts it)")?;
    Ok(STANDARD.encode(digest(&SHA256, spki)))
}

/// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { version, serialNumber, signature,
/// issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }: the whole SPKI element.
fn subject_public_key_info(certificate: &[u8]) -> Option<&[u8]> {
    let certificate = element(certificate, SEQUENCE)?.contents;
    let mut fields = element(certificate, SEQUENCE)?.contents;
    if fields.first() == Some(&VERSION) {
        fields = element(fields, VERSION)?.rest;
    }
    for _ in 0..FIELDS_BEFORE_KEY {
        fields = element(fields, *fields.first()?)?.rest;
    }
    Some(element(fields, SEQUENCE)?.whole)
}

struct Element<'a> {
    whole: &'a [u8],
    contents: &'a [u8],
    rest: &'a [u8],
}

/// The DER element at the start of `der` if its tag is `tag` (single-byte tags, definite lengths:
/// all a certificate's outer structure uses).
fn element(der: &[u8], tag: u8) -> Option<Element<'_>> {
    if *der.first()? != tag {
        return None;
    }
    let first = *der.get(1)?;
    let (len, header) = if first < 0x80 {
        (first as usize, 2)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 {
            return None;
        }
        let len = der.get(2..2 + n)?.iter().fold(0usize, |len, &b| len << 8 | b as usize);
        (len, 2 + n)
    };
    let end = header.checked_add(len)?;
    if end > der.len() {
        return None;
    }
    Some(Element { whole: &der[..end], contents: &der[header..end], rest: &der[end..] })
}
