//! The PostgreSQL store, for several bot processes (Discord shards) sharing one database.
//!
//! Each process claims its shards ([`Store::claim_shards`]): advisory locks held on a connection of
//! their own, and an owner token in `shard_owners` that every write of a table checks, so that a
//! process never writes the tables of a shard it no longer holds.
//!
//! A small pool of connections, each behind a mutex, reconnected when lost. Migrations run under an advisory lock so
//! processes starting together apply them once. Connections are encrypted with rustls as the URL's
//! `sslmode` asks (see [`TlsMode`]).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::{Duration, Instant};

use ::postgres::config::SslMode;
use ::postgres::{Client, Config, Transaction};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::rating;
use super::sql::profiles;
use super::sql::queries::{
    DELETE_SERIES, LOG_SETTINGS, MARK_ANNOUNCED, SAVE_AGREEMENT, SAVE_SETTINGS, SET_ASIDE_SERIES,
};
use super::sql::ratings::{
    current_ratings, recompute_guild_ratings, recompute_ratings, recount_rating_bands, write_rating,
};
use super::sql::schema::{bands_version, migrations, profiles_version, POSTGRES_VERSION};
use super::sql::writes::{add_stats, insert_game};
use super::sql::{params, reads, Db, DbError, Engine, Pg};
use super::{
    from_db_id, guild_from_db, guild_to_db, now_ms, record_problem, series_counts, settings_text,
    standing_scope, table_problem, to_db_id, warn_ratings_recomputed, warn_series_stats_set_aside,
    warn_settings_set_aside, AgreementTotals, DamagedSettings, FinishedGame, GameId, GameSummary,
    LeaderboardRow, LiveTableRead, Loaded, PlayerStats, Profile, Quarantined, RatingReport,
    RatingRow, SeriesStats, SettingsChange, ShardClaim, ShardSet, Store, StoreError, StoredTable,
    TableChange, TokenGame, Versus,
};
use crate::analysis::profile::Achievement;

/// The schema version this code writes.
pub(super) const SCHEMA_VERSION: i64 = POSTGRES_VERSION;

/// The advisory lock (second key) under which a server's rated games are applied one at a time.
fn guild_lock(guild: i64) -> i32 {
    // The advisory lock takes two 32-bit keys: the server's id folded into one of them.
    let folded = (guild ^ (guild >> 32)) & 0xffff_ffff;
    i32::from_ne_bytes(u32::try_from(folded).unwrap_or(0).to_ne_bytes())
}

/// The advisory lock key that serializes migrations ("SEQBOT" in ASCII).
const MIGRATION_LOCK: i64 = 0x5345_5142_4f54;

/// Connections a store keeps at most: enough for a few channels to write at once.
const POOL_SIZE: usize = 4;

/// How a connection to PostgreSQL is encrypted: the `sslmode` of the URL, with libpq's names and
/// meanings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsMode {
    /// `disable`: plain TCP.
    Disable,
    /// `prefer` (the default): TLS if the server offers it, plain TCP if not. The certificate is not
    /// checked (as in libpq): safe from eavesdropping, not from an active man in the middle.
    Prefer,
    /// `require`: TLS or no connection; the certificate is not checked (as in libpq).
    Require,
    /// `verify-ca`: TLS, with a certificate signed by a trusted root (`sslrootcert=FILE`, or the
    /// Mozilla roots of `webpki-roots`); any host name.
    VerifyCa,
    /// `verify-full`: as `verify-ca`, and the certificate names the host connected to.
    VerifyFull,
}

impl FromStr for TlsMode {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<TlsMode, StoreError> {
        match s {
            "disable" => Ok(TlsMode::Disable),
            "prefer" => Ok(TlsMode::Prefer),
            "require" => Ok(TlsMode::Require),
            "verify-ca" => Ok(TlsMode::VerifyCa),
            "verify-full" => Ok(TlsMode::VerifyFull),
            other => Err(StoreError::Config(format!(
                "database_url: sslmode must be disable, prefer, require, verify-ca or verify-full \
                 (got {other:?})"
            ))),
        }
    }
}

impl TlsMode {
    /// What the postgres crate is told: it knows disable, prefer and require; the verifying modes
    /// require TLS and leave the checks to the connector.
    fn url_parameter(self) -> &'static str {
        match self {
            TlsMode::Disable => "sslmode=disable",
            TlsMode::Prefer => "sslmode=prefer",
            TlsMode::Require | TlsMode::VerifyCa | TlsMode::VerifyFull => "sslmode=require",
        }
    }
}

/// A `postgres://` URL taken apart: the TLS parameters the postgres crate does not know
/// (`sslmode=verify-ca|verify-full`, `sslrootcert`) are taken out, the rest is left as written.
#[derive(Debug, PartialEq, Eq)]
struct UrlTls {
    /// The URL for the postgres crate.
    url: String,
    /// The `sslmode` (default `prefer`).
    mode: TlsMode,
    /// The `sslrootcert` file: PEM certificates of the roots to trust.
    root_cert: Option<PathBuf>,
}

impl UrlTls {
    fn parse(url: &str) -> Result<UrlTls, StoreError> {
        let (base, query) = match url.split_once('?') {
            Some((base, query)) => (base, query),
            None => (url, ""),
        };
        let mut mode = TlsMode::Prefer;
        let mut root_cert = None;
        let mut kept = Vec::new();
        for param in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = param.split_once('=').unwrap_or((param, ""));
            match key {
                "sslmode" => mode = percent_decode(value)?.parse()?,
                "sslrootcert" => root_cert = Some(PathBuf::from(percent_decode(value)?)),
                _ => kept.push(param),
            }
        }
        if root_cert.is_some() && !matches!(mode, TlsMode::VerifyCa | TlsMode::VerifyFull) {
            return Err(StoreError::Config(
                "database_url: sslrootcert is only used with sslmode=verify-ca or verify-full"
                    .into(),
            ));
        }
        // The postgres crate checks the rest, and applies the mode it knows.
        kept.push(mode.url_parameter());
        Ok(UrlTls {
            url: format!("{base}?{}", kept.join("&")),
            mode,
            root_cert,
        })
    }
}

/// Decodes `%XX` escapes of a URL parameter.
fn percent_decode(value: &str) -> Result<String, StoreError> {
    let bad = || StoreError::Config(format!("database_url: bad %-escape in {value:?}"));
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = value.get(i + 1..i + 3).ok_or_else(bad)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// The largest `sslrootcert` file read (a bundle of every public root is about 250 KB).
const MAX_ROOT_CERT_BYTES: u64 = 4 * 1024 * 1024;

/// The roots a verifying mode trusts: the `sslrootcert` file, or the Mozilla roots.
fn root_store(root_cert: Option<&Path>) -> Result<RootCertStore, StoreError> {
    let Some(path) = root_cert else {
        return Ok(RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        });
    };
    let problem = |what: String| {
        StoreError::Config(format!(
            "database_url: sslrootcert {}: {what}",
            path.display()
        ))
    };
    let file = std::fs::File::open(path).map_err(|e| problem(e.to_string()))?;
    let mut pem = Vec::new();
    file.take(MAX_ROOT_CERT_BYTES + 1)
        .read_to_end(&mut pem)
        .map_err(|e| problem(e.to_string()))?;
    if pem.len() as u64 > MAX_ROOT_CERT_BYTES {
        return Err(problem("larger than 4 MiB".into()));
    }
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&pem) {
        let cert = cert.map_err(|e| problem(format!("not PEM certificates ({e})")))?;
        roots
            .add(cert)
            .map_err(|e| problem(format!("a certificate is not usable as a root ({e})")))?;
    }
    if roots.is_empty() {
        return Err(problem("no PEM certificate in it".into()));
    }
    Ok(roots)
}

