#!/usr/bin/env bash
# Package.swift builds these targets with the upcoming features MemberImportVisibility and
# InternalImportsByDefault (its `imports` settings): a file imports every module it uses, and
# only a public API that shows an imported type imports it `public`. Every target is in the list.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import re, sys
text = open("Package.swift").read()
wanted = ["NavigationCore", "Storyboards", "StoryboardTools", "HTTPServer", "SQLite", "PostgreSQL",
          "ProcessSpawning", "Pictures", "Flows", "navsim", "embed-text", "SessionStorage", "SQLiteStore",
          "PostgresStore", "store-bench", "TestSupport", "StoreTestSupport", "NavigationCoreTests",
          "StoryboardsTests", "StoryboardToolsTests", "SQLiteTests", "HTTPServerTests", "PicturesTests",
          "ProcessSpawningTests", "NavSimServiceTests", "FlowsTests", "StoreTests", "EndToEndTests"]
# The stored format and the JSON values it and the service share.
wanted += ["JSONValues", "SessionFormat", "NavSimService"]
missing = []
for name in wanted:
    m = re.search(r'\.(?:target|executableTarget|testTarget)\(\s*name: "%s",.*?swiftSettings: (\w+)' % re.escape(name), text, re.S)
    if not m or m.group(1) != "imports":
        missing.append(name)
if missing:
    print("lint-package: not built with the `imports` settings: " + ", ".join(missing), file=sys.stderr)
    sys.exit(1)
for feature in ("MemberImportVisibility", "InternalImportsByDefault"):
    if '.enableUpcomingFeature("%s")' % feature not in text:
        print("lint-package: Package.swift does not enable " + feature, file=sys.stderr)
        sys.exit(1)
print("lint-package: ok")
PY

# A test that reads only a module's public API imports it plainly, so that changing the module's
# internals cannot break it; `@testable import` stays where a test needs something internal. The
# ceiling only comes down: lower it when a file drops its `@testable import`.
testable_ceiling=53
testable=$(grep -rl --include='*.swift' '^@testable import' Tests | wc -l)
if [ "$testable" -gt "$testable_ceiling" ]; then
    echo "lint-package: $testable test files use @testable import, more than $testable_ceiling; import the module plainly where the test needs nothing internal" >&2
    exit 1
fi
echo "lint-package: $testable test files use @testable import (at most $testable_ceiling)"
