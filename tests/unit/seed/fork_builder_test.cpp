// A forked network built from a Scan's answers (docs/fork.md): the ACS at the snapshot is its base,
// the updates after it keep their ids, and the state file it makes loads as any other.
#include "cantonlite/seed/fork.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "app/scan_dump.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/seed/scan_bulk.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/util/whole_file.hpp"

namespace cantonlite::seed::fork_builder_test {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::string dso = "DSO::1220" + std::string(64, 'd');
const std::string alice = "alice::1220" + std::string(64, 'a');
const std::string sync = "global-domain::1220" + std::string(64, 'e');
const std::string other_sync = "private::1220" + std::string(64, 'f');
const std::string amulet_pkg = std::string(64, '1');
const std::string amulet_template = amulet_pkg + ":Splice.Amulet:Amulet";

std::string cid(char c) {
    return "00" + std::string(64, c) + "ca101220" + std::string(64, c);
}
std::string uid(char c) {
    return "1220" + std::string(64, c);
}

ordered_json amulet_compact(const std::string& owner, const char* amount) {
    return ordered_json::parse(
        R"({"dso":")" + dso + R"(","owner":")" + owner + R"(","amount":{"initialAmount":")" +
        amount + R"(","createdAt":{"number":"3"},"ratePerRound":{"rate":"0.0000190259"}}})");
}

json amulet_typed(const std::string& owner, const char* amount) {
    return json::parse(
        R"({"record":{"fields":[{"value":{"party":")" + dso + R"("}},{"value":{"party":")" + owner +
        R"("}},{"value":{"record":{"fields":[{"value":{"numeric":")" + amount +
        R"("}},{"value":{"record":{"fields":[{"value":{"int64":"3"}}]}}},{"value":{"record":{"fields":[{"value":{"numeric":"0.0000190259"}}]}}}]}}}]}})");
}

template <class Json>
Json acs_event(const std::string& contract_id, Json arguments) {
    return Json{{"event_type", "created_event"},
                {"event_id", "x"},
                {"contract_id", contract_id},
                {"template_id", amulet_template},
                {"package_name", "splice-amulet"},
                {"create_arguments", std::move(arguments)},
                {"created_at", "2025-01-01T00:00:00Z"},
                {"signatories", {dso, alice}},
                {"observers", Json::array()}};
}

// One transaction: alice's base amulet archived by a transfer that creates a new one under it.
template <class Json>
Json transfer(Json new_amulet) {
    constexpr bool typed = std::is_same_v<Json, json>;
    const Json argument = typed ? Json::parse(R"({"record":{}})") : Json::object();
    const Json result = typed ? Json::parse(R"({"unit":{}})") : Json::object();
    const std::string id = uid('b');
    Json root = {{"event_type", "exercised_event"}, {"event_id", id + ":0"},
                 {"contract_id", cid('1')},         {"template_id", amulet_template},
                 {"package_name", "splice-amulet"}, {"choice", "Archive"},
                 {"choice_argument", argument},     {"child_event_ids", {id + ":1"}},
                 {"exercise_result", result},       {"consuming", true},
                 {"acting_parties", {alice}}};
    Json created = acs_event(cid('2'), std::move(new_amulet));
    created["event_id"] = id + ":1";
    Json events = Json::object();
    events[id + ":0"] = root;
    events[id + ":1"] = created;
    return Json{{"update_id", id},
                {"migration_id", 2},
                {"workflow_id", ""},
                {"record_time", "2025-01-02T00:00:00.000000Z"},
                {"synchronizer_id", sync},
                {"effective_at", "2025-01-02T00:00:00Z"},
                {"root_event_ids", {id + ":0"}},
                {"events_by_id", events}};
}

json unassignment() {
    return json{{"update_id", uid('c')},
                {"offset", "2"},
                {"record_time", "2025-01-03T00:00:00.000000Z"},
                {"event",
                 {{"submitter", alice},
                  {"source_synchronizer", sync},
                  {"target_synchronizer", other_sync},
                  {"migration_id", 2},
                  {"unassign_id", "source-unassign"},
                  {"reassignment_counter", 1},
                  {"contract_id", cid('2')}}}};
}

// A whole /v2/state/acs answer holding `events`.
std::string acs_page(std::vector<ordered_json> events) {
    return ordered_json{{"record_time", "2025-01-01T12:00:00Z"},
                        {"migration_id", 2},
                        {"created_events", std::move(events)}}
        .dump();
}

