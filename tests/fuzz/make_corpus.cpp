// Writes the fuzzers' seed corpora from the test suite's own inputs (tests/fuzz/README in the
// top-level README, "Fuzzing"): the openapi request lists (router), their bodies, date-times and
// headers (parsers), tokens the tests use (jwt), the shipped seeds (seed), and the forms of
// fuzz_execute's and fuzz_state's inputs.
//   cantonlite_fuzz_corpus SOURCE_DIR OUT_DIR
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

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
    for (const auto& entry : fs::directory_iterator(source / "config")) {
        if (entry.path().extension() == ".json" && fs::file_size(entry.path()) < (1 << 20)) {
            std::ifstream in(entry.path());
            write(out / "seed", std::string(std::istreambuf_iterator<char>(in), {}));
        }
    }
    std::cout << written << " seed inputs in " << out << "\n";
    return 0;
}
