#include "cantonlite/app/network_page.hpp"

namespace cantonlite::app {
namespace {

// The script builds every element with textContent, never innerHTML: seed strings (user ids,
// notes) are shown, not parsed. It polls /time every 2 s and reloads the rest when the ledger end
// or the clock moved, so a write shows within 2 s and an idle page costs one small GET per poll.
constexpr std::string_view page = R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cantonlite</title>
<style>
  :root { --fg:#1d2430; --muted:#5d6675; --line:#dde2ea; --accent:#0b63ce; --bg:#f6f8fb; }
  * { box-sizing: border-box; }
  body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--fg);
         background:var(--bg); }
  header { background:#101828; color:#fff; padding:14px 24px; display:flex; flex-wrap:wrap;
           gap:8px 28px; align-items:baseline; }
  header h1 { font-size:18px; margin:0; }
  header .fact { color:#c7d0de; } header .fact b { color:#fff; font-weight:600; }
  #status { margin-left:auto; font-size:12px; color:#9fb0c8; }
  main { padding:16px 24px; display:grid; gap:16px; grid-template-columns:repeat(auto-fit,minmax(520px,1fr)); }
  section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px 16px;
            overflow:auto; }
  section.wide { grid-column:1/-1; }
  h2 { font-size:15px; margin:0 0 8px; }
  table { border-collapse:collapse; width:100%; }
  th, td { text-align:left; padding:4px 8px 4px 0; border-bottom:1px solid var(--line);
           vertical-align:top; }
  th { color:var(--muted); font-weight:600; font-size:12px; }
  .id { font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12px; word-break:break-all; }
  .muted { color:var(--muted); } .empty { color:var(--muted); font-style:italic; }
  pre { background:#0f172a; color:#e2e8f0; padding:8px 10px; border-radius:6px; margin:4px 0 10px;
        white-space:pre-wrap; word-break:break-all; font-size:12px; }
  #notice { display:none; background:#fff4e5; border:1px solid #f5c07a; margin:16px 24px 0;
            padding:10px 14px; border-radius:8px; }
</style>
</head>
<body>
<header>
  <h1>cantonlite</h1>
  <span class="fact">release <b id="release">…</b></span>
  <span class="fact">ledger clock <b id="ledger-time">…</b></span>
  <span class="fact">ledger end <b id="ledger-end">…</b></span>
  <span class="fact">DSO <b id="dso" class="id">…</b></span>
  <span id="status">loading</span>
</header>
<div id="notice"></div>
<main>
  <section><h2>Super validators</h2><table id="svs"></table></section>
  <section><h2>Users, wallets and ledger rights</h2><table id="users"></table></section>
  <section><h2>Holdings (unlocked amulets)</h2><table id="holdings"></table></section>
  <section><h2>Active contracts by template</h2><table id="counts"></table></section>
  <section class="wide"><h2>Latest updates</h2><table id="updates"></table></section>
  <section><h2>Open transfer offers</h2><table id="offers"></table></section>
  <section><h2>Vote requests</h2><table id="votes"></table></section>
  <section class="wide"><h2>Try it: one request per operation, with this network's ids</h2>
    <div id="examples"></div></section>
