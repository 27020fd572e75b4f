#!/usr/bin/env python3
"""Writes today.sqlite and today-replies.json: a database written by a navsim release and the
replies that release gave when reading it back (sessions now and at every version, history
pages). PersistenceFixtureTests opens the database with the current code and expects the same
bytes. Run once against the release whose format the fixture pins:

    python3 Tests/Fixtures/Databases/make-fixture.py /path/to/release/navsim

The committed files were written by the release built from commit eb076e4 (schema of migration 0001, persistence format 1; migration 0002 adds the `format` columns when the fixture is opened).
"""
import json, os, subprocess, sys, time, urllib.request, urllib.error, socket, shutil, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


def main():
    binary = sys.argv[1]
    work = tempfile.mkdtemp()
    db = os.path.join(work, "today.sqlite")
    port = free_port()
    def start():
        return subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
                                 "--migrations", os.path.join(ROOT, "migrations")],
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
    for sid in ["nav", "tabs", "split", "classic", "sb", "manual", "pages"]:
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
    record("/v1/storyboards/Segues")

    server.terminate(); server.wait(timeout=10)
    # One file: fold the write-ahead log into the database.
    subprocess.run(["sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;"], check=True,
                   stdout=subprocess.DEVNULL)
    shutil.copy(db, os.path.join(HERE, "today.sqlite"))
    with open(os.path.join(HERE, "today-replies.json"), "w") as f:
        json.dump(replies, f, indent=0)
        f.write("\n")
    bad = [s for s in steps if s[2] >= 300]
    print(f"{len(steps)} requests ({len(bad)} refused: {bad}), {len(replies)} replies recorded")


if __name__ == "__main__":
    main()
