// Writes the fuzzers' seed corpora from the test suite's own inputs (docs/fuzzing.md): the
// openapi request lists (router), their bodies, date-times and headers (parsers), tokens the tests
// use (jwt), the shipped seeds (seed), and the forms of fuzz_execute's, fuzz_state's and
// fuzz_fork's inputs.
//   cantonlite_fuzz_corpus SOURCE_DIR OUT_DIR
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/seed/scan_bulk.hpp"
#include "fuzz_input.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

int written = 0;

void write(const fs::path& dir, const std::string& content) {
    fs::create_directories(dir);
    std::ofstream(dir / ("seed-" + std::to_string(++written))) << content;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: cantonlite_fuzz_corpus SOURCE_DIR OUT_DIR\n";
        return 2;
    }
    const fs::path source = argv[1];
    const fs::path out = argv[2];
    for (const auto& entry : fs::directory_iterator(source / "tests/openapi")) {
        if (entry.path().extension() != ".json") continue;
        const json requests = json::parse(std::ifstream(entry.path()));
        for (const json& r : requests) {
            std::vector<cantonlite::http::Header> headers{{"Host", "localhost:7575"}};
            std::string body;
            if (r.contains("body")) body = r.at("body").dump();
            if (r.contains("body_raw")) body = r.at("body_raw").get<std::string>();
            if (!body.empty()) headers.push_back({"Content-Type", "application/json"});
            if (r.contains("headers")) {
                for (const auto& [name, value] : r.at("headers").items()) {
                    if (value.is_string()) headers.push_back({name, value.get<std::string>()});
                }
            }
            const std::string method = r.at("method");
            const std::string path = r.at("path");
            write(out / "router", cantonlite::fuzz::text_of(method, path, headers, body));
            if (!body.empty()) write(out / "parsers", body);
        }
    }
    // Admin writes (a step, time, snapshots) and the routes no openapi list covers.
    for (
        const auto& [target, body] : std::vector<std::pair<std::string, std::string>>{
            {"/_cantonlite/v1/steps", R"({"step": "mint", "owner": "alice", "amount": "100"})"},
            {"/_cantonlite/v1/steps",
             R"([{"step": "add_user", "id": "x", "wallet": true}, {"step": "mint", "owner": "x", "amount": "5"}])"},
            {"/_cantonlite/v1/steps",
             R"([{"step": "mint", "owner": "alice", "amount": "9", "as": "m"}, {"step": "create_transfer_instruction", "sender": "alice", "receiver": "carol", "amount": "2", "inputs": ["m"], "execute_before": "2031-01-01T00:00:00Z"}])"},
            {"/registry/transfer-instruction/v1/00ab/choice-contexts/accept",
             R"({"excludeDebugFields": true})"},
            {"/registry/transfer-instruction/v1/00ab/choice-contexts/withdraw", R"({})"},
            {"/_cantonlite/v1/time", R"({"advance": "PT1H"})"},
            {"/_cantonlite/v1/snapshots", ""},
            {"/_cantonlite/v1/reset", ""}}) {
        write(out / "router", cantonlite::fuzz::text_of(
                                  "POST", target, {{"Content-Type", "application/json"}}, body));
    }
    // The explorer's views (GET, admin).
    for (const char* target :
         {"/_cantonlite/v1/explore/update?id=3", "/_cantonlite/v1/explore/party?id=alice",
          "/_cantonlite/v1/explore/search?q=bob", "/_cantonlite/v1/explore/contract?id=00ab"}) {
        write(out / "router", cantonlite::fuzz::text_of("GET", target, {}, ""));
    }
    for (const char* text :
         {"2024-01-01T00:00:00Z", "2024-01-01T00:00:00.123456789+05:30", "+10000-01-01T00:00:00Z",
          "2024-12-31T23:59:60Z", "gzip, deflate;q=0.5, *;q=0", "application/json; charset=utf-8",
          R"({"a":[1,2.5e10,"\u00e9\n"],"b":{"c":null}})", "\"-9223372036854775808\""}) {
        write(out / "parsers", text);
    }
    for (const char* token : {"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
                              "eyJzdWIiOiJhbGljZSIsImF1ZCI6Imh0dHBzOi8vZnV6ei5leGFtcGxlIn0.c2ln",
                              "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.", "a.b.c", "..."}) {
        write(out / "jwt", token);
    }
    // fuzz_execute: its first byte picks the form (the prepared bytes, patches, another key's
    // signature, a whole body).
    for (const std::string& seed :
         {std::string("\x00", 1), std::string("\x01\x05\x00\x40\x7f", 5),
          std::string("\x02\x10\x41", 3), std::string("\x05", 1),
          std::string("\x03{\"preparedTransaction\": \"\", \"partySignatures\": {}}")}) {
        write(out / "execute", seed);
    }
    // fuzz_state: its first byte picks the form (a payload, patches to the default network's,
    // patches after a cut).
    for (const std::string& seed :
         {std::string("\x00", 1), std::string("\x01", 1), std::string("\x01\x40\x00\x00\x07", 5),
          std::string("\x02\x00\x02\x00\x00", 5),
          // Its first findings: a snapshot before the ledger time escaped as an AppendError; a
          // snapshot interval of 0 divided by zero.
          std::string("\x35\x20\x00\x3f\xfb", 5), std::string("\x06\x00\x00\x31\x00\x8b\x00", 7)}) {
        write(out / "state", seed);
    }
    // fuzz_fork: its first byte picks where the rest goes (an ACS page, an update page in both
    // encodings, the two encodings cut at a newline); a contract and a transfer as Scan serves
    // them.
    {
        const std::string dso = "DSO::1220" + std::string(64, 'd');
        const std::string alice = "alice::1220" + std::string(64, 'a');
        const std::string cid = "00" + std::string(64, '1') + "ca101220" + std::string(64, '1');
        const std::string created = "00" + std::string(64, '2') + "ca101220" + std::string(64, '2');
        const std::string update = "1220" + std::string(64, 'b');
        const std::string tmpl = std::string(64, '3') + ":Splice.Amulet:Amulet";
        const json compact = {{"dso", dso},
                              {"owner", alice},
                              {"amount",
                               {{"initialAmount", "10.0000000000"},
                                {"createdAt", {{"number", "3"}}},
                                {"ratePerRound", {{"rate", "0.0000190259"}}}}}};
        const json acs = {{"record_time", "2025-01-01T12:00:00Z"},
                          {"migration_id", 0},
                          {"created_events",
                           {{{"contract_id", cid},
                             {"template_id", tmpl},
                             {"package_name", "splice-amulet"},
                             {"create_arguments", compact},
                             {"created_at", "2025-01-01T00:00:00Z"},
                             {"signatories", {dso, alice}},
                             {"observers", json::array()}}}},
                          {"next_page_token", nullptr}};
        const auto page = [&](const json& argument, const json& unit) {
            json events = json::object();
            events[update + ":0"] = {{"event_type", "exercised_event"},
                                     {"event_id", update + ":0"},
                                     {"contract_id", cid},
                                     {"template_id", tmpl},
                                     {"package_name", "splice-amulet"},
                                     {"choice", "Archive"},
                                     {"choice_argument", unit},
                                     {"child_event_ids", {update + ":1"}},
                                     {"exercise_result", unit},
                                     {"consuming", true},
                                     {"acting_parties", {alice}}};
            events[update + ":1"] = {{"event_type", "created_event"},
                                     {"event_id", update + ":1"},
                                     {"contract_id", created},
                                     {"template_id", tmpl},
                                     {"package_name", "splice-amulet"},
                                     {"create_arguments", argument},
                                     {"created_at", "2025-01-02T00:00:00Z"},
                                     {"signatories", {dso, alice}},
                                     {"observers", json::array()}};
            return json{{"transactions",
                         {{{"update_id", update},
                           {"migration_id", 0},
                           {"workflow_id", ""},
                           {"record_time", "2025-01-02T00:00:00.000000Z"},
                           {"synchronizer_id", "global-domain::1220" + std::string(64, 'e')},
                           {"effective_at", "2025-01-02T00:00:00Z"},
                           {"root_event_ids", {update + ":0"}},
                           {"events_by_id", events}}}}}
                .dump();
        };
        const json typed_amulet = json::parse(
            R"({"record":{"fields":[{"value":{"party":")" + dso + R"("}},{"value":{"party":")" +
            alice +
            R"("}},{"value":{"record":{"fields":[{"value":{"numeric":"9.0000000000"}},{"value":{"record":{"fields":[{"value":{"int64":"3"}}]}}},{"value":{"record":{"fields":[{"value":{"numeric":"0.0000190259"}}]}}}]}}}]}})");
        const std::string typed = page(typed_amulet, json::parse(R"({"unit":{}})"));
        const std::string labelled = page(compact, json::object());
        write(out / "fork", std::string("\x00", 1) + acs.dump());
        write(out / "fork", std::string("\x01", 1) + typed);
        write(out / "fork", std::string("\x02", 1) + typed + "\n" + labelled);
        write(out / "fork", std::string("\x03", 1) + labelled);
        // Scan's bulk layout: an object, a key, a page whose documents become lines.
        write(out / "fork", std::string("\x04", 1) +
                                cantonlite::seed::zstd_compress_frames(acs.dump() + "\n", 64));
        write(out / "fork",
              std::string("\x04", 1) +
                  "2026-01-02T00:00:00Z~2026-01-03T00:00:00Z/updates_compact_json_0.zstd");
        write(out / "fork", std::string("\x04", 1) + typed);
        // Its first finding: an empty map, whose entries protobuf's JSON omits, was iterated as
        // a null array.
        write(out / "fork",
              std::string("\x01", 1) + page(json::parse(R"({"genMap":{}})"), json::object()));
    }
    for (const auto& entry : fs::directory_iterator(source / "config")) {
        if (entry.path().extension() == ".json" && fs::file_size(entry.path()) < (1 << 20)) {
            std::ifstream in(entry.path());
            write(out / "seed", std::string(std::istreambuf_iterator<char>(in), {}));
        }
    }
    std::cout << written << " seed inputs in " << out << "\n";
    return 0;
}
