#!/usr/bin/env python3
"""The inspector in a real browser: headless Debian chromium driven by selenium.

Starts .build/release/navsim on a free loopback port with a bearer token, builds a session
over HTTP (a tab bar, a push, a presented sheet: versions 0, 1, 2), uploads a storyboard,
opens /inspector, types the token, and checks that the page shows the session's controllers
and its visible controller, and the entry's transition with its operation; moves the timeline
slider to version 1 and checks that the picture is that version's hierarchy, then to version 0
and checks that the creation's history entry is shown; makes another change over HTTP and checks
that the page follows it; opens the storyboard; opens a wide storyboard (28 scenes) and checks
that its picture is fitted whole into the panel, then zooms it with the wheel, pans it with a
drag, fits it again, and double-clicks it to 100 % and back. Saves screenshots (default .build/artifacts/inspector.png, or the first
argument, and -v1, -storyboard, -wide, -wide-zoomed beside it) and prints the path. Bounded:
180 s in all, 20 s per wait.

Needs: scripts/install-inspector-prereqs.sh (graphviz, chromium, chromium-driver, selenium)
and `swift build -c release` (or NAVSIM_BIN naming another navsim binary).
"""
import json, os, re, signal, subprocess, sys, tempfile, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("NAVSIM_BIN", os.path.join(REPO, ".build/release/navsim"))
SHOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, ".build/artifacts/inspector.png"))
TOKEN = "inspector-test-token"
FIXTURE = os.path.join(REPO, "Tests/Fixtures/Storyboards/handwritten/app")  # Main and the storyboards it references
# One file of 28 scenes whose flow picture (rankdir=LR) is several times wider than the panel.
WIDE = os.path.join(REPO, "Tests/Fixtures/Storyboards/real/hackiftekhar/IQKeyboardManager/Demo/Objective_C_Demo/Storyboard/Main.storyboard")

signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("inspector test: over 180 s")))
signal.alarm(180)


def call(base, method, path, body=None, content_type="application/json", accept="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Authorization": "Bearer " + TOKEN, "Accept": accept,
                                          **({"Content-Type": content_type} if data else {})})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, r.read()


def start():
    scratch = tempfile.mkdtemp(prefix="inspector-test-")
    log = open(os.path.join(scratch, "server.log"), "w+")
    env = dict(os.environ, NAVSIM_MIGRATIONS=os.environ.get("NAVSIM_MIGRATIONS", os.path.join(REPO, "migrations")))
    server = subprocess.Popen([BINARY, "serve", "--host", "127.0.0.1", "--port", "0",
                               "--db", os.path.join(scratch, "navsim.sqlite"), "--token", TOKEN],
                              stderr=log, stdout=subprocess.DEVNULL, env=env)
    for _ in range(300):
        if server.poll() is not None:
            log.seek(0)
            sys.exit("navsim exited early:\n" + log.read())
        log.seek(0)
        m = re.search(r'"message":"listening".*?"url":"(http://[^"]+)"', log.read())
        if m:
            return server, m.group(1)
        time.sleep(0.1)
    server.kill()
    sys.exit("navsim did not start listening within 30 s")


def build_session(base):
    call(base, "POST", "/v1/sessions", {"id": "mail", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [
        {"id": "inboxNav", "kind": "navigationController", "viewControllers": [{"id": "inbox", "class": "InboxViewController"}]},
        {"id": "settings", "class": "SettingsViewController"}]}})
    call(base, "POST", "/v1/sessions/mail/controllers/inboxNav/push",
         {"viewController": {"id": "message", "class": "MessageViewController"}, "animated": True})
    call(base, "POST", "/v1/sessions/mail/controllers/message/present",
         {"viewController": {"id": "composeNav", "kind": "navigationController", "modalPresentationStyle": "pageSheet",
                             "viewControllers": [{"id": "compose", "class": "ComposeViewController"}]}, "animated": True})


