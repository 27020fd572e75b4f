/// `GET /inspector`: one static HTML page, its CSS and JavaScript inline, compiled into the
/// binary (nothing fetched at run time, no build step). It is a client of the public API only:
/// `GET /v1/sessions`, `/v1/sessions/{sid}` (`?version=N`, `Accept: image/svg+xml` or
/// `text/plain`), `/v1/sessions/{sid}/history`, `/v1/storyboards` and `/v1/storyboards/{name}`.
/// The page holds no data, so it is served without a bearer token like `/healthz`; the API
/// calls it makes send the token typed into its token box (kept in `sessionStorage`).
public enum Inspector {
    /// The header fields the page is answered with, in order: `text/html`, cacheable by
    /// validation only (a new binary may change it).
    public static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Cache-Control", "no-cache"),
        // The page runs only its own inline script and talks only to this server.
        ("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self'"),
        ("X-Content-Type-Options", "nosniff"),
    ]

    /// The page: one HTML document, UTF-8.
    public static let page = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>navsim inspector</title>
        <style>
          :root { --bg:#f6f7f9; --panel:#fff; --ink:#1d2330; --muted:#687086; --line:#dde1e8; --accent:#1f6fd1; --warn:#b35900; --bad:#c62828; }
          * { box-sizing: border-box; }
          body { margin:0; font:14px/1.45 -apple-system, "Helvetica Neue", Helvetica, Arial, sans-serif; color:var(--ink); background:var(--bg); }
          header { display:flex; align-items:center; gap:16px; padding:10px 18px; background:#1d2330; color:#fff; }
          header h1 { font-size:16px; margin:0; font-weight:600; letter-spacing:.02em; }
          header .sp { flex:1; }
          header input { width:220px; padding:5px 8px; border-radius:6px; border:1px solid #3b4457; background:#2a3142; color:#fff; }
          header label { font-size:12px; color:#b9c0cf; }
          #status { font-size:12px; color:#b9c0cf; }
          main { display:grid; grid-template-columns: 240px 1fr 380px; gap:14px; padding:14px; height:calc(100vh - 52px); }
          section { background:var(--panel); border:1px solid var(--line); border-radius:10px; overflow:auto; min-height:0; }
          section h2 { font-size:12px; text-transform:uppercase; letter-spacing:.06em; color:var(--muted); margin:0; padding:10px 14px 6px; }
          ul.list { list-style:none; margin:0 0 8px; padding:0; }
          ul.list li { padding:6px 14px; cursor:pointer; display:flex; justify-content:space-between; gap:8px; border-left:3px solid transparent; }
          ul.list li:hover { background:#f0f3f8; }
          ul.list li.sel { background:#e8f0fc; border-left-color:var(--accent); }
          ul.list .meta { color:var(--muted); font-size:12px; }
          .empty { color:var(--muted); padding:6px 14px; font-size:13px; }
          #center { display:flex; flex-direction:column; }
          #toolbar { display:flex; align-items:center; gap:12px; padding:10px 14px; border-bottom:1px solid var(--line); }
          #toolbar h3 { margin:0; font-size:15px; }
          #slider { flex:1; accent-color:var(--accent); }
          #vlabel { font-variant-numeric:tabular-nums; min-width:110px; text-align:right; color:var(--muted); }
          #picture { flex:1; min-height:160px; position:relative; overflow:hidden; touch-action:none; cursor:grab; }
          #picture.dragging { cursor:grabbing; }
          #picture img { position:absolute; left:0; top:0; max-width:none; transform-origin:0 0; user-select:none; -webkit-user-drag:none; }
          #picture.text { overflow:auto; padding:14px; cursor:auto; touch-action:auto; }
          .zoom { display:flex; align-items:center; gap:2px; }
          .zoom button { min-width:28px; padding:2px 6px; border:1px solid var(--line); border-radius:5px; background:#fff; color:var(--ink); font:inherit; font-size:12px; cursor:pointer; }
          .zoom button:disabled { color:var(--muted); cursor:default; }
          #zlabel { font-size:12px; color:var(--muted); font-variant-numeric:tabular-nums; min-width:40px; text-align:right; }
          #picture.wide + #tree { max-height:30%; }
          #details h2 { padding:14px 0 4px; }
          .kv span { overflow-wrap:anywhere; }
          pre.body { background:#f4f6f9; border-radius:6px; padding:6px 8px; margin:6px 0 0; overflow:auto; }
          #toolbar.still #slider, #toolbar.still .follow { visibility:hidden; }
          pre { font:12.5px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; margin:0; white-space:pre; }
          #tree { padding:10px 14px; border-top:1px solid var(--line); background:#fbfcfd; max-height:38%; overflow:auto; }
          #details { padding:0 14px 14px; }
          .kv { display:grid; grid-template-columns: 90px 1fr; gap:2px 8px; font-size:13px; }
          .kv b { color:var(--muted); font-weight:500; }
          ol.events { margin:4px 0 10px; padding-left:22px; font:12.5px/1.5 ui-monospace, Menlo, monospace; }
          .tag { display:inline-block; padding:0 6px; border-radius:4px; background:#eef1f6; font-size:12px; }
          .warn { color:var(--warn); } .bad { color:var(--bad); }
          .tabs { display:flex; gap:4px; padding:0 10px; }
          .tabs button { border:0; background:none; padding:6px 10px; cursor:pointer; color:var(--muted); border-bottom:2px solid transparent; font:inherit; }
          .tabs button.on { color:var(--ink); border-bottom-color:var(--accent); }
          .follow { font-size:12px; color:var(--muted); display:flex; align-items:center; gap:4px; }
        </style>
        </head>
        <body>
        <header>
          <h1>navsim inspector</h1>
          <span id="status"></span>
          <span class="sp"></span>
          <label for="token">Bearer token</label>
          <input id="token" type="password" placeholder="only if the server has --token" autocomplete="off">
        </header>
        <main>
          <section id="left">
            <div class="tabs"><button id="tab-sessions" class="on">Sessions</button><button id="tab-storyboards">Storyboards</button></div>
            <ul id="sessions" class="list"></ul>
            <ul id="storyboards" class="list" hidden></ul>
          </section>
          <section id="center">
            <div id="toolbar">
              <h3 id="title">Pick a session</h3>
              <input id="slider" type="range" min="0" max="0" value="0" disabled>
              <span id="vlabel"></span>
              <label class="follow"><input id="follow" type="checkbox" checked> follow newest</label>
              <span class="zoom" title="wheel: zoom at the pointer · drag: pan · double-click: fit or 100%">
                <button id="zoom-out" title="zoom out" disabled>−</button><button id="zoom-fit" title="fit the whole picture in the panel" disabled>fit</button><button id="zoom-in" title="zoom in" disabled>+</button><button id="zoom-1" title="actual size" disabled>1:1</button>
                <span id="zlabel"></span>
              </span>
            </div>
            <div id="picture"></div>
            <pre id="tree"></pre>
          </section>
          <section id="right">
            <h2 id="dtitle">History entry</h2>
            <div id="details"><div class="empty">Select a session to see each version's request, events, transition and warnings.</div></div>
          </section>
        </main>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const tokenBox = $("token");
        tokenBox.value = sessionStorage.getItem("navsim.token") || "";
        tokenBox.addEventListener("change", () => { sessionStorage.setItem("navsim.token", tokenBox.value.trim()); refreshLists(); });

        const state = { mode: "sessions", sid: null, storyboard: null, version: null, newest: null, history: [], svg: null, shown: null };

        function headers(accept) {
          const h = { "Accept": accept };
          const t = (sessionStorage.getItem("navsim.token") || "").trim();
          if (t) h["Authorization"] = "Bearer " + t;
          return h;
        }
        async function api(path, accept = "application/json") {
          const r = await fetch(path, { headers: headers(accept), cache: "no-store" });
          if (r.status === 401) { setStatus("401: this server needs a bearer token", true); throw new Error("unauthorized"); }
          if (!r.ok) {
            let detail = r.status + "";
            try { const p = await r.json(); detail = p.detail || p.title || detail; } catch (e) {}
            const err = new Error(detail); err.status = r.status; throw err;
          }
          return r;
        }
        function setStatus(text, bad) { $("status").textContent = text; $("status").className = bad ? "bad" : ""; }
        function el(tag, attrs, ...kids) {
          const e = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) { if (k === "class") e.className = v; else e.setAttribute(k, v); }
          for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
          return e;
        }
        const enc = encodeURIComponent;

        // ---- lists
        async function refreshLists() {
          try {
            const s = await (await api("/v1/sessions?limit=1000")).json();
            const ul = $("sessions"); ul.replaceChildren();
            if (!s.sessions.length) ul.append(el("li", { class: "empty" }, "No sessions yet"));
            for (const x of s.sessions) {
              const li = el("li", { "data-sid": x.id }, el("span", {}, x.id), el("span", { class: "meta" }, "v" + x.version));
              if (x.id === state.sid) li.classList.add("sel");
              li.onclick = () => openSession(x.id);
              ul.append(li);
            }
            const b = await (await api("/v1/storyboards")).json();
            const ub = $("storyboards"); ub.replaceChildren();
            if (!b.storyboards.length) ub.append(el("li", { class: "empty" }, "No storyboards uploaded"));
            for (const x of b.storyboards) {
              const li = el("li", { "data-storyboard": x.name }, el("span", {}, x.name),
                el("span", { class: x.diagnostics ? "meta warn" : "meta" }, x.scenes + " scenes" + (x.diagnostics ? " · " + x.diagnostics + " ⚠" : "")));
              if (x.name === state.storyboard) li.classList.add("sel");
              li.onclick = () => openStoryboard(x.name);
              ub.append(li);
            }
            setStatus("connected · " + new Date().toLocaleTimeString());
          } catch (e) { if (e.message !== "unauthorized") setStatus(e.message, true); }
        }
        function showTab(mode) {
          state.mode = mode;
          $("tab-sessions").classList.toggle("on", mode === "sessions");
          $("tab-storyboards").classList.toggle("on", mode === "storyboards");
          $("sessions").hidden = mode !== "sessions";
          $("storyboards").hidden = mode !== "storyboards";
        }
        $("tab-sessions").onclick = () => showTab("sessions");
        $("tab-storyboards").onclick = () => showTab("storyboards");

        // ---- pictures: SVG as an image (scripts in it never run), else the text tree
        async function showPicture(path, key) {
          const pic = $("picture");
          let img = null;
          try {
            const blob = await (await api(path, "image/svg+xml")).blob();
            img = el("img", { alt: "picture of " + key, src: URL.createObjectURL(blob), draggable: "false" });
            // Its size is known once decoded, and the view is fitted before the first paint.
            await img.decode().catch(() => {});
          } catch (e) {
            if (e.status !== 406) throw e;   // 406: no Graphviz on the server; the text below is the picture
          }
          const text = await (await api(path, "text/plain")).text();
          if (state.shown !== key) { if (img) URL.revokeObjectURL(img.src); return; }   // a newer request won
          const old = pic.querySelector("img");
          if (old) URL.revokeObjectURL(old.src);
          pic.replaceChildren(...(img ? [img] : [el("pre", {}, text)]));
          pic.classList.toggle("text", !img);
          for (const b of ["zoom-out", "zoom-fit", "zoom-in", "zoom-1"]) $(b).disabled = !img;
          if (view.fit) fit(); else { clampView(); applyView(); }
          pic.dataset.picture = key;
          $("tree").textContent = text;
          $("tree").dataset.picture = key;
        }

        // ---- pan and zoom: the picture is drawn scaled inside the panel, which never scrolls. A new
        // session or storyboard starts fitted whole (never enlarged past its size); the wheel zooms at
        // the pointer, a drag pans, a double-click toggles fit and 100%. Other versions of the same
        // session keep the view the user chose, so that the slider compares like with like.
        const view = { s: 1, x: 0, y: 0, fit: true };
        const PAD = 12, KEEP = 48, MAX_SCALE = 8;
        const pictureImg = () => $("picture").querySelector("img");
        function fitScale(img) {
          const p = $("picture");
          return Math.min(1, (p.clientWidth - 2 * PAD) / (img.naturalWidth || 1), (p.clientHeight - 2 * PAD) / (img.naturalHeight || 1));
        }
        function applyView() {
          const img = pictureImg();
          $("zlabel").textContent = img ? Math.round(view.s * 100) + "%" : "";
          if (img) img.style.transform = "translate(" + view.x + "px, " + view.y + "px) scale(" + view.s + ")";
        }
        function fit() {
          const img = pictureImg(), p = $("picture");
          view.fit = true;
          if (!img) return applyView();
          view.s = Math.max(fitScale(img), 0.01);
          view.x = (p.clientWidth - img.naturalWidth * view.s) / 2;
          view.y = Math.max(PAD, (p.clientHeight - img.naturalHeight * view.s) / 2);
          applyView();
        }
        // Keeps at least KEEP pixels of the picture in the panel, so it cannot be lost off an edge.
        function clampView() {
          const img = pictureImg(), p = $("picture");
          if (!img) return;
          const w = img.naturalWidth * view.s, h = img.naturalHeight * view.s;
          view.x = Math.min(p.clientWidth - Math.min(KEEP, w), Math.max(Math.min(KEEP, w) - w, view.x));
          view.y = Math.min(p.clientHeight - Math.min(KEEP, h), Math.max(Math.min(KEEP, h) - h, view.y));
        }
        // Zooms by `factor` keeping the panel's point (cx, cy) over the same spot of the picture.
        function zoomAt(factor, cx, cy) {
          const img = pictureImg();
          if (!img) return;
          const s = Math.min(MAX_SCALE, Math.max(Math.min(fitScale(img), 1) / 2, view.s * factor));
          view.x = cx - (cx - view.x) * s / view.s;
          view.y = cy - (cy - view.y) * s / view.s;
          view.s = s; view.fit = false;
          clampView(); applyView();
        }
        {
          const pic = $("picture");
          const centre = () => [pic.clientWidth / 2, pic.clientHeight / 2];
          $("zoom-in").onclick = () => zoomAt(1.25, ...centre());
          $("zoom-out").onclick = () => zoomAt(0.8, ...centre());
          $("zoom-1").onclick = () => zoomAt(1 / view.s, ...centre());
          $("zoom-fit").onclick = fit;
          pic.addEventListener("wheel", (e) => {
            if (!pictureImg()) return;
            e.preventDefault();
            const r = pic.getBoundingClientRect();
            const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * pic.clientHeight : e.deltaY;
            zoomAt(Math.exp(-dy * 0.002), e.clientX - r.left, e.clientY - r.top);
          }, { passive: false });
          let drag = null;
          pic.addEventListener("pointerdown", (e) => {
            if (!pictureImg() || e.button !== 0) return;
            drag = { id: e.pointerId, dx: e.clientX - view.x, dy: e.clientY - view.y };
            pic.setPointerCapture(e.pointerId);
            pic.classList.add("dragging");
            e.preventDefault();
          });
          pic.addEventListener("pointermove", (e) => {
            if (!drag || e.pointerId !== drag.id) return;
            view.x = e.clientX - drag.dx; view.y = e.clientY - drag.dy; view.fit = false;
            clampView(); applyView();
          });
          const endDrag = (e) => { if (drag && e.pointerId === drag.id) { drag = null; pic.classList.remove("dragging"); } };
          pic.addEventListener("pointerup", endDrag);
          pic.addEventListener("pointercancel", endDrag);
          pic.addEventListener("dblclick", (e) => {
            if (!pictureImg()) return;
            const r = pic.getBoundingClientRect();
            if (view.fit) zoomAt(1 / view.s, e.clientX - r.left, e.clientY - r.top); else fit();
          });
          // The panel changes size with the window and with the tree beneath it.
          new ResizeObserver(() => { if (view.fit) fit(); else { clampView(); applyView(); } }).observe(pic);
        }

        // ---- sessions
        async function openSession(sid) {
          showTab("sessions");
          state.sid = sid; state.storyboard = null; state.history = []; state.version = null; state.newest = null;
          document.querySelectorAll("#sessions li").forEach(li => li.classList.toggle("sel", li.dataset.sid === sid));
          document.querySelectorAll("#storyboards li").forEach(li => li.classList.remove("sel"));
          $("title").textContent = sid;
          $("toolbar").classList.remove("still"); $("picture").classList.remove("wide");
          view.fit = true;
          $("slider").disabled = false;
          $("follow").checked = true;
          await poll();
        }
        async function loadHistory() {
          // after=-1 includes entry 0, the creation (the default, after=0, leaves it out: docs/history.md).
          let after = state.history.length ? state.history[state.history.length - 1].version : -1;
          for (;;) {
            const page = await (await api("/v1/sessions/" + enc(state.sid) + "/history?limit=1000&after=" + after)).json();
            for (const e of page.entries) if (!state.history.length || e.version > state.history[state.history.length - 1].version) state.history.push(e);
            if (page.next === undefined) break;
            after = page.next;
          }
        }
        async function showVersion(v) {
          state.version = v;
          const s = $("slider"); s.max = state.newest; s.value = v;
          $("vlabel").textContent = "version " + v + " of " + state.newest;
          const key = "session " + state.sid + " v" + v;
          state.shown = key;
          await showPicture("/v1/sessions/" + enc(state.sid) + "?version=" + v, key);
          renderEntry(state.history.find(e => e.version === v));
        }
        function renderEntry(e) {
          const d = $("details"); d.replaceChildren();
          $("dtitle").textContent = "History entry";
          if (!e) { d.append(el("div", { class: "empty" }, "No history entry for this version.")); return; }
          const req = e.request || {};
          d.append(el("div", { class: "kv" },
            el("b", {}, "version"), el("span", {}, e.version),
            el("b", {}, "at"), el("span", {}, e.at),
            el("b", {}, "request"), el("span", {}, el("span", { class: "tag" }, req.method), " ", req.path)));
          if (req.body && Object.keys(req.body).length) d.append(el("pre", { class: "body" }, JSON.stringify(req.body, null, 2)));
          d.append(el("h2", {}, "Events (" + (e.events || []).length + ")"));
          const ol = el("ol", { class: "events", id: "events" });
          for (const ev of e.events || []) {
            let extra = "";
            if (ev.animated !== undefined) extra += " animated: " + ev.animated;
            if (ev.parent !== undefined) extra += " parent: " + ev.parent;
            if (ev.segue) extra += " segue: " + (ev.segue.identifier || "–");
            ol.append(el("li", {}, ev.controller + "." + ev.callback + extra));
          }
          if (!(e.events || []).length) ol.append(el("li", { class: "empty" }, "none"));
          d.append(ol);
          d.append(el("h2", {}, "Transition"));
          const t = e.transition;
          d.append(t ? el("div", { class: "kv" },
            el("b", {}, "operation"), el("span", {}, t.operation),
            el("b", {}, "from → to"), el("span", {}, (t.fromViewController || "–") + " → " + (t.toViewController || "–")),
            el("b", {}, "style"), el("span", {}, t.presentationStyle || "–"),
            el("b", {}, "state"), el("span", {}, t.state + (t.animated ? " · animated " + t.duration + " s" : ""))) : el("div", { class: "empty" }, "none"));
          d.append(el("h2", {}, "Warnings"));
          const w = e.warnings || [];
          if (!w.length) d.append(el("div", { class: "empty" }, "none"));
          for (const x of w) d.append(el("div", { class: "warn" }, "⚠ " + (x.detail || x.title)));
        }
        async function poll() {
          if (!state.sid) return;
          try {
            const r = await api("/v1/sessions/" + enc(state.sid));
            const s = await r.json();
            if (s.version !== state.newest) {
              state.newest = s.version;
              refreshLists();
              await loadHistory();
              if ($("follow").checked || state.version === null) await showVersion(s.version);
              else { $("slider").max = s.version; $("vlabel").textContent = "version " + state.version + " of " + s.version; }
            }
          } catch (e) {
            if (e.status === 404) { setStatus("session " + state.sid + " is gone", true); state.sid = null; }
          }
        }
        $("slider").addEventListener("input", () => {
          const v = Number($("slider").value);
          $("follow").checked = v === state.newest;
          showVersion(v).catch(e => setStatus(e.message, true));
        });
        $("follow").addEventListener("change", () => { if ($("follow").checked && state.newest !== null) showVersion(state.newest); });

        // ---- storyboards
        async function openStoryboard(name) {
          showTab("storyboards");
          state.sid = null; state.storyboard = name;
          document.querySelectorAll("#storyboards li").forEach(li => li.classList.toggle("sel", li.dataset.storyboard === name));
          document.querySelectorAll("#sessions li").forEach(li => li.classList.remove("sel"));
          $("title").textContent = "storyboard " + name;
          $("slider").disabled = true; $("vlabel").textContent = "";
          $("toolbar").classList.add("still"); $("picture").classList.add("wide");
          view.fit = true;
          const key = "storyboard " + name;
          state.shown = key;
          await showPicture("/v1/storyboards/" + enc(name), key);
          const b = await (await api("/v1/storyboards/" + enc(name))).json();
          const d = $("details"); d.replaceChildren();
          $("dtitle").textContent = "Diagnostics";
          if (!b.diagnostics.length) d.append(el("div", { class: "empty" }, "none"));
          for (const x of b.diagnostics) {
            d.append(el("div", { class: x.severity === "error" ? "bad" : "warn" },
              el("span", { class: "tag" }, x.severity + " " + x.code), " ", x.message, x.element ? " (" + x.element + ")" : ""));
          }
          d.append(el("h2", {}, "Scenes (" + b.scenes.length + ")"));
          const ul = el("ul", { class: "events" });
          for (const s of b.scenes) ul.append(el("li", {}, s.id + "  " + s["class"] + (s.storyboardIdentifier ? "  · " + s.storyboardIdentifier : "")));
          d.append(ul);
        }

        refreshLists();
        setInterval(refreshLists, 3000);
        setInterval(poll, 1000);
        const wanted = new URLSearchParams(location.search).get("session");
        if (wanted) openSession(wanted);
        </script>
        </body>
        </html>
        """#
}
