#!/usr/bin/env python3
"""localnet.check: `serve --localnet` answers on Splice LocalNet's URLs from the one ledger.

- Every operation's example request (`describe --json`) gets, on its LocalNet URL, the status it
  expects and the same body as on the main port: the JSON Ledger API on 2975, 3975 and 4975 and
  as canton.localhost:4000 / json-ledger-api.localhost:2000; the validator on 2903, 3903 and 4903
  and as wallet.localhost:2000/3000/4000; Scan as scan.localhost:4000 (the Host header), with the
  token-standard registry at its root.
- A host name nginx does not route is a 404; a write on the main port shows on every listener.
- A second daemon on the same ports prints one line naming the port and exits with code 1.
- With the shipped config, --localnet loads the LocalNet-shaped network: app-user, app-provider
  and sv each have their wallet on their own role's validator (2903/3903/4903 and
  wallet.localhost:2000/3000/4000) and no other, with tokens made as LocalNet's clients make them;
  ledger-api-user reads on every ledger port.

Usage: localnet_test.py BIN SOURCE_DIR. Exits 77 (skipped, the reason printed) when one of
LocalNet's ports is taken on this machine.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from daemon_lib import Check

BIN, SRC = sys.argv[1], sys.argv[2]
SEED = os.path.join(SRC, "config/default-network.json")
PORTS = [2975, 3975, 4975, 2903, 3903, 4903, 2000, 3000, 4000]
CHECK = Check("localnet.check")
fail = CHECK.fail

for port in PORTS:
    with socket.socket() as s:
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
        except OSError:
            print(f"localnet.check: skipped: port {port} is in use on this machine")
            sys.exit(77)


def call(port, method, path, body=None, host=None, token=None):
    headers = {}
    if host:
        headers["Host"] = host
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=data,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def localnet_urls(path):
    """(port, Host header) pairs that reach `path` on LocalNet."""
    if path.startswith("/v2/"):
        return [(2975, None), (3975, None), (4975, None),
                (2000, "json-ledger-api.localhost:2000"), (3000, "canton.localhost:3000"),
                (4000, "canton.localhost:4000")]
    if path.startswith("/api/validator/"):
        return [(2903, None), (3903, None), (4903, None), (2000, "wallet.localhost:2000"),
                (3000, "localhost:3000"), (4000, "wallet.localhost:4000")]
    if path.startswith("/api/scan/"):
        return [(4000, "scan.localhost:4000")]
    fail("an example outside the three APIs: " + path)


def main():
    daemon, port, log = CHECK.start_daemon(BIN, "--localnet", "--seed", SEED)
    network = json.loads(call(port, "GET", "/_cantonlite/v1/network")[1])
    tokens = {}
    checked = 0
    ops = set()
    for example in network["examples"]:
        user = example["user"]
        if user and user not in tokens:
            tokens[user] = subprocess.run([BIN, "token", "--user", user, "--seed", SEED],
                                          capture_output=True, text=True, check=True).stdout.strip()
        token = tokens.get(user)
        want_status, want_body = call(port, example["method"], example["path"], example["body"],
                                      token=token)
        if want_status != example["expect_status"]:
            fail(f"op {example['op']} on the main port: {want_status}", log)
        for lport, host in localnet_urls(example["path"]):
            status, body = call(lport, example["method"], example["path"], example["body"],
                                host=host, token=token)
            where = f"op {example['op']} {example['path']} on :{lport} as {host}"
            if status != want_status:
                fail(f"{where}: {status}, the main port {want_status}: {body[:300]!r}", log)
            if status == 200 and body != want_body:
                fail(f"{where}: another body than the main port's", log)
            checked += 1
        ops.add(example["op"])
    if ops != set(range(1, 14)):
        fail(f"the examples cover ops {sorted(ops)}, not 1-13")

    # The token standard's registry at Scan's root, as LocalNet's nginx passes /registry on.
    status, body = call(4000, "GET", "/registry/metadata/v1/info", host="scan.localhost:4000")
    if status != 200 or json.loads(body)["adminId"] != network["dso_party"]:
        fail(f"the registry on scan.localhost:4000: {status} {body[:300]!r}")
    status, body = call(4000, "GET", "/api/scan/v0/dso-party-id", host="sv.localhost:4000")
    if status != 404:
        fail(f"an unrouted host name: {status}")
    status, body = call(4000, "GET", "/api/scan/v0/dso-party-id")  # Host 127.0.0.1:4000
    if status != 404:
        fail(f"no host name on 4000: {status}")

    end = json.loads(call(port, "POST", "/_cantonlite/v1/steps",
                          {"step": "mint", "owner": "alice", "amount": "3"})[1])["ledger_end"]
    for lport in (2975, 3975, 4975):
        status, body = call(lport, "GET", "/v2/state/ledger-end", token=tokens["alice"])
        if status != 200 or json.loads(body)["offset"] != end:
            fail(f"ledger end on :{lport} after a write: {status} {body!r}, want {end}")

    second = subprocess.run([BIN, "serve", "--port", "0", "--localnet", "--seed", SEED],
                            capture_output=True, text=True, timeout=30)
    lines = [l for l in second.stderr.splitlines() if l.strip()]
    if second.returncode != 1 or len(lines) != 1 or \
            not re.match(r"cantonlite: cannot listen on 127\.0\.0\.1:\d+: ", lines[0]):
        fail(f"a second daemon: exit {second.returncode}, stderr {second.stderr!r}")

    CHECK.stop_all()
    roles = check_the_localnet_network()
    print(f"localnet.check: ok ({checked} requests on LocalNet URLs, ops 1-13; a port conflict: "
          f"{lines[0]!r}, exit 1; the LocalNet network: {roles})")


def localnet_token(user):
    """An HS256 token as LocalNet's clients make one (conf/splice/*/app-auth.conf: secret "unsafe",
    audience https://canton.network.global), not by cantonlite."""
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    now = int(time.time())
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = b64(json.dumps({"sub": user, "aud": "https://canton.network.global",
                             "iat": now - 10, "exp": now + 3600}).encode())
    mac = hmac.new(b"unsafe", f"{head}.{claims}".encode(), hashlib.sha256).digest()
    return f"{head}.{claims}.{b64(mac)}"


