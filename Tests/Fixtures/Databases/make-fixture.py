#!/usr/bin/env python3
"""Writes a database written by a navsim release and the replies that release gave when reading
it back (sessions now and at every version, history pages, storyboards with their declarations).
The tests open the database with the current code and expect the same bytes. Run once against
the release whose format the fixture pins:

    python3 Tests/Fixtures/Databases/make-fixture.py /path/to/release/navsim [NAME] [--postgres]

NAME (default `today`) names the files: NAME.sqlite and NAME-replies.json; with --postgres the
release serves a throwaway PostgreSQL cluster (scripts/pg-cluster.sh) and the database is kept as
NAME.sql, a plain-SQL `pg_dump --inserts` of the schema `navsim_fixture` without psql's
meta-commands (the test runs it as one query, under a schema name of its own).

The committed files:
- today.sqlite, today-replies.json: the release built from commit eb076e4 (schema of migration
  0001, persistence format 1; migration 0002 adds the `format` columns when the fixture is
  opened), by this script before it declared classes and custom segues.
- main.sqlite, main-replies.json (PersistenceFixtureTests) and main-postgres.sql,
  main-postgres-replies.json (PostgresFixtureTests): the release built from commit ac10713
  (schema of migration 0007 in both dialects, persistence format 1).
"""
import json, os, subprocess, sys, time, urllib.request, urllib.error, socket, shutil, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


