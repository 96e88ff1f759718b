#!/usr/bin/env python3
"""metrics.check: GET /metrics of a running daemon, read with Prometheus' own text-format parser
(Debian's python3-prometheus-client), and checked against the requests this test sends.

- Every line parses; every family has its TYPE; histograms' buckets never decrease and +Inf is
  the count.
- Requests are counted under their route template, never their raw path: the ids in the paths
  appear nowhere, and 60 requests on distinct paths add no series.
- The ledger end is the admin API's; snapshots and writes count what the admin API did; the
  open connections, memory and CPU are there.

Usage: metrics_test.py BIN SOURCE_DIR. Exits 77 (skipped) when the parser is not installed.
"""
import os
import re
import sys
import urllib.error
import urllib.request
import uuid

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("metrics.check: skipped: python3-prometheus-client is not installed "
          "(scripts/install-deps.sh installs it)")
    sys.exit(77)

from daemon_lib import Check

BIN, SRC = sys.argv[1], sys.argv[2]


CHECK = Check("metrics.check")
fail = CHECK.fail


def start_daemon():
    return CHECK.start_daemon(BIN, "--seed", os.path.join(SRC, "config/default-network.json"))


def call(port, method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=body)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def scrape(port, log):
    status, headers, text = call(port, "GET", "/metrics")
    if status != 200:
        fail(f"GET /metrics answered {status}: {text[:300]}", log)
    if headers.get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8":
        fail("Content-Type " + str(headers.get("Content-Type")), log)
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as error:  # the parser's ValueError and friends
        fail(f"the exposition does not parse: {error!r}", log)
    return text, {f.name: f for f in families}


def check_well_formed(text, families, log):
    declared = set(re.findall(r"^# TYPE (\S+) ", text, re.M))
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0)
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        if name not in declared and base not in declared:
            fail(f"a sample of an undeclared family: {line}", log)
    for family in families.values():
        if family.type != "histogram":
            continue
        series = {}
        for s in family.samples:
            key = tuple(sorted((k, v) for k, v in s.labels.items() if k != "le"))
            series.setdefault(key, {"buckets": [], "count": None})
            if s.name.endswith("_bucket"):
                series[key]["buckets"].append((float(s.labels["le"]), s.value))
            elif s.name.endswith("_count"):
                series[key]["count"] = s.value
        for key, h in series.items():
            values = [v for _, v in sorted(h["buckets"])]
            if values != sorted(values):
                fail(f"{family.name}{key}: buckets decrease: {values}", log)
            if not h["buckets"] or h["buckets"][-1][0] != float("inf") or values[-1] != h["count"]:
                fail(f"{family.name}{key}: +Inf bucket is not the count", log)


def value(families, family, **labels):
    if family not in families:
        return 0
    for s in families[family].samples:
        if s.name.endswith(("_bucket", "_sum", "_created")):
            continue
        if all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return 0


def requests(families, **labels):
    return value(families, "cantonlite_http_requests", **labels)


def main():
    process, port, log = start_daemon()
    try:
        text, before = scrape(port, log)
        check_well_formed(text, before, log)

        ids = [uuid.uuid4().hex for _ in range(2)]
        for _ in range(3):
            call(port, "GET", "/api/scan/v0/dso-party-id")
        for i in ids:
            call(port, "GET", f"/api/scan/v0/voterequests/{i}")
        call(port, "GET", f"/no/such/{ids[0]}")
        status, _, body = call(port, "POST", "/_cantonlite/v1/snapshots")
        if status != 200:
            fail(f"POST /_cantonlite/v1/snapshots answered {status}: {body}", log)

        text, after = scrape(port, log)
        check_well_formed(text, after, log)
        for i in ids:
            if i in text:
                fail("a raw path is in a label: " + i, log)

        dso = dict(area="scan", method="GET", route="/api/scan/v0/dso-party-id", status="200")
        if requests(after, **dso) - requests(before, **dso) != 3:
            fail(f"dso-party-id counted {requests(after, **dso)}, expected 3 more", log)
        vote = dict(area="scan", method="GET",
                    route="/api/scan/v0/voterequests/{vote_request_contract_id}")
        vote_now = sum(s.value for s in after["cantonlite_http_requests"].samples
                       if all(s.labels.get(k) == v for k, v in vote.items()))
        if vote_now != 2:
            fail(f"voterequests counted {vote_now} under its template, expected 2", log)
        unknown = dict(area="root", method="other", route="unmatched", status="404")
        if requests(after, **unknown) - requests(before, **unknown) != 1:
            fail("the unknown path was not counted as root/unmatched/404", log)
        count = value(after, "cantonlite_http_request_duration_seconds",
                      area="scan", method="GET", route="/api/scan/v0/dso-party-id")
        if count < 3:
            fail(f"the dso-party-id histogram counts {count}", log)

        _, _, clock = call(port, "GET", "/_cantonlite/v1/time")
        end = int(re.search(r'"ledger_end"\s*:\s*(\d+)', clock).group(1))
        if value(after, "cantonlite_ledger_end_offset") != end:
            fail(f"ledger end {value(after, 'cantonlite_ledger_end_offset')}, the admin API {end}",
                 log)
        if value(after, "cantonlite_admin_writes", kind="snapshot") != 1:
            fail("the snapshot was not counted", log)
        if value(after, "cantonlite_snapshots") != 1:
            fail("cantonlite_snapshots is not 1", log)
        amulets = value(after, "cantonlite_active_contracts",
                        template="splice-amulet:Splice.Amulet:Amulet")
        if amulets <= 0:
            fail("no active Amulet counted", log)
        if value(after, "cantonlite_open_connections") < 1:
            fail("no open connection counted (this scrape's own)", log)
        for gauge in ("process_resident_memory_bytes", "process_open_fds",
                      "process_start_time_seconds"):
            if value(after, gauge) <= 0:
                fail(gauge + " is not positive", log)

        # Bounded labels: distinct raw paths land in the series there already are. Counted from a
        # scrape taken after every other request (the admin API's /time above adds a series).
        text, _ = scrape(port, log)
        series_before = len(re.findall(r"^cantonlite_http_requests_total\{", text, re.M))
        for _ in range(30):
            call(port, "GET", f"/api/scan/v0/voterequests/{uuid.uuid4().hex}")
            call(port, "GET", f"/nowhere/{uuid.uuid4().hex}")
        text, _ = scrape(port, log)
        series_after = len(re.findall(r"^cantonlite_http_requests_total\{", text, re.M))
        # The scrape itself may add the /metrics 200 series, once.
        if series_after > series_before + 1:
            fail(f"60 requests on distinct paths grew the series {series_before} -> {series_after}",
                 log)
        print(f"metrics.check: {len(after)} families, {series_after} request series; passed")
    finally:
        process.terminate()
        process.wait(timeout=10)
        os.unlink(log)


main()
