//! Validates `docker-compose.yml` and the `Dockerfile` without a Docker engine: the compose
//! file is parsed against the subset of the Compose specification it uses (unknown keys
//! are errors, as `docker compose config` would report typos), and its wiring is checked
//! against the real `league serve` (the environment variables it reads, the health route).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ComposeFile {
    name: Option<String>,
    services: BTreeMap<String, Service>,
    #[serde(default)]
    volumes: BTreeMap<String, Option<serde_norway::Value>>,
    #[serde(default)]
    configs: BTreeMap<String, ConfigContent>,
}

/// A config given inline (`content:`), mounted into services as a file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigContent {
    content: String,
}

/// A config mounted into a service.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ServiceConfig {
    source: String,
    target: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Service {
    image: Option<String>,
    build: Option<Build>,
    command: Option<Vec<String>>,
    entrypoint: Option<Vec<String>>,
    user: Option<String>,
    /// Started only with `--profile NAME`; none: always.
    #[serde(default)]
    profiles: Vec<String>,
    #[serde(default)]
    configs: Vec<ServiceConfig>,
    #[serde(default)]
    environment: BTreeMap<String, String>,
    #[serde(default)]
    ports: Vec<String>,
    #[serde(default)]
    volumes: Vec<String>,
    #[serde(default)]
    depends_on: BTreeMap<String, DependsOn>,
    healthcheck: Option<Healthcheck>,
    restart: Option<String>,
    stop_grace_period: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Build {
    context: String,
    dockerfile: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DependsOn {
    condition: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Healthcheck {
    test: Vec<String>,
    interval: String,
    timeout: String,
    retries: u32,
    start_period: Option<String>,
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn compose() -> ComposeFile {
    let text = std::fs::read_to_string(repo_root().join("docker-compose.yml")).unwrap();
    serde_norway::from_str(&text).expect("docker-compose.yml fits the Compose subset")
}

/// Compose interpolation of `${VAR:-default}` / `${VAR}` with an empty environment.
fn interpolate(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("closed ${…}") + start;
        let expression = &rest[start + 2..end];
        if let Some((_, default)) = expression.split_once(":-") {
            out.push_str(default);
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn duration_seconds(text: &str) -> u64 {
    text.strip_suffix('s')
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text:?} is a duration like 5s"))
}

#[test]
fn compose_runs_postgres_and_the_gateway_with_healthchecks() {
    let compose = compose();
    assert_eq!(compose.name.as_deref(), Some("league"));
    let started_by_default: Vec<&String> =
        compose.services.iter().filter(|(_, s)| s.profiles.is_empty()).map(|(n, _)| n).collect();
    assert_eq!(started_by_default, ["db", "gateway"]);
    for (name, service) in &compose.services {
        for config in &service.configs {
            assert!(compose.configs.contains_key(&config.source), "{name}: config {config:?}");
            assert!(config.target.starts_with('/'), "{name}: {config:?}");
        }
        let health =
            service.healthcheck.as_ref().unwrap_or_else(|| panic!("{name} has a healthcheck"));
        assert!(
            matches!(health.test[0].as_str(), "CMD" | "CMD-SHELL"),
            "{name}: {:?}",
            health.test
        );
        assert!(duration_seconds(&health.interval) > 0 && duration_seconds(&health.timeout) > 0);
        assert!(health.retries > 0);
        if let Some(start) = &health.start_period {
            assert!(duration_seconds(start) > 0);
        }
        assert_eq!(service.restart.as_deref(), Some("unless-stopped"), "{name} comes back");
        for volume in &service.volumes {
            let source = volume.split(':').next().unwrap();
            assert!(compose.volumes.contains_key(source), "{name}: volume {source} is declared");
        }
    }

    let db = &compose.services["db"];
    assert!(db.image.as_deref().unwrap().starts_with("postgres:"));
    assert!(db.healthcheck.as_ref().unwrap().test[1].contains("pg_isready"));

    let gateway = &compose.services["gateway"];
    assert_eq!(gateway.depends_on["db"].condition, "service_healthy");
    let build = gateway.build.as_ref().expect("the gateway is built from this repository");
    let dockerfile =
        repo_root().join(&build.context).join(build.dockerfile.as_deref().unwrap_or("Dockerfile"));
    assert!(dockerfile.is_file(), "{} exists", dockerfile.display());

    // The database URL names the db service with its user, password and database.
    let env: BTreeMap<_, _> =
        gateway.environment.iter().map(|(k, v)| (k.as_str(), interpolate(v))).collect();
    let db_env: BTreeMap<_, _> =
        db.environment.iter().map(|(k, v)| (k.as_str(), interpolate(v))).collect();
    assert_eq!(
        env["DATABASE_URL"],
        format!(
            "postgres://{}:{}@db:5432/{}",
            db_env["POSTGRES_USER"], db_env["POSTGRES_PASSWORD"], db_env["POSTGRES_DB"]
        )
    );

    // The gateway listens on every interface at the port that is published and probed.
    let port = env["LEAGUE_LISTEN"].strip_prefix("0.0.0.0:").expect("listens on 0.0.0.0");
    let published: Vec<String> = gateway.ports.iter().map(|p| interpolate(p)).collect();
    assert!(published.iter().any(|p| p.ends_with(&format!(":{port}"))), "{published:?}");
    let probe = gateway.healthcheck.as_ref().unwrap().test.join(" ");
    assert!(probe.contains(&format!("http://127.0.0.1:{port}/healthz")), "{probe}");
    assert_eq!(gateway.command.as_deref(), Some(&["serve".to_owned()][..]));
    // `docker stop` waits longer than the gateway's own 10 s shutdown grace period, so
    // in-flight requests finish before the container is killed.
    let grace = gateway.stop_grace_period.as_deref().expect("a stop grace period");
    assert!(duration_seconds(grace) > 10, "{grace}");
}

#[test]
fn every_gateway_setting_is_one_league_serve_reads() {
    let help =
        Command::new(env!("CARGO_BIN_EXE_league")).args(["serve", "--help"]).output().unwrap();
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).unwrap();
    let compose = compose();
    for gateway in ["gateway", "reading-gateway", "failover-gateway"] {
        for name in compose.services[gateway].environment.keys() {
            if name == "RUST_LOG" {
                continue; // read by the logger, not a flag
            }
            let read = help.contains(&format!("[env: {name}"));
            assert!(read, "`league serve` reads {name} ({gateway}):\n{help}");
        }
    }
}

#[test]
fn the_standby_profile_adds_a_hot_standby_of_db_and_a_gateway_reading_it() {
    let compose = compose();
    let db = &compose.services["db"];
    let standby = &compose.services["standby"];
    let reading = &compose.services["reading-gateway"];
    for service in [standby, reading] {
        assert_eq!(service.profiles, ["standby"]);
    }
    // db accepts replication connections with a password: its hba file is the config's.
    let hba = db.configs.iter().find(|c| c.source == "pg_hba").expect("db mounts pg_hba");
    let command = db.command.as_ref().expect("db's command").join(" ");
    assert!(command.contains(&format!("hba_file={}", hba.target)), "{command}");
    let rules = &compose.configs["pg_hba"].content;
    assert!(rules.lines().any(|rule| rule.starts_with("host replication all all scram-sha-256")));
    assert!(rules.lines().any(|rule| rule.starts_with("host all all all scram-sha-256")));

    // The standby is the same image as db, copied from db once, then following it; the
    // copy and the server run as postgres, who owns the data directory.
    assert_eq!(standby.image, db.image);
    assert_eq!(standby.user.as_deref(), Some("postgres"));
    assert_eq!(standby.entrypoint.as_deref(), Some(&["bash".to_owned(), "-c".to_owned()][..]));
    assert_eq!(standby.depends_on["db"].condition, "service_healthy");
    let script = standby.command.as_ref().expect("the standby's script").join("\n");
    assert!(
        script.contains("pg_basebackup -h db -U league") && script.contains(" -R "),
        "{script}"
    );
    assert!(script.contains("exec postgres"), "{script}");
    assert!(standby.volumes.iter().any(|v| v.ends_with(":/var/lib/postgresql/data")));
    assert_ne!(standby.volumes, db.volumes, "a data directory of its own");

    // The reading gateway writes to db and reads the standby, with the same credentials.
    let env: BTreeMap<_, _> =
        reading.environment.iter().map(|(k, v)| (k.as_str(), interpolate(v))).collect();
    let db_env: BTreeMap<_, _> =
        db.environment.iter().map(|(k, v)| (k.as_str(), interpolate(v))).collect();
    let url = |host: &str| {
        format!(
            "postgres://{}:{}@{host}:5432/{}",
            db_env["POSTGRES_USER"], db_env["POSTGRES_PASSWORD"], db_env["POSTGRES_DB"]
        )
    };
    assert_eq!(env["DATABASE_URL"], url("db"));
    assert_eq!(env["READ_DATABASE_URL"], url("standby"));
    assert_eq!(interpolate(&standby.environment["PGPASSWORD"]), db_env["POSTGRES_PASSWORD"]);
    assert_eq!(reading.depends_on["standby"].condition, "service_healthy");
    // The writing gateway migrates db first; the reading one waits for it.
    assert_eq!(reading.depends_on["gateway"].condition, "service_healthy");
    let gateway = &compose.services["gateway"];
    assert_eq!(reading.image, gateway.image);
    let published = |service: &Service| -> Vec<String> {
        service.ports.iter().map(|p| interpolate(p).split(':').next().unwrap().to_owned()).collect()
    };
    assert_ne!(published(reading), published(gateway), "another host port");
}

#[test]
fn the_failover_profile_runs_a_monitor_two_nodes_and_a_gateway_on_both() {
    let compose = compose();
    let services = ["monitor", "node1", "node2", "failover-gateway"];
    for name in services {
        assert_eq!(compose.services[name].profiles, ["failover"], "{name}");
    }
    let monitor = compose.services["monitor"].command.as_ref().expect("the monitor's command");
    assert_eq!(monitor[..3], ["pg_autoctl", "create", "monitor"]);
    for node in ["node1", "node2"] {
        let service = &compose.services[node];
        let command = service.command.as_ref().expect("the node's command").join(" ");
        assert!(command.starts_with("pg_autoctl create postgres "), "{command}");
        assert!(command.contains(&format!("--hostname {node} ")), "{command}");
        assert!(command.contains("@monitor/pg_auto_failover") && command.ends_with(" --run"));
        assert_eq!(service.depends_on["monitor"].condition, "service_healthy");
        assert_eq!(service.user.as_deref(), Some("postgres"));
        let build = service.build.as_ref().expect("built with pg_auto_failover");
        let dockerfile =
            repo_root().join(&build.context).join(build.dockerfile.as_deref().unwrap());
        let text = std::fs::read_to_string(&dockerfile).expect("the nodes' Dockerfile");
        assert!(
            text.contains("postgresql-15-auto-failover") && text.contains("pg-auto-failover-cli")
        );
    }
    assert_ne!(compose.services["node1"].volumes, compose.services["node2"].volumes);
    // The gateway's URL names both nodes and wants the one that takes writes.
    let gateway = &compose.services["failover-gateway"];
    let url = interpolate(&gateway.environment["DATABASE_URL"]);
    assert!(url.contains("@node1:5432,node2:5432/league?"), "{url}");
    assert!(url.contains("target_session_attrs=read-write"), "{url}");
    assert_eq!(gateway.image, compose.services["gateway"].image);
}

#[test]
fn dockerfile_serves_on_the_published_port_and_probes_healthz() {
    let dockerfile = std::fs::read_to_string(repo_root().join("Dockerfile")).unwrap();
    let instructions: Vec<&str> = dockerfile
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        instructions.iter().filter(|l| l.starts_with("FROM ")).count() >= 2,
        "multi-stage build"
    );
    assert!(instructions.contains(&"EXPOSE 8000"));
    assert!(instructions.contains(&"ENTRYPOINT [\"league\"]"));
    assert!(instructions.contains(&"CMD [\"serve\"]"));
    assert!(dockerfile.contains("LEAGUE_LISTEN=0.0.0.0:8000"));
    assert!(dockerfile.contains("http://127.0.0.1:8000/healthz"));
    assert!(dockerfile.contains("cargo build --release --locked --bin league"));
}
