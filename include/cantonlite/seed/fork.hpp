#pragma once
// A forked network (cantonlite fork, docs/fork.md): built from what a Scan serves, the ACS at one
// of its snapshots and the updates after it, into a state file that `serve --load-state` serves.
// This layer reads the Scan's answers as they came (JSON documents); fetching them is the
// caller's (app/fork.cpp).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cantonlite/model/network.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/state_file.hpp"

namespace cantonlite::seed {

// What a Scan served cannot be forked: what() says which item and why ("update 1220…: event
// 1220…:3: contract 00ab… is archived").
class ForkError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// What the fork starts from, as the source's Scan reports it.
struct ForkSource {
    std::string dso_party;
    std::string synchronizer_id;     // the global synchronizer's
    std::int64_t migration_id = 0;   // of the snapshot
    model::Timestamp snapshot_time;  // the record time of the ACS snapshot
    std::optional<model::Lsu> lsu;   // the synchronizer upgrade it announces, if any
};

// What a fork holds so far.
struct ForkCounts {
    std::size_t contracts = 0;  // of the ACS at the snapshot
    std::size_t updates = 0;    // after it
    // Assignments of contracts that were in flight at the snapshot: the ACS does not hold them,
    // so neither does the fork.
    std::size_t skipped_assignments = 0;
};

// What a page held, for the caller to page on.
struct ForkPage {
    std::size_t items = 0;
    std::string next_page_token;  // an ACS page's, as JSON ("" when there is none)
    // An update page's updates: each one's migration id and record time, as served.
    std::vector<std::pair<std::int64_t, std::string>> positions;
};

// An answer of the source (an ACS page or an update page) parsed once, for the calls below that
// read it: a page's positions, whether its labels are known and its contents all come from the
// one parse. It may be made on another thread than the builder's (a fork parses the next page
// while it builds this one).
class AnswerParsers;
class ForkAnswer {
  public:
    // Throws ForkError naming `what` ("an update page") when `text` is no JSON object. Parsed
    // with a parser of `parsers`, when given, which gets it back when the answer goes.
    ForkAnswer(std::string text, const std::string& what, AnswerParsers* parsers = nullptr);
    ~ForkAnswer();
    ForkAnswer(ForkAnswer&&) noexcept;
    ForkAnswer& operator=(ForkAnswer&&) noexcept;

    [[nodiscard]] const std::string& text() const;

  private:
    friend class ForkBuilder;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Parsers kept for the answers of one fork to use again. A parser's buffers take about eight
// times the largest answer it read (12 MB for an update page of 1.5 MB), more than the allocator
// keeps for reuse once freed: a parser per page faulted its buffers in afresh each time. Safe
// to use from several threads; it must outlive the answers parsed with it.
class AnswerParsers {
  public:
    explicit AnswerParsers(std::size_t keep = 4);  // at most `keep` wait to be used again
    ~AnswerParsers();
    AnswerParsers(const AnswerParsers&) = delete;
    AnswerParsers& operator=(const AnswerParsers&) = delete;

    // How many wait to be used again.
    [[nodiscard]] std::size_t idle() const;

  private:
    friend class ForkAnswer;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Builds a forked network: the ACS pages first, then the update pages, then finish().
class ForkBuilder {
  public:
    explicit ForkBuilder(ForkSource source);
    ~ForkBuilder();
    ForkBuilder(const ForkBuilder&) = delete;
    ForkBuilder& operator=(const ForkBuilder&) = delete;

    // One page of the ACS at the snapshot: the whole answer of /v2/state/acs (or /v1/state/acs),
    // its created_events in the order served ((created_at, contract id)). A record whose fields
    // came in another order than the one learn_labels saw for its place is put in that order.
    // Throws ForkError.
    ForkPage add_acs_page(const ForkAnswer& answer);
    ForkPage add_acs_page(std::string_view answer);
    // Learns the labels, and their order, of the records of an update page read in both
    // encodings (as add_updates_page does), without adding its updates: before the ACS, when
    // the ACS came with its records' fields in another order (Scan's bulk objects sort keys).
    // Throws ForkError.
    void learn_labels(std::string_view typed, std::string_view labelled);
    // A later Scan snapshot of the source (its migration and record time): the fork takes one at
    // the same time once its history passes it. REQUIRES: before the updates it comes after, in
    // (migration, time) order.
    void add_snapshot_time(std::int64_t migration, model::Timestamp t);
    // The source's open mining round at `t` (a snapshot's time; Scan's holdings summary names it
    // computed_as_of_round): the fork numbers its rounds from the start they imply, as cantonlite
    // does (one per 10 minutes), so that its rounds are the source's.
    void add_round_at(model::Timestamp t, std::int64_t round);
    // One page of /v2/updates after the snapshot: the whole answers to the same request with
    // daml_value_encoding protobuf_json (`typed`) and compact_json (`labelled`). When the
    // history grew between the two, the updates both hold. `labelled` may be "" when
    // labels_known(typed): the records' labels are those learnt from earlier pages. Throws
    // ForkError.
    ForkPage add_updates_page(const ForkAnswer& typed, std::string_view labelled);
    ForkPage add_updates_page(std::string_view typed, std::string_view labelled);
    // One page of updates whose values are in compact_json alone (Scan's bulk objects): each
    // value typed by its shape, as an ACS contract's. Throws ForkError.
    ForkPage add_compact_updates_page(std::string_view answer);
    // Whether every record of the values of `typed` (an update page in protobuf_json) sits where
    // an earlier page read in both encodings showed its labels: then compact_json is not needed.
    [[nodiscard]] bool labels_known(const ForkAnswer& typed) const;
    [[nodiscard]] bool labels_known(std::string_view typed) const;
    // The positions of an update page's updates, without adding them (to fetch what they reach
    // first). Throws ForkError.
    [[nodiscard]] static ForkPage positions_of(const ForkAnswer& answer);
    // The next_page_token of an ACS page, as JSON ("" when there is none), without adding the
    // page (to fetch the next one while this one is built). Throws ForkError.
    [[nodiscard]] static std::string acs_page_token_of(const ForkAnswer& answer);

    [[nodiscard]] ForkCounts counts() const;
    // The forked network as a state file. `whole_history`: the updates are every one the source
    // had (none was left out by a limit), so its snapshots after the last update are taken too.
    // Throws ForkError.
    [[nodiscard]] std::string finish(bool whole_history);
    // The same written to `path` whole or not at all, each part on disk soon after it is encoded.
    [[nodiscard]] WrittenStateFile finish(bool whole_history, const std::filesystem::path& path);

  private:
    // The history's end, the snapshots, the clock and the seed context, for finish().
    void complete(bool whole_history);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cantonlite::seed
