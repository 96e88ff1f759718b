#!/usr/bin/env python3
"""page.check: the network page (GET /) in headless Chromium, driven over the DevTools protocol.

- The page renders the network the admin API describes: the release, the ledger end and clock,
  every user with its rights, the holdings, the latest updates, the open transfer offers and vote
  requests, and one curl line per example request, with a token command for a user's.
- It refreshes after a write: a mint posted while the page is open shows within a few seconds
  (new ledger end, alice's holdings one amulet up), without reloading the page.
- The explorer: the latest update opened from the list shows the admin API's tree; a contract
  and a party open by clicking; a mint from the controls adds a holding to the party's page;
  the search box finds an update id and a contract id; the clock, a snapshot, a revert and a
  reset work from the controls; on a listener that needs the admin token the page says so, and
  opened as /#token=… it reads and mints with it.
- The page loads nothing from outside the daemon, and saves a screenshot (page.png in the build
  directory's tests folder) for a person to look at.

Usage: network_page_test.py BIN SOURCE_DIR OUT_DIR. Exits 77 (skipped, the reason printed) when
Debian's chromium or python3-websocket is not installed.
"""
import base64
import json
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.request

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    print("page.check: skipped: chromium is not installed (make test installs Debian's chromium)")
    sys.exit(77)
try:
    import websocket  # Debian's python3-websocket
except ImportError:
    print("page.check: skipped: python3-websocket is not installed (scripts/install-deps.sh)")
    sys.exit(77)

from daemon_lib import Check

BIN, SRC, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
CHECK = Check("page.check")
fail = CHECK.fail


def call(port, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=data,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


class Page:
    """One tab, over the DevTools protocol."""

    def __init__(self, devtools_port, url):
        for _ in range(100):
            try:
                targets = json.loads(urllib.request.urlopen(
                    f"http://127.0.0.1:{devtools_port}/json/list", timeout=5).read())
                pages = [t for t in targets if t.get("type") == "page" and t["url"] == url]
                if pages:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        else:
            fail("Chromium opened no tab on " + url)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=20,
                                              suppress_origin=True)
        self.next_id = 0

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message["result"]

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            fail(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, seconds=30):
        # The tab is listed before its document is parsed: an error (no body yet) is a "not yet".
        guarded = f"(() => {{ try {{ return {expression}; }} catch (e) {{ return false; }} }})()"
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.eval(guarded)
            if value:
                return value
            time.sleep(0.1)
        fail(f"the page never showed {what} ({expression})")


def texts(page, selector):
    return page.eval(f"[...document.querySelectorAll({json.dumps(selector)})]"
                     ".map(e => e.textContent)")


def nodes(update):
    """The nodes of an explored update's tree, in pre-order."""
    out = []

    def walk(node):
        out.append(node)
        for child in node.get("children", []):
            walk(child)
    for root in update.get("events", []):
        walk(root)
    return out


