// The harness of the wallet SDK flows (read_flow.mjs, write_flow.mjs): options, steps,
// assertions, the admin API, tracing of every HTTP request and WebSocket the SDK makes, and the
// parent process that runs a flow as a child with WebSocket enabled and drops the SDK's pino lines.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The usage of a flow: `name`'s own lines (--owner-user, --sender-user: what the flow does with
// those users) amid the options every flow takes.
export function usage(name, userLines) {
    return `usage: node ${name}.mjs [options]
  --url URL            cantonlite base URL, admin API at URL/_cantonlite/v1   [CANTONLITE_URL, http://127.0.0.1:7575]
  --ledger-url URL     JSON Ledger API base (SDK ledgerClientUrl)              [LEDGER_URL, --url]
  --scan-url URL       Scan API base (amulet.scanApiUrl)                       [SCAN_URL, --url/api/scan]
  --validator-url URL  validator API base (token/amulet validatorUrl)          [VALIDATOR_URL, --url/api/validator]
  --registry-url URL   token standard registry base (token.registries[0])     [REGISTRY_URL, --validator-url/v0/scan-proxy]
  --ws-url URL         WebSocket base of the ledger (events.websocketURL)      [WS_URL, --ledger-url as ws://]
  --user ID            ledger API user, self-signed token's sub                [SDK_USER, ledger-api-user]
  --secret S           HS256 secret of self-signed tokens                      [SDK_SECRET, unsafe]
  --audience A         token audience                                          [SDK_AUDIENCE, https://canton.network.global]
  --issuer I           token issuer                                            [SDK_ISSUER, unsafe-auth]
  --token T            a ready token (SDK auth method "static") instead        [SDK_TOKEN]
${userLines}
  --admin-token T      bearer token of the admin API (non-loopback daemons)    [CANTONLITE_ADMIN_TOKEN]
  --keep               do not revert the network to the snapshot at the end
  --only a,b           run only these steps (connect always runs)
  --timeout-ms N       per step                                                [20000]
  --trace              print every HTTP request and WebSocket frame of the SDK
  --verbose            copy the SDK's own log lines to stderr
  --help`;
}

// What every flow starts with: its options (a bad command line exits 2 with `help`), tracing,
// the step runner, what the steps learn (`ctx`, and `want`, which fails a step that needs what an
// earlier step did not learn), the SDK's auth and a log adapter for its own loggers.
export async function startFlow(name, help) {
    let opts;
    try {
        opts = parseOptions(process.argv.slice(2));
    } catch (e) {
        console.error(`${name}: ${e.message}\n${help}`);
        process.exit(2);
    }
    installTracing(opts);
    const { CustomLogAdapter } = await import('@canton-network/wallet-sdk');
    const results = [];
    const ctx = {};
    const want = (key, what) => {
        if (ctx[key] === undefined) throw new Error(`skipped: ${what ?? key} unknown (an earlier step failed)`);
        return ctx[key];
    };
    const auth = opts.token
        ? { method: 'static', token: opts.token }
        : {
            method: 'self_signed',
            issuer: opts.issuer,
            credentials: { clientId: opts.user, clientSecret: opts.secret, audience: opts.audience, scope: '' },
        };
    const logAdapter = new CustomLogAdapter((level, c, message) => {
        if (opts.verbose) process.stderr.write(`sdk ${level} ${message ?? ''} ${safeJson(c, 400)}\n`);
    });
    return { opts, results, ctx, want, step: makeStep(opts, results), auth, logAdapter };
}

// One step: `fn` under the timeout; prints `ok <step>: <summary>` or `FAIL <step>: <reason>
// [the failed requests]`. connect and setup always run; --only picks the others.
export function makeStep(opts, results) {
    return async function step(name, fn) {
        if (opts.only && !opts.only.includes(name) && name !== 'connect' && name !== 'setup') return;
        currentStep = name;
        const started = Date.now();
        let line;
        try {
            const summary = await withTimeout(fn(), opts.timeoutMs, `timed out after ${opts.timeoutMs} ms`);
            line = `ok ${name}: ${summary}`;
            results.push(true);
        } catch (e) {
            const http = failedHttp(name);
            // The SDK rethrows a failed answer's parsed body: the request line already shows it.
            const thrownBody = !(e instanceof Error) && http;
            line = `FAIL ${name}: ${thrownBody ? 'the SDK threw the answer\'s body' : describeError(e)}${http}`;
            results.push(false);
        }
        closeSockets(name);
        console.log(`${line} (${Date.now() - started} ms)`);
        currentStep = null;
    };
}