/// The rustls connector for `mode`. Used for every mode: with `disable` the postgres crate never asks
/// it for TLS.
fn tls_connector(mode: TlsMode, root_cert: Option<&Path>) -> Result<MakeRustlsConnect, StoreError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls_error = |e: &dyn std::fmt::Display| StoreError::Config(format!("TLS set-up: {e}"));
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error(&e))?;
    let config = match mode {
        TlsMode::Disable | TlsMode::Prefer | TlsMode::Require => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(EncryptOnly(provider)))
            .with_no_client_auth(),
        TlsMode::VerifyCa | TlsMode::VerifyFull => {
            let roots = Arc::new(root_store(root_cert)?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider)
                .build()
                .map_err(|e| tls_error(&e))?;
            if mode == TlsMode::VerifyFull {
                builder.with_webpki_verifier(webpki).with_no_client_auth()
            } else {
                builder
                    .dangerous()
                    .with_custom_certificate_verifier(Arc::new(AnyHostName(webpki)))
                    .with_no_client_auth()
            }
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// `prefer`/`require`: the certificate is taken as it comes (libpq's meaning of these modes), but the
/// handshake is still checked against it, so the session key belongs to whoever holds that certificate.
#[derive(Debug)]
struct EncryptOnly(Arc<CryptoProvider>);

impl ServerCertVerifier for EncryptOnly {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the full web PKI check, except that the certificate need not name the host.
#[derive(Debug)]
struct AnyHostName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyHostName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        // The name is checked last, once the chain is known to be trusted.
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// The PostgreSQL implementation of [`Store`].
pub struct PostgresStore {
    /// How to (re)connect.
    config: Config,
    /// The TLS connector for the URL's `sslmode`.
    tls: MakeRustlsConnect,
    /// A small pool: each slot a connection, opened when first needed and again when lost.
    slots: Vec<Mutex<Option<Client>>>,
    /// The version of each live table as this process last loaded or saved it: a save or delete
    /// applies only while the stored version is still that one (see [`StoreError::Conflict`]).
    versions: Mutex<HashMap<i64, i64>>,
    /// Set by [`Store::claim_shards`]: from then on, a table is written only while this process is
    /// still the owner of its shard.
    fence: OnceLock<Fence>,
    /// The NOTIFY channel of this database schema's table changes ([`notify_channel`]).
    notify_channel: String,
}

/// The NOTIFY channel on which the processes of one schema tell each other that a live table
/// changed (payload: the table's channel id, nothing else): named after the schema, since
/// notifications are per database, and deployments in separate schemas must not hear each other.
fn notify_channel(schema: &str) -> String {
    // FNV-1a: the same name in every build (a rolling upgrade runs two builds at once).
    let hash = schema.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("sequence_tables_{hash:016x}")
}

/// How long the listening connection waits for a notification before it checks itself.
const LISTEN_CHECK: Duration = Duration::from_secs(10);

/// The first pause before the listening connection is made again after it failed (doubling, up to
/// [`LISTEN_PAUSE_MAX`]).
const LISTEN_PAUSE: Duration = Duration::from_millis(500);

/// The longest pause between two attempts to make the listening connection again.
const LISTEN_PAUSE_MAX: Duration = Duration::from_secs(30);

/// The shards a process claimed and the token it wrote in `shard_owners`.
#[derive(Clone, Copy, Debug)]
struct Fence {
    /// The shards claimed.
    shards: ShardSet,
    /// This process's token in `shard_owners`.
    token: i64,
}

impl PostgresStore {
    /// Connects to `postgres://…` (encrypted as its `sslmode` asks, see [`TlsMode`]) and migrates the
    /// schema.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let parts = UrlTls::parse(url)?;
        let config = Config::from_str(&parts.url).map_err(|e| {
            StoreError::Config(format!("database_url is not a PostgreSQL URL: {e}"))
        })?;
        let tls = tls_connector(parts.mode, parts.root_cert.as_deref())?;
        PostgresStore::open_with(config, tls)
    }

    /// Connects with a ready configuration (for example with `options("-c search_path=…")`) and
    /// migrates the schema; its `ssl_mode` (disable, prefer or require) applies, without checking the
    /// certificate.
    pub fn open_config(config: Config) -> Result<PostgresStore, StoreError> {
        let mode = match config.get_ssl_mode() {
            SslMode::Disable => TlsMode::Disable,
            SslMode::Prefer => TlsMode::Prefer,
            _ => TlsMode::Require,
        };
        let tls = tls_connector(mode, None)?;
        PostgresStore::open_with(config, tls)
    }

    fn open_with(mut config: Config, tls: MakeRustlsConnect) -> Result<PostgresStore, StoreError> {
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("sequence-bot");
        }
        let mut client = config.connect(tls.clone())?;
        // A read-only server (a standby, `default_transaction_read_only`) is refused now, not at the
        // first move that cannot be saved.
        let read_only: String = client
            .query_one("SHOW transaction_read_only", &[])?
            .try_get(0)?;
        if read_only == "on" {
            drop_off_runtime(client);
            return Err(StoreError::Config(
                "the PostgreSQL database is read-only (a standby server, or \
                 default_transaction_read_only is on); the bot saves every move, so it does not start"
                    .into(),
            ));
        }
        migrate(&mut client)?;
        let schema: Option<String> = client
            .query_one("SELECT current_schema()", &[])?
            .try_get(0)?;
        let notify_channel = self::notify_channel(&schema.unwrap_or_default());
        let mut slots: Vec<Mutex<Option<Client>>> =
            (0..POOL_SIZE).map(|_| Mutex::new(None)).collect();
        slots[0] = Mutex::new(Some(client));
        Ok(PostgresStore {
            config,
            tls,
            slots,
            versions: Mutex::new(HashMap::new()),
            fence: OnceLock::new(),
            notify_channel,
        })
    }

    /// The first free slot, or waits for the first one (poison ignored: a client is either usable or
    /// reports itself closed).
    fn slot(&self) -> MutexGuard<'_, Option<Client>> {
        for slot in &self.slots {
            match slot.try_lock() {
                Ok(guard) => return guard,
                Err(TryLockError::Poisoned(e)) => return e.into_inner(),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        self.slots[0].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on a connection of the pool, connecting first if that slot has none or lost it. A
    /// failed call is not retried (it may have committed before the connection broke).
    fn with_client<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, ::postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut guard = self.slot();
        if guard.as_ref().is_none_or(Client::is_closed) {
            if let Some(old) = guard.take() {
                drop_off_runtime(old);
                tracing::warn!("the PostgreSQL connection was lost; reconnecting");
            }
            *guard = Some(self.config.connect(self.tls.clone())?);
        }
        match guard.as_mut() {
            Some(client) => Ok(f(client)?),
            None => Err(StoreError::Config("no PostgreSQL connection".into())),
        }
    }

    /// Runs `f` in a transaction and commits it.
    fn in_transaction<T>(
        &self,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<T, ::postgres::Error>,
    ) -> Result<T, StoreError> {
        self.with_client(|client| {
            let mut tx = client.transaction()?;
            let value = f(&mut tx)?;
            tx.commit()?;
            Ok(value)
        })
    }
}

impl PostgresStore {
    /// The versions this process knows (poison ignored: the map is only ever replaced entry by entry).
    fn versions(&self) -> MutexGuard<'_, HashMap<i64, i64>> {
        self.versions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Inside a write's transaction: `None` if this process may write the tables of `guild` (it made
    /// no claim, or it still owns the shard), else the shard it no longer owns. The owner row stays
    /// share-locked until the transaction ends, so a new claim of the shard waits for this write.
    fn refused_shard(
        &self,
        tx: &mut Transaction<'_>,
        guild: Option<u64>,
    ) -> Result<Option<u32>, ::postgres::Error> {
        let Some(fence) = self.fence.get() else {
            return Ok(None);
        };
        let shard = fence.shards.shard_of(guild);
        let owned = tx.query_opt(
            "SELECT 1 FROM shard_owners WHERE total = $1 AND shard = $2 AND owner = $3 FOR SHARE",
            &[
                &i64::from(fence.shards.total()),
                &i64::from(shard),
                &fence.token,
            ],
        )?;
        Ok(owned.is_none().then_some(shard))
    }

    /// Whether this process tells the others of its tables' changes: once it claimed a part of the
    /// shards (other processes hold the rest and may show its tables on their pages).
    fn notifies(&self) -> bool {
        self.fence
            .get()
            .is_some_and(|fence| !fence.shards.is_whole())
    }

    /// Inside a write's transaction: tells the other processes (at commit) that `channel`'s live
    /// table changed, when [`PostgresStore::notifies`].
    fn notify(&self, tx: &mut Transaction<'_>, channel: u64) -> Result<(), ::postgres::Error> {
        if self.notifies() {
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&self.notify_channel, &channel.to_string()],
            )?;
        }
        Ok(())
    }

    /// Runs a write for a table of `guild` in one transaction, behind the owner check once shards
    /// were claimed (see [`PostgresStore::refused_shard`]).
    fn write_for<T>(
        &self,
        guild: Option<u64>,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<T, ::postgres::Error>,
    ) -> Result<T, StoreError> {
        let outcome = self.in_transaction(|tx| match self.refused_shard(tx, guild)? {
            Some(shard) => Ok(Err(shard)),
            None => f(tx).map(Ok),
        })?;
        outcome.map_err(|shard| StoreError::NotOwner { shard })
    }

    /// Runs shared SQL on a connection of the pool (no transaction).
    fn read<T>(&self, f: impl FnOnce(&mut dyn Db) -> Result<T, DbError>) -> Result<T, StoreError> {
        self.with_client(|client| Ok(f(&mut Pg(client))))?
            .map_err(DbError::into_postgres)
    }

    /// Runs shared SQL in one transaction, committed if `f` succeeds; behind the owner check of
    /// `guild`'s shard when `guild` is given (see [`PostgresStore::write_for`]).
    fn transaction_db<T>(
        &self,
        guild: Option<Option<u64>>,
        f: impl FnOnce(&mut Pg<'_, Transaction<'_>>) -> Result<T, DbError>,
    ) -> Result<T, StoreError> {
        self.with_client(|client| {
            let mut tx = client.transaction()?;
            if let Some(guild) = guild {
                if let Some(shard) = self.refused_shard(&mut tx, guild)? {
                    return Ok(Err(StoreError::NotOwner { shard }));
                }
            }
            match f(&mut Pg(&mut tx)) {
                Ok(value) => {
                    tx.commit()?;
                    Ok(Ok(value))
                }
                // Dropped: rolled back.
                Err(e) => Ok(Err(e.into_postgres())),
            }
        })?
    }

    /// Recomputes a server's ratings found damaged (`damage` says how, for the log) in a
    /// transaction of its own under the server's rating lock, with one warning.
    fn repair_guild_ratings(&self, guild_id: Option<u64>, damage: &str) -> Result<(), StoreError> {
        let guild = guild_to_db(guild_id);
        let games = self.transaction_db(Some(guild_id), |db| {
            db.0.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&guild_lock(guild)])?;
            recompute_guild_ratings(db, guild)
        })?;
        warn_ratings_recomputed(guild, damage, games);
        Ok(())
    }

    /// The server of a channel's live table, if it has one (`Some(None)`: a direct message).
    fn guild_of_table(&self, channel: i64) -> Result<Option<Option<u64>>, StoreError> {
        self.with_client(|client| {
            client
                .query_opt(
                    "SELECT guild_id FROM live_tables WHERE channel_id = $1",
                    &[&channel],
                )?
                .map(|row| row.try_get(0).map(guild_from_db))
                .transpose()
        })
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        let clients: Vec<Client> = self
            .slots
            .iter_mut()
            .filter_map(|slot| slot.get_mut().unwrap_or_else(|e| e.into_inner()).take())
            .collect();
        if !clients.is_empty() {
            let _ = std::thread::spawn(move || drop(clients)).join();
        }
    }
}