def check_the_localnet_network():
    """`serve --localnet` with the shipped config loads the LocalNet-shaped network: LocalNet's
    wallet users, each on their role's validator only, and ledger-api-user on every ledger port."""
    daemon, port, log = CHECK.start_daemon(BIN, "--localnet")
    overview = json.loads(call(port, "GET", "/_cantonlite/v1/overview")[1])
    if overview["token_command"] != "cantonlite token --localnet":
        fail(f"the page's token command: {overview['token_command']!r}", log)
    users = {u["user"]: u for u in overview["rights"]}
    if sorted(users) != ["app-provider", "app-user", "ledger-api-user", "sv"]:
        fail(f"the LocalNet network's users: {sorted(users)}", log)
    offers = "/api/validator/v0/wallet/transfer-offers"
    homes = {"app-user": 2, "app-provider": 3, "sv": 4}
    served = []
    for user, digit in homes.items():
        made = subprocess.run([BIN, "token", "--localnet", "--user", user], capture_output=True,
                              text=True, check=True).stdout.strip()
        for token in (made, localnet_token(user)):
            for other in homes.values():
                for lport, host in ((other * 1000 + 903, None),
                                    (other * 1000, f"wallet.localhost:{other * 1000}")):
                    status, body = call(lport, "GET", offers, host=host, token=token)
                    want = 200 if other == digit else 404
                    if status != want:
                        fail(f"{user}'s transfer offers on :{lport} as {host}: {status}, want "
                             f"{want}: {body[:300]!r}", log)
                    if want == 404 and b"No wallet found for user '" + user.encode() not in body:
                        fail(f"{user} on :{lport}: {body[:300]!r}", log)
        served.append(f"{user} on {digit}903")
    for lport in (2975, 3975, 4975):
        status, body = call(lport, "GET", "/v2/state/ledger-end",
                            token=localnet_token("ledger-api-user"))
        if status != 200:
            fail(f"ledger-api-user's ledger end on :{lport}: {status} {body!r}", log)
    CHECK.stop_all()
    return ", ".join(served) + ", ledger-api-user on 2975/3975/4975"


main()