def wide_storyboard(driver, wait, base):
    """A storyboard far wider than the panel is drawn whole inside it, then zoomed and panned."""
    with open(WIDE, "rb") as f:
        call(base, "PUT", "/v1/storyboards/Wide", f.read(), "application/xml")
    driver.execute_script("refreshLists()")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#storyboards li[data-storyboard='Wide']"))
    driver.find_element(By.CSS_SELECTOR, "#storyboards li[data-storyboard='Wide']").click()
    wait.until(lambda d: d.find_element(By.ID, "tree").get_attribute("data-picture") == "storyboard Wide")
    # What is on screen: the picture's box and the panel's visible box, in CSS pixels.
    geometry = lambda: driver.execute_script("""
        const p = document.getElementById('picture'), i = p.querySelector('img'), r = i.getBoundingClientRect(), q = p.getBoundingClientRect();
        return {natural: [i.naturalWidth, i.naturalHeight], img: [r.left, r.top, r.right, r.bottom],
                panel: [q.left + p.clientLeft, q.top + p.clientTop, q.left + p.clientLeft + p.clientWidth, q.top + p.clientTop + p.clientHeight],
                scrolled: [p.scrollLeft, p.scrollTop], overflow: getComputedStyle(p).overflow}""")
    g = geometry()
    natural, (l, t, r, b), (pl, pt, pr, pb) = g["natural"], g["img"], g["panel"]
    assert natural[0] > 2 * (pr - pl), f"the fixture is not wide enough to test fitting: {g}"
    inside = lambda box, panel: box[0] >= panel[0] - 1 and box[1] >= panel[1] - 1 and box[2] <= panel[2] + 1 and box[3] <= panel[3] + 1
    assert inside(g["img"], g["panel"]), f"the wide picture does not fit the panel: {g}"
    assert (r - l) >= 0.9 * (pr - pl) - 30 or (b - t) >= 0.9 * (pb - pt) - 30, f"the fitted picture does not fill the panel: {g}"
    driver.save_screenshot(SHOT.replace(".png", "-wide.png"))
    print(f"inspector: a storyboard {natural[0]}x{natural[1]} px fits the panel at {r - l:.0f}x{b - t:.0f}")

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    panel = driver.find_element(By.ID, "picture")
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(panel), 0, -600).perform()
    wait.until(lambda d: geometry()["img"][2] - geometry()["img"][0] > 2 * (r - l))
    zoomed = geometry()
    # The picture moves inside the panel; the panel itself never scrolls (nor shows scroll bars).
    assert zoomed["overflow"] == "hidden" and zoomed["scrolled"] == [0, 0], f"zooming scrolled the panel: {zoomed}"
    label = driver.find_element(By.ID, "zlabel").text
    assert label.endswith("%") and int(label[:-1]) > 100 * (r - l) / natural[0], f"the zoom label did not follow: {label}"
    ActionChains(driver).move_to_element(panel).click_and_hold().move_by_offset(120, 40).release().perform()
    panned = geometry()
    assert abs(panned["img"][0] - zoomed["img"][0] - 120) < 2 and abs(panned["img"][1] - zoomed["img"][1] - 40) < 2, \
        f"a drag did not pan the picture by (120, 40): {zoomed} then {panned}"
    driver.save_screenshot(SHOT.replace(".png", "-wide-zoomed.png"))
    driver.find_element(By.ID, "zoom-fit").click()
    assert inside(geometry()["img"], g["panel"]), f"fit did not fit the picture again: {geometry()}"
    ActionChains(driver).double_click(panel).perform()
    actual = geometry()["img"]
    assert driver.find_element(By.ID, "zlabel").text == "100%" and abs(actual[2] - actual[0] - natural[0]) < 2, \
        f"a double-click on the fitted picture did not show it at 100 %: {actual}"
    ActionChains(driver).double_click(panel).perform()
    assert inside(geometry()["img"], g["panel"]), f"a second double-click did not fit it again: {geometry()}"
    print(f"inspector: the wheel zooms it to {label}, a drag pans it, fit fits it again, double-clicks toggle 100 % and fit")