ForkBuilder builder() {
    return ForkBuilder(
        ForkSource{.dso_party = dso,
                   .synchronizer_id = sync,
                   .migration_id = 2,
                   .snapshot_time = *model::parse_timestamp("2025-01-01T12:00:00Z")});
}

TEST(ForkBuilder, TheForkStartsFromTheAcsAndGoesOnWithTheUpdatesAsTheyWere) {
    ForkBuilder fork = builder();
    fork.add_acs_page(acs_page({acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))}));
    const json typed_tx = transfer(amulet_typed(alice, "9.0000000000"));
    const ordered_json labelled_tx = transfer(amulet_compact(alice, "9.0000000000"));
    ordered_json labelled_unassign = ordered_json::parse(unassignment().dump());
    fork.add_updates_page(json{{"transactions", {typed_tx, unassignment()}}}.dump(),
                          ordered_json{{"transactions", {labelled_tx, labelled_unassign}}}.dump());
    EXPECT_EQ(fork.counts().contracts, 1U);
    EXPECT_EQ(fork.counts().updates, 2U);

    const std::string bytes = fork.finish(true);
    const auto network = LiveNetwork::load_state(bytes, "fork.state");
    const store::LedgerStore& store = network->store();

    EXPECT_EQ(store.network().dso_party, dso);
    EXPECT_EQ(store.migration_id(), 2);
    EXPECT_EQ(store.ledger_end(), 2);
    EXPECT_EQ(store::update_id_of(*store.update_at(1)).str(), uid('b'));
    EXPECT_EQ(store::update_id_of(*store.update_at(2)).str(), uid('c'));
    EXPECT_EQ(std::get<store::Reassignment>(*store.update_at(2)).unassign_id, "source-unassign");
    EXPECT_EQ(store.contract(cid('1'))->created_offset(), 0);  // the base
    EXPECT_EQ(store.contract(cid('1'))->archived_offset(), 1);
    EXPECT_EQ(store.contract(cid('2'))->created_offset(), 1);
    const auto& tx = std::get<store::Transaction>(*store.update_at(1));
    ASSERT_EQ(tx.nodes.size(), 2U);
    EXPECT_EQ(store::exercised(tx.nodes[0])->choice, "Archive");
    // The value came back whole: typed from protobuf_json, labelled from compact_json.
    const model::Value amount = model::unpack(store.contract(cid('2'))->contract->argument);
    ASSERT_NE(amount.field("amount"), nullptr);
    EXPECT_EQ(amount.field("amount")->field("initialAmount")->kind, model::Value::Kind::numeric);
    // A Scan snapshot at the fork's start, as the source had.
    EXPECT_EQ(store.snapshot_times().size(), 1U);
    // Saved again, the same bytes.
    EXPECT_EQ(network->state(), bytes);
}

// Answers parsed with a pool's parsers give them back when they go, for the next answers, and
// read as answers parsed with parsers of their own do; the pool keeps at most as many as told.
TEST(AnswerParsers, TheParsersOfAnswersThatWentParseTheNextOnes) {
    seed::AnswerParsers parsers(2);
    EXPECT_EQ(parsers.idle(), 0U);
    const std::string page =
        acs_page({acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))});
    {
        const ForkAnswer a(page, "an ACS page", &parsers);
        const ForkAnswer b(page, "an ACS page", &parsers);
        const ForkAnswer c(page, "an ACS page", &parsers);
        EXPECT_EQ(parsers.idle(), 0U);
    }
    EXPECT_EQ(parsers.idle(), 2U);
    // One that fails gives its parser back too.
    EXPECT_THROW(ForkAnswer("{\"created_events\": [", "an ACS page", &parsers), ForkError);
    EXPECT_EQ(parsers.idle(), 2U);

    ForkBuilder with_pool = builder();
    ForkBuilder without = builder();
    {
        const ForkAnswer reused(page, "an ACS page", &parsers);
        EXPECT_EQ(parsers.idle(), 1U);
        EXPECT_EQ(with_pool.add_acs_page(reused).items, 1U);
    }
    EXPECT_EQ(without.add_acs_page(ForkAnswer(page, "an ACS page")).items, 1U);
    EXPECT_EQ(parsers.idle(), 2U);
    EXPECT_EQ(with_pool.finish(true), without.finish(true));
}

