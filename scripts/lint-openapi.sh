#!/usr/bin/env bash
# Validates openapi.yaml as OpenAPI 3.1, then checks that every request the acceptance
# scenarios send is a route, a method, a documented status and a valid body of openapi.yaml.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if ! python3 -c 'import openapi_spec_validator' 2>/dev/null; then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
    -r scripts/lint-requirements.txt
fi

python3 -m openapi_spec_validator --schema 3.1 openapi.yaml

shared=$(scripts/find-shared.sh)
scenarios="$shared/acceptance/scenarios"
if [ -n "$shared" ] && [ -d "$scenarios" ]; then
  python3 scripts/check-openapi-scenarios.py openapi.yaml "$scenarios"
else
  echo "no shared/acceptance/scenarios beside the repo: scenario check skipped"
fi
