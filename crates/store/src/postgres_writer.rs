//! PostgreSQL's write path: a small pool of tokio-postgres connections for the group commit
//! and keyed appends. tokio-postgres sets `TCP_NODELAY` on its sockets; sqlx 0.9.0 does not,
//! so over TCP a Bind spanning several packets (a group's array parameters) waits ≈ 40 ms for
//! the server's delayed ACK (Nagle). Reads, the live feed's `LISTEN`, migrations and restores
//! stay on sqlx (sea-orm).
//!
//! The writer connects from the URL the store was given, read by sqlx's own parser (so the
//! same `PG*` variables, `.pgpass`, sockets and `sslmode` apply to both drivers). TLS follows
//! sqlx's (and libpq's) `sslmode`: `disable`; `allow`/`prefer` encrypt when the server offers
//! it; `require` encrypts without checking the certificate; `verify-ca` checks the chain
//! against `sslrootcert` (else the Web PKI roots); `verify-full` also checks the host name.
//!
//! A store following the primary over several hosts ([`failover`](crate::failover)) points
//! the writer at the new primary with [`PostgresWriter::retarget`]: connections to the old one
//! are dropped as they come back.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use sea_orm::sqlx::ConnectOptions as _;
use sea_orm::sqlx::postgres::{PgConnectOptions, PgSslMode};
use sea_orm::{DbErr, RuntimeErr};
use tokio_postgres::config::SslMode;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Row, Statement};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::StoreError;
use crate::error::{database_error, unavailable_state};
use crate::storage::GroupFailed;

/// Write connections: the group commit serialises a process's appends, so one is busy at a
/// time; the others serve keyed appends and a connection being replaced.
const WRITE_CONNECTIONS: usize = 3;
/// How long a write waits for a connection (sqlx's default acquire timeout).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// The pool of write connections (replaced whole when the primary moves).
pub(crate) struct PostgresWriter {
    pool: RwLock<Pool>,
}

impl PostgresWriter {
    /// A writer for `url`; connections are opened at the first write. A URL sqlx cannot
    /// read, or an unreadable certificate file, is an error here.
    pub(crate) fn new(url: &str) -> Result<PostgresWriter, StoreError> {
        Ok(PostgresWriter { pool: RwLock::new(pool(url)?) })
    }

    /// Writes through a new pool on `url` from now on (the primary moved); writes already
    /// holding a connection to the old server finish or fail there.
    pub(crate) fn retarget(&self, url: &str) -> Result<(), StoreError> {
        let pool = pool(url)?;
        *self.pool.write().unwrap_or_else(PoisonError::into_inner) = pool;
        Ok(())
    }

    /// A write connection, opened if none is free.
    pub(crate) async fn connection(&self) -> Result<Object, GroupFailed> {
        let pool = self.pool.read().unwrap_or_else(PoisonError::into_inner).clone();
        pool.get().await.map_err(|error| GroupFailed {
            // Nothing was sent, but a caller cannot tell a refused connection from a
            // dropped one: as with sqlx's pool, the outcome counts as unknown.
            error: StoreError::Unavailable { reason: format!("postgres: {error}") },
            rolled_back: false,
        })
    }
}

/// A pool of [`WRITE_CONNECTIONS`] on `url`.
fn pool(url: &str) -> Result<Pool, StoreError> {
    let options: PgConnectOptions = url.parse().map_err(database_error)?;
    let (config, tls) = connection(&options)?;
    let manager = Manager::from_config(
        config,
        tls,
        ManagerConfig { recycling_method: RecyclingMethod::Fast },
    );
    let pool = Pool::builder(manager)
        .max_size(WRITE_CONNECTIONS)
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .wait_timeout(Some(CONNECT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT))
        .build()
        .map_err(|error| setup_error(&error.to_string()))?;
    Ok(pool)
}