/// Drops a client on a thread of its own: its inner runtime may not be dropped inside an async
/// context, which is where the last `Arc` of a store may well be released.
fn drop_off_runtime(client: Client) {
    let _ = std::thread::spawn(move || drop(client)).join();
}

/// Brings the schema to [`SCHEMA_VERSION`] in one transaction, under an advisory lock.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let version: i64 = match tx.query_opt("SELECT version FROM schema_version", &[])? {
        Some(row) => row.try_get(0)?,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])?;
            0
        }
    };
    if version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    let start = usize::try_from(version).unwrap_or(usize::MAX);
    for (sql, reached) in migrations(Engine::Postgres).iter().zip(1..).skip(start) {
        tx.batch_execute(sql)?;
        if reached == super::RATINGS_VERSION {
            recompute_ratings(&mut Pg(&mut tx), true).map_err(DbError::into_postgres)?;
        }
        if reached == profiles_version(Engine::Postgres) {
            profiles::schedule_rebuild(&mut Pg(&mut tx)).map_err(DbError::into_postgres)?;
        }
        if reached == bands_version(Engine::Postgres) {
            recount_rating_bands(&mut Pg(&mut tx)).map_err(DbError::into_postgres)?;
            // Issue 44's rules of what counts (a player's own moves, wins on the board, games
            // outside servers in their chats' own profiles) apply to the stored games too: the
            // profiles are rebuilt once more, in the background.
            profiles::schedule_rebuild(&mut Pg(&mut tx)).map_err(DbError::into_postgres)?;
        }
    }
    tx.execute("UPDATE schema_version SET version = $1", &[&SCHEMA_VERSION])?;
    tx.commit()?;
    Ok(())
}

