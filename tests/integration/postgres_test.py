#!/usr/bin/env python3
"""postgres.check: the journal in PostgreSQL (docs/postgresql.md), against a real server that this
test starts itself (scripts/test-postgres.sh: Debian's postgresql, initdb in a temporary folder,
a Unix socket; stopped at the end).

1. SIGKILL under load: a daemon with --journal postgresql://... takes batches of 3 mints from 4
   clients at once and is killed at a random moment, ROUNDS times; after each restart every write
   it answered 200 holds the same offsets and update ids, no batch is half applied, and the log
   shows the replay.
2. PostgreSQL stopped under load: writes answer 503 with a clear message and change nothing,
   reads go on from memory; once it is back, writes are taken again, and what the daemon had
   applied but not yet committed is kept.
3. Three daemons on one database, written to at once: one ledger. No offset is given to two
   writes; every daemon reaches the same ledger end, saves the same state file, and answers the
   same bytes to every read of tests/openapi (the Ledger API, Scan, the validator, the registry,
   the admin API) and to op 1 at the latest offsets; a write on one is seen on another within (reported) milliseconds. One of them is
   SIGKILLed under writes: the others keep taking writes, and it comes back with all of them.
4. A journal of another seed is refused with one line and exit 2; the URL's password is never
   printed.

Usage: postgres_test.py BIN SOURCE_DIR [ROUNDS]
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from daemon_lib import Check, read_requests

BIN, SRC = sys.argv[1], sys.argv[2]
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
SEED = os.path.join(SRC, "config/default-network.json")
OTHER_SEED = os.path.join(SRC, "config/default-network-no-lsu.json")
SCRIPT = os.path.join(SRC, "scripts/test-postgres.sh")
OPENAPI = os.path.join(SRC, "tests/openapi")
CHECK = Check("postgres.check")
PG_DIR = tempfile.mkdtemp(prefix="cantonlite-pg-", dir="/tmp")


def fail(message, log=None):
    subprocess.run([SCRIPT, "stop", PG_DIR], check=False)
    CHECK.fail(message, log)


def pg(command):
    # Started with this test's pid: the server goes when the test does, however it ends.
    extra = [str(os.getpid())] if command == "start" else []
    return subprocess.run([SCRIPT, command, PG_DIR, *extra], check=True, capture_output=True,
                          text=True).stdout.strip()


def call(port, method, path, body=None, token=None, timeout=10, headers=None):
    """(status, parsed JSON body or text) of one request; `headers` (with their own
    Authorization) win over `token`."""
    given = headers
    # A fixed W3C trace context: an error's trace id is then the same on every daemon.
    headers = {"Content-Type": "application/json",
               "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
    if token:
        headers["Authorization"] = "Bearer " + token
    headers.update(given or {})
    headers = {k: v for k, v in headers.items() if v is not None}
    data = None
    if isinstance(body, str):
        data = body.encode()
    elif body is not None:
        data = json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


def mints(tag):
    return [{"step": "mint", "owner": "alice", "amount": f"{tag}.{i}"} for i in (1, 2, 3)]


def updates_of(answer):
    return [(u["offset"], u["update_id"]) for r in answer["results"] for u in r["updates"]]


def ledger_end(port):
    status, body = call(port, "GET", "/_cantonlite/v1/time")
    if status != 200:
        fail(f"GET /_cantonlite/v1/time: {status} {body}")
    return body["ledger_end"]


def journal_records():
    """The records the journal holds now (psql, PostgreSQL's own client)."""
    return int(subprocess.run(["psql", URL, "-tAc", "SELECT count(*) FROM cantonlite_journal"],
                              check=True, capture_output=True, text=True).stdout.strip())


def replayed(log):
    with open(log) as f:
        found = re.search(r"journal .*: (\d+) writes replayed", f.read())
    return int(found.group(1)) if found else None


def run_refused(args):
    """Runs the daemon expecting a refusal: (exit code, stdout, stderr)."""
    p = subprocess.run([BIN, "serve", "--port", "0", *args], capture_output=True, text=True,
                       timeout=30)
    return p.returncode, p.stdout, p.stderr


URL = pg("start")
ALICE_TOKEN = subprocess.run([BIN, "token", "--user", "alice", "--seed", SEED], check=True,
                             capture_output=True, text=True).stdout.strip()
ADMIN_TOKEN = subprocess.run([BIN, "token", "--user", "ledger-api-user", "--seed", SEED],
                             check=True, capture_output=True, text=True).stdout.strip()
READS = read_requests(OPENAPI, ALICE_TOKEN, ADMIN_TOKEN)
described = json.loads(subprocess.run([BIN, "describe", "--seed", SEED, "--json"], check=True,
                                      capture_output=True, text=True).stdout)
SEED_END = described["ledger_end"]
ALICE = next(u["party"] for u in described["users"] if u["id"] == "alice")


def verify(port, acks, what):
    """Every acknowledged write's offsets hold the same update ids (as alice sees them)."""
    for offset, update_id in acks:
        status, body = call(port, "POST", "/v2/updates/transaction-by-offset", {
            "offset": offset,
            "transactionFormat": {
                "eventFormat": {"filtersByParty": {ALICE: {}}, "verbose": False},
                "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}}, ALICE_TOKEN)
        if status != 200 or body["transaction"]["updateId"] != update_id:
            fail(f"{what}: the write acknowledged at offset {offset} ({update_id}) is lost or "
                 f"changed: {status} {str(body)[:300]}")


def start(*extra):
    process, port, log = CHECK.start_daemon(BIN, "--seed", SEED, "--journal", URL, *extra)
    return process, port, log


# 1. SIGKILL under load.
acks = []  # (offset, update id) of every write answered 200
acks_lock = threading.Lock()
errors = []
process, port, log = start()
if ledger_end(port) != SEED_END:
    fail("a new journal does not start at the seed's ledger end")


def client(port, name, stop):
    i = 0
    while not stop.is_set():
        i += 1
        try:
            status, body = call(port, "POST", "/_cantonlite/v1/steps", mints(f"{name}{i:04d}"))
        except OSError:
            return  # the daemon was killed
        if status != 200:
            errors.append(f"{name} write {i}: {status} {str(body)[:300]}")
            return
        got = updates_of(body)
        if len(got) != 3:
            errors.append(f"{name} write {i}: 200 without 3 updates: {body}")
            return
        with acks_lock:
            acks.extend(got)


started = time.monotonic()
for round_ in range(1, ROUNDS + 1):
    before = len(acks)
    stop = threading.Event()
    clients = [threading.Thread(target=client, args=(port, f"{round_}{c}", stop))
               for c in range(1, 5)]
    for c in clients:
        c.start()
    for _ in range(500):
        if len(acks) > before:
            break
        time.sleep(0.02)
    if len(acks) == before:
        fail(f"round {round_}: no write acknowledged within 10 s: {errors}", log)
    time.sleep(random.uniform(0.05, 0.4))
    if process.poll() is not None:
        fail(f"round {round_}: the daemon died before the kill", log)
    process.kill()
    process.wait()
    stop.set()
    for c in clients:
        c.join(timeout=15)
    if errors:
        fail(f"round {round_}: {errors}", log)
    round_acks = acks[before:]
    process, port, log = start()
    # A write the killed daemon had sent may still commit after the restart's replay (PostgreSQL
    # finishes a statement it has received): the new daemon then follows it. So the ledger end
    # must come to hold every record of the journal, 3 updates each (5 s at most), and no half.
    kept = journal_records()
    for _ in range(500):
        end = ledger_end(port)
        if end == SEED_END + 3 * kept:
            break
        time.sleep(0.01)
        kept = journal_records()
    else:
        fail(f"round {round_}: ledger end {end}, but the journal holds {kept} writes (seed's end "
             f"{SEED_END})", log)
    if replayed(log) is None or replayed(log) > kept:
        fail(f"round {round_}: {replayed(log)} writes replayed, {kept} in the journal", log)
    if len(acks) // 3 > kept:
        fail(f"round {round_}: {kept} writes in the journal, {len(acks) // 3} acknowledged")
    verify(port, round_acks, f"round {round_}")
verify(port, acks, "at the end")
kills_seconds = time.monotonic() - started

# 2. PostgreSQL stopped under load, then back.
status, body = call(port, "POST", "/_cantonlite/v1/steps", mints("9001"))
if status != 200:
    fail(f"a write before PostgreSQL stops: {status} {body}", log)
acks.extend(updates_of(body))
pg("stop-server")
end = ledger_end(port)
statuses = []
for i in range(3):
    status, body = call(port, "POST", "/_cantonlite/v1/steps", mints(f"900{i + 2}"))
    statuses.append(status)
    if status == 200:
        fail(f"a write while PostgreSQL is stopped was acknowledged: {body}", log)
    if status != 503 or "PostgreSQL" not in json.dumps(body):
        fail(f"a write while PostgreSQL is stopped: {status} {body} (503 naming PostgreSQL "
             "expected)", log)
# Reads go on.
status, body = call(port, "GET", "/v2/state/ledger-end", token=ALICE_TOKEN)
if status != 200:
    fail(f"a read while PostgreSQL is stopped: {status} {body}", log)
verify(port, acks[-3:], "while PostgreSQL is stopped")
unkept_end = ledger_end(port)  # the first refused write may have been applied, not committed
pg("start-server")
back = None
for _ in range(100):
    status, body = call(port, "POST", "/_cantonlite/v1/steps", mints("9009"))
    if status == 200:
        back = body
        break
    time.sleep(0.1)
if back is None:
    fail(f"writes are not taken again 10 s after PostgreSQL is back: {status} {body}", log)
acks.extend(updates_of(back))
if updates_of(back)[0][0] != unkept_end + 1:
    fail(f"after the outage the next write is at offset {updates_of(back)[0][0]}, "
         f"not {unkept_end + 1}", log)
final_end = ledger_end(port)
process.kill()
process.wait()
process, port, log = start()
if ledger_end(port) != final_end:
    fail(f"after the outage and a SIGKILL: ledger end {ledger_end(port)}, was {final_end}", log)
verify(port, acks, "after the outage")

# 3. Three daemons on one database.
daemons = [(process, port, log)]
for _ in range(2):
    daemons.append(start())


def agree(what):
    """Every daemon reaches the same ledger end (5 s at most) and answers the same bytes."""
    for _ in range(100):
        ends = {ledger_end(p) for _, p, _ in daemons}
        if len(ends) == 1:
            break
        time.sleep(0.05)
    else:
        fail(f"{what}: the daemons do not reach one ledger end: {sorted(ends)}")
    end = ends.pop()
    states = set()
    for _, p, _ in daemons:
        req = urllib.request.Request(f"http://127.0.0.1:{p}/_cantonlite/v1/state")
        with urllib.request.urlopen(req, timeout=30) as r:
            states.add(r.read())
    if len(states) != 1:
        fail(f"{what}: the daemons' state files (GET /_cantonlite/v1/state) differ")
    requests = [(name, method, path, body, headers) for name, method, path, body, headers
                in READS]
    for offset, _ in acks[-30:]:
        requests.append((f"op 1 at {offset}", "POST", "/v2/updates/transaction-by-offset", {
            "offset": offset, "transactionFormat": {
                "eventFormat": {"filtersByParty": {ALICE: {}}, "verbose": True},
                "transactionShape": "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}, None))
    for name, method, path, body, headers in requests:
        answers = set()
        for _, p, _ in daemons:
            status, answer = call(p, method, path, body, ALICE_TOKEN, headers=headers)
            answers.add((status, json.dumps(answer).replace(f"127.0.0.1:{p}", "<host>")))
        if len(answers) != 1:
            fail(f"{what}: the daemons answer {name} ({method} {path}) differently: "
                 f"{[a[1][:200] for a in answers]}")
    return end


def write_everywhere(tag, clients_per_daemon, count=None, stop=None, refused=None):
    """Clients writing to every daemon at once, `count` writes each or until `stop` is set (or
    their daemon is killed); returns the threads and the (offset, update id) acknowledged. With
    `refused` (a list), a 503 is counted there and the client goes on."""
    got = []
    lock = threading.Lock()

    def one(port, name):
        i = 0
        while (count is None or i < count) and not (stop and stop.is_set()):
            i += 1
            try:
                status, body = call(port, "POST", "/_cantonlite/v1/steps", mints(f"{name}{i:03d}"))
            except OSError:
                return  # killed
            if status == 503 and refused is not None and "PostgreSQL" in json.dumps(body):
                refused.append(name)
                time.sleep(0.05)
                continue
            if status != 200:
                errors.append(f"{name} write {i}: {status} {str(body)[:300]}")
                return
            with lock:
                got.extend(updates_of(body))

    threads = [threading.Thread(target=one, args=(p, f"{tag}{d}{c}"))
               for d, (_, p, _) in enumerate(daemons) for c in range(clients_per_daemon)]
    for t in threads:
        t.start()
    return threads, got


def no_offset_twice(got):
    seen = {}
    for offset, update_id in got:
        if seen.setdefault(offset, update_id) != update_id:
            fail(f"offset {offset} was given to two writes: {seen[offset]} and {update_id}")


threads, got = write_everywhere("7", 2, count=25)
for t in threads:
    t.join()
if errors:
    fail(f"writes on three daemons: {errors}")
no_offset_twice(got)
if len(got) != 3 * 2 * 25 * 3:
    fail(f"{len(got)} updates acknowledged, {3 * 2 * 25 * 3} expected")
acks.extend(got)
agree("after writes on three daemons")
for _, p, _ in daemons:
    verify(p, got, "on every daemon")

# PostgreSQL restarted while the three daemons take writes: writes in the outage answer 503;
# afterwards every daemon takes writes again, all agree, and every acknowledged write is there.
stop = threading.Event()
refused = []
threads, got = write_everywhere("5", 2, stop=stop, refused=refused)
time.sleep(0.3)
pg("stop-server")
for _ in range(1000):  # until the daemons refuse writes (10 s at most)
    if len(refused) >= 3:
        break
    time.sleep(0.01)
pg("start-server")
before_back = len(got)
for _ in range(100):
    if len(got) > before_back + 30:
        break
    time.sleep(0.1)
stop.set()
for t in threads:
    t.join()
if errors:
    fail(f"writes on three daemons while PostgreSQL restarts: {errors}")
if not refused:
    fail("no write was refused while PostgreSQL was stopped")
if len(got) <= before_back:
    fail("no write was taken after PostgreSQL came back")
no_offset_twice(acks + got)
acks.extend(got)
agree("after PostgreSQL restarted under writes")
for _, p, _ in daemons:
    verify(p, got, "after PostgreSQL restarted, on every daemon")
restart_refused = len(refused)

# Visibility: a write on one daemon, seen on another.
delays = []
for i in range(60):
    (_, writer, _), (_, reader, _) = daemons[i % 3], daemons[(i + 1) % 3]
    status, body = call(writer, "POST", "/_cantonlite/v1/steps", mints(f"8{i:03d}"))
    if status != 200:
        fail(f"a write for the visibility: {status} {body}")
    acks.extend(updates_of(body))
    offset = updates_of(body)[-1][0]
    t0 = time.monotonic()
    while ledger_end(reader) < offset:
        if time.monotonic() - t0 > 5:
            fail(f"a write at offset {offset} is not seen on another daemon within 5 s")
        time.sleep(0.001)
    delays.append((time.monotonic() - t0) * 1000)
delays.sort()
p50, p99 = delays[len(delays) // 2], delays[-1]

# One daemon SIGKILLed under writes: the others go on; it comes back with every write.
stop = threading.Event()
threads, got = write_everywhere("6", 2, stop=stop)
time.sleep(0.4)
victim, _, victim_log = daemons[1]
victim.kill()
victim.wait()
# The others go on: 30 more writes acknowledged after the kill (10 s at most).
after_kill = len(got)
for _ in range(1000):
    if len(got) >= after_kill + 3 * 30:
        break
    time.sleep(0.01)
else:
    fail("the other daemons stopped taking writes after one was killed")
stop.set()
for t in threads:
    t.join()
if errors:
    fail(f"writes while a daemon is killed: {errors}")
no_offset_twice(acks + got)
acks.extend(got)
daemons[1] = start()
agree("after a daemon was killed and restarted")
for _, p, _ in daemons:
    verify(p, got, "after the kill, on every daemon")
for proc, _, log_ in daemons:
    proc.terminate()
    proc.wait(timeout=20)
    if proc.returncode != 0:
        fail(f"SIGTERM: exit {proc.returncode}", log_)

# 4. Refusals; the password stays out of the output.
secret_url = URL.replace("cantonlite@", "cantonlite:s3cret@")
code, out, err = run_refused(["--seed", OTHER_SEED, "--journal", secret_url])
if code != 2 or out or len(err.strip().splitlines()) != 1 or "written for another seed" not in err \
        or "s3cret" in err or "cantonlite:***@" not in err:
    fail(f"another seed's journal: exit {code}, stdout {out!r}, stderr {err!r}")

pg("stop")
print(f"postgres.check: {ROUNDS} kills under 4 writers ({kills_seconds:.0f} s), {len(acks) // 3} "
      f"acknowledged writes, all present; PostgreSQL stopped and started under writes: 503s, "
      f"nothing lost; three daemons on one database agree (their state files, and {len(READS) + 30} "
      f"requests of every API, byte for byte), a write seen on another daemon in "
      f"{p50:.1f} ms (median), {p99:.1f} ms (max of 60); PostgreSQL restarted under their "
      f"writes ({restart_refused} answered 503, none lost); one killed under writes, the others "
      f"went on; another seed's journal refused")