SCHEMA = "navsim_fixture"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    postgres = "--postgres" in sys.argv
    binary = os.path.abspath(args[0])
    name = args[1] if len(args) > 1 else "today"
    work = tempfile.mkdtemp()
    db = os.path.join(work, name + ".sqlite")
    port = free_port()
    cluster = None
    if postgres:
        out = subprocess.run([os.path.join(ROOT, "scripts/pg-cluster.sh"), "start"], check=True,
                             capture_output=True, text=True).stdout.split("\n")
        cluster, admin_url = out[0], out[1]
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", admin_url, "-c", f"CREATE SCHEMA {SCHEMA}"], check=True)
        # libpq's `options` puts the release's tables in the schema the dump is taken of.
        store_url = admin_url + f"?options=-csearch_path%3D{SCHEMA}"
    def start():
        where = (["--store", store_url, "--migrations", os.path.join(ROOT, "migrations-postgres")] if postgres
                 else ["--db", db, "--migrations", os.path.join(ROOT, "migrations")])
        return subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port)] + where,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = start()
    base = f"http://127.0.0.1:{port}"

    def call(method, path, body=None, ctype="application/json"):
        data = None
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        req = urllib.request.Request(base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", ctype)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def wait_ready():
        for _ in range(100):
            try:
                call("GET", "/healthz"); return
            except OSError:
                time.sleep(0.1)
        sys.exit("the server did not start")
    wait_ready()

    steps = []
    def do(method, path, body=None, ctype="application/json"):
        status, text = call(method, path, body, ctype)
        steps.append((method, path, status))
        if status >= 300:
            print(f"note: {method} {path} -> {status} {text[:200]}", file=sys.stderr)
        return status, text

    with open(os.path.join(ROOT, "Tests/Flows/storyboards/segues-1.storyboard")) as f:
        do("PUT", "/v1/storyboards/Segues", f.read(), "application/xml")

    # Navigation, presentations, configuration of every kind, patches.
    do("POST", "/v1/sessions", {"id": "nav", "root": {"id": "nav", "kind": "navigationController",
        "viewControllers": [{"id": "home", "class": "HomeViewController", "title": "Home",
                             "shouldPerformSegue": {"x": False}, "unwindActions": ["back:"]}]}})
    do("POST", "/v1/sessions/nav/controllers/nav/push", {"viewController": {"id": "detail", "title": "Detail",
        "transitioningDelegate": {"name": "Fade", "duration": 0.5}, "traitOverrides": {"horizontalSizeClass": "regular"}}})
    do("POST", "/v1/sessions/nav/controllers/detail/present", {"viewController": {"id": "sheet",
        "modalPresentationStyle": "formSheet", "presentationDelegate": {"shouldDismiss": False},
        "preferredContentSize": [320, 480], "isModalInPresentation": True}})
    do("PATCH", "/v1/sessions/nav/controllers/sheet", {"title": "Sheet", "isModalInPresentation": False,
        "tabBarDelegate": None, "preferredContentSize": [100, 200]})
    do("POST", "/v1/sessions/nav/controllers/sheet/interactiveDismiss", {"completes": True})
    do("POST", "/v1/sessions/nav/controllers/sheet/present", {"viewController": {"id": "over",
        "modalPresentationStyle": "overCurrentContext", "modalTransitionStyle": "crossDissolve"}})
    do("POST", "/v1/sessions/nav/controllers/over/dismiss", {"animated": False})
    do("POST", "/v1/sessions/nav/controllers/nav/pop", {})
    do("POST", "/v1/sessions/nav/turns", {"operations": [
        {"controller": "nav", "operation": "push", "viewController": {"id": "t1"}},
        {"controller": "nav", "operation": "push", "viewController": {"id": "t2"}, "animated": False},
        {"controller": "nav", "operation": "present", "viewController": {"id": "t3"}},
        {"controller": "nav", "operation": "popToRoot"}]})

    # Tabs with a More list, delegate, selection and taps.
    do("POST", "/v1/sessions", {"id": "tabs", "root": {"id": "tb", "kind": "tabBarController",
        "tabBarDelegate": {"shouldSelect": True},
        "viewControllers": [{"id": f"tab{i}", "title": f"Tab {i}"} for i in range(6)] + [
            {"id": "navtab", "kind": "navigationController", "navigationDelegate": {}, "viewControllers": [{"id": "nr"}]}]}})
    do("POST", "/v1/sessions/tabs/controllers/tb/select", {"index": 2})
    do("POST", "/v1/sessions/tabs/controllers/tb/select", {"index": 6})
    do("POST", "/v1/sessions/tabs/controllers/tb/tapTab", {"index": 1})
    do("POST", "/v1/sessions/tabs/controllers/navtab/push", {"viewController": {"id": "deep"}})
    do("POST", "/v1/sessions/tabs/controllers/tb/tapTab", {"viewController": "tab0"})

    # Splits: column style on a pad, collapse by a trait change, showDetail.
    do("POST", "/v1/sessions", {"id": "split", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "sp",
        "kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "primary"},
        "primary": {"id": "list"}, "secondary": {"id": "detail"}}})
    do("POST", "/v1/sessions/split/controllers/list/showDetail", {"viewController": {"id": "detail2"}})
    do("PATCH", "/v1/sessions/split", {"traits": {"horizontalSizeClass": "compact"}})
    do("PATCH", "/v1/sessions/split", {"traits": {"horizontalSizeClass": "regular"}})
    do("POST", "/v1/sessions", {"id": "classic", "root": {"id": "cs", "kind": "splitViewController",
        "splitDelegate": {"collapseSecondaryOntoPrimary": True}, "viewControllers": [{"id": "p"}, {"id": "s"}]}})

    # Storyboard scenes and segues.
    do("POST", "/v1/sessions", {"id": "sb", "root": {"storyboard": "Segues", "identifier": "A"}})
    do("POST", "/v1/sessions/sb/controllers/A/triggerSegue", {"segue": "toB"})
    do("POST", "/v1/sessions/sb/controllers/B/dismiss", {})
    do("POST", "/v1/sessions/sb/controllers/A/performSegue", {"identifier": "toB"})

    # Custom segue and class declarations, and a session whose controllers they shaped.
    with open(os.path.join(ROOT, "Tests/Flows/storyboards/a-custom-segue-b.storyboard")) as f:
        do("PUT", "/v1/storyboards/Custom", f.read(), "application/xml")
    do("PUT", "/v1/storyboards/Custom/customSegues", {"FadeSegue": {"performs": "present",
        "modalPresentationStyle": "overFullScreen", "modalTransitionStyle": "crossDissolve"}})
    do("PUT", "/v1/storyboards/Custom/classes", {"AViewController": {"title": "Declared A",
        "unwindActions": ["unwindToA:"], "shouldPerformSegue": {"toB": True}},
        "BViewController": {"modalPresentationStyle": "pageSheet", "preferredContentSize": [300, 400]}})
    do("POST", "/v1/sessions", {"id": "custom", "root": {"storyboard": "Custom", "identifier": "A"}})
    do("POST", "/v1/sessions/custom/controllers/A/performSegue", {"identifier": "toB"})
    do("POST", "/v1/sessions/custom/controllers/B/dismiss", {"animated": False})

    # Manual transitions, pages, an action sheet, containment.
    do("POST", "/v1/sessions", {"id": "manual", "options": {"transitions": "manual", "iOS": "18"},
        "root": {"id": "mnav", "kind": "navigationController", "viewControllers": [{"id": "m0"}]}})
    do("POST", "/v1/sessions/manual/controllers/mnav/push", {"viewController": {"id": "m1"}})
    do("POST", "/v1/sessions/manual/transitions/complete", {})
    do("POST", "/v1/sessions/manual/controllers/mnav/interactivePop", {"completes": False})
    do("POST", "/v1/sessions/manual/transitions/complete", {})
    do("POST", "/v1/sessions", {"id": "pages", "options": {"iOS": "12"}, "root": {"id": "pv", "kind": "pageViewController",
        "transitionStyle": "pageCurl", "spineLocation": "mid", "viewControllers": [{"id": "pg1"}, {"id": "pg2"}]}})
    do("POST", "/v1/sessions/pages/controllers/pv/setViewControllers",
       {"viewControllers": [{"id": "pg3"}, {"id": "pg4"}], "direction": "reverse"})
    do("POST", "/v1/sessions/pages/controllers/pv/present", {"viewController": {"id": "alert", "kind": "alertController",
        "preferredStyle": "actionSheet"}, "popover": {"sourceView": "button", "sourceRect": [0, 0, 10, 10]}})
    do("POST", "/v1/sessions/pages/controllers/pv/addChild", {"viewController": {"id": "kid"}})
    do("POST", "/v1/sessions/pages/controllers/kid/didMove", {"toParent": "pv"})
    do("POST", "/v1/sessions/pages/controllers/kid/willMove", {"toParent": None})
    do("POST", "/v1/sessions/pages/controllers/kid/removeFromParent", {})

    # The replies the fixture pins: what the release answers after reopening its database.
    server.terminate(); server.wait(timeout=10)
    server = start()
    wait_ready()
    replies = []
    def record(path):
        status, text = call("GET", path)
        replies.append({"path": path, "status": status, "body": text})
    sids = ["nav", "tabs", "split", "classic", "sb", "custom", "manual", "pages"]
    for sid in sids:
        status, text = call("GET", f"/v1/sessions/{sid}")
        version = json.loads(text)["version"]
        for v in range(version + 1):
            record(f"/v1/sessions/{sid}?version={v}")
        record(f"/v1/sessions/{sid}")
        record(f"/v1/sessions/{sid}/history")
        record(f"/v1/sessions/{sid}/history?after=1&limit=2")
        first = next(iter(json.loads(text)["controllers"]))
        record(f"/v1/sessions/{sid}/controllers/{first}")
    record("/v1/sessions")
    record("/v1/storyboards")
    record("/v1/storyboards/Segues")
    record("/v1/storyboards/Custom")

    server.terminate(); server.wait(timeout=10)
    if postgres:
        dump = subprocess.run(["pg_dump", "--inserts", "--no-owner", "--no-privileges", "--schema", SCHEMA, admin_url],
                              check=True, capture_output=True, text=True).stdout
        # The test runs the dump as one libpq query: psql's meta-commands (`\restrict`) go, and
        # so do the lines naming the dumping server's version.
        dump = "\n".join(l for l in dump.split("\n") if not l.startswith("-- Dumped ") and not l.startswith("\\"))
        with open(os.path.join(HERE, name + ".sql"), "w") as f:
            f.write(dump)
        subprocess.run([os.path.join(ROOT, "scripts/pg-cluster.sh"), "stop", cluster], check=True)
    else:
        # One file: fold the write-ahead log into the database.
        subprocess.run(["sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;"], check=True,
                       stdout=subprocess.DEVNULL)
        shutil.copy(db, os.path.join(HERE, name + ".sqlite"))
    with open(os.path.join(HERE, name + "-replies.json"), "w") as f:
        json.dump(replies, f, indent=0)
        f.write("\n")
    bad = [s for s in steps if s[2] >= 300]
    print(f"{len(steps)} requests ({len(bad)} refused: {bad}), {len(replies)} replies recorded")


if __name__ == "__main__":
    main()
