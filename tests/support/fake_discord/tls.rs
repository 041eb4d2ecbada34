//! A throw-away certificate authority and a certificate for `discord.com`, made fresh for each stand-in.
//!
//! serenity's rate limiter always sends requests to `https://discord.com` (it ignores
//! `HttpBuilder::proxy`), so to keep the rate limiter in the loop the bot's HTTP client is given an HTTP
//! proxy (the stand-in) and this CA as an extra trusted root. The stand-in answers `CONNECT
//! discord.com:443` and terminates TLS itself with the certificate made here.

use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;

/// The CA (PEM, for the client to trust) and a TLS acceptor serving a leaf certificate signed by it.
pub struct TlsMaterial {
    /// The certificate authority, PEM encoded.
    pub ca_pem: String,
    /// Accepts TLS connections for the names the leaf certificate covers.
    pub acceptor: TlsAcceptor,
}

/// Makes a CA and a leaf certificate for `names` (e.g. `discord.com`).
pub fn make(names: &[&str]) -> Result<TlsMaterial, String> {
    let err = |e: rcgen::Error| format!("certificate generation failed: {e}");
    let ca_key = KeyPair::generate().map_err(err)?;
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(err)?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "sequence-bot test CA (fake Discord)");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca_params.self_signed(&ca_key).map_err(err)?;
    let issuer = Issuer::new(ca_params, ca_key);

    let leaf_key = KeyPair::generate().map_err(err)?;
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let mut leaf_params = CertificateParams::new(names).map_err(err)?;
    leaf_params
        .distinguished_name
        .push(DnType::CommonName, "fake discord.com");
    let leaf_cert = leaf_params.signed_by(&leaf_key, &issuer).map_err(err)?;

    let chain: Vec<CertificateDer<'static>> = vec![leaf_cert.der().clone(), ca_cert.der().clone()];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS versions: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| format!("TLS server config: {e}"))?;
    // Only HTTP/1.1, like serenity's reqwest build (no `http2` feature).
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsMaterial {
        ca_pem: ca_cert.pem(),
        acceptor: TlsAcceptor::from(Arc::new(config)),
    })
}
