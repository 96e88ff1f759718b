#!/usr/bin/env python3
"""state.check: a network saved as a state file (docs/state-files.md) and loaded by another daemon
answers as the daemon that saved it.

1. Daemon A serves the default network and takes run-time writes: the command service's, the
   user and party management's and interactive submission's requests of tests/openapi, and admin
   steps. Its GET /_cantonlite/v1/state is saved.
2. Daemon B starts from that file (--load-state). Every read request of tests/openapi (the Ledger
   API, Scan, the validator, the registry) and the admin API's reads answer the same status,
   content type and bytes on A and B; B's own state file is A's, byte for byte.
3. The same admin steps on both answer the same, and leave the same state file.
4. A generated network: the same for the example requests of every operation.
5. serve --state FILE: the file is written on a clean stop and loaded at the next start;
   --dump-state writes one too; a journal started from a state file replays on it (and is
   refused on the seed); a damaged file is refused with one line naming it.
6. A running daemon loads a state file in place (`cantonlite state load`, POST /state) and then
   saves that file (`cantonlite state save`); another network's file, or one on a journaled
   daemon, is refused and changes nothing.
7. Persisted snapshots: {"name", "persist": true} writes <state_dir>/<name>.state; the daemon
   reverts to it by name in memory (a journaled one too) while the file is the one it wrote, and
   loads the file when another wrote over it; a later daemon loads the file.

Usage: state_file_test.py BIN SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from daemon_lib import Check, cases as openapi_cases, is_write, read_requests, with_token

BIN, SRC = sys.argv[1], sys.argv[2]
SEED = os.path.join(SRC, "config/default-network.json")
OPENAPI = os.path.join(SRC, "tests/openapi")
CHECK = Check("state.check")
fail = CHECK.fail
WORK = tempfile.mkdtemp()
# A fixed W3C trace context: an error's trace id is then the same on both daemons.
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def call(port, method, path, body=None, headers=None):
    """(status, content type, body bytes) of one request."""
    data = None
    if isinstance(body, bytes):
        data = body
    elif body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    all_headers = {"traceparent": TRACEPARENT}
    if data is not None:
        all_headers["Content-Type"] = "application/json"
    for name, value in (headers or {}).items():
        if value is None:
            all_headers.pop(name, None)
        else:
            all_headers[name] = value
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={k: v for k, v in all_headers.items() if v is not None})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def token(user, *load):
    return subprocess.run([BIN, "token", "--user", user, *load], check=True, capture_output=True,
                          text=True).stdout.strip()


def same_answers(a, b, requests, what):
    """Fails unless every request answers the same on ports a and b (an answer that quotes the
    request's URI names its own port)."""
    def answer(port, method, path, body, headers):
        status, content_type, text = call(port, method, path, body, headers)
        if path == "/_cantonlite/v1/overview":  # how to mint a token names the file it loaded
            document = json.loads(text)
            document.pop("token_command", None)
            text = json.dumps(document).encode()
        return status, content_type, text.replace(f"127.0.0.1:{port}".encode(), b"<host>")

    for name, method, path, body, headers in requests:
        on_a = answer(a, method, path, body, headers)
        on_b = answer(b, method, path, body, headers)
        if on_a != on_b:
            for i, (x, y) in enumerate(zip(on_a[2], on_b[2])):
                if x != y:
                    print("first difference at byte", i, on_a[2][max(0, i - 200):i + 200],
                          "\n", on_b[2][max(0, i - 200):i + 200])
                    break
            fail(f"{what}: {name} ({method} {path}) differs after loading the state file:\n"
                 f"  saved:  {on_a[0]} {on_a[2][:400]!r}\n  loaded: {on_b[0]} {on_b[2][:400]!r}")
    print(f"PASS {what}: {len(requests)} requests answer the same")


def state_of(port):
    status, content_type, body = call(port, "GET", "/_cantonlite/v1/state")
    if status != 200 or content_type != "application/octet-stream":
        fail(f"GET /state answered {status} {content_type}")
    return body


def save(body, name):
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(body)
    return path


ALICE = token("alice", "--seed", SEED)
ADMIN = token("ledger-api-user", "--seed", SEED)
STEPS = [{"step": "mint", "owner": "alice", "amount": "7", "as": "state-mint"},
         {"step": "transfer", "sender": "alice", "inputs": ["state-mint"],
          "outputs": [{"receiver": "bob", "amount": "2"}]},
         {"step": "advance_time", "by_seconds": 3600}]

# 1. Daemon A: the default network and run-time writes.
_, a, _ = CHECK.start_daemon(BIN, "--seed", SEED)
writes = openapi_cases(OPENAPI, "ledger-commands.json", "ledger-external-parties.json")
admin_writes = openapi_cases(OPENAPI, "ledger-admin.json")
for case in writes:
    if is_write(case):
        call(a, case["method"], case["path"], case.get("body"), with_token(case, ALICE))
for case in admin_writes:
    if is_write(case):
        call(a, case["method"], case["path"], case.get("body"), with_token(case, ADMIN))
status, _, body = call(a, "POST", "/_cantonlite/v1/steps", STEPS)
if status != 200:
    fail(f"the admin steps answered {status}: {body[:300]!r}")
saved = state_of(a)
if not saved.startswith(b"cantonlite state"):
    fail("GET /state is not a state file")
path = save(saved, "default.state")

# 2. Daemon B from the state file: the same reads.
_, b, _ = CHECK.start_daemon(BIN, "--load-state", path)
reads = read_requests(OPENAPI, ALICE, ADMIN)
same_answers(a, b, reads, "default network")
if state_of(b) != saved:
    fail("the loaded daemon's state file is not the one it loaded")
print("PASS the loaded daemon saves the same state file")

# 3. The same writes on both.
on_a = call(a, "POST", "/_cantonlite/v1/steps", STEPS[:1] + [dict(STEPS[0], **{"as": "m2"})])
on_b = call(b, "POST", "/_cantonlite/v1/steps", STEPS[:1] + [dict(STEPS[0], **{"as": "m2"})])
if on_a != on_b or on_a[0] != 200:
    fail(f"the same steps answer differently: {on_a[2][:300]!r} / {on_b[2][:300]!r}")
if state_of(a) != state_of(b):
    fail("after the same steps, the state files differ")
same_answers(a, b, reads, "default network after the same writes")
CHECK.stop_all()
CHECK.processes.clear()

# 4. A generated network: the example requests of every operation.
generated = os.path.join(WORK, "generated.json")
with open(generated, "w") as f:
    subprocess.run([BIN, "generate", "--parties", "12", "--amulets", "1500", "--updates", "300"],
                   check=True, stdout=f)
_, c, _ = CHECK.start_daemon(BIN, "--seed", generated)
gen_path = save(state_of(c), "generated.state")
_, d, _ = CHECK.start_daemon(BIN, "--load-state", gen_path)
described = json.loads(subprocess.run([BIN, "describe", "--json", "--seed", generated], check=True,
                                      capture_output=True, text=True).stdout)
tokens = {}
examples = []
for e in described["examples"]:
    headers = {}
    if e.get("user"):
        if e["user"] not in tokens:
            tokens[e["user"]] = token(e["user"], "--seed", generated)
        headers["Authorization"] = "Bearer " + tokens[e["user"]]
    examples.append((f"op {e['op']}", e["method"], e["path"], e.get("body"), headers))
examples.append(("admin network", "GET", "/_cantonlite/v1/network", None, {}))
same_answers(c, d, examples, "generated network")
if state_of(d) != state_of(c):
    fail("the generated network's state files differ")
CHECK.stop_all()
CHECK.processes.clear()

# 5. serve --state and --dump-state; a damaged file.
state = os.path.join(WORK, "kept.state")
dumped = os.path.join(WORK, "dumped.state")
p, e, log = CHECK.start_daemon(BIN, "--seed", SEED, "--state", state, "--dump-state", dumped)
call(e, "POST", "/_cantonlite/v1/steps", STEPS)
before = state_of(e)
p.terminate()
if p.wait(timeout=30) != 0:
    fail("the daemon did not stop cleanly", log)
CHECK.processes.clear()
for written in (state, dumped):
    with open(written, "rb") as f:
        if f.read() != before:
            fail(f"{written} is not the state the daemon stopped with", log)
p, e, log = CHECK.start_daemon(BIN, "--seed", SEED, "--state", state)
with open(log) as f:
    if f"state {state}" not in f.read():
        fail("--state did not load its file", log)
if state_of(e) != before:
    fail("--state did not start from the state it saved")
CHECK.stop_all()
CHECK.processes.clear()
print("PASS --state and --dump-state")

# A journal started from a state file is written for it: it replays on it at the next start, and
# is refused on the seed.
journal = os.path.join(WORK, "on-state.journal")
p, e, log = CHECK.start_daemon(BIN, "--load-state", path, "--journal", journal)
call(e, "POST", "/_cantonlite/v1/steps", STEPS)
journaled = state_of(e)
p.terminate()
p.wait(timeout=30)
CHECK.processes.clear()
_, e, log = CHECK.start_daemon(BIN, "--load-state", path, "--journal", journal)
if state_of(e) != journaled:
    fail("a journal on a state file did not replay to the state it kept", log)
CHECK.stop_all()
CHECK.processes.clear()
r = subprocess.run([BIN, "serve", "--port", "0", "--seed", SEED, "--journal", journal],
                   capture_output=True, text=True, timeout=30)
if r.returncode != 2 or "this journal was written for another seed" not in r.stderr:
    fail(f"a state file's journal on the seed: exit {r.returncode}, stderr {r.stderr!r}")
print("PASS a journal on a state file")

damaged = bytearray(before)
damaged[len(damaged) // 2] ^= 0x20
bad = save(bytes(damaged), "damaged.state")
r = subprocess.run([BIN, "serve", "--port", "0", "--load-state", bad], capture_output=True,
                   text=True, timeout=30)
if r.returncode != 2 or r.stderr.strip().splitlines() != [
        f"cantonlite: {bad}: is damaged: its checksum does not match its contents"]:
    fail(f"a damaged state file: exit {r.returncode}, stderr {r.stderr!r}")
print("PASS a damaged state file is refused")


def cli(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)


# 6. Loading in place.
p, f, log = CHECK.start_daemon(BIN, "--seed", SEED)
url = f"http://127.0.0.1:{f}"
call(f, "POST", "/_cantonlite/v1/steps", [{"step": "mint", "owner": "bob", "amount": "99"}])
r = cli("state", "load", path, "--url", url)
if r.returncode != 0:
    fail(f"state load: exit {r.returncode}: {r.stderr}", log)
if state_of(f) != saved:
    fail("after state load, the daemon's state is not the file's", log)
out = os.path.join(WORK, "cli.state")
r = cli("state", "save", out, "--url", url)
with open(out, "rb") as saved_by_cli:
    if r.returncode != 0 or r.stdout.strip() != out or saved_by_cli.read() != saved:
        fail(f"state save: exit {r.returncode}: {r.stdout} {r.stderr}", log)
r = cli("state", "load", gen_path, "--url", url)
if r.returncode != 1 or "409: " not in r.stderr or \
        "is the state of another network (its DSO party differs)" not in r.stderr:
    fail(f"another network's state file: exit {r.returncode}: {r.stderr}", log)
if state_of(f) != saved:
    fail("a refused state file changed the daemon", log)
status, _, body = call(f, "POST", "/_cantonlite/v1/state", "not a state file")
if status != 400 or b"is not a cantonlite state file" not in body:
    fail(f"POST /state of other bytes: {status} {body!r}", log)
CHECK.stop_all()
CHECK.processes.clear()
_, j, log = CHECK.start_daemon(BIN, "--seed", SEED, "--journal", os.path.join(WORK, "j.journal"))
status, _, body = call(j, "POST", "/_cantonlite/v1/state", saved)
if status != 409 or b"journaled" not in body:
    fail(f"a journaled daemon loading a state file: {status} {body[:300]!r}", log)
CHECK.stop_all()
CHECK.processes.clear()
print("PASS state load and state save on a running daemon")

# 7. Persisted snapshots.
state_dir = os.path.join(WORK, "snapshots")
_, h, log = CHECK.start_daemon(BIN, "--seed", SEED, "--state-dir", state_dir)
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots", {"name": "fixture", "persist": True})
answer = json.loads(body)
fixture = os.path.join(state_dir, "fixture.state")
if status != 200 or answer.get("name") != "fixture" or answer.get("file") != fixture:
    fail(f"a persisted snapshot: {status} {body!r}", log)
with open(fixture, "rb") as kept:
    fixture_state = kept.read()
if fixture_state != state_of(h):
    fail("the persisted snapshot is not the state it was taken at", log)
# The daemon that took it reverts in memory (as by its id): a snapshot taken before stays.
earlier = json.loads(call(h, "POST", "/_cantonlite/v1/snapshots")[2])["id"]
call(h, "POST", "/_cantonlite/v1/steps", STEPS)
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots", {"name": "fixture2", "persist": True})
fixture2 = json.loads(body)
call(h, "POST", "/_cantonlite/v1/steps", STEPS)
with open(os.path.join(state_dir, "fixture2.state"), "rb") as kept:
    fixture2_state = kept.read()
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots/fixture2/revert")
reverted = json.loads(body) if status == 200 else {}
if status != 200 or reverted.get("id") != fixture2.get("id") or \
        reverted.get("name") != "fixture2" or state_of(h) != fixture2_state:
    fail(f"reverting in memory to the persisted snapshot: {status} {body[:300]!r}", log)
if not any(s["id"] == earlier for s in json.loads(call(h, "GET", "/_cantonlite/v1/snapshots")[2])["snapshots"]):
    fail("an in-memory revert to a persisted snapshot dropped a snapshot taken before it", log)
# A file written over since (another daemon's, here an earlier state) is loaded instead.
with open(os.path.join(state_dir, "fixture2.state"), "wb") as over:
    over.write(fixture_state)
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots/fixture2/revert")
if status != 200 or "loaded" not in json.loads(body) or state_of(h) != fixture_state:
    fail(f"reverting to a persisted snapshot whose file was written over: {status} {body[:300]!r}", log)
os.remove(os.path.join(state_dir, "fixture2.state"))
call(h, "POST", "/_cantonlite/v1/steps", STEPS)
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots/fixture/revert")
if status != 200 or state_of(h) != fixture_state:
    fail(f"reverting to the persisted snapshot: {status} {body[:300]!r}", log)
listed = json.loads(call(h, "GET", "/_cantonlite/v1/snapshots")[2])
if listed.get("persisted") != [{"name": "fixture", "bytes": len(fixture_state)}]:
    fail(f"GET /snapshots: {listed}", log)
for request, expect in (({"persist": True}, 400), ({"name": "x"}, 400),
                        ({"name": "../x", "persist": True}, 400)):
    status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots", request)
    if status != expect:
        fail(f"POST /snapshots {request}: {status} {body!r}", log)
status, _, body = call(h, "POST", "/_cantonlite/v1/snapshots/nothing/revert")
if status != 404:
    fail(f"reverting to an unknown persisted snapshot: {status} {body!r}", log)
CHECK.stop_all()
CHECK.processes.clear()
_, k, log = CHECK.start_daemon(BIN, "--seed", SEED, "--state-dir", state_dir)
call(k, "POST", "/_cantonlite/v1/steps", STEPS)
status, _, body = call(k, "POST", "/_cantonlite/v1/snapshots/fixture/revert")
if status != 200 or state_of(k) != fixture_state:
    fail(f"a later daemon reverting to the persisted snapshot: {status} {body[:300]!r}", log)
CHECK.stop_all()
CHECK.processes.clear()
# A journaled daemon cannot load a file, but reverts in memory to a snapshot it persisted.
_, jd, log = CHECK.start_daemon(BIN, "--seed", SEED, "--state-dir", state_dir,
                                "--journal", os.path.join(WORK, "persist.journal"))
call(jd, "POST", "/_cantonlite/v1/snapshots", {"name": "journaled", "persist": True})
journaled_state = state_of(jd)
call(jd, "POST", "/_cantonlite/v1/steps", STEPS)
status, _, body = call(jd, "POST", "/_cantonlite/v1/snapshots/journaled/revert")
if status != 200 or state_of(jd) != journaled_state:
    fail(f"a journaled daemon reverting to its persisted snapshot: {status} {body[:300]!r}", log)
status, _, body = call(jd, "POST", "/_cantonlite/v1/snapshots/fixture/revert")
if status != 409:
    fail(f"a journaled daemon reverting to another daemon's persisted snapshot: {status} {body[:300]!r}", log)
_, no_dir, log = CHECK.start_daemon(BIN, "--seed", SEED)
status, _, body = call(no_dir, "POST", "/_cantonlite/v1/snapshots", {"name": "x", "persist": True})
if status != 400 or b"state_dir" not in body:
    fail(f"a persisted snapshot without a state_dir: {status} {body!r}", log)
CHECK.stop_all()
print("PASS persisted snapshots")
print("state.check passed")