// A page of one update that creates one amulet, in either encoding.
template <class Json>
std::string mint_page(char update, char contract, Json argument,
                      const std::string& template_id = amulet_template) {
    Json created = acs_event(cid(contract), std::move(argument));
    created["event_id"] = uid(update) + ":0";
    created["template_id"] = template_id;
    Json events = Json::object();
    events[uid(update) + ":0"] = created;
    return Json{{"transactions",
                 {{{"update_id", uid(update)},
                   {"migration_id", 2},
                   {"workflow_id", ""},
                   {"record_time", std::string("2025-01-0") + update + "T00:00:00.000000Z"},
                   {"synchronizer_id", sync},
                   {"effective_at", std::string("2025-01-0") + update + "T00:00:00Z"},
                   {"root_event_ids", {uid(update) + ":0"}},
                   {"events_by_id", events}}}}}
        .dump();
}

TEST(ForkBuilder, OncePagesInBothEncodingsShowedTheLabelsProtobufJsonAloneIsEnough) {
    ForkBuilder fork = builder();
    fork.add_acs_page(acs_page({}));
    const std::string first = mint_page('3', '3', amulet_typed(alice, "1.0000000000"));
    EXPECT_FALSE(fork.labels_known(first));
    fork.add_updates_page(first, mint_page('3', '3', amulet_compact(alice, "1.0000000000")));

    const std::string second = mint_page('4', '4', amulet_typed(alice, "2.0000000000"));
    ASSERT_TRUE(fork.labels_known(second));
    fork.add_updates_page(second, "");
    // Another package's template may have other fields: its labels are not known.
    EXPECT_FALSE(fork.labels_known(mint_page('5', '5', amulet_typed(alice, "3.0000000000"),
                                             std::string(64, '9') + ":Splice.Amulet:Amulet")));

    const auto network = LiveNetwork::load_state(fork.finish(true), "fork.state");
    const model::Value amulet =
        model::unpack(network->store().contract(cid('4'))->contract->argument);
    ASSERT_NE(amulet.field("amount"), nullptr);
    EXPECT_EQ(amulet.field("amount")->field("initialAmount")->kind, model::Value::Kind::numeric);
    EXPECT_EQ(amulet.labels,
              model::unpack(network->store().contract(cid('3'))->contract->argument).labels);
}

TEST(ForkBuilder, AContractTheDsoNeverSawIsExercisedWithoutBeingMadeUp) {
    ForkBuilder fork = builder();
    fork.add_acs_page(acs_page({}));
    json typed = transfer(amulet_typed(alice, "9.0000000000"));
    ordered_json labelled = transfer(amulet_compact(alice, "9.0000000000"));
    fork.add_updates_page(json{{"transactions", {typed}}}.dump(),
                          ordered_json{{"transactions", {labelled}}}.dump());
    const auto network = LiveNetwork::load_state(fork.finish(true), "fork.state");
    EXPECT_FALSE(network->store().contract(cid('1')).has_value());
    EXPECT_TRUE(network->store().contract(cid('2')).has_value());
}

TEST(ForkBuilder, WhatCannotBeForkedSaysWhichUpdateAndWhy) {
    ForkBuilder fork = builder();
    fork.add_acs_page(acs_page({acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))}));
    json typed = transfer(amulet_typed(alice, "9.0000000000"));
    typed["events_by_id"][uid('b') + ":1"]["create_arguments"] = json{{"colour", "red"}};
    const ordered_json labelled = transfer(amulet_compact(alice, "9.0000000000"));
    try {
        fork.add_updates_page(json{{"transactions", {typed}}}.dump(),
                              ordered_json{{"transactions", {labelled}}}.dump());
        FAIL() << "forked";
    } catch (const ForkError& e) {
        EXPECT_EQ(std::string(e.what()), "update " + uid('b') + ": event " + uid('b') +
                                             ":1: /: has no known kind \"colour\"");
    }
}

TEST(ForkBuilder, UpdatesInCompactJsonAloneAreTypedByTheirShape) {
    // Scan's bulk objects hold compact_json alone: each value is typed as an ACS contract's.
    const auto both = [] {
        ForkBuilder fork = builder();
        fork.add_acs_page(acs_page({acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))}));
        fork.add_updates_page(
            json{{"transactions", {transfer(amulet_typed(alice, "9.0000000000"))}}}.dump(),
            ordered_json{{"transactions", {transfer(amulet_compact(alice, "9.0000000000"))}}}
                .dump());
        return fork.finish(true);
    }();
    ForkBuilder fork = builder();
    fork.add_acs_page(acs_page({acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))}));
    fork.add_compact_updates_page(
        ordered_json{{"transactions", {transfer(amulet_compact(alice, "9.0000000000"))}}}.dump());
    EXPECT_EQ(fork.finish(true), both) << "the same network, typed by shape";
}

