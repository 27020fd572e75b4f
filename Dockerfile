# navsim in a container: build with the official Swift toolchain image, run on Debian slim.
#   docker build -t navsim .
#   docker run --rm -p 8080:8080 -v navsim-data:/data navsim
# The image listens on 0.0.0.0: set a bearer token whenever the port is reachable by others,
#   docker run ... -e NAVSIM_TOKEN="$(openssl rand -hex 32)" navsim
# or mount a file of tokens (one a line) and point NAVSIM_TOKEN_FILE at it. No tenancy: any
# token is full access to every session. /healthz (the HEALTHCHECK) needs no token.
# scripts/lint-dockerfile.sh checks this file (hadolint, then the layout below).

# ---- build ------------------------------------------------------------------------------
# The same Swift release as the developers' and CI's toolchain (6.3.1), on Debian 12.
# digest-pending: no published digest of swift:6.3.1-bookworm could be verified when this was
# written (docs/deployment.md, "The container image"); pin it from `docker buildx imagetools inspect swift:6.3.1-bookworm`.
FROM swift:6.3.1-bookworm AS build

# Debian stable replaces exact versions with security updates; pinning them breaks the build.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The manifest (and its lock file, when there is one) first, resolved in a layer of its own: an
# edit of the sources or the docs then reuses it.
COPY Package.swift Package.resolved* ./
RUN swift package resolve
# Only what the build reads: the sources, the build plugin, and openapi.yaml, which the plugin
# compiles into the binary (Plugins/EmbedOpenAPI). SwiftPM checks that every target of
# Package.swift has its folder, test targets included: those get an empty placeholder instead
# of the tests and their fixtures (`--product navsim` compiles none of them).
COPY Sources/ Sources/
COPY Plugins/ Plugins/
COPY openapi.yaml ./
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Package.swift is read as one line, since swift format may put a target's name on its own line.
RUN tr '\n' ' ' < Package.swift \
      | grep -oE '\.testTarget\( *name: "[A-Za-z]+"|name: "[A-Za-z]*TestSupport",[^)]*path: "[^"]+"' \
      | sed -E 's/^\.testTarget\( *name: "([A-Za-z]+)"$/Tests\/\1/; s/.*path: "([^"]+)"$/\1/' \
      | while read -r dir; do mkdir -p "$dir" && touch "$dir/Placeholder.swift"; done \
 && swift build -c release --static-swift-stdlib --product navsim \
 && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/navsim" /out/navsim \
 && install -D -m 0755 /usr/libexec/swift/linux/swift-backtrace-static /out/swift-backtrace-static

# ---- run --------------------------------------------------------------------------------
# debian:bookworm-slim as published on 2026-08-03, by its index digest (every platform); where
# the digest comes from: docs/deployment.md, "The container image".
FROM debian:bookworm-slim@sha256:abd67ffcfa541b485a3dff59865ab629aa048a6c613e639d36e7456b0b229241

# libmicrohttpd12, libsqlite3-0 and libpq5: the system libraries navsim links; libxml2: FoundationXML
# (the Storyboards parser) links it even with --static-swift-stdlib; curl: the HEALTHCHECK;
# graphviz: its `dot` renders the image/svg+xml pictures (docs/pictures.md); tini: PID 1.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 libxml2 ca-certificates curl graphviz tini \
 && rm -rf /var/lib/apt/lists/*

# A fixed uid/gid, so that USER is numeric (Kubernetes' runAsNonRoot can check it) and a host
# folder mounted on /data can be given to it.
RUN groupadd --system --gid 10001 navsim \
 && useradd --system --uid 10001 --gid navsim --no-create-home --home-dir /data --shell /usr/sbin/nologin navsim \
 && install -d -o navsim -g navsim /data

COPY --from=build /out/navsim /usr/local/bin/navsim
# Swift's crash reporter: a binary linked with --static-swift-stdlib runs this static helper on
# a crash, which prints every thread's backtrace to stderr (the container's log).
COPY --from=build /out/swift-backtrace-static /usr/libexec/swift/linux/swift-backtrace-static
COPY migrations/ /usr/share/navsim/migrations/
COPY migrations-postgres/ /usr/share/navsim/migrations-postgres/

# SWIFT_BACKTRACE: on, secrets sanitized out of the report, all threads and images, never waiting
# for a debugger, and the helper's path.
ENV NAVSIM_HOST=0.0.0.0 \
    NAVSIM_PORT=8080 \
    NAVSIM_MIGRATIONS=/usr/share/navsim/migrations \
    NAVSIM_POSTGRES_MIGRATIONS=/usr/share/navsim/migrations-postgres \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/usr/libexec/swift/linux/swift-backtrace-static

VOLUME /data
WORKDIR /data
USER 10001:10001
EXPOSE 8080
HEALTHCHECK CMD ["sh", "-c", "curl -fsS http://127.0.0.1:${NAVSIM_PORT:-8080}/healthz || exit 1"]
# tini is PID 1: it reaps the processes that end up orphaned in the container (a `dot` that
# outlived its parent's wait among them), which navsim as PID 1 would leave as zombies, and
# passes SIGTERM and SIGINT on to navsim, which stops cleanly on them.
ENTRYPOINT ["/usr/bin/tini", "--", "navsim"]
