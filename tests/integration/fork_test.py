#!/usr/bin/env python3
"""fork.check: a network forked from a running daemon's Scan (docs/fork.md) answers as its source.

1. Source A serves a generated network on Splice 0.9 with, after its first snapshot, more
   history: reassignments, a migration, mints, a snapshot.
2. `cantonlite fork --scan A --at <after the first snapshot>` runs while A injects faults on the
   endpoints it pages (503s, reset connections, latency): it retries and writes the state file.
3. Daemon B serves the file. A sample of every Scan and scan-proxy read (and the registry's) about
   the fork's time, from the snapshot on, answers the same status and bytes on A and B: the DSO,
   the LSU, the snapshots' times, the ACS and holdings at every snapshot, summaries, the update
   history in both encodings, updates by id, rounds, rules, vote requests, ANS entries, counters,
   preapprovals, featured apps.
4. The fork is a normal network: a user added for a fork party, a mint to it, the clock moved,
   a snapshot taken and reverted.
5. --updates N cuts the history; Ctrl-C stops a fork at once. A fork that fails writes nothing and
   names the request: a Scan that is not there, a non-transient error, an https URL to a plain
   server.

6. Offline: `cantonlite dump` of A, then `fork --dump`. Paged (--no-bulk), the state file is
   the very one `fork --scan` wrote. With A's bulk ACS objects (Scan's layout: keys sorted), a
   daemon serving it answers the reads of 3. with the same statuses and JSON values. A damaged
   object is refused by name; a dump that fails leaves no folder.
7. A source on Splice 0.6 (the default network, whose ACS is at /v1/state/acs) forked at its first
   snapshot: the fork says so, and tests/openapi's Scan reads answer the same on both, but for
   the history from before the fork's start, which a fork does not hold.

fork.large runs 1. to 4. with a source of 100 000 amulets (1 000 parties), comparing every
seventh page of each ACS.

Usage: fork_test.py BIN SOURCE_DIR [AMULETS]
"""
import datetime
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from daemon_lib import Check

BIN, SRC = sys.argv[1], sys.argv[2]
AMULETS = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
LARGE = AMULETS > 1500  # fork.large: 1. to 4. only, the ACS pages sampled
CHECK = Check("fork.large" if LARGE else "fork.check")
fail = CHECK.fail
WORK = tempfile.mkdtemp()
PRIVATE = "private-synchronizer::1220" + "ab" * 32


def call(port, method, path, body=None, headers=None):
    """(status, body text) of one request."""
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if data is not None else {}
    all_headers.update(headers or {})
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def ok(port, method, path, body=None, headers=None):
    status, text = call(port, method, path, body, headers)
    if status != 200:
        fail(f"{method} {path} on {port}: {status} {text[:300]}")
    return json.loads(text)


def fork(*args):
    return subprocess.run([BIN, "fork", *args], capture_output=True, text=True, timeout=600)


def token(user, *load):
    return subprocess.run([BIN, "token", "--user", user, *load], check=True, capture_output=True,
                          text=True).stdout.strip()