// A dump written from a fork's pages, and forked from.
class ForkDump : public testing::Test {
  protected:
    void SetUp() override {
        root_ = std::filesystem::temp_directory_path() /
                ("cantonlite-dump-test-" + std::to_string(::getpid()) + "-" +
                 testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(root_);
    }
    void TearDown() override { std::filesystem::remove_all(root_); }

    // The pages a fork of the example source takes, given to `sink`.
    static void feed(app::ForkSink& sink) {
        sink.start(ForkSource{.dso_party = dso,
                              .synchronizer_id = sync,
                              .migration_id = 2,
                              .snapshot_time = *model::parse_timestamp("2025-01-01T12:00:00Z")});
        std::vector<ordered_json> acs;
        for (char c = '1'; c <= '2'; ++c)
            acs.push_back(acs_event(cid(c), amulet_compact(alice, "10.0000000000")));
        sink.add_acs_page(ForkAnswer(acs_page(acs), "an ACS page"));
        sink.add_round_at(*model::parse_timestamp("2025-01-01T12:00:00Z"), 7);
        sink.add_updates_page(
            ForkAnswer(mint_page('3', '3', amulet_typed(alice, "1.0000000000")), "an update page"),
            mint_page('3', '3', amulet_compact(alice, "1.0000000000")));
        sink.add_snapshot_time(2, *model::parse_timestamp("2025-01-03T12:00:00Z"));
        sink.add_updates_page(
            ForkAnswer(mint_page('4', '4', amulet_typed(alice, "2.0000000000")), "an update page"),
            mint_page('4', '4', amulet_compact(alice, "2.0000000000")));
    }

    // The state file of a fork from the Scan itself.
    std::string direct() const {
        app::BuilderSink sink;
        feed(sink);
        const auto path = root_ / "direct.state";
        EXPECT_EQ(sink.finish(true, path).error, std::nullopt);
        return util::read_file(path).value();
    }

    // A fork of the dump in `dir`, and its state file.
    std::pair<app::DumpRead, std::string> fork(
        const std::filesystem::path& dir,
        std::optional<std::int64_t> updates = std::nullopt) const {
        const auto path = root_ / "fork.state";
        app::DumpRead read = app::fork_from_dump(
            dir, path, updates, [](const std::string&, std::size_t) {}, [] { return false; });
        EXPECT_EQ(read.written.error, std::nullopt);
        return {std::move(read), util::read_file(path).value()};
    }

    std::filesystem::path root_;
};

TEST_F(ForkDump, AForkFromADumpIsTheForkFromItsScan) {
    const auto dir = root_ / "dump";
    {
        // Tiny frames and objects: several of each.
        app::DumpWriter writer(dir, 200, 100);
        feed(writer);
        writer.commit("http://scan.example/api/scan", "splice-0.9", true);
    }
    EXPECT_FALSE(std::filesystem::exists(root_ / "dump.partial"));
    const auto manifest = json::parse(*util::read_file(dir / "cantonlite-dump.json"));
    EXPECT_EQ(manifest["contracts"], 2);
    EXPECT_EQ(manifest["updates"], 2);
    EXPECT_EQ(manifest["acs_objects"][0]["key"], "2025-01-01T12:00:00Z/ACS_compact_json_0.zstd");
    EXPECT_GT(manifest["update_objects"].size(), 2U) << "objects cut at 200 bytes";
    EXPECT_EQ(manifest["update_objects"][0]["key"],
              "2025-01-01T12:00:00Z~2025-01-04T00:00:00Z/updates_compact_json_0.zstd");
    // Each object is Scan's: zstd frames of a line per document, named by its digest.
    const std::string key = manifest["acs_objects"][0]["key"];
    const std::string object = *util::read_file(dir / key);
    EXPECT_EQ(seed::bulk_digest(object), manifest["acs_objects"][0]["digest"]);
    EXPECT_EQ(seed::bulk_lines(seed::zstd_decompress(object, 1 << 20)).size(), 2U);

    const auto [read, state] = fork(dir);
    EXPECT_EQ(state, direct()) << "the same state file as a fork from the Scan itself";
    EXPECT_EQ(read.written.header, state.substr(0, state_file_header_size));
    EXPECT_EQ(read.release, "splice-0.9");
    EXPECT_EQ(read.source, "http://scan.example/api/scan");
    EXPECT_EQ(read.counts.updates, 2U);
    EXPECT_EQ(fork(dir, 1).first.counts.updates, 1U) << "--updates";
}

TEST_F(ForkDump, ADamagedOrMissingObjectOrManifestIsRefusedByName) {
    const auto dir = root_ / "dump";
    {
        app::DumpWriter writer(dir);
        feed(writer);
        writer.commit("http://scan.example/api/scan", "splice-0.9", true);
    }
    const auto manifest = json::parse(*util::read_file(dir / "cantonlite-dump.json"));
    const std::string key = manifest["update_objects"][1]["key"];
    std::string object = *util::read_file(dir / key);
    object[object.size() / 2] = static_cast<char>(object[object.size() / 2] ^ 1);
    ASSERT_FALSE(util::write_file_atomically(dir / key, object));
    try {
        (void)fork(dir);
        FAIL() << "forked a damaged dump";
    } catch (const app::DumpError& e) {
        EXPECT_NE(std::string(e.what()).find(key + ": its digest is "), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(root_ / "fork.state")) << "no state file is written";
    std::filesystem::remove(dir / key);
    EXPECT_THROW((void)fork(dir), app::DumpError);
    std::filesystem::remove(dir / "cantonlite-dump.json");
    try {
        (void)fork(dir);
        FAIL() << "forked a folder without its manifest";
    } catch (const app::DumpError& e) {
        EXPECT_NE(std::string(e.what()).find("cantonlite-dump.json: cannot be read"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(ForkDump, ADumpIsWrittenWholeOrNotAtAll) {
    const auto dir = root_ / "dump";
    {
        app::DumpWriter writer(dir);
        feed(writer);
        // No commit: a failed dump.
    }
    EXPECT_FALSE(std::filesystem::exists(dir));
    EXPECT_FALSE(std::filesystem::exists(root_ / "dump.partial"));
    // A folder that holds something is not written over.
    std::filesystem::create_directories(root_ / "full");
    ASSERT_FALSE(util::write_file_atomically(root_ / "full" / "x", "x"));
    EXPECT_THROW(app::DumpWriter(root_ / "full"), app::DumpError);
}

TEST_F(ForkDump, ScansOwnObjectsInCompactJsonAloneAreForkedToo) {
    // Written by another tool: the ACS and the updates in compact_json, keys sorted, no typed
    // twin; an update at or before the snapshot is left out.
    const auto dir = root_ / "scan";
    const std::string acs =
        json(acs_event(cid('1'), amulet_compact(alice, "10.0000000000"))).dump() + "\n";
    std::string updates;
    for (const char* page : {"0", "3"}) {
        const char u = page[0] == '0' ? '1' : '3';
        std::string text = mint_page(u, u, amulet_compact(alice, "1.0000000000"));
        json t = json::parse(text)["transactions"][0];
        if (u == '1') t["record_time"] = "2025-01-01T00:00:00.000000Z";
        updates += t.dump() + "\n";
    }
    const std::string acs_key = "2025-01-01T12:00:00Z/ACS_compact_json_0.zstd";
    const std::string updates_key =
        "2025-01-01T00:00:00Z~2025-01-04T00:00:00Z/updates_compact_json_0.zstd";
    const std::string acs_object = seed::zstd_compress_frames(acs);
    const std::string updates_object = seed::zstd_compress_frames(updates);
    std::filesystem::create_directories((dir / acs_key).parent_path());
    std::filesystem::create_directories((dir / updates_key).parent_path());
    ASSERT_FALSE(util::write_file_atomically(dir / acs_key, acs_object));
    ASSERT_FALSE(util::write_file_atomically(dir / updates_key, updates_object));
    const json manifest = {
        {"cantonlite_dump", 1},
        {"source", "https://scan.sv-1.example.com/api/scan"},
        {"release", "splice-0.9"},
        {"dso_party_id", dso},
        {"synchronizer_id", sync},
        {"migration_id", 2},
        {"record_time", "2025-01-01T12:00:00Z"},
        {"whole_history", true},
        {"rounds", json::array()},
        {"snapshots", json::array()},
        {"acs_objects",
         {{{"key", acs_key}, {"digest", seed::bulk_digest(acs_object)}, {"contracts", 1}}}},
        {"update_objects",
         {{{"key", updates_key},
           {"digest", seed::bulk_digest(updates_object)},
           {"updates", 2},
           {"encoding", "compact_json"}}}}};
    ASSERT_FALSE(util::write_file_atomically(dir / "cantonlite-dump.json", manifest.dump()));

    const auto [read, state] = fork(dir);
    EXPECT_EQ(read.counts.contracts, 1U);
    EXPECT_EQ(read.counts.updates, 1U) << "the update before the snapshot is not after it";
    const auto network = LiveNetwork::load_state(state, "fork.state");
    EXPECT_TRUE(network->store().contract(cid('3')).has_value());
}

}  // namespace
}  // namespace cantonlite::seed::fork_builder_test