def explore(page, port, mint_end):
    """The explorer: an update opened from the list, a contract and a party opened by clicking,
    the search box, and the controls (mint, clock, snapshot, revert, reset)."""
    api = "/_cantonlite/v1/explore/"
    # The latest update, opened from the dashboard's list: its tree is the admin API's.
    page.eval("document.querySelector('#updates tr:nth-child(2) td a').click()")
    page.wait_for("document.body.dataset.view === 'update' && !!document.getElementById('tree')",
                  "the update's tree")
    update = call(port, "GET", f"{api}update?id={mint_end}")
    expected = [f"{n['kind']} {n['template']}" for n in nodes(update)]
    shown = page.eval("[...document.querySelectorAll('#tree li.node')].map(n => n.dataset.kind"
                      " + ' ' + n.querySelector('.template').textContent)")
    if shown != expected:
        fail(f"the tree of offset {mint_end}: {shown}, the admin API's: {expected}")
    if str(mint_end) not in page.eval("document.querySelector('#view-update h2').textContent"):
        fail("the update view does not name its offset")

    # A contract of the tree, opened by clicking.
    created = next(n for n in nodes(update) if n["kind"] == "created")
    page.eval("document.querySelector('#tree li.node[data-kind=created] a.id').click()")
    page.wait_for("document.body.dataset.view === 'contract'", "the contract view")
    title = page.wait_for("document.querySelector('#view-contract h2').textContent", "its template")
    if title != created["template"]:
        fail(f"the contract view shows {title!r}, not {created['template']!r}")

    # A party, opened from the dashboard's holdings.
    page.eval("location.hash = '#/'")
    page.wait_for("document.body.dataset.view === 'dashboard'", "the dashboard again")
    page.eval("[...document.querySelectorAll('#holdings td a')]"
              ".find(a => a.title.startsWith('alice::')).click()")
    page.wait_for("document.body.dataset.view === 'party' && !!document.getElementById('party-id')",
                  "alice's page")
    alice = page.eval("document.getElementById('party-id').textContent")
    before = call(port, "GET", f"{api}party?id={alice}")
    rows = page.eval("document.querySelectorAll('#party-holdings tr').length") - 1
    if rows != min(before["holdings"]["total"], 100) or rows == 0:
        fail(f"alice's page shows {rows} holdings, the admin API {before['holdings']['total']}")
    for table, key in (("party-locked", "locked"), ("party-offers", "transfer_offers"),
                       ("party-ans", "ans_entries")):
        rows = page.eval(f"document.querySelectorAll('#{table} tr').length") - 1
        if rows != max(1, len(before[key]["entries"])):
            fail(f"{table}: {rows} rows for {before[key]['total']}")

    # Mint from the controls, to the party on the page: its holdings grow by one, no reload.
    page.eval("document.getElementById('mint-here').click()")
    page.eval("document.getElementById('mint-amount').value = '3'")
    page.eval("document.getElementById('mint').click()")
    total = before["holdings"]["total"] + 1
    page.wait_for(f"document.querySelectorAll('#party-holdings tr').length === {total + 1}",
                  f"{total} holdings after the mint")
    after = call(port, "GET", f"{api}party?id={alice}")
    if after["holdings"]["total"] != total:
        fail(f"after the page's mint the admin API has {after['holdings']['total']} holdings")
    end = after["updates"][0]["offset"]

    # The search box: an update id, then a contract id.
    mint = call(port, "GET", f"{api}update?id={end}")
    def search(text, view):
        page.eval(f"document.getElementById('search-text').value = {json.dumps(text)}")
        page.eval("document.querySelector('#search button').click()")
        page.wait_for(f"document.body.dataset.view === '{view}' && location.hash.includes("
                      f"{json.dumps(text[:20])})", f"the {view} of {text}")
    search(mint["update_id"], "update")
    search(nodes(mint)[-1]["contract_id"], "contract")

    # The clock, a snapshot, a revert and a reset, from the controls.
    clock = page.eval("document.getElementById('ledger-time').textContent")
    page.eval("document.getElementById('advance').click()")
    page.wait_for(f"document.getElementById('ledger-time').textContent !== {json.dumps(clock)}",
                  "the clock moved")
    page.eval("document.getElementById('snapshot').click()")
    page.wait_for("document.getElementById('snapshots').value !== ''", "a snapshot to revert to")
    snapped = call(port, "GET", "/_cantonlite/v1/time")["ledger_end"]
    call(port, "POST", "/_cantonlite/v1/steps", {"step": "mint", "owner": "bob", "amount": "1"})
    page.wait_for(f"document.body.dataset.ledgerEnd === '{snapped + 1}'", "the API's mint")
    page.eval("document.getElementById('revert').click()")
    page.wait_for(f"document.body.dataset.ledgerEnd === '{snapped}'", "the revert")
    page.eval("document.getElementById('reset').click()")
    page.eval("document.getElementById('reset').click()")
    page.wait_for(f"document.body.dataset.ledgerEnd === '{mint_end - 1}'", "the reset")
    action = page.eval("document.getElementById('action').textContent")
    if action != f"reset: done, ledger end {mint_end - 1}":
        fail(f"the reset says {action!r}")
    # The seed's last update, for the screenshot.
    page.eval(f"location.hash = '#/update/{mint_end - 1}'")
    page.wait_for("document.body.dataset.view === 'update' && !!document.getElementById('tree')",
                  "the seed's last update")


def admin_token(page):
    """On a listener that needs the admin token, the page says so until it is opened as
    /#token=…; then it reads and its controls write with it."""
    _, port, _ = CHECK.start_daemon(BIN, "--seed", os.path.join(SRC, "config/default-network.json"),
                                     "--address", "0.0.0.0", "--admin-token", "page-secret")
    page.send("Page.navigate", url=f"http://127.0.0.1:{port}/")
    page.wait_for("document.getElementById('notice').textContent.includes('needs its token')",
                  "that the admin API needs its token")
    page.eval("location.hash = 'token=page-secret'; location.reload()")
    time.sleep(0.5)
    headers = {"Authorization": "Bearer page-secret"}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/_cantonlite/v1/time", headers=headers)
    end = json.loads(urllib.request.urlopen(request, timeout=10).read())["ledger_end"]
    page.wait_for(f"document.body.dataset.ledgerEnd === '{end}'", "the network, with the token")
    if page.eval("location.hash") != "#/":
        fail("the token stayed in the address bar")
    page.eval("document.getElementById('mint').click()")
    page.wait_for(f"document.body.dataset.ledgerEnd === '{end + 1}'", "a mint with the token")


