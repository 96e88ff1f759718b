// Scan's bulk update history: POST /v0/history/bulk/updates (listBulkUpdateHistoryObjects,
// pre-alpha) and the download of its objects. As Splice's UpdateHistoryBulkStorage lists them:
// a folder "<from>~<to>/" per segment of the history (the updates after one bulk snapshot up to
// the next, the first from CantonTimestamp.MinValue), only segments that hold updates, the
// folders in range and after the page token, a folder whole or not at all; each object's lines
// the /v2/updates items in compact_json with sorted keys (noSpacesSortKeys).
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/seed/scan_bulk.hpp"

namespace cantonlite::areas::scan::scan_bulk_updates_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string listing = "/api/scan/v0/history/bulk/updates";
const std::string host = "http://localhost:7575";

// The default network, served on `release`.
ScanClient default_network(areas::Release release) {
    std::ifstream in(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    return ScanClient(json::parse(in), {.release = release});
}

const ScanClient& api() {
    static const ScanClient client = default_network(areas::Release::splice_0_6);
    return client;
}

json list(const std::string& start, const std::string& end, int page_size,
          const std::optional<std::string>& token = std::nullopt) {
    json body = {{"start_record_time", start}, {"end_record_time", end}, {"page_size", page_size}};
    if (token) body["next_page_token"] = *token;
    const Response r = api().post(listing, body);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body);
}