# ---- 1. the source ----
seed = os.path.join(WORK, "gen.json")
with open(seed, "w") as f:
    parties = 1000 if LARGE else 20
    subprocess.run([BIN, "generate", "--parties", str(parties), "--amulets", str(AMULETS),
                    "--updates", str(AMULETS if not LARGE else AMULETS // 10), "--seed", "7"],
                   check=True, stdout=f)
with open(seed) as f:
    document = json.load(f)
document["network"]["other_synchronizers"] = [PRIVATE]
with open(seed, "w") as f:
    json.dump(document, f)
_, a, a_log = CHECK.start_daemon(BIN, "--seed", seed, "--release", "splice-0.9")
snapshots = [s["at"] for s in document["steps"] if s["step"] == "snapshot"]
base = snapshots[0]

# Amulets still active at the end of the seed, to move between synchronizers.
def amulets_of(port, party, at, migration):
    page = ok(port, "POST", "/api/scan/v2/holdings/state",
              {"migration_id": migration, "record_time": at, "page_size": 100,
               "owner_party_ids": [party]})
    return [e["contract_id"] for e in page["created_events"]
            if e["template_id"].endswith(":Splice.Amulet:Amulet")]


party = {u["id"]: u["party"] for u in document["users"]}
moving = amulets_of(a, party["party-2"], snapshots[-1], 0)
if len(moving) < 2:
    fail(f"party-2 holds {len(moving)} amulets at the last snapshot; the test needs 2")
ok(a, "POST", "/_cantonlite/v1/steps", [
    {"step": "reassign", "contract": moving[0], "to": PRIVATE},
    {"step": "unassign", "contract": moving[1], "to": PRIVATE},
    {"step": "mint", "owner": "party-3", "amount": "42"},
    {"step": "assign", "contract": moving[1]},
    {"step": "snapshot"},
    {"step": "migrate"},
    {"step": "mint", "owner": "party-4", "amount": "7.5"},
    {"step": "transfer_command", "sender": "party-5"},
    {"step": "snapshot"},
])

# ---- 2. the fork, through faults ----
# Each retry waits 100-200 ms: at scale, a smaller share of the many more pages fails.
for rule in ({"route": "/api/scan/v2/updates", "error_status": 503,
              "error_share": 0.05 if LARGE else 0.5},
             {"route": "/api/scan/v2/state/acs", "reset_share": 0.05 if LARGE else 0.34},
             {"route": "/api/scan/v0/state/acs/snapshot-timestamp", "latency_ms": 30},
             {"route": "/api/scan/v0/dso-party-id", "error_status": 429, "times": 1}):
    ok(a, "POST", "/_cantonlite/v1/faults", rule)
out = os.path.join(WORK, "fork.state")
# A time after the first snapshot and before the next: the fork starts at the first.
at = base if LARGE else base.replace("00:33:21Z", "00:40:00Z")
forked = fork("--scan", f"http://127.0.0.1:{a}", "--out", out, "--at", at)
if forked.returncode != 0 or not os.path.exists(out):
    fail(f"fork exited {forked.returncode}: {forked.stderr}")
if "trying again" not in forked.stderr or "HTTP 503" not in forked.stderr:
    fail(f"the faults were not retried, or not said: {forked.stderr}")
summary = forked.stderr.strip().splitlines()
if not any("wrote " + out in line and "of the ACS at " + base in line for line in summary):
    fail(f"fork's summary: {forked.stderr}")
faults = ok(a, "GET", "/_cantonlite/v1/faults")
ok(a, "DELETE", "/_cantonlite/v1/faults")

# ---- 3. the same answers ----
_, b, b_log = CHECK.start_daemon(BIN, "--load-state", out, "--release", "splice-0.9")
bearer = {"Authorization": "Bearer " + token("ledger-api-user", "--load-state", out)}
requests = []  # (method, path, body, headers)


def add(method, path, body=None, headers=None):
    requests.append((method, path, body, headers))


add("GET", "/api/scan/v0/dso-party-id")
add("GET", "/api/scan/v0/lsu")
for m in (0, 1):
    add("GET", f"/api/scan/v0/state/acs/snapshot-timestamp?before=9999-01-01T00:00:00Z&migration_id={m}")
add("GET", "/api/scan/v0/state/acs/snapshot-timestamp-after?after="
    + urllib.parse.quote(base) + "&migration_id=0")
fork_snapshots = []  # (migration, time) of A's snapshots from the base on


def micro_before(t):
    """The ISO time one microsecond before `t`."""
    moment = datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
    return (moment - datetime.timedelta(microseconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


for m in (0, 1):
    before = "9999-01-01T00:00:00Z"
    while True:
        path = ("/api/scan/v0/state/acs/snapshot-timestamp?before=" + urllib.parse.quote(before)
                + f"&migration_id={m}")
        status, text = call(a, "GET", path)
        if status != 200 or json.loads(text)["record_time"] < base:
            break
        add("GET", path)
        fork_snapshots.append((m, json.loads(text)["record_time"]))
        before = micro_before(fork_snapshots[-1][1])
if len(fork_snapshots) < 4:
    fail(f"A has {len(fork_snapshots)} snapshots from the base on: {fork_snapshots}")
owners = [party[f"party-{i}"] for i in range(0, parties, max(3, parties // 7))]
ans_names, vote_ids = set(), []
for m, t in fork_snapshots:
    after, pages = None, 0
    while True:
        body = {"migration_id": m, "record_time": t, "page_size": 1000 if LARGE else 400}
        if after is not None:
            body["after"] = after
        page = ok(a, "POST", "/api/scan/v2/state/acs", body)
        for e in page["created_events"]:
            if e["template_id"].endswith(":Splice.Ans:AnsEntry"):
                ans_names.add(e["create_arguments"]["name"])
        after = page.get("next_page_token")
        if not LARGE or pages % 7 == 0 or after is None:
            add("POST", "/api/scan/v2/state/acs", body)
        pages += 1
        if after is None:
            break
    for owner in owners:
        add("POST", "/api/scan/v2/holdings/state",
            {"migration_id": m, "record_time": t, "page_size": 50, "owner_party_ids": [owner]})
    for version in ("v0", "v1"):
        add("POST", f"/api/scan/{version}/holdings/summary",
            {"migration_id": m, "record_time": t, "owner_party_ids": owners})
    add("POST", "/api/validator/v1/scan-proxy/holdings/summary",
        {"migration_id": m, "record_time": t, "owner_party_ids": owners}, bearer)
update_ids = []
for encoding in ("compact_json", "protobuf_json"):
    position = {"after_migration_id": 0, "after_record_time": base}
    while True:
        body = {"after": position, "page_size": 300, "daml_value_encoding": encoding}
        add("POST", "/api/scan/v2/updates", body)
        page = ok(a, "POST", "/api/scan/v2/updates", body)["transactions"]
        if not page:
            break
        update_ids += [u["update_id"] for u in page[::370 if LARGE else 37]]
        last = page[-1]
        migration = last["event"]["migration_id"] if "event" in last else last["migration_id"]
        position = {"after_migration_id": migration, "after_record_time": last["record_time"]}
for update_id in update_ids:
    add("GET", f"/api/scan/v2/updates/{update_id}?daml_value_encoding=protobuf_json")
add("POST", "/api/scan/v0/open-and-issuing-mining-rounds",
    {"cached_open_mining_round_contract_ids": [], "cached_issuing_round_contract_ids": []})
add("POST", "/api/scan/v0/amulet-rules", {})
add("GET", "/api/scan/v0/admin/sv/voterequests")
for v in ok(a, "GET", "/api/scan/v0/admin/sv/voterequests")["dso_rules_vote_requests"]:
    add("GET", "/api/scan/v0/voterequests/" + v["contract_id"])
for name in sorted(ans_names)[:15]:
    add("GET", "/api/scan/v0/ans-entries/by-name/" + urllib.parse.quote(name))
    add("GET", "/api/validator/v0/scan-proxy/ans-entries/by-name/" + urllib.parse.quote(name),
        None, bearer)
for owner in owners:
    for path in ("/v0/transfer-command-counter/", "/v0/transfer-preapprovals/by-party/",
                 "/v0/featured-apps/"):
        add("GET", "/api/scan" + path + owner)
        add("GET", "/api/validator/v0/scan-proxy" + path[3:] + owner, None, bearer)
for path in ("/dso-party-id", "/open-and-issuing-mining-rounds", "/amulet-rules",
             "/registry/metadata/v1/info", "/registry/metadata/v1/instruments"):
    add("GET", "/api/validator/v0/scan-proxy" + path, None, bearer)

differ = []
for method, path, body, headers in requests:
    on_a, on_b = call(a, method, path, body, headers), call(b, method, path, body, headers)
    # An error that quotes the request's URI names the daemon's own port.
    on_a, on_b = (on_a[0], on_a[1].replace(f":{a}/", ":PORT/")), \
        (on_b[0], on_b[1].replace(f":{b}/", ":PORT/"))
    if on_a != on_b:
        differ.append(f"{method} {path} {json.dumps(body)[:200]}\n  A: {on_a[0]} {on_a[1][:300]}"
                      f"\n  B: {on_b[0]} {on_b[1][:300]}")
if differ:
    fail(f"{len(differ)} of {len(requests)} answers differ:\n" + "\n".join(differ[:8]))
if len(requests) < 100:
    fail(f"only {len(requests)} requests compared")

# ---- 4. a normal network ----
ok(b, "POST", "/_cantonlite/v1/steps", [
    {"step": "add_party", "alias": "fork-party", "party": party["party-3"]},
    {"step": "add_user", "id": "forker", "party": "fork-party", "wallet": True},
])
snapshot = ok(b, "POST", "/_cantonlite/v1/snapshots", {})["id"]
ok(b, "POST", "/_cantonlite/v1/steps", [{"step": "mint", "owner": "fork-party", "amount": "1000"},
                                         {"step": "advance_time", "by_seconds": 3600},
                                         {"step": "snapshot"}])
latest = ok(b, "GET", "/api/scan/v0/state/acs/snapshot-timestamp?before=9999-01-01T00:00:00Z"
           "&migration_id=1")["record_time"]
holdings = ok(b, "POST", "/api/scan/v2/holdings/state",
              {"migration_id": 1, "record_time": latest, "page_size": 1000,
               "owner_party_ids": [party["party-3"]]})["created_events"]
minted = [e for e in holdings
          if e["create_arguments"]["amount"]["initialAmount"] == "1000.0000000000"]
if len(minted) != 1:
    fail(f"the mint on the fork is not in its holdings at {latest}")


# The Ledger API of the fork shows the fork party's amulets as the source's does (plus the mint).
def amulet_ids(port, bearer_token, p):
    end = ok(port, "GET", "/v2/state/ledger-end", None, bearer_token)["offset"]
    status, text = call(port, "POST", "/v2/state/active-contracts",
                        {"eventFormat": {"filtersByParty": {p: {}}, "verbose": False},
                         "activeAtOffset": end}, bearer_token)
    if status != 200:
        fail(f"active contracts on {port}: {status} {text[:300]}")
    return {c["contractEntry"]["JsActiveContract"]["createdEvent"]["contractId"]
            for c in json.loads(text)
            if c["contractEntry"]["JsActiveContract"]["createdEvent"]["templateId"]
            .endswith(":Splice.Amulet:Amulet")}


on_source = amulet_ids(a, {"Authorization": "Bearer " + token("party-3", "--seed", seed)},
                       party["party-3"])
saved = os.path.join(WORK, "fork-with-user.state")  # the fork now has the user "forker"
with open(saved, "wb") as f:
    f.write(urllib.request.urlopen(f"http://127.0.0.1:{b}/_cantonlite/v1/state").read())
on_fork = amulet_ids(b, {"Authorization": "Bearer " + token("forker", "--load-state", saved)},
                     party["party-3"])
if on_fork != on_source | {minted[0]["contract_id"]}:
    fail(f"party-3's amulets: {len(on_source)} on the source, {len(on_fork)} on the fork")
ok(b, "POST", f"/_cantonlite/v1/snapshots/{snapshot}/revert")

# serve --fork-scan: the fork in one step, on the source's release line.
_, e, e_log = CHECK.start_daemon(BIN, "--fork-scan", f"http://127.0.0.1:{a}")
for path in ("/api/scan/v0/dso-party-id", "/api/scan/v0/lsu"):
    if call(a, "GET", path) != call(e, "GET", path):
        fail(f"serve --fork-scan: {path} differs")
if call(e, "POST", "/api/scan/v2/state/acs", {})[0] == 404:
    fail("serve --fork-scan of a Splice 0.9 Scan does not serve Splice 0.9")

if LARGE:
    CHECK.stop_all()
    print(f"fork.large: {AMULETS} amulets: {len(requests)} answers the same on the source and its "
          f"fork ({len(fork_snapshots)} snapshots, {len(update_ids)} updates by id); faults "
          "retried")
    sys.exit(0)

# --updates N: the history cut after N updates.
cut = os.path.join(WORK, "cut.state")
r = fork("--scan", f"http://127.0.0.1:{a}", "--out", cut, "--at", at, "--updates", "25")
if r.returncode != 0 or ", 25 updates after it" not in r.stderr:
    fail(f"fork --updates 25: exit {r.returncode}, {r.stderr}")

# Ctrl-C stops a fork at once and writes nothing: sent once the fork is paging the updates (the
# source has delayed one of them), whose every page the source delays by 3 s.
rule = ok(a, "POST", "/_cantonlite/v1/faults",
          {"route": "/api/scan/v2/updates", "latency_ms": 3000})["id"]
stopped = os.path.join(WORK, "stopped.state")
process = subprocess.Popen([BIN, "fork", "--scan", f"http://127.0.0.1:{a}", "--out", stopped,
                            "--at", at], stderr=subprocess.PIPE, text=True)
for _ in range(300):
    if any(r["id"] == rule and r["matched"] > 0
           for r in ok(a, "GET", "/_cantonlite/v1/faults")["faults"]):
        break
    time.sleep(0.1)
else:
    fail("the fork never asked for an update page")
process.send_signal(signal.SIGINT)
try:
    _, stderr = process.communicate(timeout=15)
except subprocess.TimeoutExpired:
    process.kill()
    fail("a fork did not stop within 15 s of Ctrl-C")
if process.returncode != 1 or os.path.exists(stopped) or os.path.exists(stopped + ".partial") or \
        "stopped" not in stderr or "nothing written" not in stderr:
    fail(f"Ctrl-C: exit {process.returncode}, {stderr}")
ok(a, "DELETE", "/_cantonlite/v1/faults")

# ---- 5. failures write nothing ----
gone = os.path.join(WORK, "gone.state")
for args, said in ((["--scan", "http://127.0.0.1:1"], "Connection refused"),
                   (["--scan", f"https://127.0.0.1:{a}"], "TLS handshake"),
                   (["--scan", f"http://127.0.0.1:{a}/nothing/here"], "HTTP 404")):
    r = fork(*args, "--out", gone)
    if r.returncode != 1 or os.path.exists(gone) or os.path.exists(gone + ".partial") or \
            said not in r.stderr or "nothing written" not in r.stderr:
        fail(f"fork {args}: exit {r.returncode}, {r.stderr}")
ok(a, "POST", "/_cantonlite/v1/faults", {"route": "/api/scan/v2/updates", "error_status": 500})
r = fork("--scan", f"http://127.0.0.1:{a}", "--out", gone, "--at", at)
if r.returncode != 1 or os.path.exists(gone) or "POST http://127.0.0.1" not in r.stderr or \
        "/api/scan/v2/updates: HTTP 500" not in r.stderr:
    fail(f"a 500 while forking: exit {r.returncode}, {r.stderr}")

# ---- 6. offline: dump, then fork from the dump ----
ok(a, "DELETE", "/_cantonlite/v1/faults")


def dump(*args):
    return subprocess.run([BIN, "dump", *args], capture_output=True, text=True, timeout=600)


paged = os.path.join(WORK, "dump-paged")
r = dump("--scan", f"http://127.0.0.1:{a}", paged, "--at", at, "--no-bulk")
if r.returncode != 0 or not os.path.exists(os.path.join(paged, "cantonlite-dump.json")) or \
        os.path.exists(paged + ".partial") or "fork it with: cantonlite fork --dump" not in r.stderr:
    fail(f"dump --no-bulk: exit {r.returncode}, {r.stderr}")
from_paged = os.path.join(WORK, "from-paged.state")
r = fork("--dump", paged, "--out", from_paged)
if r.returncode != 0:
    fail(f"fork --dump: exit {r.returncode}, {r.stderr}")
with open(out, "rb") as f1, open(from_paged, "rb") as f2:
    if f1.read() != f2.read():
        fail("fork --dump of a paged dump is not the state file fork --scan wrote")

bulk_dir = os.path.join(WORK, "dump-bulk")
r = dump("--scan", f"http://127.0.0.1:{a}", bulk_dir, "--at", at)
if r.returncode != 0 or "Scan's bulk objects" not in r.stderr:
    fail(f"dump (bulk): exit {r.returncode}, {r.stderr}")
with open(os.path.join(bulk_dir, "cantonlite-dump.json")) as f:
    manifest = json.load(f)
if not manifest["acs_objects"] or not manifest["acs_objects"][0]["key"].endswith(
        "/ACS_compact_json_0.zstd") or manifest["record_time"] != base:
    fail(f"the bulk dump's manifest: {json.dumps(manifest)[:500]}")
from_bulk = os.path.join(WORK, "from-bulk.state")
r = fork("--dump", bulk_dir, "--out", from_bulk)
if r.returncode != 0:
    fail(f"fork --dump (bulk): exit {r.returncode}, {r.stderr}")
_, g, g_log = CHECK.start_daemon(BIN, "--load-state", from_bulk, "--release", "splice-0.9")
differ, bytes_same = [], 0
for method, path, body, headers in requests:
    on_a, on_g = call(a, method, path, body, headers), call(g, method, path, body, headers)
    bytes_same += on_a == on_g
    same = on_a[0] == on_g[0] and (on_a[1] == on_g[1] or
                                   json.loads(on_a[1] or "null") == json.loads(on_g[1] or "null"))
    if not same:
        differ.append(f"{method} {path}\n  A: {on_a[0]} {on_a[1][:300]}\n  G: {on_g[0]} {on_g[1][:300]}")
if differ:
    fail(f"from the bulk dump, {len(differ)} of {len(requests)} answers differ:\n" +
         "\n".join(differ[:8]))

damaged = os.path.join(WORK, "dump-damaged")
subprocess.run(["cp", "-r", paged, damaged], check=True)
with open(os.path.join(damaged, "cantonlite-dump.json")) as f:
    victim = json.load(f)["update_objects"][-1]["key"]
with open(os.path.join(damaged, victim), "r+b") as f:
    f.seek(40)
    byte = f.read(1)
    f.seek(40)
    f.write(bytes([byte[0] ^ 1]))
r = fork("--dump", damaged, "--out", gone)
if r.returncode != 1 or os.path.exists(gone) or victim not in r.stderr or \
        "digest" not in r.stderr:
    fail(f"fork --dump of a damaged dump: exit {r.returncode}, {r.stderr}")
for args, said in (([f"--scan=http://127.0.0.1:1", os.path.join(WORK, "no-dump")],
                    "Connection refused"),
                   ([f"--scan=http://127.0.0.1:{a}", paged], "not an empty folder")):
    r = dump(*args)
    if r.returncode != 1 or said not in r.stderr or \
            os.path.exists(os.path.join(WORK, "no-dump")) or \
            any(name.endswith(".partial") for name in os.listdir(WORK)):
        fail(f"dump {args}: exit {r.returncode}, {r.stderr}")

# ---- 7. a source on Splice 0.6 ----
_, c, c_log = CHECK.start_daemon(BIN, "--release", "splice-0.6")
out06 = os.path.join(WORK, "fork-0.6.state")
r = fork("--scan", f"http://127.0.0.1:{c}/api/scan", "--out", out06, "--at", "2025-01-02T12:00:00Z")
if r.returncode != 0 or "--release splice-0.6" not in r.stderr:
    fail(f"fork of a Splice 0.6 Scan: exit {r.returncode}, {r.stderr}")
_, d, d_log = CHECK.start_daemon(BIN, "--load-state", out06, "--release", "splice-0.6")
with open(os.path.join(SRC, "tests/openapi/scan-both.json")) as f:
    cases = json.load(f)
compared = 0
for case in cases:
    body = case.get("body")
    if case["path"] == "/api/scan/v2/updates" and not (body or {}).get("after"):
        continue  # the history from its start: the fork starts at 2025-01-02
    if case["path"] == "/api/scan/v0/history/bulk/updates":
        continue  # its first segment is the history before the fork's start
    on_c = call(c, case["method"], case["path"], body, case.get("headers"))
    on_d = call(d, case["method"], case["path"], body, case.get("headers"))
    if (on_c[0], on_c[1].replace(f":{c}/", ":PORT/")) != (on_d[0], on_d[1].replace(f":{d}/", ":PORT/")):
        fail(f"0.6: {case['name']}: {on_c[0]} {on_c[1][:300]} / {on_d[0]} {on_d[1][:300]}")
    compared += 1
# The bulk update history from the fork's start on: the same segments, objects and digests.
body = {"start_record_time": "2025-01-02T00:00:00Z", "end_record_time": "2100-01-01T00:00:00Z",
        "page_size": 1000}
on_c = call(c, "POST", "/api/scan/v0/history/bulk/updates", body)
on_d = call(d, "POST", "/api/scan/v0/history/bulk/updates", body)
if (on_c[0], on_c[1].replace(f":{c}/", ":PORT/")) != (on_d[0], on_d[1].replace(f":{d}/", ":PORT/")) \
        or on_c[0] != 200 or not json.loads(on_c[1])["object_refs"]:
    fail(f"0.6: bulk updates from the fork's start: {on_c[0]} {on_c[1][:300]} / {on_d[0]} {on_d[1][:300]}")
compared += 1
for t in ("2025-01-02T00:00:00Z", "2025-01-05T00:00:00Z"):
    body = {"migration_id": 0, "record_time": t, "page_size": 7}
    while True:
        on_c, on_d = call(c, "POST", "/api/scan/v1/state/acs", body), \
            call(d, "POST", "/api/scan/v1/state/acs", body)
        if on_c != on_d or on_c[0] != 200:
            fail(f"0.6: /v1/state/acs {body}: {on_c[0]} {on_c[1][:300]} / {on_d[0]} {on_d[1][:300]}")
        compared += 1
        token_after = json.loads(on_c[1]).get("next_page_token")
        if token_after is None:
            break
        body["after"] = token_after

CHECK.stop_all()
print(f"fork.check: Splice 0.6: {compared} answers the same")
print(f"fork.check: {len(requests)} answers the same on the source and its fork "
      f"({len(fork_snapshots)} snapshots, {len(update_ids)} updates by id); faults retried; "
      "failures write nothing; a paged dump forks to the same state file, a bulk one to the "
      f"same answers ({bytes_same} of them the same bytes)")
