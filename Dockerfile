# navsim in a container: build with the official Swift toolchain image, run on Debian slim.
#   docker build -t navsim .
#   docker run --rm -p 8080:8080 -v navsim-data:/data navsim
# The image listens on 0.0.0.0: set a bearer token whenever the port is reachable by others,
#   docker run ... -e NAVSIM_TOKEN="$(openssl rand -hex 32)" navsim
# or mount a file of tokens (one a line) and point NAVSIM_TOKEN_FILE at it. No tenancy: any
# token is full access to every session. /healthz (the HEALTHCHECK) needs no token.

# ---- build ------------------------------------------------------------------------------
# The same Swift release as the developers' and CI's toolchain (6.3.1), on Debian 12.
FROM swift:6.3.1-bookworm AS build

# Debian stable replaces exact versions with security updates; pinning them breaks the build.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The whole package: SwiftPM checks every target of Package.swift, test targets included.
COPY . .
RUN swift build -c release --static-swift-stdlib \
 && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/navsim" /out/navsim

# ---- run --------------------------------------------------------------------------------
FROM debian:bookworm-slim

# libmicrohttpd12, libsqlite3-0 and libpq5: the system libraries navsim links; libxml2: FoundationXML
# (the Storyboards parser) links it even with --static-swift-stdlib; curl: the HEALTHCHECK;
# graphviz: its `dot` renders the image/svg+xml pictures (docs/pictures.md).
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 libxml2 ca-certificates curl graphviz \
 && rm -rf /var/lib/apt/lists/*

# A fixed uid/gid, so that USER is numeric (Kubernetes' runAsNonRoot can check it) and a host
# folder mounted on /data can be given to it.
RUN groupadd --system --gid 10001 navsim \
 && useradd --system --uid 10001 --gid navsim --no-create-home --home-dir /data --shell /usr/sbin/nologin navsim \
 && install -d -o navsim -g navsim /data

COPY --from=build /out/navsim /usr/local/bin/navsim
COPY migrations/ /usr/share/navsim/migrations/
COPY migrations-postgres/ /usr/share/navsim/migrations-postgres/

ENV NAVSIM_HOST=0.0.0.0 \
    NAVSIM_PORT=8080 \
    NAVSIM_MIGRATIONS=/usr/share/navsim/migrations \
    NAVSIM_POSTGRES_MIGRATIONS=/usr/share/navsim/migrations-postgres

VOLUME /data
WORKDIR /data
USER 10001:10001
EXPOSE 8080
HEALTHCHECK CMD ["sh", "-c", "curl -fsS http://127.0.0.1:${NAVSIM_PORT:-8080}/healthz || exit 1"]
ENTRYPOINT ["navsim"]