// The folder of an object's url: "<from>~<to>/".
std::string folder_of(const json& ref) {
    const std::string url = ref.at("url");
    const std::string prefix = host + "/api/scan/v0/history/bulk/download/";
    EXPECT_EQ(url.substr(0, prefix.size()), prefix);
    std::string key;
    for (std::size_t i = prefix.size(); i < url.size(); ++i) {
        if (url[i] == '%') {
            key += static_cast<char>(std::stoi(url.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            key += url[i];
        }
    }
    return key.substr(0, key.rfind('/') + 1);
}

// The lines of an object, downloaded and checked against its digest.
std::vector<std::string> lines_of(const json& ref) {
    const std::string url = ref.at("url");
    const Response object = api().get(url.substr(host.size()));
    EXPECT_EQ(object.status, 200);
    EXPECT_EQ(object.content_type, "application/octet-stream");
    EXPECT_EQ(seed::bulk_digest(object.body), ref.at("digest"));
    const std::string text = seed::zstd_decompress(object.body, 1 << 26);
    std::vector<std::string> out;
    for (const auto line : seed::bulk_lines(text)) out.emplace_back(line);
    return out;
}

// The segments' folders, from the snapshots: the first from 0001-01-01T00:00:00Z.
std::vector<std::string> expected_folders() {
    std::vector<std::string> out;
    std::string from = "0001-01-01T00:00:00Z";
    for (const auto& [migration, t] : api().store().snapshot_times()) {
        const std::string to = model::format_instant(t);
        out.push_back(from + "~" + to + "/");
        from = to;
    }
    return out;
}

TEST(ScanBulkUpdates, TheObjectsHoldTheHistoryUpToTheLastSnapshotAsV2UpdatesInCompactJson) {
    const auto times = api().store().snapshot_times();
    ASSERT_GE(times.size(), 2U) << "the default network takes snapshots in two migrations";
    const json page = list("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z", 1000);
    ASSERT_FALSE(page.at("object_refs").empty());

    std::vector<std::string> lines;
    std::vector<std::string> folders;
    for (const json& ref : page.at("object_refs")) {
        folders.push_back(folder_of(ref));
        for (std::string& line : lines_of(ref)) lines.push_back(std::move(line));
    }
    // Every update up to the last snapshot, as /v2/updates serves it (keys sorted), in order.
    const json all =
        json::parse(api().post("/api/scan/v2/updates", {{"page_size", 1000}}).body)["transactions"];
    std::vector<std::string> wanted;
    for (const json& item : all) {
        const std::string t = item.at("record_time");
        if (*model::parse_timestamp(t) > times.back().second) continue;
        wanted.push_back(item.dump());  // nlohmann's objects keep their keys sorted
    }
    EXPECT_EQ(lines, wanted);
    // Each folder once, in order, and only those of the segments that hold updates.
    const std::vector<std::string> segments = expected_folders();
    std::vector<std::string> distinct;
    for (const std::string& f : folders) {
        if (distinct.empty() || distinct.back() != f) distinct.push_back(f);
    }
    for (const std::string& f : distinct)
        EXPECT_NE(std::find(segments.begin(), segments.end(), f), segments.end()) << f;
    EXPECT_TRUE(std::is_sorted(distinct.begin(), distinct.end()));
    EXPECT_EQ(distinct.front(), segments.front()) << "the first segment starts at MinValue";
    EXPECT_EQ(distinct.back(), segments.back());
}

TEST(ScanBulkUpdates, AnEndBeyondWhatIsDumpedGivesATokenToRetryWith) {
    // getNextPageToken: the last folder while it ends before the end asked for; then, with
    // nothing more to list, the same token again (storage may yet reach that end).
    const json page = list("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z", 1000);
    ASSERT_TRUE(page.at("next_page_token").is_string());
    const std::string token = page["next_page_token"];
    EXPECT_EQ(token, expected_folders().back());
    const json again = list("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z", 1000, token);
    EXPECT_TRUE(again.at("object_refs").empty());
    EXPECT_EQ(again.at("next_page_token"), token);
}

TEST(ScanBulkUpdates, AnEndWithinWhatIsDumpedEndsTheListing) {
    const std::vector<std::string> folders = expected_folders();
    const std::string last_end = folders.back().substr(folders.back().find('~') + 1);
    const std::string end = last_end.substr(0, last_end.size() - 1);  // without the '/'
    const json page = list("2000-01-01T00:00:00Z", end, 1000);
    EXPECT_FALSE(page.at("object_refs").empty());
    EXPECT_TRUE(page.at("next_page_token").is_null());
}

TEST(ScanBulkUpdates, PagesOfOneFolderWalkTheSameObjects) {
    const json whole = list("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z", 1000);
    json walked = json::array();
    std::optional<std::string> token;
    for (int pages = 0; pages < 50; ++pages) {
        const json page = list("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z", 1, token);
        if (page.at("object_refs").empty()) break;
        EXPECT_EQ(page.at("object_refs").size(), 1U);
        for (const json& ref : page["object_refs"]) walked.push_back(ref);
        ASSERT_TRUE(page.at("next_page_token").is_string());
        token = page["next_page_token"].get<std::string>();
    }
    EXPECT_EQ(walked, whole.at("object_refs"));
}

TEST(ScanBulkUpdates, OnlyTheFoldersThatOverlapTheRangeAreListed) {
    const std::vector<std::string> folders = expected_folders();
    ASSERT_GE(folders.size(), 2U);
    // The range of the second segment alone: (its start, its end].
    const std::string second = folders[1];
    const std::string from = second.substr(0, second.find('~'));
    const std::string to =
        second.substr(second.find('~') + 1, second.size() - second.find('~') - 2);
    const json page = list(from, to, 1000);
    for (const json& ref : page.at("object_refs")) EXPECT_EQ(folder_of(ref), second);
    EXPECT_TRUE(page.at("next_page_token").is_null());
    // Before the history: the first segment, which starts at MinValue (Scan's objects may hold
    // updates outside the range), and no token (storage is past that end).
    const json before = list("2000-01-01T00:00:00Z", "2000-01-02T00:00:00Z", 10);
    ASSERT_FALSE(before.at("object_refs").empty());
    for (const json& ref : before["object_refs"]) EXPECT_EQ(folder_of(ref), folders.front());
    EXPECT_TRUE(before.at("next_page_token").is_null());
}

TEST(ScanBulkUpdates, RequestsAreCheckedInScansOrderAndWords) {
    const auto refusal = [](const json& body) {
        const Response r = api().post(listing, body);
        return std::pair(
            r.status, json::accept(r.body) ? json::parse(r.body).value("error", r.body) : r.body);
    };
    EXPECT_EQ(refusal({{"end_record_time", "2025-01-01T00:00:00Z"}, {"page_size", 1}}),
              std::pair(400, std::string("The request content was malformed:\nDecodingFailure at "
                                         ".start_record_time: Missing required field")));
    EXPECT_EQ(refusal({{"start_record_time", "2025-01-01T00:00:00Z"},
                       {"end_record_time", "2025-01-02T00:00:00Z"},
                       {"page_size", 0}}),
              std::pair(400, std::string("Limit must be at least 1.")));
    EXPECT_EQ(refusal({{"start_record_time", "2025-01-01T00:00:00Z"},
                       {"end_record_time", "2025-01-02T00:00:00Z"},
                       {"page_size", 1001}}),
              std::pair(400, std::string("Exceeded limit maximum (1001 > 1000).")));
    EXPECT_EQ(refusal({{"start_record_time", "yesterday"},
                       {"end_record_time", "2025-01-02T00:00:00Z"},
                       {"page_size", 1}})
                  .first,
              400);
}

TEST(ScanBulkUpdates, AnUnknownUpdatesObjectIsNotFound) {
    const Response r = api().get(
        "/api/scan/v0/history/bulk/download/"
        "2000-01-01T00%3A00%3A00Z~2000-01-02T00%3A00%3A00Z%2Fupdates_compact_json_0.zstd");
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(json::parse(r.body).at("error"),
              "Object not found: "
              "2000-01-01T00:00:00Z~2000-01-02T00:00:00Z/updates_compact_json_0.zstd");
}

// The two internal endpoints of Splice 0.9's bulk storage pipeline, with which SVs compare what
// they dumped: POST /v0/history/bulk/checksums (getBulkObjectChecksums) and GET
// /v0/history/bulk/progress (getBulkObjectsProgress).
const ScanClient& api_0_9() {
    static const ScanClient client = default_network(areas::Release::splice_0_9);
    return client;
}

// An object's key, from its listed url.
std::string key_of(const json& ref) {
    const std::string folder = folder_of(ref);
    const std::string url = ref.at("url");
    return folder + url.substr(url.rfind("%2F") + 3);
}

TEST(ScanBulkChecksums, EachKeyGetsItsObjectsDigestInOrderAndAnUnknownOneNull) {
    const json listed =
        list("2000-01-01T00:00:00Z", model::format_instant(api().store().now()), 1000);
    ASSERT_GE(listed.at("object_refs").size(), 2U);
    const json& first = listed.at("object_refs")[0];
    const json& last = listed.at("object_refs").back();
    const json acs = json::parse(
        api_0_9()
            .get("/api/scan/v0/history/bulk/acs?at_or_before_record_time=2100-01-01T00:00:00Z")
            .body);
    const json& acs_ref = acs.at("object_refs")[0];
    const std::string acs_key =
        seed::bulk_acs_key(*model::parse_timestamp(acs.at("record_time").get<std::string>()), 0);
    const Response r = api_0_9().post(
        "/api/scan/v0/history/bulk/checksums",
        {{"object_keys",
          {key_of(last), "2000-01-01T00:00:00Z~2000-01-02T00:00:00Z/updates_compact_json_0.zstd",
           key_of(first), acs_key}}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), (json{{"checksums",
                                          {{{"value", last.at("digest")}},
                                           {{"value", nullptr}},
                                           {{"value", first.at("digest")}},
                                           {{"value", acs_ref.at("digest")}}}}}));
    EXPECT_EQ(api_0_9()
                  .post("/api/scan/v0/history/bulk/checksums", {{"object_keys", json::array()}})
                  .body,
              R"({"checksums":[]})");
}

TEST(ScanBulkChecksums, RequestsAreCheckedAsGuardrailDecodesThem) {
    const Response missing = api_0_9().post("/api/scan/v0/history/bulk/checksums", json::object());
    EXPECT_EQ(missing.status, 400);
    EXPECT_EQ(missing.body,
              "The request content was malformed:\nDecodingFailure at .object_keys: Missing "
              "required field");
    // Splice 0.6's Scan has neither endpoint.
    EXPECT_EQ(
        api().post("/api/scan/v0/history/bulk/checksums", {{"object_keys", json::array()}}).status,
        404);
    EXPECT_EQ(
        api().get("/api/scan/v0/history/bulk/progress?record_time=2000-01-01T00:00:00Z").status,
        404);
}

TEST(ScanBulkProgress, BeyondOnceTheDumpReachesTheTimeAsked) {
    // Both the ACS snapshots and the update history's segments are dumped up to the latest
    // snapshot: at it or before it is beyond; after it is not yet.
    const auto times = api_0_9().store().snapshot_times();
    ASSERT_FALSE(times.empty());
    const std::string latest = model::format_instant(times.back().second);
    const auto progress = [](const std::string& t) {
        const Response r = api_0_9().get("/api/scan/v0/history/bulk/progress?record_time=" + t);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.body;
    };
    EXPECT_EQ(progress("2000-01-01T00:00:00Z"), R"({"beyond_requested_record_time":true})");
    EXPECT_EQ(progress(latest), R"({"beyond_requested_record_time":true})");
    EXPECT_EQ(progress("2100-01-01T00:00:00Z"), R"({"beyond_requested_record_time":false})");
    const Response missing = api_0_9().get("/api/scan/v0/history/bulk/progress");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body, "Request is missing required query parameter 'record_time'");
    EXPECT_EQ(api_0_9().get("/api/scan/v0/history/bulk/progress?record_time=soon").status, 400);
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_bulk_updates_test