</main>
<script>
"use strict";
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const admin = "/_cantonlite/v1";
let seen = null;

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c ?? "")));
  return e;
}
function short(id) { return id && id.length > 24 ? id.slice(0, 12) + "…" + id.slice(-8) : (id ?? ""); }
function idCell(id) { return el("td", { className: "id", title: id ?? "" }, short(id)); }
function table(id, head, rows, empty) {
  const t = document.getElementById(id);
  t.replaceChildren(el("tr", {}, ...head.map(h => el("th", {}, h))));
  if (rows.length === 0) t.append(el("tr", {}, el("td", { className: "empty", colSpan: head.length }, empty)));
  for (const r of rows) t.append(el("tr", {}, ...r.map(c => c instanceof Node ? c : el("td", {}, c))));
}
async function get(path) {
  const r = await fetch(admin + path, { headers: token ? { Authorization: "Bearer " + token } : {} });
  if (r.status === 403) throw new Error("closed");
  if (!r.ok) throw new Error(path + ": " + r.status);
  return r.json();
}
function curlLine(e, tokenCommand) {
  const lines = [];
  if (e.user) lines.push("TOKEN=$(" + tokenCommand + " --user " + e.user + ")");
  let c = "curl -s";
  if (e.method !== "GET") c += " -X " + e.method;
  c += " '" + location.origin + e.path + "'";
  if (e.user) c += " \\\n  -H \"Authorization: Bearer $TOKEN\"";
  if (e.body !== null && e.body !== undefined) {
    c += " \\\n  -H 'Content-Type: application/json' -d '" + JSON.stringify(e.body) + "'";
  }
  lines.push(c);
  return lines.join("\n");
}
function render(net, ov) {
  const rel = net.release;
  document.getElementById("release").textContent = rel.name + " (Canton " + rel.canton + ", Splice " + rel.splice + ")";
  document.getElementById("ledger-time").textContent = ov.ledger_time;
  document.getElementById("ledger-end").textContent = ov.ledger_end;
  const dso = document.getElementById("dso");
  dso.textContent = short(net.dso_party); dso.title = net.dso_party;
  table("svs", ["name", "party"], net.svs.map(s => [s.name, idCell(s.party)]), "no SVs");
  table("users", ["user", "party", "wallet", "act as", "read as"], ov.rights.map(u => [
    el("td", { className: "user" }, u.user), idCell(u.party),
    u.wallet ? (u.validator ? "yes, on the " + u.validator + " validator" : "yes") : "no",
    u.can_act_as.map(short).join(", "),
    u.can_read_as_any_party ? "any party" : u.can_read_as.map(short).join(", ")]), "no users");
  table("holdings", ["party", "amulets", "amount"],
        ov.holdings.map(h => [idCell(h.party), h.amulets, h.amount]), "no holdings");
  table("counts", ["template", "active"],
        Object.entries(net.counts).map(([t, n]) => [el("td", { className: "id" }, t), n]), "no contracts");
  table("updates", ["offset", "record time", "kind", "what", "update id"], ov.updates.map(u => [
    u.offset, u.record_time, u.kind, (u.roots || []).join("; "), idCell(u.update_id)]), "no updates");
  table("offers", ["sender", "receiver", "amount", "tracking id", "expires"], ov.transfer_offers.map(o => [
    idCell(o.sender), idCell(o.receiver), o.amount, o.tracking_id, o.expires_at]), "no open transfer offers");
  table("votes", ["requester", "action", "vote before", "votes"], ov.vote_requests.map(v => [
    v.requester, v.action, v.vote_before, v.votes]), "no vote requests");
  const ex = document.getElementById("examples");
  ex.replaceChildren(...net.examples.flatMap(e => [
    el("div", { className: "muted" }, "op " + e.op + ": " + e.method + " " + e.path + " (" + e.expect_status + ") " + (e.note || "")),
    el("pre", { className: "curl" }, curlLine(e, ov.token_command))]));
  document.body.dataset.ledgerEnd = ov.ledger_end;
}
async function refresh() {
  try {
    const t = await get("/time");
    const now = t.ledger_end + " " + t.now;
    if (now !== seen) {
      const [net, ov] = await Promise.all([get("/network"), get("/overview")]);
      render(net, ov);
      seen = now;
    }
    document.getElementById("status").textContent = "live · " + new Date().toLocaleTimeString();
    document.getElementById("notice").style.display = "none";
  } catch (err) {
    const n = document.getElementById("notice");
    n.style.display = "block";
    n.textContent = err.message === "closed"
      ? "The admin API needs its token on this listener: open this page as /#token=<admin.token>."
      : "cantonlite does not answer: " + err.message;
    document.getElementById("status").textContent = "offline";
  }
}
refresh();
setInterval(refresh, 2000);
</script>
</body>
</html>
)HTML";

}  // namespace

std::string_view network_page_html() {
    return page;
}

}  // namespace cantonlite::app