def main():
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"no {BINARY}; run swift build -c release first")
    server, base = start()
    driver = None
    try:
        build_session(base)
        storyboards = sorted(f for f in os.listdir(FIXTURE) if f.endswith(".storyboard"))
        uploaded = None
        for name in storyboards:
            with open(os.path.join(FIXTURE, name), "rb") as f:
                try:
                    call(base, "PUT", "/v1/storyboards/" + name[:-len(".storyboard")], f.read(), "application/xml")
                    if name == "Main.storyboard" or uploaded is None:
                        uploaded = name[:-len(".storyboard")]
                except urllib.error.HTTPError:
                    pass  # fixtures refused on purpose
        svg = subprocess.run(["sh", "-c", "command -v dot"], capture_output=True).returncode == 0

        options = webdriver.ChromeOptions()
        for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1440,900", "--hide-scrollbars"]:
            options.add_argument(arg)
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
        driver.set_page_load_timeout(20)
        wait = WebDriverWait(driver, 20)

        driver.get(base + "/inspector")
        box = driver.find_element(By.ID, "token")
        box.send_keys(TOKEN)
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", box)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sessions li[data-sid='mail']"))
        driver.find_element(By.CSS_SELECTOR, "#sessions li[data-sid='mail']").click()

        tree = lambda: driver.find_element(By.ID, "tree")
        wait.until(lambda d: tree().get_attribute("data-picture") == "session mail v2")
        text = tree().text
        for controller in ["tabs", "inboxNav", "inbox", "message", "settings", "composeNav", "compose"]:
            assert re.search(rf"\b{controller}  ", text), f"{controller} missing from the tree:\n{text}"
        assert "compose  ComposeViewController  ◀ top  ◀ visible" in text, f"the visible controller is not marked:\n{text}"
        if svg:
            img = driver.find_element(By.CSS_SELECTOR, "#picture img")
            assert img.get_attribute("src").startswith("blob:"), "no SVG picture"
            newest_src = img.get_attribute("src")
        events = driver.find_element(By.ID, "events").text
        assert "compose.viewDidAppear" in events, f"version 2's events are not shown:\n{events}"
        details = driver.find_element(By.ID, "details").text
        assert re.search(r"operation\s+present\b", details) and "undefined" not in details, \
            f"version 2's transition does not show its operation (present):\n{details}"
        print("inspector: version 2 shows every controller, compose visible, its transition a present")

        # Time travel: the slider back to version 1 (before the sheet).
        slider = driver.find_element(By.ID, "slider")
        driver.execute_script("arguments[0].value = 1; arguments[0].dispatchEvent(new Event('input'))", slider)
        wait.until(lambda d: tree().get_attribute("data-picture") == "session mail v1")
        text = tree().text
        assert "composeNav" not in text and "message  MessageViewController  ◀ top  ◀ visible" in text, f"version 1 is wrong:\n{text}"
        if svg:
            assert driver.find_element(By.CSS_SELECTOR, "#picture img").get_attribute("src") != newest_src, "the picture did not change"
        assert driver.find_element(By.ID, "follow").is_selected() is False
        print("inspector: the slider at version 1 shows version 1's hierarchy")
        driver.save_screenshot(SHOT.replace(".png", "-v1.png"))

        # Version 0, the creation, has a history entry too (after=-1 lists it).
        driver.execute_script("arguments[0].value = 0; arguments[0].dispatchEvent(new Event('input'))", slider)
        wait.until(lambda d: tree().get_attribute("data-picture") == "session mail v0")
        details = driver.find_element(By.ID, "details").text
        assert "No history entry" not in details and re.search(r"request\s+POST /v1/sessions\n", details), \
            f"version 0's history entry is not shown:\n{details}"
        assert "tabs.viewDidAppear" in driver.find_element(By.ID, "events").text, f"version 0's events are not shown:\n{details}"
        print("inspector: the slider at version 0 shows the creation's history entry")

        # Following: back to the newest, then a change over HTTP shows up by itself.
        driver.find_element(By.ID, "follow").click()
        wait.until(lambda d: tree().get_attribute("data-picture") == "session mail v2")
        call(base, "POST", "/v1/sessions/mail/controllers/composeNav/push",
             {"viewController": {"id": "attachments", "class": "AttachmentsViewController"}, "animated": True})
        wait.until(lambda d: tree().get_attribute("data-picture") == "session mail v3")
        assert "attachments  AttachmentsViewController  ◀ top  ◀ visible" in tree().text
        print("inspector: follows the newest version (3)")
        os.makedirs(os.path.dirname(SHOT), exist_ok=True)
        driver.save_screenshot(SHOT)

        if uploaded:
            driver.find_element(By.ID, "tab-storyboards").click()
            driver.find_element(By.CSS_SELECTOR, f"#storyboards li[data-storyboard='{uploaded}']").click()
            wait.until(lambda d: tree().get_attribute("data-picture") == "storyboard " + uploaded)
            assert tree().text.startswith("storyboard " + uploaded)
            driver.save_screenshot(SHOT.replace(".png", "-storyboard.png"))
            print(f"inspector: storyboard {uploaded} drawn")
        if svg:
            wide_storyboard(driver, wait, base)
        print(SHOT)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