/// The listening connection's loop (on a thread of its own): LISTEN on `channel`, each
/// notification handed to `sink` as the channel id it carries; [`TableChange::Resync`] after every
/// connection made (notifications may have been missed before it), [`TableChange::Quiet`] every
/// [`LISTEN_CHECK`] without one (after the connection was checked). A lost connection is made again
/// after a pause that doubles from [`LISTEN_PAUSE`] to [`LISTEN_PAUSE_MAX`]. Ends when `sink`
/// returns false.
fn listen(
    config: &Config,
    tls: &MakeRustlsConnect,
    channel: &str,
    sink: &mut (dyn FnMut(TableChange) -> bool + Send),
) {
    use ::postgres::fallible_iterator::FallibleIterator;
    let mut pause = LISTEN_PAUSE;
    loop {
        match config.connect(tls.clone()) {
            Ok(mut client) => match client.batch_execute(&format!("LISTEN \"{channel}\"")) {
                Ok(()) => {
                    pause = LISTEN_PAUSE;
                    tracing::debug!(channel, "listening for the other processes' tables");
                    if !sink(TableChange::Resync) {
                        return;
                    }
                    loop {
                        let heard = client.notifications().timeout_iter(LISTEN_CHECK).next();
                        let change = match heard {
                            Ok(Some(note)) => match note.payload().parse::<u64>() {
                                Ok(id) => TableChange::Changed(id),
                                Err(_) => continue,
                            },
                            Ok(None) => {
                                if client.is_closed() || client.simple_query("SELECT 1").is_err() {
                                    break;
                                }
                                TableChange::Quiet
                            }
                            Err(_) => break,
                        };
                        if !sink(change) {
                            return;
                        }
                    }
                    tracing::warn!(
                        "the connection listening for the other processes' tables was lost; \
                             making it again"
                    );
                }
                Err(e) => tracing::warn!("cannot listen for the other processes' tables: {e}"),
            },
            Err(e) => tracing::warn!(
                "cannot connect to listen for the other processes' tables (again in {} ms): {e}",
                pause.as_millis()
            ),
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(LISTEN_PAUSE_MAX);
        if !sink(TableChange::Quiet) {
            return;
        }
    }
}

impl Store for PostgresStore {
    fn claim_shards(
        &self,
        shards: ShardSet,
        wait: Duration,
    ) -> Result<Arc<dyn ShardClaim>, StoreError> {
        if self.fence.get().is_some() {
            return Err(StoreError::Config(
                "this store's process has claimed its shards already".into(),
            ));
        }
        let claim = PgClaim::take(&self.config, &self.tls, shards, wait)?;
        let _ = self.fence.set(Fence {
            shards,
            token: claim.token,
        });
        Ok(Arc::new(claim))
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.with_client(|client| client.simple_query("SELECT 1").map(|_| ()))
    }

    fn save_table(&self, table: &StoredTable) -> Result<(), StoreError> {
        let channel = to_db_id(table.channel_id);
        let known = self.versions().get(&channel).copied();
        let saved: Option<i64> = self.write_for(table.guild_id, |client| {
            let row = match known {
                // Only over the save this process made or loaded.
                Some(version) => client.query_opt(
                    "UPDATE live_tables SET guild_id = $2, record_json = $3, snapshot_json = $4,
                         updated_at = $5, web_token = $7, version = version + 1
                     WHERE channel_id = $1 AND version = $6 RETURNING version",
                    &[
                        &channel,
                        &guild_to_db(table.guild_id),
                        &table.record_json,
                        &table.snapshot_json,
                        &table.updated_at,
                        &version,
                        &table.web_token,
                    ],
                )?,
                // A new table: only where no other process has one.
                None => client.query_opt(
                    "INSERT INTO live_tables (channel_id, guild_id, record_json, snapshot_json,
                         updated_at, version, web_token)
                     VALUES ($1, $2, $3, $4, $5, 1, $6)
                     ON CONFLICT (channel_id) DO NOTHING RETURNING version",
                    &[
                        &channel,
                        &guild_to_db(table.guild_id),
                        &table.record_json,
                        &table.snapshot_json,
                        &table.updated_at,
                        &table.web_token,
                    ],
                )?,
            };
            if row.is_some() {
                self.notify(client, table.channel_id)?;
            }
            row.map(|row| row.try_get(0)).transpose()
        })?;
        match saved {
            Some(version) => {
                self.versions().insert(channel, version);
                Ok(())
            }
            None => Err(StoreError::Conflict {
                channel_id: table.channel_id,
            }),
        }
    }

    fn finish_series(
        &self,
        guild_id: Option<u64>,
        results: &[(u64, bool)],
    ) -> Result<(), StoreError> {
        let guild = guild_to_db(guild_id);
        self.transaction_db(Some(guild_id), |db| {
            for (user, won) in results {
                db.0.execute(
                    "INSERT INTO series_stats (guild_id, user_id, played, won) VALUES ($1, $2, 1, $3)
                     ON CONFLICT (guild_id, user_id) DO UPDATE
                     SET played = series_stats.played + 1, won = series_stats.won + EXCLUDED.won",
                    &[&guild, &to_db_id(*user), &i64::from(*won)],
                )?;
            }
            for (user, _) in results.iter().filter(|(_, won)| *won) {
                profiles::series_won(db, guild, *user)?;
            }
            Ok(())
        })
    }

    fn series_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<SeriesStats, StoreError> {
        let (guild, user) = (guild_to_db(guild_id), to_db_id(user_id));
        let mut aside = None;
        let stats = self.transaction_db(None, |db| {
            let problem = match reads::series_counts(db, guild, user)? {
                None => return Ok(SeriesStats::default()),
                Some((Ok(played), Ok(won))) => match series_counts(played, won) {
                    Ok(stats) => return Ok(stats),
                    Err(problem) => problem,
                },
                Some((Err(problem), _)) => format!("played is {problem}"),
                Some((_, Err(problem))) => format!("won is {problem}"),
            };
            db.execute(
                SET_ASIDE_SERIES,
                params![guild, user, problem.as_str(), now_ms()],
            )?;
            db.execute(DELETE_SERIES, params![guild, user])?;
            aside = Some(problem);
            Ok(SeriesStats::default())
        })?;
        if let Some(problem) = aside {
            warn_series_stats_set_aside(guild, user, &problem);
        }
        Ok(stats)
    }

    fn delete_table(&self, channel_id: u64) -> Result<bool, StoreError> {
        let channel = to_db_id(channel_id);
        let Some(guild) = self.guild_of_table(channel)? else {
            self.versions().remove(&channel);
            return Ok(false);
        };
        let known = self.versions().remove(&channel);
        self.write_for(guild, |client| {
            let deleted = client.execute(
                "DELETE FROM live_tables WHERE channel_id = $1
                     AND ($2::BIGINT IS NULL OR version = $2)",
                &[&channel, &known],
            )?;
            if deleted > 0 {
                self.notify(client, channel_id)?;
            }
            Ok(deleted)
        })
        .map(|n| n > 0)
    }

    fn channel_of_web_token(&self, token: &str) -> Result<Option<u64>, StoreError> {
        self.with_client(|client| {
            client
                .query_opt(
                    "SELECT channel_id FROM live_tables
                     WHERE web_token = $1 AND web_token IS NOT NULL LIMIT 1",
                    &[&token],
                )?
                .map(|row| row.try_get(0).map(from_db_id))
                .transpose()
        })
    }

    fn live_table(&self, channel_id: u64) -> Result<Option<LiveTableRead>, StoreError> {
        self.with_client(|client| {
            let Some(row) = client.query_opt(
                "SELECT guild_id, record_json, snapshot_json, updated_at, version, web_token
                 FROM live_tables WHERE channel_id = $1",
                &[&to_db_id(channel_id)],
            )?
            else {
                return Ok(None);
            };
            Ok(Some(LiveTableRead {
                table: StoredTable {
                    channel_id,
                    guild_id: guild_from_db(row.try_get(0)?),
                    record_json: row.try_get(1)?,
                    snapshot_json: row.try_get(2)?,
                    updated_at: row.try_get(3)?,
                    web_token: row.try_get(5)?,
                },
                version: row.try_get(4)?,
            }))
        })
    }

    fn listen_table_changes(
        &self,
        mut sink: Box<dyn FnMut(TableChange) -> bool + Send>,
    ) -> Result<bool, StoreError> {
        let (config, tls) = (self.config.clone(), self.tls.clone());
        let channel = self.notify_channel.clone();
        std::thread::Builder::new()
            .name("pg-listen".into())
            .spawn(move || listen(&config, &tls, &channel, &mut *sink))
            .map_err(|e| StoreError::Config(format!("cannot start the listening thread: {e}")))?;
        Ok(true)
    }

    fn load_tables_of(&self, shards: ShardSet) -> Result<Loaded, StoreError> {
        self.in_transaction(|tx| {
            let rows = tx.query(
                "SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, version,
                     web_token
                 FROM live_tables ORDER BY channel_id FOR UPDATE",
                &[],
            )?;
            // Other processes' shards are left alone (the shard is computed here, not in SQL: ids
            // are stored bit for bit as signed integers).
            let rows = rows.into_iter().filter(|row| {
                row.try_get::<_, i64>(1)
                    .is_ok_and(|guild| shards.owns(guild_from_db(guild)))
            });
            let mut versions = self.versions();
            let mut loaded = Loaded::default();
            let now = now_ms();
            for row in rows {
                let channel: i64 = row.try_get(0)?;
                let guild: i64 = row.try_get(1)?;
                let table = StoredTable {
                    channel_id: from_db_id(channel),
                    guild_id: guild_from_db(guild),
                    record_json: row.try_get(2)?,
                    snapshot_json: row.try_get(3)?,
                    updated_at: row.try_get(4)?,
                    web_token: row.try_get(6)?,
                };
                match table_problem(&table.record_json, &table.snapshot_json) {
                    None => {
                        versions.insert(channel, row.try_get(5)?);
                        loaded.tables.push(table);
                    }
                    Some(reason) => {
                        tx.execute(
                            "INSERT INTO quarantine (channel_id, guild_id, record_json, snapshot_json,
                                 updated_at, reason, quarantined_at)
                             SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, $2, $3
                             FROM live_tables WHERE channel_id = $1",
                            &[&channel, &reason, &now],
                        )?;
                        tx.execute("DELETE FROM live_tables WHERE channel_id = $1", &[&channel])?;
                        versions.remove(&channel);
                        loaded.quarantined.push(Quarantined {
                            channel_id: table.channel_id,
                            guild_id: table.guild_id,
                            reason,
                            quarantined_at: now,
                        });
                    }
                }
            }
            Ok(loaded)
        })
    }

    fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        self.read(reads::quarantined)
    }

    fn quarantine_table(&self, channel_id: u64, reason: &str) -> Result<bool, StoreError> {
        let channel = to_db_id(channel_id);
        self.versions().remove(&channel);
        let Some(guild) = self.guild_of_table(channel)? else {
            return Ok(false);
        };
        let now = now_ms();
        self.write_for(guild, |tx| {
            let moved = tx.execute(
                "INSERT INTO quarantine (channel_id, guild_id, record_json, snapshot_json,
                     updated_at, reason, quarantined_at)
                 SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, $2, $3
                 FROM live_tables WHERE channel_id = $1",
                &[&channel, &reason, &now],
            )?;
            tx.execute("DELETE FROM live_tables WHERE channel_id = $1", &[&channel])?;
            if moved > 0 {
                self.notify(tx, channel_id)?;
            }
            Ok(moved > 0)
        })
    }

    fn rated_games_since(
        &self,
        guild_id: Option<u64>,
        since: i64,
    ) -> Result<Vec<Vec<(u64, u8)>>, StoreError> {
        self.read(|db| reads::rated_games_since(db, guild_id, since))
    }

    fn latest_game_in_channel(
        &self,
        guild_id: Option<u64>,
        channel_id: u64,
    ) -> Result<Option<GameId>, StoreError> {
        self.read(|db| reads::latest_game_in_channel(db, guild_id, channel_id))
    }

    fn finish_game(&self, game: &FinishedGame) -> Result<GameId, StoreError> {
        record_problem(&game.record_json).map_err(StoreError::InvalidRecord)?;
        let guild = guild_to_db(game.guild_id);
        let standing = to_db_id(standing_scope(game.guild_id, game.channel_id));
        let channel = to_db_id(game.channel_id);
        let rated = !game.aborted
            && game
                .rated
                .unwrap_or_else(|| rating::rated_by_default(&game.players));
        let drawn = rated && rating::is_drawn(&game.players, &game.record_json);
        let known = self.versions().get(&channel).copied();
        let stored = self.transaction_db(Some(game.guild_id), |db| {
            // The live table goes with the finished game, unless another process saved it since.
            db.0.execute(
                "DELETE FROM live_tables WHERE channel_id = $1
                     AND ($2::BIGINT IS NULL OR version = $2)",
                &[&channel, &known],
            )?;
            if db
                .0
                .query_opt(
                    "SELECT 1 FROM live_tables WHERE channel_id = $1",
                    &[&channel],
                )?
                .is_some()
            {
                return Ok(None);
            }
            // Pages of other processes showing it learn that it ended (at commit).
            self.notify(db.0, game.channel_id)?;
            // Rated games of a server are applied one at a time: the rows of its players are
            // locked (an advisory lock per server, taken before the game gets its id, so that ids
            // follow the order the games were rated in) and their ratings checked first: a damaged
            // one has the server's ratings recomputed from its stored games (this one not yet
            // among them).
            //
            // Every game that counts (not aborted) takes the lock: each player's profile adds a
            // server's games in the order of their ids, and is read and written whole.
            let mut repaired = None;
            if !game.aborted {
                db.0.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&guild_lock(guild)])?;
            }
            let current = if rated {
                match current_ratings(db, guild, &game.players)? {
                    (current, None) => current,
                    (_, Some(damage)) => {
                        repaired = Some((damage, recompute_guild_ratings(db, guild)?));
                        current_ratings(db, guild, &game.players)?.0
                    }
                }
            } else {
                HashMap::new()
            };
            // Before the game gets its id: while the profiles are rebuilt in the background, the
            // rebuild adds this game too (and waits for it to be committed).
            let rebuilding = profiles::rebuild_under_way(db)?;
            let id = insert_game(db, guild, game, rated)?;
            if rated {
                for update in rating::rate_game(&game.players, drawn, &current) {
                    write_rating(db, id, guild, &update)?;
                }
            }
            add_stats(db, standing, game)?;
            let rebuilt = if rebuilding {
                Vec::new()
            } else {
                profiles::add_finished_game(db, standing, id, game, rated)?
            };
            Ok(Some((GameId(id), repaired, rebuilt)))
        })?;
        match stored {
            Some((id, repaired, rebuilt)) => {
                if let Some((damage, games)) = repaired {
                    warn_ratings_recomputed(guild, &damage, games);
                }
                for (user, damage) in rebuilt {
                    profiles::warn_rebuilt(standing, user, &damage);
                }
                self.versions().remove(&channel);
                Ok(id)
            }
            // The transaction committed nothing but the check (the game was not stored).
            None => Err(StoreError::Conflict {
                channel_id: game.channel_id,
            }),
        }
    }

    fn unannounced_games(&self) -> Result<Vec<(GameId, FinishedGame)>, StoreError> {
        self.read(reads::unannounced_games)
    }

    fn mark_announced(&self, id: GameId) -> Result<(), StoreError> {
        self.read(|db| db.execute(MARK_ANNOUNCED, params![id.0]).map(|_| ()))
    }

    fn game_record(&self, id: GameId, guild_id: Option<u64>) -> Result<Option<String>, StoreError> {
        self.read(|db| reads::game_record(db, id, guild_id))
    }

    fn game_of_web_token(&self, token: &str) -> Result<Option<TokenGame>, StoreError> {
        self.read(|db| reads::game_of_web_token(db, token))
    }

    fn game_web_token(
        &self,
        id: GameId,
        guild_id: Option<u64>,
    ) -> Result<Option<String>, StoreError> {
        self.read(|db| reads::game_web_token(db, id, guild_id))
    }

    fn recent_games(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.read(|db| reads::recent_games(db, guild_id, limit))
    }

    fn player_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<PlayerStats, StoreError> {
        self.read(|db| reads::player_stats(db, guild_id, user_id))
    }

    fn save_agreement(&self, game: GameId, rows: &[(u64, u32, u32)]) -> Result<(), StoreError> {
        self.transaction_db(None, |db| {
            for &(user, matched, counted) in rows {
                db.execute(
                    SAVE_AGREEMENT,
                    params![
                        game.0,
                        to_db_id(user),
                        i64::from(matched),
                        i64::from(counted)
                    ],
                )?;
            }
            Ok(())
        })
    }

    fn recent_agreement(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        limit: u32,
    ) -> Result<AgreementTotals, StoreError> {
        self.read(|db| reads::recent_agreement(db, guild_id, user_id, limit))
    }

    fn leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<LeaderboardRow>, StoreError> {
        self.read(|db| reads::leaderboard(db, guild_id, limit))
    }

    fn player_rating(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        recent: u32,
    ) -> Result<Option<RatingReport>, StoreError> {
        let guild = guild_to_db(guild_id);
        let user = to_db_id(user_id);
        let read = || self.read(|db| reads::player_rating(db, guild, user, recent));
        match read()? {
            None => Ok(None),
            Some(Ok(report)) => Ok(Some(report)),
            Some(Err(damage)) => {
                self.repair_guild_ratings(guild_id, &format!("user {user_id}: {damage}"))?;
                Ok(read()?.and_then(Result::ok))
            }
        }
    }

    fn rating_leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let guild = guild_to_db(guild_id);
        let read = || self.read(|db| reads::rating_leaderboard(db, guild, limit));
        let rows = read()?;
        if let Some(Err(damage)) = rows.iter().find(|row| row.is_err()) {
            self.repair_guild_ratings(guild_id, damage)?;
            return Ok(read()?.into_iter().filter_map(Result::ok).collect());
        }
        Ok(rows.into_iter().filter_map(Result::ok).collect())
    }

    fn server_settings(&self, guild_id: u64) -> Result<Option<String>, StoreError> {
        let stored = self.read(|db| reads::server_settings(db, to_db_id(guild_id)))?;
        // PostgreSQL keeps the column as UTF-8 text: only JSON can be wrong with it.
        let Some(Ok(stored)) = stored else {
            return Ok(None);
        };
        let stored = String::from_utf8_lossy(&stored).into_owned();
        let reason = match settings_text(stored.clone().into_bytes()) {
            Ok(text) => return Ok(Some(text)),
            Err(reason) => reason,
        };
        if let Err(e) = self.set_aside_server_settings(guild_id, &stored, &reason) {
            tracing::error!(
                guild = guild_id,
                "this server's settings could not be read ({reason}) nor set aside ({e}); the \
                 server uses the operator's defaults"
            );
        }
        Ok(None)
    }

    fn set_aside_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        let guild = to_db_id(guild_id);
        let now = now_ms();
        let moved = self.in_transaction(|tx| {
            let moved = tx.execute(
                "INSERT INTO settings_damaged
                     (guild_id, settings_json, updated_at, reason, set_aside_at)
                 SELECT guild_id, convert_to(settings_json, 'UTF8'), updated_at, $3, $4
                 FROM server_settings WHERE guild_id = $1 AND settings_json = $2",
                &[&guild, &settings_json, &reason, &now],
            )?;
            if moved > 0 {
                tx.execute(
                    "DELETE FROM server_settings WHERE guild_id = $1 AND settings_json = $2",
                    &[&guild, &settings_json],
                )?;
            }
            Ok(moved > 0)
        })?;
        if moved {
            warn_settings_set_aside(guild_id, reason);
        }
        Ok(moved)
    }

    fn damaged_settings(&self) -> Result<Vec<DamagedSettings>, StoreError> {
        self.read(reads::damaged_settings)
    }

    fn save_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        change: &SettingsChange,
    ) -> Result<(), StoreError> {
        let guild = to_db_id(guild_id);
        self.transaction_db(None, |db| {
            db.execute(SAVE_SETTINGS, params![guild, settings_json, change.at])?;
            db.execute(
                LOG_SETTINGS,
                params![
                    guild,
                    to_db_id(change.user_id),
                    change.change.as_str(),
                    change.at
                ],
            )?;
            Ok(())
        })
    }

    fn settings_log(&self, guild_id: u64, limit: u32) -> Result<Vec<SettingsChange>, StoreError> {
        self.read(|db| reads::settings_log(db, guild_id, limit))
    }

    fn profile(&self, guild_id: Option<u64>, user_id: u64) -> Result<Profile, StoreError> {
        profiles::read_profile(self, guild_id, user_id)
    }

    fn versus(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        other_id: u64,
    ) -> Result<Versus, StoreError> {
        profiles::read_versus(self, guild_id, user_id, other_id)
    }

    fn unlocked_in(&self, game: GameId) -> Result<Vec<(u64, Achievement)>, StoreError> {
        self.read(|db| profiles::unlocked_in(db, game.0))
    }

    fn rebuild_profiles_step(&self, games: u32) -> Result<bool, StoreError> {
        let step = self.transaction_db(None, |db| profiles::rebuild_step(db, i64::from(games)))?;
        Ok(matches!(step, profiles::RebuildStep::Added(_)))
    }
}