// Options, assertions, tracing.
export function parseOptions(argv) {
    const env = process.env;
    const flags = new Set(['--keep', '--trace', '--verbose']);
    const known = ['url', 'ledger-url', 'scan-url', 'validator-url', 'registry-url', 'ws-url', 'user', 'secret',
        'audience', 'issuer', 'token', 'owner-user', 'sender-user', 'admin-token', 'keep', 'only', 'timeout-ms',
        'trace', 'verbose'];
    const o = {};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (!a.startsWith('--')) throw new Error(`unexpected argument '${a}'`);
        if (flags.has(a)) { o[a.slice(2)] = true; continue; }
        const eqAt = a.indexOf('=');
        const key = eqAt > 0 ? a.slice(2, eqAt) : a.slice(2);
        if (!known.includes(key)) throw new Error(`unknown option --${key}`);
        const value = eqAt > 0 ? a.slice(eqAt + 1) : argv[++i];
        if (value === undefined) throw new Error(`${a} needs a value`);
        o[key] = value;
    }
    const strip = (u) => u.replace(/\/+$/, '');
    const url = strip(o.url ?? env.CANTONLITE_URL ?? 'http://127.0.0.1:7575');
    const ledgerUrl = strip(o['ledger-url'] ?? env.LEDGER_URL ?? url);
    const validatorUrl = strip(o['validator-url'] ?? env.VALIDATOR_URL ?? `${url}/api/validator`);
    const r = {
        url,
        ledgerUrl,
        scanUrl: strip(o['scan-url'] ?? env.SCAN_URL ?? `${url}/api/scan`),
        validatorUrl,
        registryUrl: strip(o['registry-url'] ?? env.REGISTRY_URL ?? `${validatorUrl}/v0/scan-proxy`),
        wsUrl: o['ws-url'] ?? env.WS_URL ?? ledgerUrl.replace(/^http/, 'ws'),
        user: o.user ?? env.SDK_USER ?? 'ledger-api-user',
        secret: o.secret ?? env.SDK_SECRET ?? 'unsafe',
        audience: o.audience ?? env.SDK_AUDIENCE ?? 'https://canton.network.global',
        issuer: o.issuer ?? env.SDK_ISSUER ?? 'unsafe-auth',
        token: o.token ?? env.SDK_TOKEN,
        ownerUser: o['owner-user'] ?? env.OWNER_USER ?? 'app-user',
        senderUser: o['sender-user'] ?? env.SENDER_USER ?? 'app-provider',
        adminToken: o['admin-token'] ?? env.CANTONLITE_ADMIN_TOKEN,
        keep: !!o.keep,
        only: o.only ? o.only.split(',') : null,
        timeoutMs: Number(o['timeout-ms'] ?? 20000),
        trace: !!o.trace,
        verbose: !!o.verbose,
    };
    for (const k of ['url', 'ledgerUrl', 'scanUrl', 'validatorUrl', 'registryUrl', 'wsUrl']) new URL(r[k]);
    if (!(r.timeoutMs > 0)) throw new Error('--timeout-ms must be a positive number');
    return r;
}

export class CheckFailed extends Error {}
export function check(cond, message) { if (!cond) throw new CheckFailed(message); }
export function eq(actual, expected, what) {
    if (actual !== expected) throw new CheckFailed(`${what}: expected ${fmt(expected)}, got ${fmt(actual)}`);
}
export function eqNum(actual, expected, what) {
    if (!(Math.abs(Number(actual) - Number(expected)) < 1e-9)) throw new CheckFailed(`${what}: expected ${expected}, got ${fmt(actual)}`);
}
export function fmt(v) { return typeof v === 'string' ? `'${v}'` : safeJson(v, 200); }
export function short(s) { return typeof s === 'string' && s.length > 24 ? `${s.slice(0, 16)}…${s.slice(-6)}` : String(s); }
export function safeJson(v, max = 300) {
    let s;
    try { s = JSON.stringify(v); } catch { s = String(v); }
    if (s === undefined) s = String(v);
    return s.length > max ? `${s.slice(0, max)}…` : s;
}
export function describeError(e) {
    if (e instanceof CheckFailed) return e.message;
    if (e instanceof Error) {
        const cause = e.cause ? ` (cause: ${e.cause instanceof Error ? e.cause.message : safeJson(e.cause, 200)})` : '';
        const ctx = e.context && e.context.type ? ` [SDKError ${e.context.type}]` : '';
        return `${e.constructor.name}: ${e.message}${ctx}${cause}`;
    }
    return `thrown ${safeJson(e, 300)}`;
}
export function withTimeout(promise, ms, message) {
    let t;
    return Promise.race([
        Promise.resolve(promise).finally(() => clearTimeout(t)),
        new Promise((_, reject) => { t = setTimeout(() => reject(new CheckFailed(message ?? 'timeout')), ms); }),
    ]);
}

