#include "cantonlite/app/describe.hpp"

#include <algorithm>
#include <sstream>
#include <variant>

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::app {
namespace {

using nlohmann::ordered_json;
using store::LedgerStore;

constexpr std::size_t max_listed = 20;  // longer lists are cut in the text form

std::string time_text(model::Timestamp t) {
    return model::format_offset_date_time(t);
}

ordered_json users_json(const model::Network& n) {
    ordered_json users = ordered_json::array();
    for (const model::User& u : n.users) {
        users.push_back(
            {{"id", u.id},
             {"party", u.party},
             {"wallet", u.wallet},
             {"validator", u.validator.empty() ? ordered_json() : ordered_json(u.validator)}});
    }
    return users;
}

ordered_json examples_json(const LedgerStore& store, const areas::ApiProfile& profile) {
    ordered_json out = ordered_json::array();
    for (const Example& e : make_examples(store, profile)) {
        out.push_back({{"op", e.op},
                       {"method", e.method},
                       {"path", e.path},
                       {"body", e.body ? *e.body : ordered_json()},
                       {"user", e.user ? ordered_json(*e.user) : ordered_json()},
                       {"expect_status", e.expect_status},
                       {"note", e.note}});
    }
    return out;
}

ordered_json svs_json(const model::Network& n) {
    ordered_json out = ordered_json::array();
    for (const model::SuperValidator& sv : n.svs) {
        out.push_back({{"name", sv.name}, {"party", sv.party}});
    }
    return out;
}

ordered_json migrations_json(const LedgerStore& store) {
    ordered_json out = ordered_json::array();
    for (store::Offset o = 1; o <= store.ledger_end(); ++o) {
        const store::UpdatePtr update = store.update_at(o);
        if (const auto* m = std::get_if<store::Migration>(update.get())) {
            out.push_back({{"migration_id", m->migration_id},
                           {"offset", m->offset},
                           {"record_time", time_text(m->record_time)},
                           {"imported_contracts", m->imported_contracts}});
        }
    }
    return out;
}

ordered_json snapshots_json(const LedgerStore& store) {
    ordered_json out = ordered_json::array();
    for (const auto& [migration, t] : store.snapshot_times()) {
        const store::SnapshotPtr s = store.snapshot(migration, t, false);
        out.push_back({{"migration_id", migration},
                       {"record_time", time_text(t)},
                       {"holdings", s ? splice::views(store).holdings(*s)->size() : 0}});
    }
    return out;
}

ordered_json counts_json(const LedgerStore& store) {
    ordered_json out = ordered_json::object();
    for (const auto& [template_name, count] : store.active_counts()) out[template_name] = count;
    return out;
}

// Writes "  <label>  <first line>" and the further lines indented under it, at most max_listed.
void section(std::ostream& out, const std::string& label, const std::vector<std::string>& lines) {
    const std::string pad(20, ' ');
    out << "  " << label << std::string(18 - std::min<std::size_t>(label.size(), 17), ' ');
    if (lines.empty()) out << "none\n";
    for (std::size_t i = 0; i < lines.size() && i < max_listed; ++i) {
        out << (i == 0 ? "" : pad) << lines[i] << '\n';
    }
    if (lines.size() > max_listed) {
        out << pad << "... and " << lines.size() - max_listed << " more (see --json)\n";
    }
}

std::string text(const ordered_json& j) {
    return j.is_string() ? j.get<std::string>() : j.dump();
}

void write_summary(std::ostream& out, const ordered_json& doc) {
    std::vector<std::string> migrations, snapshots, svs, users, counts;
    for (const auto& m : doc["migrations"]) {
        migrations.push_back("migration " + text(m["migration_id"]) + " at offset " +
                             text(m["offset"]) + " (" + text(m["record_time"]) + "), " +
                             text(m["imported_contracts"]) + " contracts imported");
    }
    for (const auto& s : doc["snapshots"]) {
        snapshots.push_back("migration " + text(s["migration_id"]) + " at " +
                            text(s["record_time"]) + ": " + text(s["holdings"]) + " holdings");
    }
    for (const auto& sv : doc["svs"]) svs.push_back(text(sv["name"]) + "  " + text(sv["party"]));
    std::size_t width = 0;
    for (const auto& u : doc["users"]) width = std::max(width, text(u["id"]).size());
    for (const auto& u : doc["users"]) {
        const std::string id = text(u["id"]);
        users.push_back(
            id + std::string(width - id.size() + 2, ' ') + text(u["party"]) +
            (u["wallet"].get<bool>() ? "  wallet" : "") +
            (u["validator"].is_string() ? " (" + text(u["validator"]) + " validator)" : ""));
    }
    std::size_t digits = 0;
    for (const auto& [_, count] : doc["counts"].items())
        digits = std::max(digits, text(count).size());
    for (const auto& [name, count] : doc["counts"].items()) {
        counts.push_back(std::string(digits - text(count).size(), ' ') + text(count) + "  " + name);
    }
    out << "cantonlite network\n";
    if (doc.contains("source")) section(out, "source", {text(doc["source"])});
    const auto& release = doc["release"];
    section(out, "release",
            {text(release["name"]) + " (Canton " + text(release["canton"]) + ", Splice " +
             text(release["splice"]) + ")"});
    section(out, "DSO party", {text(doc["dso_party"])});
    section(out, "ledger end",
            {text(doc["ledger_end"]) + " (ledger time " + text(doc["ledger_time"]) + ")"});
    section(out, "migration id", {text(doc["migration_id"])});
    section(out, "migrations", migrations);
    section(out, "snapshots", snapshots);
    section(out, "super validators", svs);
    section(out, "users", users);
    section(out, "active contracts", counts);
}

void write_curl(std::ostream& out, const ordered_json& e, const TextOptions& options) {
    const std::string url = "http://127.0.0.1:" + std::to_string(options.port) + text(e["path"]);
    out << "# op " << text(e["op"]) << ", expect " << text(e["expect_status"]) << ": "
        << text(e["note"]) << '\n';
    out << "curl -sS -w '\\n%{http_code}\\n' -X " << text(e["method"]) << ' ' << shell_quote(url);
    if (e["user"].is_string()) {
        out << " -H \"Authorization: Bearer $(cantonlite token --user "
            << shell_quote(text(e["user"]))
            << (options.token_flags.empty() ? "" : " " + options.token_flags) << ")\"";
    }
    if (!e["body"].is_null()) {
        out << " -H 'Content-Type: application/json' -d " << shell_quote(e["body"].dump());
    }
    out << "\n\n";
}

}  // namespace

ordered_json describe_json(const store::LedgerStore& store, const areas::ApiProfile& profile) {
    const model::Network& n = store.network();
    const areas::DeprecatedApis& d = profile.deprecated;
    ordered_json release{{"name", areas::release_name(profile.release)},
                         {"canton", areas::canton_version(profile.release)},
                         {"splice", areas::splice_version(profile.release)}};
    release["deprecated_apis_enabled"] =
        !profile.canton_3_6() || (d.endpoints_34 && d.parameters_34 && d.endpoints_35);
    return ordered_json{{"dso_party", n.dso_party},
                        {"ledger_end", store.ledger_end()},
                        {"users", users_json(n)},
                        {"examples", examples_json(store, profile)},
                        {"ledger_time", time_text(store.now())},
                        {"migration_id", store.migration_id()},
                        {"svs", svs_json(n)},
                        {"migrations", migrations_json(store)},
                        {"snapshots", snapshots_json(store)},
                        {"counts", counts_json(store)},
                        {"release", std::move(release)}};
}

std::string describe_text(const store::LedgerStore& store, const TextOptions& options) {
    ordered_json doc = describe_json(store, options.profile);
    if (!options.source.empty()) doc["source"] = options.source;
    std::ostringstream out;
    write_summary(out, doc);
    out << "\nExample requests against http://127.0.0.1:" << options.port
        << " (tokens from `cantonlite token`):\n\n";
    for (const auto& e : doc["examples"]) write_curl(out, e, options);
    return out.str();
}

std::string shell_quote(const std::string& text) {
    const bool plain = !text.empty() && text.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-./:=@%+,") == std::string::npos;
    if (plain) return text;
    std::string out = "'";
    for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace cantonlite::app