impl profiles::ProfileSource for PostgresStore {
    fn read_db<T>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<T, DbError>,
    ) -> Result<T, StoreError> {
        self.read(f)
    }

    /// In a transaction of its own under the server's lock, with one warning.
    fn rebuild_profile(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        damage: &str,
    ) -> Result<(), StoreError> {
        let guild = guild_to_db(guild_id);
        self.transaction_db(Some(guild_id), |db| {
            db.0.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&guild_lock(guild)])?;
            profiles::rebuild_player(db, guild, user_id).map(|_| ())
        })?;
        profiles::warn_rebuilt(guild, user_id, damage);
        Ok(())
    }
}

/// How often the claim's connection checks that it still holds its locks.
const CLAIM_CHECK: Duration = Duration::from_secs(2);

/// Between two attempts at shards another process holds.
const CLAIM_RETRY: Duration = Duration::from_millis(500);

/// A process's shards, held as PostgreSQL advisory locks on a connection of their own for as long
/// as the process runs: the server releases them when that connection closes, also when the process
/// is killed (the kernel closes its socket) or its machine stops answering (TCP keepalives). The locks
/// are scoped to the schema (`current_schema()`), so deployments in separate schemas of one database
/// do not meet. A thread checks every [`CLAIM_CHECK`] that the locks are still there; once they are
/// not, [`ShardClaim::is_held`] turns false for good.
struct PgClaim {
    shards: ShardSet,
    /// This process's token in `shard_owners`.
    token: i64,
    held: Arc<AtomicBool>,
    /// Asks the thread to release the shards; it answers on the enclosed sender when done.
    release: Mutex<Option<mpsc::Sender<mpsc::Sender<()>>>>,
}

/// The advisory lock keys of a claim: one namespace (first key) for the shards, whose second key is
/// the shard id + 1 (0 is left to the per-server rating locks of `finish_game`), and one for the
/// total, held shared by every process of a bot.
#[derive(Clone, Copy, Debug)]
struct ClaimKeys {
    shards: i32,
    total: i32,
}

impl ClaimKeys {
    /// The keys of the current schema.
    fn of_schema(client: &mut Client) -> Result<ClaimKeys, ::postgres::Error> {
        let row = client.query_one(
            "SELECT hashtext('sequence-bot shards ' || coalesce(current_schema(), '')),
                    hashtext('sequence-bot total ' || coalesce(current_schema(), ''))",
            &[],
        )?;
        Ok(ClaimKeys {
            shards: row.try_get(0)?,
            total: row.try_get(1)?,
        })
    }
}

/// An advisory lock's first key as `pg_locks.classid` shows it (an unsigned oid).
fn lock_class(key: i32) -> i64 {
    i64::from(u32::from_ne_bytes(key.to_ne_bytes()))
}

/// The lock of one shard (second key).
fn shard_key(shard: u32) -> i32 {
    i32::try_from(shard).map_or(i32::MAX, |s| s.saturating_add(1))
}

