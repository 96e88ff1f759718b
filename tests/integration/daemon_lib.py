"""Helpers for the Python tests that run the cantonlite executable (and other processes): start
one and wait for its start-up line, and fail with its log, stopping everything started."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time


class Check:
    """One ctest check: its name in failures, and the processes it started."""

    def __init__(self, name):
        self.name = name
        self.processes = []

    def fail(self, message, log=None):
        print(f"FAIL {self.name}: {message}")
        if log:
            with open(log) as f:
                print("--- log:\n" + f.read()[-3000:])
        for p in self.processes:
            p.kill()
        sys.exit(1)

    def start(self, args, pattern, what, seconds=30):
        """Starts `args` with its output in a log file; returns (the first group of `pattern` in
        that output, the log's path, the process) once it appears."""
        log = tempfile.NamedTemporaryFile(delete=False, suffix=".log").name
        process = subprocess.Popen(args, stdout=open(log, "w"), stderr=subprocess.STDOUT)
        self.processes.append(process)
        for _ in range(seconds * 10):
            with open(log) as f:
                found = re.search(pattern, f.read())
            if found:
                return found.group(1), log, process
            if process.poll() is not None:
                break
            time.sleep(0.1)
        self.fail(what + " did not start", log)

    def start_daemon(self, binary, *args):
        """`binary serve --port 0 args...`; returns (process, port, log)."""
        port, log, process = self.start([binary, "serve", "--port", "0", *args],
                                        r"serving on [^ ]*:(\d+) ", "the daemon")
        return process, int(port), log

    def stop_all(self):
        for p in self.processes:
            p.terminate()
            p.wait(timeout=10)


# ---- the request lists of tests/openapi, as read requests of a running network ----

def is_write(case):
    """Whether a case of tests/openapi changes the network."""
    method, path = case["method"], case["path"].split("?")[0]
    if method in ("PATCH", "DELETE", "PUT"):
        return True
    if method != "POST":
        return False
    return (path.startswith("/v2/commands/") and path != "/v2/commands/completions") or \
        path.startswith("/v2/interactive-submission/execute") or \
        path in ("/v2/parties", "/v2/users", "/v2/parties/external/allocate") or \
        path.endswith("/rights") or path.startswith("/_cantonlite/")


def nondeterministic(case):
    """Answers that differ on every call, on any daemon: a prepared transaction names a fresh
    uuid (its contract ids' salt)."""
    return case["path"].startswith("/v2/interactive-submission/prepare")


def cases(openapi_dir, *files):
    out = []
    for name in files:
        with open(os.path.join(openapi_dir, name)) as f:
            out += json.load(f)
    return out


def with_token(case, bearer):
    headers = dict(case.get("headers") or {})
    if "Authorization" not in headers:
        headers["Authorization"] = "Bearer " + bearer
    return headers


def read_requests(openapi_dir, user_token, admin_token):
    """Every read of tests/openapi's lists of the default network (the Ledger API, Scan, the
    validator, the registry; as the user, the participant admin for its admin cases) and the
    admin API's reads: (name, method, path, body, headers)."""
    reads = []
    for case in cases(openapi_dir, "default-network.json", "ledger-read.json", "scan-both.json",
                      "validator.json", "ledger-commands.json", "ledger-external-parties.json"):
        if not is_write(case) and not nondeterministic(case):
            reads.append((case["name"], case["method"], case["path"], case.get("body"),
                          with_token(case, user_token)))
    for case in cases(openapi_dir, "ledger-admin.json"):
        if not is_write(case):
            reads.append((case["name"], case["method"], case["path"], case.get("body"),
                          with_token(case, admin_token)))
    for path in ("/_cantonlite/v1/network", "/_cantonlite/v1/time", "/_cantonlite/v1/overview",
                 "/_cantonlite/v1/snapshots"):
        reads.append(("admin " + path, "GET", path, None, {}))
    return reads