export async function finish(results, opts) {
    if (ctxSnapshot() && !opts.keep) {
        try {
            await admin('POST', `/snapshots/${ctxSnapshot()}/revert`);
        } catch (e) {
            console.log(`note: could not revert to snapshot ${ctxSnapshot()}: ${describeError(e)}`);
        }
    }
    const failed = results.filter((x) => !x).length;
    console.log(`${failed === 0 ? 'PASS' : 'FAIL'}: ${results.length - failed} ok, ${failed} failed`);
    process.exitCode = failed === 0 ? 0 : 1;
    setTimeout(() => process.exit(process.exitCode), 200).unref();
}

// The admin API (not the SDK): what the steps are checked against.
let adminOpts;
let snapshotId;
function ctxSnapshot() { return snapshotId; }
export async function admin(method, path, body) {
    const headers = { 'Content-Type': 'application/json' };
    if (adminOpts.adminToken) headers.Authorization = `Bearer ${adminOpts.adminToken}`;
    const res = await rawFetch(`${adminOpts.url}/_cantonlite/v1${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    const json = text ? JSON.parse(text) : null;
    if (method === 'POST' && path === '/snapshots') snapshotId = json.id;
    return json;
}

// Every HTTP request and WebSocket the SDK makes goes through these wrappers: --trace prints them,
// and a failing step names its failed requests.
let rawFetch;
let currentStep = null;
const httpLog = [];
const sockets = [];
export function installTracing(opts) {
    adminOpts = opts;
    rawFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
        const req = new Request(input, init);
        const reqBody = req.body ? await req.clone().text() : '';
        const entry = { step: currentStep, method: req.method, url: req.url, auth: authOf(req.headers.get('authorization')),
                        contentType: req.headers.get('content-type'), reqBody };
        httpLog.push(entry);
        try {
            const res = await rawFetch(req);
            entry.status = res.status;
            entry.resBody = await res.clone().text();
            if (opts.trace) traceHttp(entry);
            return res;
        } catch (e) {
            entry.status = 'network error';
            entry.resBody = e.cause?.message ?? e.message;
            if (opts.trace) traceHttp(entry);
            throw e;
        }
    };
    const RealWebSocket = globalThis.WebSocket;
    if (!RealWebSocket) return;
    globalThis.WebSocket = class extends RealWebSocket {
        constructor(url, protocols) {
            super(url, protocols);
            const step = currentStep;
            sockets.push({ step, ws: this });
            const protos = (Array.isArray(protocols) ? protocols : [protocols]).filter(Boolean)
                .map((p) => (p.startsWith('jwt.token.') ? `jwt.token.${authOf(`Bearer ${p.slice(10)}`)}` : p));
            const entry = { step, method: 'WS', url: String(url), protocols: protos };
            httpLog.push(entry);
            if (opts.trace) console.log(`    > WS ${url} subprotocols [${protos.join(', ')}]`);
            this.addEventListener('open', () => {
                entry.status = `open (server chose '${this.protocol}')`;
                if (opts.trace) console.log(`    < WS open, Sec-WebSocket-Protocol '${this.protocol}'`);
            });
            this.addEventListener('message', (ev) => {
                if (opts.trace) console.log(`    < WS frame ${String(ev.data).slice(0, 400)}`);
            });
            this.addEventListener('error', (ev) => {
                entry.status = entry.status ?? 'error';
                entry.resBody = ev.message ?? ev.error?.message ?? 'WebSocket error event';
                if (opts.trace) console.log(`    < WS error ${entry.resBody}`);
            });
            this.addEventListener('close', (ev) => {
                entry.closed = `close ${ev.code} '${ev.reason}'`;
                if (opts.trace) console.log(`    < WS close code ${ev.code} reason '${ev.reason}'`);
            });
        }
        send(data) {
            if (opts.trace) console.log(`    > WS send ${String(data).slice(0, 2000)}`);
            super.send(data);
        }
    };
}
export function closeSockets(step) {
    for (const s of sockets) if (s.step === step && s.ws.readyState <= 1) s.ws.close();
}
export function authOf(h) {
    if (!h) return null;
    const m = /^Bearer (.+)$/.exec(h);
    if (!m) return h;
    try {
        const [hd, pl] = m[1].split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
        return `<${hd.alg} jwt sub=${pl.sub} aud=${JSON.stringify(pl.aud)} scope=${JSON.stringify(pl.scope)} iss=${pl.iss}>`;
    } catch {
        return '<opaque token>';
    }
}
export function traceHttp(e) {
    const u = new URL(e.url);
    const body = e.reqBody ? ` body ${e.reqBody.length > 2000 ? e.reqBody.slice(0, 2000) + '…' : e.reqBody}` : '';
    console.log(`    > ${e.method} ${u.pathname}${u.search} auth ${e.auth ?? 'none'} ct ${e.contentType ?? 'none'}${body}`);
    console.log(`    < ${e.status} ${String(e.resBody).slice(0, 400).replace(/\s+/g, ' ')}`);
}
export function failedHttp(step) {
    const bad = httpLog.filter((e) => e.step === step && (e.method === 'WS'
        ? !String(e.status ?? '').startsWith('open') : !(e.status >= 200 && e.status < 300)));
    if (bad.length === 0) return '';
    return ' [' + bad.slice(0, 3).map((e) => {
        const u = new URL(e.url);
        return `${e.method} ${u.pathname}${u.search} -> ${e.status ?? 'no answer'}${e.closed ? ` ${e.closed}` : ''} ` +
            `${String(e.resBody ?? '').replace(/\s+/g, ' ').slice(0, 160)}`;
    }).join(' | ') + ']';
}

// A WebSocket handshake over plain HTTP, as the SDK sends it (the token as a subprotocol), to
// name the status and body of a refused one.
export async function probeHandshake(wsUrl, token) {
    const http = await import('node:http');
    const u = new URL(wsUrl.replace(/^ws/, 'http'));
    return new Promise((resolve) => {
        const req = http.request({
            host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'GET',
            headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
                       'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
                       'Sec-WebSocket-Protocol': `jwt.token.${token}, daml.ws.auth` },
        });
        req.setTimeout(3000, () => { req.destroy(); resolve('no answer within 3 s'); });
        req.on('upgrade', (res, socket) => {
            socket.destroy();
            resolve(`101, Sec-WebSocket-Protocol '${res.headers['sec-websocket-protocol'] ?? ''}'`);
        });
        req.on('response', (res) => {
            let body = '';
            res.on('data', (d) => { body += d; });
            res.on('end', () => resolve(`${res.statusCode} ${body.replace(/\s+/g, ' ').slice(0, 160)}`));
        });
        req.on('error', (e) => resolve(`error ${e.message}`));
        req.end();
    });
}

// ---------------------------------------------------------------------------------------------
// Parent: re-run as a child with WebSocket enabled, filter the SDK's pino lines out of stdout.
// `script` is the flow's import.meta.url; `main` runs in the child.
export async function launch(script, help, main) {
    if (process.env.CANTONLITE_SDK_FLOW_CHILD !== '1') {
        const argv = process.argv.slice(2);
        if (argv.includes('--help') || argv.includes('-h')) {
            console.log(help);
            process.exit(0);
        }
        const verbose = argv.includes('--verbose');
        const nodeFlags = typeof globalThis.WebSocket === 'undefined'
            ? ['--experimental-websocket', '--disable-warning=ExperimentalWarning'] : [];
        const child = spawn(process.execPath, [...nodeFlags, fileURLToPath(script), ...argv], {
            stdio: ['ignore', 'pipe', 'inherit'],
            env: { ...process.env, CANTONLITE_SDK_FLOW_CHILD: '1' },
        });
        const lines = createInterface({ input: child.stdout });
        lines.on('line', (line) => {
            if (/^\{"level":\d+,/.test(line)) {
                if (verbose) process.stderr.write(line + '\n');
            } else {
                process.stdout.write(line + '\n');
            }
        });
        const forward = (sig) => () => child.kill(sig);
        process.on('SIGINT', forward('SIGINT'));
        process.on('SIGTERM', forward('SIGTERM'));
        // Exit with the child's code once it has exited and its stdout is drained, in either order.
        let exitCode = null;
        let drained = false;
        const done = () => { if (exitCode !== null && drained) process.exit(exitCode); };
        child.on('exit', (code, signal) => { exitCode = code ?? (signal ? 1 : 0); done(); });
        lines.on('close', () => { drained = true; done(); });
    } else {
        await main();
    }
}
