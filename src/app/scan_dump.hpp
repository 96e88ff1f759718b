#pragma once
// A fork's pages, and where they go (docs/fork.md): `cantonlite fork --scan` builds a state file
// from them (a ForkBuilder); `cantonlite dump` writes them to a folder in Scan's bulk layout
// (seed/scan_bulk.hpp), which `fork --dump` reads back into a ForkBuilder.
//
// A dump folder holds:
//   <snapshot time>/ACS_compact_json_<n>.zstd          the ACS's created events, as Scan's bulk
//                                                      storage holds them or as its pages served
//                                                      them
//   <from>~<to>/updates_compact_json_<n>.zstd          the updates after the snapshot, as served
//   <from>~<to>/updates_protobuf_json_<n>.zstd         the same updates with their values typed
//   cantonlite-dump.json                               what else a fork needs (the DSO party, the
//                                                      synchronizer, rounds, later snapshots) and
//                                                      every object's key, digest and count
// cantonlite-dump.json is written last: a folder without it is not a whole dump.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/fork.hpp"

namespace cantonlite::app {

inline constexpr std::string_view dump_manifest_name = "cantonlite-dump.json";

// A dump cannot be written or read: what() names the file and says why.
class DumpError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Where the pages of a fork go, in this order: start, the ACS (pages or bulk objects), then
// rounds, snapshots and update pages in any order.
class ForkSink {
  public:
    virtual ~ForkSink() = default;
    virtual void start(const seed::ForkSource& source) = 0;
    virtual seed::ForkPage add_acs_page(const seed::ForkAnswer& answer) = 0;
    virtual void add_round_at(model::Timestamp t, std::int64_t round) = 0;
    virtual void add_snapshot_time(std::int64_t migration, model::Timestamp t) = 0;
    // Whether the compact_json copy of an update page is not needed (seed::ForkBuilder).
    [[nodiscard]] virtual bool labels_known(const seed::ForkAnswer& typed) const = 0;
    virtual seed::ForkPage add_updates_page(const seed::ForkAnswer& typed,
                                            std::string_view labelled) = 0;
    [[nodiscard]] virtual seed::ForkCounts counts() const = 0;
    // Whether the ACS may come as Scan's bulk objects (add_acs_object) rather than pages.
    [[nodiscard]] virtual bool takes_bulk_objects() const { return false; }
    // One of Scan's bulk ACS objects, its digest already checked. Throws DumpError.
    virtual void add_acs_object(const std::string& /*key*/, std::string /*object*/,
                                const std::string& /*digest*/) {}
};

// The fork's pages go to a ForkBuilder (fork --scan).
class BuilderSink final : public ForkSink {
  public:
    void start(const seed::ForkSource& source) override { builder_.emplace(source); }
    seed::ForkPage add_acs_page(const seed::ForkAnswer& answer) override {
        return builder_->add_acs_page(answer);
    }
    void add_round_at(model::Timestamp t, std::int64_t round) override {
        builder_->add_round_at(t, round);
    }
    void add_snapshot_time(std::int64_t migration, model::Timestamp t) override {
        builder_->add_snapshot_time(migration, t);
    }
    [[nodiscard]] bool labels_known(const seed::ForkAnswer& typed) const override {
        return builder_->labels_known(typed);
    }
    seed::ForkPage add_updates_page(const seed::ForkAnswer& typed,
                                    std::string_view labelled) override {
        return builder_->add_updates_page(typed, labelled);
    }
    [[nodiscard]] seed::ForkCounts counts() const override { return builder_->counts(); }
    [[nodiscard]] seed::WrittenStateFile finish(bool whole_history,
                                                const std::filesystem::path& path) {
        return builder_->finish(whole_history, path);
    }

  private:
    std::optional<seed::ForkBuilder> builder_;
};

// Writes a dump: into a folder beside `dir` (`dir`.partial), renamed to `dir` by commit(), and
// removed when the writer goes without one. Objects are cut at `object_size` bytes of zstd,
// frames at `frame_size` bytes of text.
class DumpWriter final : public ForkSink {
  public:
    // Throws DumpError when `dir` exists and is not an empty folder.
    explicit DumpWriter(std::filesystem::path dir, std::size_t object_size = 128ULL << 20,
                        std::size_t frame_size = 12ULL << 20);
    ~DumpWriter() override;
    DumpWriter(const DumpWriter&) = delete;
    DumpWriter& operator=(const DumpWriter&) = delete;

    void start(const seed::ForkSource& source) override;
    seed::ForkPage add_acs_page(const seed::ForkAnswer& answer) override;
    void add_round_at(model::Timestamp t, std::int64_t round) override;
    void add_snapshot_time(std::int64_t migration, model::Timestamp t) override;
    [[nodiscard]] bool labels_known(const seed::ForkAnswer& /*typed*/) const override {
        return false;
    }
    seed::ForkPage add_updates_page(const seed::ForkAnswer& typed,
                                    std::string_view labelled) override;
    [[nodiscard]] seed::ForkCounts counts() const override;
    [[nodiscard]] bool takes_bulk_objects() const override { return true; }
    void add_acs_object(const std::string& key, std::string object,
                        const std::string& digest) override;

    // Writes the rest and the manifest, and puts the folder in place. Throws DumpError.
    void commit(const std::string& source_url, const std::string& release, bool whole_history);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// What a dump held.
struct DumpRead {
    seed::WrittenStateFile written;  // the forked network's state file
    seed::ForkCounts counts;
    model::Timestamp snapshot;
    std::int64_t migration = 0;
    std::string release;
    std::string source;  // the Scan it was dumped from
};

// Forks the network of the dump in `dir` into a state file at `out`: every object's digest is
// checked before it is read.
// At most `updates` updates after the snapshot (nullopt: all). `progress` is told how far it has
// come ("ACS", contracts) and ("updates", updates); `stopped` is asked between objects and pages,
// and ends the fork with DumpError("stopped (Ctrl-C)"). Throws DumpError or seed::ForkError.
[[nodiscard]] DumpRead fork_from_dump(
    const std::filesystem::path& dir, const std::filesystem::path& out,
    std::optional<std::int64_t> updates,
    const std::function<void(const std::string& phase, std::size_t done)>& progress,
    const std::function<bool()>& stopped);

}  // namespace cantonlite::app
