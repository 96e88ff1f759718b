// State files (docs/state-files.md): a network saved and loaded again is the same network, and
// bytes that are not such a file are refused with one line naming it.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/util/whole_file.hpp"
#include "seed/seed_context.hpp"
#include "seed/state_codec.hpp"
#include "temp_dir.hpp"

namespace cantonlite::seed::state_file_test {
namespace {

using nlohmann::json;

using test_support::TempDir;

std::unique_ptr<LiveNetwork> default_network() {
    return LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json");
}

// The one-line error of loading `bytes` as a state file named "s.state".
std::string refusal(const std::string& bytes) {
    try {
        (void)LiveNetwork::load_state(bytes, "s.state");
    } catch (const SeedError& e) {
        return e.what();
    }
    return "loaded";
}

// What the admin API's steps answer reads of the network: every update's id, record time,
// created and archived contracts, the clock and the snapshots' times.
json summary(const LiveNetwork& n) {
    const store::LedgerStore& s = n.store();
    json out = {{"ledger_end", s.ledger_end()},
                {"now", s.now().micros},
                {"migration", s.migration_id()},
                {"active", s.active_contracts().size()},
                {"open_rounds", splice::views(s).open_rounds().size()}};
    for (const auto& [migration, t] : s.snapshot_times()) out["snapshots"].push_back(t.micros);
    for (store::Offset o = 1; o <= s.ledger_end(); ++o)
        out["updates"].push_back(store::update_id_of(*s.update_at(o)).str());
    return out;
}

TEST(StateFile, ALoadedNetworkSavesTheSameBytes) {
    const auto network = default_network();
    network->apply_steps(json::array({
        {{"step", "mint"}, {"owner", "alice"}, {"amount", "12.5"}, {"as", "saved-mint"}},
        {{"step", "add_party"}, {"alias", "saved-party"}},
        {{"step", "advance_time"}, {"by_seconds", 7200}},
    }));
    const std::string bytes = network->state();
    ASSERT_EQ(bytes.substr(0, 16), "cantonlite state");

    const auto loaded = LiveNetwork::load_state(bytes, "s.state");

    EXPECT_EQ(loaded->state(), bytes);
    EXPECT_EQ(summary(*loaded), summary(*network));
}

// Values are saved from their packed bytes: every kind, nested, and texts that are parties' ids
// (kept as Names) or not, come back as they were.
TEST(StateFile, EveryKindOfValueComesBackAsItWas) {
    const auto network = default_network();
    const json any = {
        {"record",
         {{"fields",
           json::array(
               {{{"label", "owner"}, {"value", {{"party", "alice"}}}},
                {{"label", "big"},
                 {"value", {{"numeric", "-9999999999999999999999999999.1234567891"}}}},
                {{"label", "small"}, {"value", {{"numeric", "0.0000000001"}}}},
                {{"label", "n"}, {"value", {{"int64", "-9223372036854775808"}}}},
                {{"label", "yes"}, {"value", {{"bool", true}}}},
                {{"label", "no"}, {"value", {{"bool", false}}}},
                {{"label", "u"}, {"value", {{"unit", json::object()}}}},
                {{"label", "at"}, {"value", {{"timestamp", "2025-01-01T00:00:00.000001Z"}}}},
                {{"label", "day"}, {"value", {{"date", "0001-01-01"}}}},
                {{"label", "plain"}, {"value", {{"text", "a text of no one's"}}}},
                {{"label", "quoted"}, {"value", {{"text", "splice-amulet"}}}},
                {{"label", "none"}, {"value", {{"optional", json::object()}}}},
                {{"label", "some"},
                 {"value",
                  {{"optional", {{"value", {{"optional", {{"value", {{"text", ""}}}}}}}}}}}},
                {{"label", "items"},
                 {"value",
                  {{"list", {{"elements", json::array({{{"int64", "1"}}, {{"party", "bob"}}})}}}}}},
                {{"label", "texts"},
                 {"value",
                  {{"textMap",
                    {{"entries", json::array({{{"key", "k"}, {"value", {{"text", "v"}}}}})}}}}}},
                {{"label", "pairs"},
                 {"value",
                  {{"genMap",
                    {{"entries",
                      json::array({{{"key", {{"int64", "2"}}},
                                    {"value", {{"enum", {{"constructor", "Red"}}}}}}})}}}}}},
                {{"label", "choice"},
                 {"value",
                  {{"variant",
                    {{"constructor", "Left"}, {"value", {{"unit", json::object()}}}}}}}}})}}}};
    network->apply_steps(json::array(
        {{{"step", "transaction"},
          {"submitters", {"alice"}},
          {"nodes",
           json::array({{{"create",
                          {{"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
                           {"argument", any},
                           {"signatories", {"alice"}},
                           {"as", "every-kind"}}}}})}}}));
    const std::string bytes = network->state();

    const auto loaded = LiveNetwork::load_state(bytes, "s.state");

    const store::Offset end = network->store().ledger_end();
    const auto& saved = std::get<store::Transaction>(*network->store().update_at(end));
    const auto& read = std::get<store::Transaction>(*loaded->store().update_at(end));
    ASSERT_EQ(read.nodes.size(), 1U);
    EXPECT_EQ(model::unpack(store::created(read.nodes[0])->contract->argument),
              model::unpack(store::created(saved.nodes[0])->contract->argument));
    // In one process the Names' ids are the same: the packed bytes too.
    EXPECT_EQ(store::created(read.nodes[0])->contract->argument.bytes(),
              store::created(saved.nodes[0])->contract->argument.bytes());
    EXPECT_EQ(loaded->state(), bytes);
}

TEST(StateFile, ALoadedNetworkTakesTheSameStepsWithTheSameLabels) {
    const auto network = default_network();
    const auto loaded = LiveNetwork::load_state(network->state(), "s.state");
    const json steps = json::array({
        {{"step", "mint"}, {"owner", "alice"}, {"amount", "3"}, {"as", "after-load"}},
        {{"step", "transfer"},
         {"sender", "alice"},
         {"inputs", {"after-load"}},
         {"outputs", {{{"receiver", "bob"}, {"amount", "1"}, {"as", "to-bob"}}}}},
    });

    const Written a = network->apply_steps(steps);
    const Written b = loaded->apply_steps(steps);

    EXPECT_EQ(b.answer, a.answer);
    EXPECT_EQ(loaded->state(), network->state());
}

// A state file loaded into a running network makes it the network a fresh load makes: the same
// steps answer alike and leave the same file, and a reset goes back to the file.
TEST(StateFile, ANetworkLoadedInPlaceGoesOnAsAFreshLoad) {
    const auto saved = default_network();
    saved->apply_steps(
        json::array({{{"step", "mint"}, {"owner", "alice"}, {"amount", "7"}, {"as", "in-place"}},
                     {{"step", "advance_time"}, {"by_seconds", 3600}}}));
    const std::string file = saved->state();
    const auto running = default_network();
    running->apply_steps(json::array({{{"step", "mint"}, {"owner", "bob"}, {"amount", "1"}}}));
    (void)running->take_snapshot();
    const auto fresh = LiveNetwork::load_state(file, "s.state");

    (void)running->load_state_bytes(file, "s.state");

    EXPECT_EQ(running->state(), file);
    EXPECT_EQ(summary(*running), summary(*fresh));
    EXPECT_EQ(running->snapshots().at("snapshots").size(), 0U);
    const json steps = json::array({
        {{"step", "transfer"},
         {"sender", "alice"},
         {"inputs", {"in-place"}},
         {"outputs", {{{"receiver", "bob"}, {"amount", "2"}, {"as", "after"}}}}},
    });
    EXPECT_EQ(running->apply_steps(steps).answer, fresh->apply_steps(steps).answer);
    EXPECT_EQ(running->state(), fresh->state());
    (void)running->reset();
    EXPECT_EQ(running->state(), file);
}

// `network` after `mints` mints for alice and bob, each labelled, saved.
std::string minted(LiveNetwork& network, int mints) {
    json steps = json::array();
    for (int i = 0; i < mints; ++i) {
        steps.push_back({{"step", "mint"},
                         {"owner", i % 2 == 0 ? "alice" : "bob"},
                         {"amount", std::to_string(i + 1) + ".5"},
                         {"as", "many-" + std::to_string(i)}});
    }
    network.apply_steps(steps);
    return network.state();
}

// A DevNet tap's values (each mint's) are written as the facts they hold (TapFacts) and made again
// when the transaction is read: the same bytes. Values a tap's facts do not make are written whole.
TEST(StateFile, ATapsValuesComeBackFromTheFactsTheyHold) {
    const auto network = default_network();
    const std::string before = minted(*network, 200);
    const std::string after = minted(*network, 400);
    // A mint: its transaction (a tap and the Amulet made), the Amulet, its label. Its tap's
    // values written whole took 287 bytes in all, 253 as their facts.
    const std::size_t per_mint = (after.size() - before.size()) / 400;
    EXPECT_LE(per_mint, 260U);
    const std::string rules =
        store::exercised(
            std::get<store::Transaction>(*network->store().update_at(network->store().ledger_end()))
                .nodes[0])
            ->contract_id.str();
    // A tap's argument, and a result with a reason other than the faucet's.
    // (A vector, not a braced json: {one} is an array under GCC and the one object under clang.)
    const auto record = [](const std::vector<json>& fields) {
        json out = {{"record", {{"fields", json::array()}}}};
        for (const json& f : fields) out["record"]["fields"].push_back(f);
        return out;
    };
    const auto field = [](const char* label, json value) {
        return json{{"label", label}, {"value", std::move(value)}};
    };
    const json entries = json::array(
        {{{"key", "splice.lfdecentralizedtrust.org/reason"}, {"value", {{"text", "not a faucet"}}}},
         {{"key", "splice.lfdecentralizedtrust.org/tx-kind"}, {"value", {{"text", "mint"}}}}});
    const json meta = record({field("values", {{"textMap", {{"entries", entries}}}})});
    const json result =
        record({field("amuletSum", record({field("amulet", {{"contractId", rules}})})),
                field("meta", {{"optional", {{"value", meta}}}})});
    const json argument =
        record({field("receiver", {{"party", "alice"}}), field("amount", {{"numeric", "1.5"}})});
    network->apply_steps(json::array(
        {{{"step", "transaction"},
          {"submitters", {"alice"}},
          {"nodes", json::array({{{"exercise",
                                   {{"contract", rules},
                                    {"template", "splice-amulet:Splice.AmuletRules:AmuletRules"},
                                    {"choice", "AmuletRules_DevNet_Tap"},
                                    {"consuming", false},
                                    {"acting_parties", {"alice"}},
                                    {"argument", argument},
                                    {"result", result}}}}})}}}));
    const std::string bytes = network->state();

    const auto loaded = LiveNetwork::load_state(bytes, "s.state");

    std::size_t taps = 0;
    for (store::Offset o = 1; o <= network->store().ledger_end(); ++o) {
        const auto* saved = std::get_if<store::Transaction>(network->store().update_at(o).get());
        if (saved == nullptr) continue;
        const auto& read = std::get<store::Transaction>(*loaded->store().update_at(o));
        ASSERT_EQ(read.nodes.size(), saved->nodes.size()) << o;
        for (std::size_t i = 0; i < saved->nodes.size(); ++i) {
            const store::ExercisedNode* e = store::exercised(saved->nodes[i]);
            if (e == nullptr) continue;
            const store::ExercisedNode* r = store::exercised(read.nodes[i]);
            ASSERT_NE(r, nullptr);
            EXPECT_EQ(r->choice, e->choice);
            EXPECT_EQ(r->choice_argument.bytes(), e->choice_argument.bytes()) << o;
            EXPECT_EQ(r->exercise_result.bytes(), e->exercise_result.bytes()) << o;
            if (e->choice == "AmuletRules_DevNet_Tap") ++taps;
        }
    }
    EXPECT_GE(taps, 401U);
    EXPECT_EQ(loaded->state(), bytes);
}

// A file of thousands of texts and holdings, whose texts are interned on another thread while
// the body is read (and, at start-up, hashed on a third): each text comes back as the Name it was
// in this process (none interned twice), and the views read the same holdings; so it does when a
// running network loads the file in place.
TEST(StateFile, ConcurrentlyInternedTextsComeBackAsTheNamesTheyWere) {
    const auto network = default_network();
    const std::string bytes = minted(*network, 2'500);

    const auto loaded = LiveNetwork::load_state(bytes, "s.state");

    const store::LedgerStore& saved = network->store();
    const store::LedgerStore& read = loaded->store();
    ASSERT_EQ(read.active_contracts().size(), saved.active_contracts().size());
    const auto ids = [](const store::LedgerStore& s) {
        std::vector<std::uint32_t> out;
        for (const model::ContractPtr& c : s.active_contracts()) out.push_back(c->contract_id.id());
        return out;
    };
    EXPECT_EQ(ids(read), ids(saved));
    std::size_t holdings = 0;
    for (const model::User& user : saved.network().users) {
        const std::size_t n = splice::views(saved).unlocked_amulets_of(user.party).size();
        EXPECT_EQ(splice::views(read).unlocked_amulets_of(user.party).size(), n) << user.id;
        holdings += n;
    }
    EXPECT_GE(holdings, 2'500U);
    EXPECT_EQ(loaded->state(), bytes);
    EXPECT_EQ(summary(*loaded), summary(*network));

    const auto in_place = default_network();
    (void)in_place->load_state_bytes(bytes, "s.state");
    EXPECT_EQ(ids(in_place->store()), ids(saved));
    EXPECT_EQ(in_place->state(), bytes);
}

// Bytes a test lends a load (as start-up lends a leased mapping of the file): written over as they
// go, so that a read of them afterwards shows, with or without a sanitizer.
struct LentBytes {
    std::string bytes;
    explicit LentBytes(std::string b) : bytes(std::move(b)) {}
    LentBytes(const LentBytes&) = delete;
    LentBytes& operator=(const LentBytes&) = delete;
    ~LentBytes() { std::fill(bytes.begin(), bytes.end(), '\x5a'); }
};

// A network of many transactions, saved and loaded from bytes lent to the load, which only the
// loaded network then holds.
struct LentLoad {
    std::unique_ptr<LiveNetwork> network = default_network();
    std::string bytes = minted(*network, 2'000);
    std::weak_ptr<LentBytes> watch;
    std::unique_ptr<LiveNetwork> loaded;
    LentLoad() {
        auto lent = std::make_shared<LentBytes>(bytes);
        watch = lent;
        const std::string_view view = lent->bytes;
        loaded = LiveNetwork::load_state(view, "s.state", {}, std::move(lent));
    }
};

// A load from lent bytes reads its history's transactions from them, when first asked for,
// until stop_borrowing() copies those not read yet and lets the bytes go: then every
// transaction reads as saved, those read before and those read after.
TEST(StateFile, AHistoryLoadedFromLentBytesKeepsWhatItStillNeedsWhenTheyGo) {
    const LentLoad l;
    EXPECT_FALSE(l.watch.expired());  // the history still reads from them
    const store::LedgerStore& s = l.loaded->store();
    EXPECT_EQ(store::update_id_of(*s.update_at(s.ledger_end() / 2)).str(),
              store::update_id_of(*l.network->store().update_at(s.ledger_end() / 2)).str());

    l.loaded->stop_borrowing();
    EXPECT_TRUE(l.watch.expired());
    EXPECT_EQ(l.loaded->state(), l.bytes);  // every transaction, read from the copies
    EXPECT_EQ(summary(*l.loaded), summary(*l.network));
    l.loaded->stop_borrowing();  // again: nothing is borrowed
}

// Readers reading transactions for the first time while the lent bytes are copied each read
// the transaction saved (under TSan in `make tsan`).
TEST(StateFile, ConcurrentReadersWhileLentBytesAreCopied) {
    const LentLoad l;
    const store::LedgerStore& s = l.loaded->store();
    const store::Offset end = s.ledger_end();
    std::vector<std::string> expected;
    for (store::Offset o = 1; o <= end; ++o)
        expected.push_back(store::update_id_of(*l.network->store().update_at(o)).str());
    std::atomic<int> wrong{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 2; ++r) {
        readers.emplace_back([&, r] {
            // One from the end, one from the start: they meet the copy at different chunks.
            for (store::Offset k = 0; k < end; ++k) {
                const store::Offset o = r == 0 ? end - k : k + 1;
                if (store::update_id_of(*s.update_at(o)).str() !=
                    expected[static_cast<std::size_t>(o - 1)])
                    ++wrong;
            }
        });
    }
    l.loaded->stop_borrowing();
    for (std::thread& t : readers) t.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_TRUE(l.watch.expired());
    EXPECT_EQ(l.loaded->state(), l.bytes);
}

TEST(StateFile, RefusesWhatIsNotAStateFile) {
    EXPECT_EQ(refusal(""), "s.state: is not a cantonlite state file");
    EXPECT_EQ(refusal(R"({"network": {}})"), "s.state: is not a cantonlite state file");
    EXPECT_EQ(refusal("cantonlite state"), "s.state: is truncated: its header is cut short");
}

TEST(StateFile, RefusesATruncatedOrDamagedFile) {
    const std::string bytes = default_network()->state();
    const std::string cut = bytes.substr(0, bytes.size() - 10);
    EXPECT_EQ(refusal(cut), "s.state: is truncated: it has " + std::to_string(cut.size() - 32) +
                                " of its " + std::to_string(bytes.size() - 32) + " bytes");
    std::string damaged = bytes;
    damaged[damaged.size() / 2] ^= 0x20;
    EXPECT_EQ(refusal(damaged), "s.state: is damaged: its checksum does not match its contents");
    EXPECT_EQ(refusal(bytes + "x"), "s.state: is damaged: 1 bytes follow its end");
}

// A large payload's checksum is computed in two halves on two threads and combined: the same
// CRC-32 as zlib's of the whole (the header keeps it at byte 20, little-endian).
TEST(StateFile, ALargePayloadsChecksumIsTheCrcOfTheWhole) {
    std::string file(state_file_header_size + (std::size_t{9} << 20) + 7, '\0');
    std::uint32_t x = 12345;
    for (std::size_t i = state_file_header_size; i < file.size(); ++i) {
        x = x * 1103515245U + 12345U;
        file[i] = static_cast<char>(x >> 24);
    }

    seal_state_file(file);

    const auto* payload = reinterpret_cast<const Bytef*>(file.data() + state_file_header_size);
    const auto whole = static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, Z_NULL, 0), payload, file.size() - state_file_header_size));
    std::uint32_t kept = 0;
    for (int i = 0; i < 4; ++i)
        kept |= std::uint32_t{static_cast<unsigned char>(file[20 + i])} << (8 * i);
    EXPECT_EQ(kept, whole);
}

// At start-up the checksum is computed while the table of texts is read: damage to the table
// (the file's last bytes, the first it reads) is still the checksum's to report, whether or not
// the table reads. So it is when the checksum comes first (a file sent to a running daemon).
TEST(StateFile, DamageToItsTablesIsReportedAsTheChecksums) {
    const std::string bytes = default_network()->state();
    const std::string checksum = "is damaged: its checksum does not match its contents";
    for (const std::size_t from_end : {1, 2, 5, 40, 300, 3000}) {
        for (const unsigned char bits : {0x01, 0x80, 0xFF}) {
            std::string damaged = bytes;
            damaged[damaged.size() - from_end] ^= static_cast<char>(bits);
            EXPECT_EQ(refusal(damaged), "s.state: " + checksum) << from_end << " " << +bits;
            try {
                (void)read_state(damaged, {}, Checksum::first);
                ADD_FAILURE() << "loaded";
            } catch (const StateError& e) {
                EXPECT_EQ(e.what(), checksum);
            }
        }
    }
}

// At start-up, damage anywhere in a file (here one of many texts, which are interned while the
// body is read) is the checksum's to report, whatever reading it would make of it.
TEST(StateFile, DamageAnywhereIsReportedAsTheChecksums) {
    const auto network = default_network();
    json steps = json::array();
    for (int i = 0; i < 1'500; ++i)
        steps.push_back({{"step", "mint"}, {"owner", "alice"}, {"amount", "1"}});
    network->apply_steps(steps);
    const std::string bytes = network->state();
    for (const std::size_t at : {std::size_t{40}, std::size_t{200}, bytes.size() / 4,
                                 bytes.size() / 3, bytes.size() / 2, 3 * bytes.size() / 4}) {
        for (const unsigned char bits : {0x01, 0x7F, 0xFF}) {
            std::string damaged = bytes;
            damaged[at] ^= static_cast<char>(bits);
            EXPECT_EQ(refusal(damaged),
                      "s.state: is damaged: its checksum does not match its contents")
                << at << " " << +bits;
        }
    }
}

// The payload is the body's size, the body, then the table of the texts it names: a size that
// points past the end, or bytes after the table, are damage even under a checksum that matches.
TEST(StateFile, RefusesABodySizeThatDoesNotFit) {
    const std::string bytes = default_network()->state();
    std::string too_large = bytes;
    too_large[32 + 7] = 0x7F;  // the size's highest byte
    seal_state_file(too_large);
    EXPECT_EQ(refusal(too_large), "s.state: is damaged: its body is larger than the file");
    std::string trailing = bytes + "x";
    seal_state_file(trailing);
    EXPECT_EQ(refusal(trailing), "s.state: is damaged: bytes follow its tables");
}

TEST(StateFile, RefusesAnotherFormat) {
    std::string newer = default_network()->state();
    newer[16] = static_cast<char>(state_file_format + 1);
    EXPECT_EQ(refusal(newer),
              "s.state: is a state file of format 7, newer than the format this "
              "cantonlite reads (6)");
    // Format 4 replayed the history, format 5 wrote taps' values whole; their files are made
    // again from their seed or source.
    std::string older = newer;
    older[16] = 5;
    EXPECT_EQ(refusal(older),
              "s.state: is a state file of format 5, which is not the format this "
              "cantonlite reads (6)");
}

// Readers of the store while a running network loads state files in place: those that take the
// network's readers' lock (the areas) and those that call the store alone (update streams). Every
// read is answered; under ThreadSanitizer (make tsan) no access races.
TEST(StateFile, ConcurrentReadersWhileAStateFileLoads) {
    const auto network = default_network();
    const std::string first = network->state();
    network->apply_steps(json::array({
        {{"step", "mint"}, {"owner", "alice"}, {"amount", "5"}, {"as", "between"}},
    }));
    const std::string second = network->state();
    const store::LedgerStore& s = network->store();
    std::atomic<bool> done{false};
    std::atomic<long> reads{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 2; ++r) {
        readers.emplace_back([&, r] {
            while (!done.load()) {
                if (r == 0) {
                    const std::shared_lock lock(network->gate());
                    (void)s.active_contracts();
                    (void)splice::views(s).open_rounds();
                    (void)s.network().users.size();
                } else {
                    const store::Offset end = s.ledger_end();
                    if (end > 0) (void)s.update_at(end);
                    (void)s.snapshot_times();
                }
                ++reads;
            }
        });
    }
    // Loads go on until the readers have read meanwhile (a load is quicker than a thread's
    // start on a busy machine), then end on `second`.
    while (reads.load() == 0) std::this_thread::yield();
    const long before = reads.load();
    for (int i = 0; i < 1000 && (i < 6 || reads.load() < before + 20); ++i)
        (void)network->load_state_bytes(i % 2 == 0 ? first : second, "s.state");
    (void)network->load_state_bytes(second, "s.state");
    done = true;
    for (std::thread& t : readers) t.join();
    EXPECT_GE(reads.load(), before + 20);
    EXPECT_EQ(network->state(), second);
}

// A file whose header checks out but whose history does not replay (cut short, then sealed
// again) is refused by a running network, which answers as before, its snapshots kept.
TEST(StateFile, AFileThatFailsHalfWayLeavesTheRunningNetworkAsItWas) {
    const auto network = default_network();
    const std::string other = network->state();
    network->apply_steps(json::array(
        {{{"step", "mint"}, {"owner", "alice"}, {"amount", "4"}, {"as", "before-load"}}}));
    const std::string snapshot = network->take_snapshot().answer.at("id");
    const model::Timestamp at_snapshot = network->store().now();
    network->apply_steps(json::array({{{"step", "advance_time"}, {"by_seconds", 60}}}));
    const std::string before = network->state();
    const json summary_before = summary(*network);
    std::string broken = other.substr(0, other.size() - other.size() / 3);
    seal_state_file(broken);

    try {
        (void)network->load_state_bytes(broken, "s.state");
        FAIL() << "loaded";
    } catch (const WriteError& e) {
        EXPECT_EQ(e.status(), 400);
        EXPECT_EQ(std::string(e.what()).rfind("s.state: is damaged: ", 0), 0U) << e.what();
    }

    EXPECT_EQ(network->state(), before);
    EXPECT_EQ(summary(*network), summary_before);
    network->revert(snapshot);
    EXPECT_EQ(network->store().now(), at_snapshot);
}

// A persisted snapshot's file is the network at that snapshot, with writes coming concurrently:
// reverted to, each snapshot's network saves that file again.
TEST(StateFile, ConcurrentWritesDoNotComeBetweenASnapshotAndItsFile) {
    const auto network = default_network();
    std::atomic<bool> done{false};
    std::thread writer([&] {
        for (int i = 0; !done.load(); ++i) {
            network->apply_steps(json::array({{{"step", "advance_time"}, {"by_seconds", 1}}}));
            if (i % 4 == 0)
                network->apply_steps(
                    json::array({{{"step", "mint"}, {"owner", "alice"}, {"amount", "1"}}}));
        }
    });
    const TempDir dir("state-snapshots");
    std::vector<std::pair<std::string, std::string>> taken;  // snapshot id, its file
    for (int i = 0; i < 8; ++i) {
        const std::filesystem::path path = dir.path / ("s" + std::to_string(i) + ".state");
        auto [written, saved] = network->take_snapshot_to_file(path);
        ASSERT_EQ(saved.error, std::nullopt);
        const std::string file = util::read_file(path).value();
        EXPECT_EQ(saved.header, file.substr(0, state_file_header_size));
        taken.emplace_back(written.answer.at("id").get<std::string>(), file);
    }
    done = true;
    writer.join();

    for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
        network->revert(it->first);
        EXPECT_EQ(network->state(), it->second) << "snapshot " << it->first;
    }
}

// A state file written to disk as it is encoded (--dump-state, a persisted snapshot, a fork) is
// the one written in memory (GET /state), over a history of several chunks and a table of texts
// of several MiB, each part of which goes to the disk while the next is made; and it loads.
TEST(StateFile, AFileWrittenWhileItIsEncodedIsTheOneWrittenInMemory) {
    const auto network = default_network();
    json steps = json::array();
    for (int i = 0; i < 9000; ++i) {
        steps.push_back({{"step", "mint"},
                         {"owner", i % 3 == 0 ? "alice" : "bob"},
                         {"amount", std::to_string(1 + i % 7) + ".5"},
                         {"as", "label-" + std::to_string(i) + std::string(300, 'x')}});
    }
    network->apply_steps(steps);
    const TempDir dir("state-streamed");
    const std::filesystem::path path = dir.path / "n.state";

    const WrittenStateFile written = network->save_state(path);

    ASSERT_EQ(written.error, std::nullopt);
    const std::string in_memory = network->state();
    ASSERT_GT(network->store().ledger_end(), 2 * 4096) << "three chunks of 4 096 updates";
    const std::string on_disk = util::read_file(path).value();
    EXPECT_EQ(on_disk.size(), in_memory.size());
    EXPECT_TRUE(on_disk == in_memory) << "the bytes differ";
    EXPECT_EQ(written.header, in_memory.substr(0, state_file_header_size));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "n.state.partial"));
    EXPECT_EQ(summary(*LiveNetwork::load_state_file(path)), summary(*network));
}

// The same through buffers far smaller than the file, which turn many times: in the history's
// chunks, in what follows them and in the table of texts.
TEST(StateFile, AFileStreamedThroughSmallBuffersIsTheOneWrittenInMemory) {
    json steps = json::array();
    for (int i = 0; i < 3000; ++i) {
        const std::string n = std::to_string(i);
        steps.push_back(
            {{"step", "add_party"}, {"alias", "p" + n}});  // one set of stakeholders each
        steps.push_back({{"step", "mint"},
                         {"owner", "p" + n},
                         {"amount", std::to_string(1 + i % 7) + ".5"},
                         {"as", "label-" + n + std::string(i % 50, 'x')}});
    }
    const LoadedSeed seed = load_seed_with_context(
        json{{"network",
              json::parse(util::read_file(CANTONLITE_SOURCE_DIR "/config/default-network.json")
                              .value())["network"]},
             {"steps", steps}},
        "streamed.json", ".");
    const std::string in_memory = write_state(*seed.store, *seed.context);
    const TempDir dir("state-small-buffers");

    for (const std::size_t buffer_bytes : {std::size_t{4096}, std::size_t{20000}}) {
        const std::filesystem::path path = dir.path / ("n" + std::to_string(buffer_bytes));
        util::AtomicFile file(path);
        std::string header = write_state_file(*seed.store, *seed.context, file, buffer_bytes);
        ASSERT_EQ(commit_state_file(file, std::move(header)).error, std::nullopt);
        EXPECT_TRUE(util::read_file(path).value() == in_memory) << buffer_bytes << " bytes";
    }
}

// One that cannot be written says which file and why, and leaves nothing behind.
TEST(StateFile, AFileThatCannotBeWrittenSaysWhyAndLeavesNothing) {
    const auto network = default_network();
    const TempDir dir("state-unwritable");
    const std::filesystem::path path = dir.path / "missing" / "n.state";

    const WrittenStateFile written = network->save_state(path);

    EXPECT_EQ(written.error,
              path.string() + ".partial: cannot be written: No such file or directory");
    EXPECT_EQ(written.header, "");
    EXPECT_FALSE(std::filesystem::exists(dir.path / "missing"));
}

TEST(StateFile, RefusesAFileThatCannotBeRead) {
    try {
        (void)LiveNetwork::load_state_file("/nonexistent/s.state");
        FAIL() << "loaded";
    } catch (const SeedError& e) {
        EXPECT_STREQ(e.what(), "/nonexistent/s.state: cannot be read");
    }
}

}  // namespace
}  // namespace cantonlite::seed::state_file_test