def main():
    _, port, _ = CHECK.start_daemon(BIN, "--seed",
                                    os.path.join(SRC, "config/default-network.json"))
    url = f"http://127.0.0.1:{port}/"
    profile = tempfile.mkdtemp()
    devtools, _, _ = CHECK.start(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile}", "--remote-debugging-port=0", "--window-size=1400,2000",
         url],
        r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", "Chromium")
    page = Page(int(devtools), url)

    network = call(port, "GET", "/_cantonlite/v1/network")
    overview = call(port, "GET", "/_cantonlite/v1/overview")
    end = network["ledger_end"]
    page.wait_for(f"document.body.dataset.ledgerEnd === '{end}'", f"ledger end {end}")

    release = page.eval("document.getElementById('release').textContent")
    if not release.startswith(network["release"]["name"]):
        fail(f"release: {release!r}")
    if page.eval("document.getElementById('ledger-time').textContent") != overview["ledger_time"]:
        fail("the ledger clock is not the admin API's")
    users = texts(page, "#users td.user")
    if users != [u["id"] for u in network["users"]]:
        fail(f"users: {users}")
    for table, rows in (("holdings", overview["holdings"]), ("updates", overview["updates"]),
                        ("offers", overview["transfer_offers"]),
                        ("votes", overview["vote_requests"])):
        shown = page.eval(f"document.querySelectorAll('#{table} tr').length") - 1  # the header
        if shown != len(rows) or not rows:
            fail(f"{table}: {shown} rows shown, {len(rows)} in the overview")
    # The token command loads the daemon's network: its seed was given by --seed.
    token_command = overview["token_command"]
    if not re.fullmatch(r"cantonlite token --seed \S+", token_command):
        fail(f"the token command {token_command!r} does not name the daemon's seed")
    curls = texts(page, "#examples pre.curl")
    if len(curls) != len(network["examples"]):
        fail(f"{len(curls)} curl lines for {len(network['examples'])} examples")
    for curl, example in zip(curls, network["examples"]):
        if f"'{url[:-1]}{example['path']}'" not in curl:
            fail(f"op {example['op']}: {curl!r} does not call {example['path']}")
        if example["user"] and f"{token_command} --user {example['user']}" not in curl:
            fail(f"op {example['op']}: no token command in {curl!r}")
    alice = next(h for h in overview["holdings"] if h["party"].startswith("alice::"))

    # A write while the page is open: it shows without a reload.
    written = call(port, "POST", "/_cantonlite/v1/steps",
                   {"step": "mint", "owner": "alice", "amount": "7"})
    new_end = written["ledger_end"]
    page.wait_for(f"document.body.dataset.ledgerEnd === '{new_end}'", f"ledger end {new_end}")
    row = page.eval("[...document.querySelectorAll('#holdings tr')]"
                    ".map(r => [...r.children].map(c => c.title || c.textContent))"
                    ".find(r => r[0].startsWith('alice::'))")
    if row[1] != str(alice["amulets"] + 1):
        fail(f"alice's holdings after the mint: {row}, before: {alice}")
    latest = page.eval("document.querySelector('#updates tr:nth-child(2) td').textContent")
    if latest != str(new_end):
        fail(f"the latest update shown is at offset {latest}, not the mint's {new_end}")

    explore(page, port, new_end)

    # Nothing but the daemon was asked for.
    resources = page.eval("performance.getEntriesByType('resource').map(r => r.name)")
    outside = [r for r in resources if not r.startswith(url)]
    if outside:
        fail(f"the page loaded resources from elsewhere: {outside}")

    shot = page.send("Page.captureScreenshot", format="png")["data"]
    admin_token(page)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "page.png"), "wb") as f:
        f.write(base64.b64decode(shot))
    CHECK.stop_all()
    shutil.rmtree(profile, ignore_errors=True)
    print(f"page.check: ok ({len(users)} users, {len(curls)} curl lines, refreshed to ledger end "
          f"{new_end}; screenshot {os.path.join(OUT, 'page.png')})")


main()
