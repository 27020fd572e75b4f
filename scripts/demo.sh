#!/usr/bin/env bash
# A mail app against a running navsim (scripts/run.sh):
#   tabs (UITabBarController)
#     inboxNav (UINavigationController) [inbox]      settings
# push message onto inboxNav, present compose (pageSheet) from message, present picker
# (fullScreen) from compose, then message.dismiss(): R40 finds the presentation that tabs
# owns and dismisses the whole chain above it (R41). Prints each request, the callbacks UIKit
# would make (controller.callback, in order), the transition, and the final hierarchy.
#   BASE=http://127.0.0.1:8080 scripts/demo.sh
set -euo pipefail

BASE=${BASE:-http://127.0.0.1:8080}
SID=${SID:-mail-$(date +%s)}

command -v curl >/dev/null || { echo "demo.sh needs curl" >&2; exit 1; }
command -v python3 >/dev/null || { echo "demo.sh needs python3" >&2; exit 1; }
if ! curl -fsS --max-time 5 "$BASE/healthz" >/dev/null 2>&1; then
  echo "navsim is not answering at $BASE/healthz: start it with scripts/run.sh (or set BASE)" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/show.py" <<'PY'
import json, sys

mode, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as fh:
    doc = json.load(fh)


def name(v):
    return "-" if v is None else str(v)


if mode == "problem":
    uikit = doc.get("uikit") or {}
    code = f" [{uikit.get('code')} {uikit.get('severity')}]" if uikit else ""
    print(f"   {doc.get('type')}{code}: {doc.get('detail') or doc.get('title')}")
elif mode == "result":
    for e in doc.get("events") or []:
        print(f"   {e.get('controller')}.{e.get('callback')}")
    t = doc.get("transition")
    if t:
        style = t.get("presentationStyle") or "-"
        print(f"   transition {t.get('operation')}: {name(t.get('fromViewController'))} → "
              f"{name(t.get('toViewController'))}, {style}/{name(t.get('transitionStyle'))}, {t.get('state')}")
    else:
        print("   no transition")
    if doc.get("returned"):
        print(f"   returned {', '.join(doc['returned'])}")
    for w in doc.get("warnings") or []:
        print(f"   warning: {w.get('detail')}")
    print(f"   version {doc.get('version')}")
elif mode == "session":
    s = doc.get("session", doc)
    w = s.get("window") or {}
    print(f"   window.rootViewController    {name(w.get('rootViewController'))}")
    print(f"   window.visibleViewController {name(w.get('visibleViewController'))}")
    print(f"   window.viewsInWindow         {', '.join(w.get('viewsInWindow') or []) or '-'}")
    print(f"   version {s.get('version')}")
    controllers = s.get("controllers") or {}
    if controllers:
        width = max(len(k) for k in controllers)
        print(f"   {'id'.ljust(width)}  {'class'.ljust(30)} parent     presenting presented  appearance")
        for cid, c in controllers.items():
            print(f"   {cid.ljust(width)}  {name(c.get('class')).ljust(30)} "
                  f"{name(c.get('parent')).ljust(10)} {name(c.get('presentingViewController')).ljust(10)} "
                  f"{name(c.get('presentedViewController')).ljust(10)} {name(c.get('appearance'))}")
PY

# call METHOD PATH EXPECTED_STATUS [JSON_BODY]: prints the request, stops on another status.
call() {
  local method=$1 path=$2 want=$3 body=${4-}
  local args=(-sS -o "$tmp/reply" -w '%{http_code}' -X "$method" -H 'Accept: application/json')
  printf '\n$ %s %s\n' "$method" "$path"
  if [ -n "$body" ]; then
    python3 -c 'import json, sys; print("  " + json.dumps(json.loads(sys.argv[1])))' "$body" \
      || { echo "demo.sh: not JSON: $body" >&2; exit 1; }
    args+=(-H 'Content-Type: application/json' --data-binary "$body")
  fi
  local status
  status=$(curl "${args[@]}" "$BASE$path") || { echo "request failed: $method $path" >&2; exit 1; }
  if [ "$status" != "$want" ]; then
    echo "!! $method $path answered $status, expected $want:" >&2
    python3 "$tmp/show.py" problem "$tmp/reply" >&2 2>/dev/null || cat "$tmp/reply" >&2
    exit 1
  fi
  echo "  → $status"
}

echo "session $SID at $BASE"

echo
echo "== 1. A window whose root is a tab bar: Inbox (in a navigation controller) and Settings"
call POST /v1/sessions 201 "$(cat <<JSON
{"id": "$SID", "options": {"iOS": "17", "transitions": "immediate"},
 "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [
   {"id": "inboxNav", "kind": "navigationController", "title": "Inbox",
    "viewControllers": [{"id": "inbox", "class": "InboxViewController", "title": "Inbox"}]},
   {"id": "settings", "class": "SettingsViewController", "title": "Settings"}]}}
JSON
)"
python3 "$tmp/show.py" session "$tmp/reply"

S=/v1/sessions/$SID/controllers

echo
echo "== 2. Open a message: inboxNav.pushViewController(message, animated: true)"
call POST "$S/inboxNav/push" 200 \
  '{"viewController": {"id": "message", "class": "MessageViewController", "title": "Lunch on Friday?"}}'
python3 "$tmp/show.py" result "$tmp/reply"

echo
echo "== 3. Reply: message.present(compose) as a page sheet"
call POST "$S/message/present" 200 \
  '{"viewController": {"id": "compose", "class": "ComposeViewController", "modalPresentationStyle": "pageSheet"}}'
python3 "$tmp/show.py" result "$tmp/reply"

echo
echo "== 4. Attach a file: compose.present(picker) full screen"
call POST "$S/compose/present" 200 \
  '{"viewController": {"id": "picker", "class": "AttachmentPickerViewController", "modalPresentationStyle": "fullScreen"}}'
python3 "$tmp/show.py" result "$tmp/reply"

echo
echo "== 5. message.dismiss(animated: true): tabs owns the presentation, so compose and picker go (R40, R41)"
call POST "$S/message/dismiss" 200 '{}'
python3 "$tmp/show.py" result "$tmp/reply"

echo
echo "== Final hierarchy"
call GET "/v1/sessions/$SID" 200
python3 "$tmp/show.py" session "$tmp/reply"
