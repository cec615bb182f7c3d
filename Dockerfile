# syntax=docker/dockerfile:1
# The `league` binary in a small runtime image. Built by `docker compose up` (see
# docker-compose.yml); runs `league serve`, configured through environment variables.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The release profile of `cargo run --release` (no debug info, stripped). The crates
# downloaded and the dependencies compiled are kept in BuildKit cache mounts between builds,
# so a change to the platform's own code recompiles only its crates.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked --bin league \
 && cp target/release/league /usr/local/bin/league

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --create-home league
COPY --from=build /usr/local/bin/league /usr/local/bin/league
USER league
WORKDIR /data
ENV LEAGUE_LISTEN=0.0.0.0:8000 \
    DATABASE_URL=sqlite:///data/league.db?mode=rwc \
    RUST_LOG=info
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8000/healthz || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["league"]
CMD ["serve"]