impl PgClaim {
    /// Connects, waits up to `wait` for `shards` (and for no process with another total), records
    /// this process as their owner and starts the checking thread.
    fn take(
        config: &Config,
        tls: &MakeRustlsConnect,
        shards: ShardSet,
        wait: Duration,
    ) -> Result<PgClaim, StoreError> {
        let mut config = config.clone();
        config
            .application_name("sequence-bot shards")
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(5))
            .keepalives_interval(Duration::from_secs(2))
            .keepalives_retries(3);
        let mut client = config.connect(tls.clone())?;
        match PgClaim::lock_all(&mut client, shards, wait) {
            Ok(keys) => {
                let token = rand::random::<i64>();
                let now = now_ms();
                let recorded = (|| {
                    let mut tx = client.transaction()?;
                    for shard in shards.ids() {
                        // Waits for writes still checking an older owner of the shard.
                        tx.execute(
                            "INSERT INTO shard_owners (total, shard, owner, claimed_at)
                             VALUES ($1, $2, $3, $4)
                             ON CONFLICT (total, shard) DO UPDATE
                                 SET owner = excluded.owner, claimed_at = excluded.claimed_at",
                            &[&i64::from(shards.total()), &i64::from(shard), &token, &now],
                        )?;
                    }
                    tx.commit()
                })();
                if let Err(e) = recorded {
                    drop_off_runtime(client);
                    return Err(e.into());
                }
                for shard in shards.ids() {
                    tracing::info!(
                        shard,
                        total = shards.total(),
                        "shard {shard} of {} held (PostgreSQL advisory lock)",
                        shards.total()
                    );
                }
                let held = Arc::new(AtomicBool::new(true));
                let (release, requests) = mpsc::channel();
                let watched = Arc::clone(&held);
                std::thread::Builder::new()
                    .name("shard-claim".into())
                    .spawn(move || watch_claim(client, keys, shards, token, &watched, &requests))
                    .map_err(|e| StoreError::Config(format!("cannot start a thread: {e}")))?;
                Ok(PgClaim {
                    shards,
                    token,
                    held,
                    release: Mutex::new(Some(release)),
                })
            }
            Err(e) => {
                drop_off_runtime(client);
                Err(e)
            }
        }
    }

    /// Takes the total's shared lock and every shard's lock on `client`, trying again until `wait`
    /// has passed; all or nothing.
    fn lock_all(
        client: &mut Client,
        shards: ShardSet,
        wait: Duration,
    ) -> Result<ClaimKeys, StoreError> {
        let keys = ClaimKeys::of_schema(client)?;
        let total = i32::try_from(shards.total()).unwrap_or(i32::MAX);
        let started = Instant::now();
        loop {
            client.execute(
                "SELECT pg_advisory_lock_shared($1, $2)",
                &[&keys.total, &total],
            )?;
            let others: Vec<i64> = client
                .query(
                    "SELECT DISTINCT objid::BIGINT FROM pg_locks
                     WHERE locktype = 'advisory' AND granted AND objsubid = 2
                         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                         AND classid::BIGINT = $1 AND objid::BIGINT <> $2",
                    &[&lock_class(keys.total), &i64::from(total)],
                )?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
            let mut taken = Vec::new();
            let mut held = Vec::new();
            if others.is_empty() {
                for shard in shards.ids() {
                    let got: bool = client
                        .query_one(
                            "SELECT pg_try_advisory_lock($1, $2)",
                            &[&keys.shards, &shard_key(shard)],
                        )?
                        .try_get(0)?;
                    if got {
                        taken.push(shard);
                    } else {
                        held.push(shard);
                    }
                }
                if held.is_empty() {
                    return Ok(keys);
                }
            }
            for shard in taken {
                client.execute(
                    "SELECT pg_advisory_unlock($1, $2)",
                    &[&keys.shards, &shard_key(shard)],
                )?;
            }
            client.execute(
                "SELECT pg_advisory_unlock_shared($1, $2)",
                &[&keys.total, &total],
            )?;
            if started.elapsed() >= wait {
                return Err(match others.first() {
                    Some(&other) => StoreError::OtherTotal {
                        total: shards.total(),
                        other: u32::try_from(other).unwrap_or(u32::MAX),
                    },
                    None => StoreError::ShardsHeld {
                        shards,
                        held,
                        waited_secs: wait.as_secs(),
                    },
                });
            }
            if held.is_empty() {
                tracing::warn!(
                    "another sequence-bot process runs with another shard total; waiting"
                );
            } else {
                tracing::warn!(
                    ?held,
                    "shards held by another sequence-bot process; waiting for it to stop"
                );
            }
            std::thread::sleep(CLAIM_RETRY.min(wait.saturating_sub(started.elapsed())));
        }
    }
}

/// The claim's thread: checks the locks every [`CLAIM_CHECK`], releases them when asked.
fn watch_claim(
    mut client: Client,
    keys: ClaimKeys,
    shards: ShardSet,
    token: i64,
    held: &AtomicBool,
    requests: &mpsc::Receiver<mpsc::Sender<()>>,
) {
    let expected = i64::from(shards.last() - shards.first() + 1);
    loop {
        match requests.recv_timeout(CLAIM_CHECK) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let count: Result<i64, ::postgres::Error> = client
                    .query_one(
                        "SELECT count(*) FROM pg_locks
                         WHERE locktype = 'advisory' AND granted AND objsubid = 2
                             AND pid = pg_backend_pid() AND classid::BIGINT = $1
                             AND objid::BIGINT BETWEEN $2 AND $3",
                        &[
                            &lock_class(keys.shards),
                            &i64::from(shard_key(shards.first())),
                            &i64::from(shard_key(shards.last())),
                        ],
                    )
                    .and_then(|row| row.try_get(0));
                let problem = match count {
                    Ok(n) if n == expected => continue,
                    Ok(n) => format!("{n} of its {expected} locks are left"),
                    Err(e) => format!("{e}"),
                };
                held.store(false, Ordering::SeqCst);
                tracing::error!(
                    "{shards} lost: the PostgreSQL connection holding them failed ({problem}); \
                     another process may take them over, so this one leaves their tables alone"
                );
                return;
            }
            Ok(done) => {
                held.store(false, Ordering::SeqCst);
                // Waits for this process's writes still in flight; none is accepted after it.
                let released = client
                    .execute(
                        "UPDATE shard_owners SET owner = NULL WHERE total = $1 AND owner = $2",
                        &[&i64::from(shards.total()), &token],
                    )
                    .and_then(|_| client.execute("SELECT pg_advisory_unlock_all()", &[]));
                match released {
                    Ok(_) => tracing::info!("{shards} released"),
                    Err(e) => tracing::warn!(
                        "{shards}: releasing failed ({e}); the server releases them when the connection closes"
                    ),
                }
                drop(client);
                let _ = done.send(());
                return;
            }
            // The claim was dropped without a release: the connection closes with the thread.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                held.store(false, Ordering::SeqCst);
                return;
            }
        }
    }
}

impl ShardClaim for PgClaim {
    fn shards(&self) -> ShardSet {
        self.shards
    }

    fn is_held(&self) -> bool {
        self.held.load(Ordering::SeqCst)
    }