/// Runs `sql` (prepared once per connection) with `params` on `client`: one round trip.
pub(crate) async fn query(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, GroupFailed> {
    let statement: Statement = client.prepare_cached(sql).await.map_err(failed)?;
    client.query(&statement, params).await.map_err(failed)
}

/// [`query`], or `None` when the server refused it for a unique violation (nothing was
/// written: the statement's transaction was rolled back).
pub(crate) async fn query_unless_taken(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<Vec<Row>>, GroupFailed> {
    let statement: Statement = client.prepare_cached(sql).await.map_err(failed)?;
    match client.query(&statement, params).await {
        Ok(rows) => Ok(Some(rows)),
        Err(error) if error.code() == Some(&SqlState::UNIQUE_VIOLATION) => Ok(None),
        Err(error) => Err(failed(error)),
    }
}

/// A driver error as the store reports it. An error the server reported ends the
/// statement's transaction, so nothing was written (`rolled_back`); any other (I/O) error
/// leaves the outcome unknown.
pub(crate) fn failed(error: tokio_postgres::Error) -> GroupFailed {
    GroupFailed { rolled_back: error.as_db_error().is_some(), error: driver_error(&error) }
}

/// A driver error as the store reports it: [`StoreError::Unavailable`] for a lost
/// connection (no answer from the server) or a server that cannot take writes now.
fn driver_error(error: &tokio_postgres::Error) -> StoreError {
    match error.as_db_error() {
        Some(server) if unavailable_state(server.code().code()) => {
            StoreError::Unavailable { reason: format!("postgres: {server}") }
        }
        Some(server) => driver_error_text(&server.to_string()),
        None if error.is_closed()
            || std::error::Error::source(error)
                .is_some_and(|cause| cause.is::<std::io::Error>()) =>
        {
            StoreError::Unavailable { reason: format!("postgres: {error}") }
        }
        None => driver_error_text(&error.to_string()),
    }
}

fn driver_error_text(text: &str) -> StoreError {
    StoreError::Database(DbErr::Exec(RuntimeErr::Internal(format!("postgres: {text}"))))
}

fn setup_error(text: &str) -> StoreError {
    StoreError::Database(DbErr::Conn(RuntimeErr::Internal(format!("postgres writer: {text}"))))
}

impl From<StoreError> for GroupFailed {
    /// An error raised by the store itself (an unexpected answer): the statement may have
    /// committed.
    fn from(error: StoreError) -> GroupFailed {
        GroupFailed { error, rolled_back: false }
    }
}

/// tokio-postgres' configuration and TLS connector for what sqlx read from the URL.
fn connection(
    options: &PgConnectOptions,
) -> Result<(tokio_postgres::Config, MakeRustlsConnect), StoreError> {
    // sqlx's own rendering of the options: host or socket, port, user, password (from the
    // URL, `PGPASSWORD` or `.pgpass`), database, TLS files.
    let rendered = options.to_url_lossy();
    let setting = |name: &str| {
        rendered.query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
    };
    let mut config = tokio_postgres::Config::new();
    match options.get_socket() {
        Some(directory) => config.host_path(directory),
        None => config.host(options.get_host()),
    };
    config.port(options.get_port()).user(options.get_username());
    if let Some(password) = rendered.password() {
        config.password(percent_encoding::percent_decode_str(password).collect::<Vec<u8>>());
    }
    if let Some(database) = options.get_database() {
        config.dbname(database);
    }
    if let Some(name) = options.get_application_name() {
        config.application_name(name);
    }
    if let Some(server_options) = options.get_options() {
        config.options(server_options);
    }
    config.connect_timeout(CONNECT_TIMEOUT);

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mode = options.get_ssl_mode();
    config.ssl_mode(match mode {
        PgSslMode::Disable => SslMode::Disable,
        // `allow` would try plain text first; encrypting when offered is the safer reading.
        PgSslMode::Allow | PgSslMode::Prefer => SslMode::Prefer,
        PgSslMode::Require | PgSslMode::VerifyCa | PgSslMode::VerifyFull => SslMode::Require,
    });
    let verifier: Arc<dyn ServerCertVerifier> = match mode {
        PgSslMode::VerifyCa | PgSslMode::VerifyFull => {
            let mut roots = RootCertStore::empty();
            match setting("sslrootcert") {
                Some(certificate) => {
                    roots.add_parsable_certificates(pem_certificates(&certificate)?);
                }
                None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
            }
            let chain = WebPkiServerVerifier::builder_with_provider(roots.into(), provider.clone())
                .build()
                .map_err(|error| setup_error(&error.to_string()))?;
            Arc::new(CertificateCheck {
                chain: Some(chain),
                host_name: matches!(mode, PgSslMode::VerifyFull),
                algorithms: provider.signature_verification_algorithms,
            })
        }
        _ => Arc::new(CertificateCheck {
            chain: None,
            host_name: false,
            algorithms: provider.signature_verification_algorithms,
        }),
    };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| setup_error(&error.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let tls = match (setting("sslcert"), setting("sslkey")) {
        (Some(certificate), Some(key)) => {
            let key = if key.starts_with("-----BEGIN") {
                PrivateKeyDer::from_pem_slice(key.as_bytes())
            } else {
                PrivateKeyDer::from_pem_file(&key)
            }
            .map_err(|error| setup_error(&format!("sslkey: {error}")))?;
            builder
                .with_client_auth_cert(pem_certificates(&certificate)?, key)
                .map_err(|error| setup_error(&format!("sslcert: {error}")))?
        }
        _ => builder.with_no_client_auth(),
    };
    Ok((config, MakeRustlsConnect::new(tls)))
}

/// The certificates of a PEM file, or of inline PEM text (as sqlx accepts both).
fn pem_certificates(source: &str) -> Result<Vec<CertificateDer<'static>>, StoreError> {
    let certificates: Result<Vec<_>, _> = if source.starts_with("-----BEGIN") {
        CertificateDer::pem_slice_iter(source.as_bytes()).collect()
    } else {
        CertificateDer::pem_file_iter(source)
            .map_err(|error| setup_error(&format!("{source}: {error}")))?
            .collect()
    };
    certificates.map_err(|error| setup_error(&format!("{source}: {error}")))
}

/// The server certificate check of an `sslmode`: none (`prefer`, `require`: encrypted, not
/// authenticated, as sqlx and libpq do), the chain (`verify-ca`), or chain and host name
/// (`verify-full`). The handshake's signatures are always checked.
#[derive(Debug)]
struct CertificateCheck {
    chain: Option<Arc<WebPkiServerVerifier>>,
    host_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for CertificateCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else { return Ok(ServerCertVerified::assertion()) };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.host_name => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, certificate, signature, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, certificate, signature, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
