# sequence-bot: multi-stage build. The first stage compiles the release binary; the second is a small
# Debian image that only holds the binary and CA certificates, and runs it as an unprivileged user.
#
#   docker build -t sequence-bot .
#   docker run -d --name sequence-bot -e DISCORD_TOKEN=... -v sequence-data:/data sequence-bot
#
# Configuration: environment variables (DISCORD_TOKEN, SEQUENCE_DEV_GUILD, SEQUENCE_DATABASE,
# SEQUENCE_DATABASE_URL, SEQUENCE_SHARDS, SEQUENCE_SHARD_TOTAL, SEQUENCE_METRICS_LISTEN, SEQUENCE_LOG_FORMAT;
# docker-compose.yml runs two sharded processes over PostgreSQL), and/or a
# config file: /data/config.toml is read by default, or mount one anywhere and pass
# `run --config /path/config.toml` as the command.

# Base images are pinned by digest (the multi-arch index), so a build starts from the same bytes until the
# pin is changed on purpose; the tag beside it is for the reader (Docker uses the digest). To refresh:
#   docker buildx imagetools inspect rust:1-bookworm        # or a newer rust:1.NN.N-bookworm
#   docker buildx imagetools inspect debian:bookworm-slim
# take the "Digest:" line of each, update both lines below, and rebuild. The Rust image must be 1.88 or
# newer (the highest rust-version among the locked dependencies; developed with 1.95).
FROM rust:1.98.1-bookworm@sha256:93ce27a88655056a51dbdd8f5f2d7ddc071c7b0070fb288a37b5a285fc83971e AS build
WORKDIR /src
# Manifests first, so the dependency download is cached between source changes.
COPY Cargo.toml Cargo.lock ./
# The CPU features the release is built for (x86-64-v2 on x86-64).
COPY .cargo .cargo
COPY benches benches
COPY assets assets
COPY src src
RUN cargo build --release --locked --bin sequence-bot

FROM debian:bookworm-slim@sha256:88200866dfff7ea7f5cbcb6ec7c8a701889efe6fe859fe64d6990e4b07ea4171
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --create-home sequence
COPY --from=build /src/target/release/sequence-bot /usr/local/bin/sequence-bot
COPY config.example.toml /usr/share/doc/sequence-bot/config.example.toml
USER sequence
WORKDIR /data
ENV SEQUENCE_DATABASE=/data/sequence-bot.sqlite3 \
    RUST_LOG=warn,sequence_bot=info
VOLUME ["/data"]
ENTRYPOINT ["sequence-bot"]
CMD ["run"]
# With SEQUENCE_METRICS_LISTEN (or [metrics] listen) set, `sequence-bot healthcheck` GETs /healthz and
# exits 0 or 1 (the image has no curl); docker-compose.yml uses it. Without a listener it exits 2, so no
# HEALTHCHECK is declared here: add one with `--health-cmd "sequence-bot healthcheck"` when you set it.