    fn release(&self) {
        let sender = self
            .release
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        self.held.store(false, Ordering::SeqCst);
        if let Some(sender) = sender {
            let (done, finished) = mpsc::channel();
            if sender.send(done).is_ok() {
                let _ = finished.recv_timeout(Duration::from_secs(30));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ::postgres::NoTls;

    use super::*;
    use crate::store::tests::{postgres_schema, table};

    /// A server id on shard `shard` of `total`.
    fn guild_on(shard: u64, total: u64) -> u64 {
        let base = 1_200_000_000_000_000_000u64 >> 22;
        ((base - base % total + shard) << 22) | 777
    }

    /// Kills the claim connections of the test schema's processes, as a failing network would.
    fn cut_claim_connections(config: &Config) {
        let mut admin = config.connect(NoTls).expect("connect");
        let keys = ClaimKeys::of_schema(&mut admin).expect("keys");
        let n: i64 = admin
            .query_one(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE application_name = 'sequence-bot shards' AND pid IN (
                     SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid::BIGINT = $1)",
                &[&lock_class(keys.shards)],
            )
            .expect("terminate")
            .get(0);
        assert!(n >= 1, "no claim connection found");
        drop_off_runtime(admin);
    }

    /// Waits up to 10 s for `claim` to notice it is lost.
    fn wait_lost(claim: &dyn ShardClaim) {
        let until = Instant::now() + Duration::from_secs(10);
        while claim.is_held() {
            assert!(
                Instant::now() < until,
                "the lost claim still says it is held"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A process running a part of the shards tells the others of each change of its tables (save,
    /// finish, delete) by NOTIFY with the channel id only; a listener hears it (issue 46). A store
    /// that claimed no part (one process) sends nothing.
    #[test]
    fn table_changes_are_heard_by_the_other_processes() {
        let Some((config, _guard)) = postgres_schema("listen") else {
            return;
        };
        let owner = PostgresStore::open_config(config.clone()).expect("open");
        let other = PostgresStore::open_config(config.clone()).expect("open");
        let alone = PostgresStore::open_config(config.clone()).expect("open");
        let _a = owner
            .claim_shards(ShardSet::new(0, 0, 2).expect("set"), Duration::ZERO)
            .expect("claim");
        let _b = other
            .claim_shards(ShardSet::new(1, 1, 2).expect("set"), Duration::ZERO)
            .expect("claim");
        let (heard, changes) = std::sync::mpsc::channel();
        assert!(other
            .listen_table_changes(Box::new(move |change| {
                change == TableChange::Quiet || heard.send((change, Instant::now())).is_ok()
            }))
            .expect("listen"));
        let next = |what: &str| loop {
            let (change, at) = changes
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("nothing heard: {what}"));
            if change != TableChange::Resync {
                return (change, at);
            }
        };
        // The listener is ready once it says so.
        let (change, _) = changes
            .recv_timeout(Duration::from_secs(10))
            .expect("ready");
        assert_eq!(change, TableChange::Resync);
        // A table of the owner's shard (outside servers: shard 0) saved, then saved again.
        let channel = 1u64 << 63 | 77;
        let mut delays = Vec::new();
        for actions in [2, 4] {
            let sent = Instant::now();
            owner
                .save_table(&crate::store::tests::table(channel, None, actions))
                .expect("save");
            let (change, at) = next("a save");
            assert_eq!(change, TableChange::Changed(channel));
            delays.push(at.duration_since(sent));
        }
        println!("NOTIFY heard after {delays:?} (from the save's start)");
        // A store of one process sends nothing: the owner's next change is the next heard.
        alone
            .save_table(&crate::store::tests::table(78, None, 2))
            .expect("save alone");
        assert!(owner.delete_table(channel).expect("delete"));
        assert_eq!(next("a delete").0, TableChange::Changed(channel));
    }

    #[test]
    fn a_shard_is_held_by_one_process_at_a_time() {
        let Some((config, _guard)) = postgres_schema("claims") else {
            return;
        };
        let first = PostgresStore::open_config(config.clone()).expect("open");
        let second = PostgresStore::open_config(config.clone()).expect("open");
        let shard0 = ShardSet::new(0, 0, 2).expect("set");
        let shard1 = ShardSet::new(1, 1, 2).expect("set");
        let a = first.claim_shards(shard0, Duration::ZERO).expect("claim");
        assert!(a.is_held());
        // The same shard: refused after the wait, with a message that says what to do.
        let started = Instant::now();
        let err = second
            .claim_shards(ShardSet::all(2).expect("set"), Duration::from_millis(700))
            .err()
            .expect("refused");
        assert!(started.elapsed() >= Duration::from_millis(600), "it waited");
        assert!(
            matches!(&err, StoreError::ShardsHeld { held, .. } if held == &vec![0]),
            "{err}"
        );
        assert!(err
            .to_string()
            .contains("held by another sequence-bot process"));
        // Another total on the same database: refused, whatever the shard.
        let third = PostgresStore::open_config(config.clone()).expect("open");
        let err = third
            .claim_shards(ShardSet::new(3, 3, 4).expect("set"), Duration::ZERO)
            .err()
            .expect("refused");
        assert!(
            matches!(err, StoreError::OtherTotal { total: 4, other: 2 }),
            "{err}"
        );
        // The other shard is free, and the refused attempts left nothing locked.
        let b = second
            .claim_shards(shard1, Duration::ZERO)
            .expect("claim 1");
        // Each process writes the tables of its own shard only.
        let (g0, g1) = (guild_on(0, 2), guild_on(1, 2));
        first
            .save_table(&table(10, Some(g0), 2))
            .expect("own shard");
        second
            .save_table(&table(11, Some(g1), 2))
            .expect("own shard");
        assert!(matches!(
            first.save_table(&table(12, Some(g1), 2)),
            Err(StoreError::NotOwner { shard: 1 })
        ));
        assert!(matches!(
            second.delete_table(10),
            Err(StoreError::NotOwner { shard: 0 })
        ));
        // Each loads only its own shard's tables.
        let loaded = |store: &PostgresStore, set| {
            store
                .load_tables_of(set)
                .expect("load")
                .tables
                .iter()
                .map(|t| t.channel_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(loaded(&first, shard0), vec![10]);
        assert_eq!(loaded(&second, shard1), vec![11]);
        // A release lets the next process in at once; the releasing one writes nothing more.
        a.release();
        assert!(!a.is_held());
        let c = third
            .claim_shards(shard0, Duration::ZERO)
            .expect("taken over");
        assert_eq!(loaded(&third, shard0), vec![10]);
        assert!(matches!(
            first.save_table(&table(10, Some(g0), 3)),
            Err(StoreError::NotOwner { shard: 0 })
        ));
        third
            .save_table(&table(10, Some(g0), 3))
            .expect("new owner");
        c.release();
        b.release();
    }

    #[test]
    fn a_lost_claim_connection_stops_the_writes() {
        let Some((config, _guard)) = postgres_schema("lost_claim") else {
            return;
        };
        let first = PostgresStore::open_config(config.clone()).expect("open");
        let a = first
            .claim_shards(ShardSet::SINGLE, Duration::ZERO)
            .expect("claim");
        first
            .save_table(&table(20, Some(5 << 22), 2))
            .expect("save");
        cut_claim_connections(&config);
        wait_lost(&*a);
        // Another process takes the shard over (the server released the lock with the session).
        let second = PostgresStore::open_config(config.clone()).expect("open");
        let b = second
            .claim_shards(ShardSet::SINGLE, Duration::from_secs(5))
            .expect("taken over");
        assert_eq!(second.load_tables().expect("load").tables.len(), 1);
        // The first process's writes are refused by the database, even though its own pool
        // connections are fine.
        let err = first.save_table(&table(20, Some(5 << 22), 3)).unwrap_err();
        assert!(matches!(err, StoreError::NotOwner { shard: 0 }), "{err}");
        assert!(err.to_string().contains("no longer held"), "{err}");
        second
            .save_table(&table(20, Some(5 << 22), 3))
            .expect("the new owner saves");
        b.release();
    }

    #[test]
    fn ratings_are_computed_from_games_stored_before_them() {
        let Some((config, _guard)) = postgres_schema("ratings_migration") else {
            return;
        };
        {
            let mut client = config.connect(NoTls).expect("connect");
            for sql in &migrations(Engine::Postgres)[..2] {
                client.batch_execute(sql).expect("old schema");
            }
            client
                .batch_execute(
                    "CREATE TABLE schema_version (version BIGINT NOT NULL);
                     INSERT INTO schema_version (version) VALUES (2);",
                )
                .expect("version");
            for (n, (guild, players)) in crate::store::tests::old_games().into_iter().enumerate() {
                let id = i64::try_from(n).expect("few") + 1;
                let record = crate::store::tests::json(&crate::store::tests::full_record(
                    crate::engine::Variant::Classic,
                    2,
                    None,
                    n as u64,
                ));
                client
                    .execute(
                        "INSERT INTO games (id, guild_id, channel_id, variant, record_json, finished_at)
                         VALUES ($1, $2, $3, 'classic', $4, $5)",
                        &[&id, &to_db_id(guild), &(100 + id), &record, &(1_000 + id)],
                    )
                    .expect("old game");
                for (seat, p) in players.iter().enumerate() {
                    client
                        .execute(
                            "INSERT INTO game_players (game_id, seat, user_id, name, team, won,
                                 sequences)
                             VALUES ($1, $2, $3, $4, $5, $6, $7)",
                            &[
                                &id,
                                &(seat as i64),
                                &to_db_id(p.user_id),
                                &p.name,
                                &i64::from(p.team),
                                &p.won,
                                &i64::from(p.sequences),
                            ],
                        )
                        .expect("old player");
                }
            }
            client
                .batch_execute("SELECT setval('games_id_seq', 10)")
                .expect("sequence");
        }
        let store = PostgresStore::open_config(config.clone()).expect("upgrade");
        crate::store::tests::cases::migrated_ratings(&store);
        drop(store);
        let store = PostgresStore::open_config(config).expect("reopen");
        crate::store::tests::cases::migrated_ratings(&store);
    }

    #[test]
    fn sslmode_and_sslrootcert_are_read_from_the_url() {
        let parse = |url: &str| UrlTls::parse(url).expect(url);
        let plain = parse("postgres://u@h/db");
        assert_eq!(plain.mode, TlsMode::Prefer);
        assert_eq!(plain.url, "postgres://u@h/db?sslmode=prefer");
        assert_eq!(plain.root_cert, None);
        let cases = [
            ("disable", TlsMode::Disable, SslMode::Disable),
            ("prefer", TlsMode::Prefer, SslMode::Prefer),
            ("require", TlsMode::Require, SslMode::Require),
            ("verify-ca", TlsMode::VerifyCa, SslMode::Require),
            ("verify-full", TlsMode::VerifyFull, SslMode::Require),
        ];
        for (name, mode, ssl_mode) in cases {
            let url = format!("postgres://u:p@h:5433/db?application_name=x&sslmode={name}");
            let parts = parse(&url);
            assert_eq!(parts.mode, mode, "{url}");
            // The postgres crate reads the rest, and requires TLS for the verifying modes.
            let config = Config::from_str(&parts.url).expect("the crate reads it");
            assert_eq!(config.get_ssl_mode(), ssl_mode, "{url}");
            assert_eq!(config.get_application_name(), Some("x"));
            assert!(tls_connector(mode, None).is_ok(), "{name}");
        }
        let verified =
            parse("postgres://u@h/db?sslrootcert=%2Fetc%2Fca%20certs.pem&sslmode=verify-full");
        assert_eq!(verified.root_cert, Some(PathBuf::from("/etc/ca certs.pem")));
        assert_eq!(verified.url, "postgres://u@h/db?sslmode=require");
        // The last sslmode wins, as in the postgres crate.
        assert_eq!(
            parse("postgres://h/d?sslmode=disable&sslmode=require").mode,
            TlsMode::Require
        );

        let refused = |url: &str| match UrlTls::parse(url) {
            Err(StoreError::Config(text)) => text,
            other => panic!("{url}: {other:?}"),
        };
        assert_eq!(
            refused("postgres://h/d?sslmode=allow"),
            "database_url: sslmode must be disable, prefer, require, verify-ca or verify-full \
             (got \"allow\")"
        );
        assert!(
            refused("postgres://h/d?sslmode=require&sslrootcert=ca.pem").contains("only used with")
        );
        assert!(refused("postgres://h/d?sslmode=%zz").contains("bad %-escape"));
    }

    #[test]
    fn root_certificates_come_from_sslrootcert() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("missing.pem");
        let url = format!(
            "postgres://u@127.0.0.1:1/db?sslmode=verify-full&sslrootcert={}",
            missing.display()
        );
        // Refused before connecting (nothing listens on port 1 anyway).
        let err = PostgresStore::open(&url).err().expect("no such file");
        assert!(
            matches!(&err, StoreError::Config(t) if t.contains("missing.pem")),
            "{err}"
        );
        let junk = dir.path().join("junk.pem");
        std::fs::write(&junk, "not a certificate").expect("write");
        let err = root_store(Some(&junk)).expect_err("no certificate");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
        let ca = rcgen::generate_simple_self_signed(vec!["db.example".to_string()]).expect("cert");
        let good = dir.path().join("ca.pem");
        std::fs::write(&good, ca.cert.pem()).expect("write");
        assert_eq!(root_store(Some(&good)).expect("one root").len(), 1);
        assert!(root_store(None).expect("Mozilla roots").len() > 100);
    }

    /// A stand-in for a PostgreSQL server with TLS on 127.0.0.1: it accepts the client's SSLRequest,
    /// completes a TLS handshake with a self-signed certificate for `localhost` and `db.example`, then
    /// refuses the login with the server error "tls works". Returns the port and the certificate (PEM).
    fn tls_stand_in() -> (u16, String) {
        use std::io::Write;
        let issued = rcgen::generate_simple_self_signed(vec![
            "localhost".to_string(),
            "db.example".to_string(),
        ])
        .expect("certificate");
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(issued.signing_key.serialize_der().into());
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(vec![issued.cert.der().clone()], key)
        .expect("server config");
        let config = Arc::new(config);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut tcp) = stream else { continue };
                let config = Arc::clone(&config);
                // One connection at a time; a failed handshake just ends it.
                let _ = (|| -> std::io::Result<()> {
                    let mut request = [0u8; 8];
                    tcp.read_exact(&mut request)?;
                    tcp.write_all(b"S")?;
                    let connection =
                        rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
                    let mut tls = rustls::StreamOwned::new(connection, tcp);
                    let mut length = [0u8; 4];
                    tls.read_exact(&mut length)?;
                    let mut startup =
                        vec![0u8; (u32::from_be_bytes(length) as usize).saturating_sub(4)];
                    tls.read_exact(&mut startup)?;
                    let fields: &[u8] = b"SFATAL\0VFATAL\0C28000\0Mtls works\0\0";
                    let mut reply = vec![b'E'];
                    reply.extend_from_slice(&(fields.len() as u32 + 4).to_be_bytes());
                    reply.extend_from_slice(fields);
                    tls.write_all(&reply)?;
                    tls.flush()
                })();
            }
        });
        (port, issued.cert.pem())
    }

    #[test]
    fn tls_modes_check_what_they_promise() {
        let (port, pem) = tls_stand_in();
        let dir = tempfile::tempdir().expect("tempdir");
        let ca = dir.path().join("ca.pem");
        std::fs::write(&ca, pem).expect("write");
        let ca = ca.display().to_string();
        let outcome = |host: &str, query: &str| {
            let url = format!(
                "postgres://u@{host}:{port}/db?hostaddr=127.0.0.1&connect_timeout=5&{query}"
            );
            let err = PostgresStore::open(&url)
                .err()
                .expect("the stand-in refuses the login");
            err.to_string()
        };
        let reached = "PostgreSQL: db error: FATAL: tls works";
        // No certificate check: TLS with whatever certificate the server has.
        assert_eq!(outcome("127.0.0.1", "sslmode=prefer"), reached);
        assert_eq!(outcome("127.0.0.1", "sslmode=require"), reached);
        // verify-ca: a trusted root is needed, the host name is not checked.
        assert_eq!(
            outcome("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={ca}")),
            reached
        );
        let unknown = outcome("127.0.0.1", "sslmode=verify-ca");
        assert!(
            unknown.contains("invalid peer certificate: UnknownIssuer"),
            "{unknown}"
        );
        // verify-full: the certificate must also name the host.
        let full = format!("sslmode=verify-full&sslrootcert={ca}");
        assert_eq!(outcome("localhost", &full), reached);
        let wrong_name = outcome("127.0.0.1", &full);
        assert!(
            wrong_name.contains("invalid peer certificate: certificate not valid for name"),
            "{wrong_name}"
        );
    }

    /// A URL for the test server in a fresh schema of its own (dropped by the guard).
    fn url_in_schema(name: &str, sslmode: &str) -> Option<(String, impl Drop)> {
        let (config, guard) = postgres_schema(name)?;
        let options = config
            .get_options()
            .unwrap_or_default()
            .replace(' ', "%20")
            .replace('=', "%3D");
        let url = crate::store::tests::postgres_url()?;
        let separator = if url.contains('?') { '&' } else { '?' };
        Some((
            format!("{url}{separator}sslmode={sslmode}&options={options}"),
            guard,
        ))
    }

    #[test]
    fn sslmode_against_a_server_without_tls() {
        // The test server of .ci/postgres.sh has no TLS: prefer and disable connect in plain TCP,
        // require and the verifying modes are refused with a clear error.
        for mode in ["prefer", "disable"] {
            let Some((url, _guard)) = url_in_schema("tls", mode) else {
                return;
            };
            let store = PostgresStore::open(&url).expect(mode);
            store.save_table(&table(1, None, 3)).expect("save");
            assert_eq!(store.load_tables().expect("load").tables.len(), 1, "{mode}");
        }
        for mode in ["require", "verify-ca", "verify-full"] {
            let Some((url, _guard)) = url_in_schema("tls", mode) else {
                return;
            };
            let err = PostgresStore::open(&url).err().expect("refused");
            assert_eq!(
                err.to_string(),
                "PostgreSQL: error performing TLS handshake: server does not support TLS",
                "{mode}"
            );
        }
    }

    #[test]
    fn errors_say_what_went_wrong() {
        // Nothing listens on port 1 of the loopback: refused at once.
        let err = PostgresStore::open("postgres://nobody@127.0.0.1:1/none")
            .err()
            .expect("no server");
        let text = err.to_string();
        assert!(
            text.starts_with("PostgreSQL: error connecting to server: "),
            "{text}"
        );
        assert!(text.to_lowercase().contains("refused"), "{text}");
        let err = PostgresStore::open("postgres://a@b:notaport/c")
            .err()
            .expect("bad url");
        assert!(matches!(err, StoreError::Config(_)), "{err}");

        let Some((config, _guard)) = postgres_schema("errors") else {
            return;
        };
        let store = PostgresStore::open_config(config).expect("open");
        let err = store
            .with_client(|c| c.execute("SELECT * FROM no_such_table", &[]))
            .expect_err("a server error");
        assert!(err.to_string().contains("no_such_table"), "{err}");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let Some((config, _guard)) = postgres_schema("newer") else {
            return;
        };
        let store = PostgresStore::open_config(config.clone()).expect("open");
        store.save_table(&table(1, None, 3)).expect("save");
        store
            .with_client(|c| c.execute("UPDATE schema_version SET version = 99", &[]))
            .expect("bump");
        drop(store);
        let err = PostgresStore::open_config(config.clone())
            .err()
            .expect("refused");
        assert!(
            matches!(err, StoreError::SchemaTooNew { found: 99, known } if known == SCHEMA_VERSION),
            "{err}"
        );
        // Left untouched: the version and the data are still there.
        let mut client = config.connect(NoTls).expect("connect");
        let row = client
            .query_one("SELECT version FROM schema_version", &[])
            .expect("version");
        assert_eq!(row.get::<_, i64>(0), 99);
        let row = client
            .query_one("SELECT count(*) FROM live_tables", &[])
            .expect("count");
        assert_eq!(row.get::<_, i64>(0), 1);
        drop_off_runtime(client);
    }

    #[test]
    fn processes_starting_together_migrate_once() {
        let Some((config, _guard)) = postgres_schema("together") else {
            return;
        };
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let config = config.clone();
                std::thread::spawn(move || PostgresStore::open_config(config).map(|_| ()))
            })
            .collect();
        for h in handles {
            h.join().expect("no panic").expect("opened");
        }
        let store = PostgresStore::open_config(config).expect("open");
        let rows = store
            .with_client(|c| c.query("SELECT version FROM schema_version", &[]))
            .expect("versions");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].get::<_, i64>(0), SCHEMA_VERSION);
    }

    #[test]
    fn a_lost_connection_is_reopened() {
        let Some((mut config, _guard)) = postgres_schema("reconnect") else {
            return;
        };
        let name = format!("sequence-bot-reconnect-{}", std::process::id());
        config.application_name(&name);
        let store = PostgresStore::open_config(config.clone()).expect("open");
        store.save_table(&table(1, None, 3)).expect("save");
        let mut admin = config.connect(NoTls).expect("admin connection");
        let killed = admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE application_name = $1 AND pid <> pg_backend_pid()",
                &[&name],
            )
            .expect("terminate");
        assert_eq!(killed, 1);
        drop_off_runtime(admin);
        // The first call may fail on the dead connection; the store must recover right after.
        let _ = store.load_tables();
        store
            .save_table(&table(2, None, 3))
            .expect("save after reconnect");
        assert_eq!(store.load_tables().expect("load").tables.len(), 2);
    }

    #[test]
    fn usable_from_spawn_blocking_and_dropped_inside_a_runtime() {
        let Some((config, _guard)) = postgres_schema("runtime") else {
            return;
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let store: Arc<dyn Store> = tokio::task::spawn_blocking(move || {
                PostgresStore::open_config(config).map(|s| Arc::new(s) as Arc<dyn Store>)
            })
            .await
            .expect("joined")
            .expect("open");
            let s = Arc::clone(&store);
            tokio::task::spawn_blocking(move || s.save_table(&table(1, None, 2)))
                .await
                .expect("joined")
                .expect("save");
            // The last reference goes away on an async task: must not panic.
            drop(store);
        });
    }
}
