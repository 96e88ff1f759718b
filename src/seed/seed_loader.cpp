#include "cantonlite/seed/seed_loader.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/json_fields.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "party_directory.hpp"
#include "seed_context.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

using model::JsonFieldError;
using model::JsonObject;

constexpr std::string_view default_start_time = "2025-01-01T00:00:00Z";
constexpr std::string_view default_audience = "https://canton.network.global";
constexpr std::string_view default_hs256_secret = "unsafe";

std::string read_text(const std::filesystem::path& path, const std::string& pointer) {
    std::ifstream in(path);
    if (!in) throw JsonFieldError(pointer, path.string() + " cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> string_list(const JsonObject& o, std::string_view key) {
    std::vector<std::string> out;
    if (!o.has(key)) return out;
    const nlohmann::json& list = o.value().at(std::string(key));
    for (std::size_t i = 0; i < (list.is_array() ? list.size() : 0); ++i) {
        if (!list[i].is_string() || list[i].get_ref<const std::string&>().empty()) {
            throw JsonFieldError(o.pointer_of(key) + "/" + std::to_string(i),
                                 "must be a non-empty string");
        }
        out.push_back(list[i].get<std::string>());
    }
    if (!list.is_array()) throw JsonFieldError(o.pointer_of(key), "must be an array of strings");
    return out;
}

model::Lsu parse_lsu(const JsonObject& o) {
    o.reject_unknown_keys(
        {"topology_freeze_time", "upgrade_time", "successor_physical_synchronizer_id"});
    return model::Lsu{
        .topology_freeze_time = o.timestamp("topology_freeze_time"),
        .upgrade_time = o.timestamp("upgrade_time"),
        .successor_physical_synchronizer_id = o.string("successor_physical_synchronizer_id"),
    };
}

struct NetworkSeed {
    model::Network network;
    model::Timestamp start_time;
    std::optional<std::int64_t> snapshot_interval_seconds;
};

NetworkSeed parse_network(const JsonObject& o) {
    o.reject_unknown_keys({"dso_party", "svs", "synchronizer_id", "other_synchronizers",
                           "ans_acronym", "participant_id", "validator_party", "validator_user",
                           "parties", "packages", "lsu", "start_time", "id_namespace",
                           "snapshot_interval_seconds"});
    NetworkSeed seed;
    model::Network& n = seed.network;
    n.dso_party = party_id(o, "dso_party");
    n.id_namespace = o.optional_string("id_namespace").value_or("cantonlite");
    if (std::string_view(n.id_namespace).starts_with(model::kept_update_id_prefix)) {
        throw model::JsonFieldError(o.pointer_of("id_namespace"),
                                    "must not start with \"" +
                                        std::string(model::kept_update_id_prefix) +
                                        "\" (it marks an update id kept from a forked network)");
    }
    const std::string tag = model::sha256_hex(n.id_namespace);
    n.synchronizer_id = o.optional_string("synchronizer_id").value_or("global-domain::1220" + tag);
    n.other_synchronizers = string_list(o, "other_synchronizers");
    n.ans_acronym = o.optional_string("ans_acronym").value_or("ans");
    n.participant_id = o.optional_string("participant_id").value_or("PAR::participant::1220" + tag);
    n.validator_party =
        o.has("validator_party") ? party_id(o, "validator_party") : "validator::1220" + tag;
    if (const auto user = o.optional_string("validator_user")) n.validator_user = *user;
    if (o.has("svs")) {
        const nlohmann::json& svs = o.value().at("svs");
        if (!svs.is_array()) throw JsonFieldError(o.pointer_of("svs"), "must be an array");
        for (std::size_t i = 0; i < svs.size(); ++i) {
            const JsonObject sv(svs[i], o.pointer_of("svs") + "/" + std::to_string(i));
            sv.reject_unknown_keys({"name", "party"});
            n.svs.push_back(
                model::SuperValidator{.name = sv.string("name"), .party = party_id(sv, "party")});
        }
    }
    if (const auto parties = o.optional_object("parties")) {
        for (const auto& [alias, _] : parties->value().items())
            n.parties[alias] = party_id(*parties, alias);
    }
    n.package_ids = model::default_package_ids();
    if (const auto packages = o.optional_object("packages")) {
        for (const auto& [name, _] : packages->value().items())
            n.package_ids[name] = packages->string(name);
    }
    if (const auto lsu = o.optional_object("lsu")) n.lsu = parse_lsu(*lsu);
    seed.start_time = o.has("start_time") ? o.timestamp("start_time")
                                          : *model::parse_timestamp(default_start_time);
    seed.snapshot_interval_seconds =
        o.optional_integer("snapshot_interval_seconds", 1, std::int64_t{1} << 40);
    return seed;
}

void parse_users(const JsonObject& root, model::Network& n) {
    if (!root.has("users")) return;
    const nlohmann::json& users = root.value().at("users");
    if (!users.is_array()) throw JsonFieldError(root.pointer_of("users"), "must be an array");
    std::set<std::string> ids;
    for (std::size_t i = 0; i < users.size(); ++i) {
        const JsonObject u(users[i], root.pointer_of("users") + "/" + std::to_string(i));
        u.reject_unknown_keys({"id", "party", "wallet", "rights", "validator"});
        model::User user{.id = u.string("id"), .party = party_id(u, "party")};
        if (!ids.insert(user.id).second)
            throw JsonFieldError(u.pointer_of("id"), "user '" + user.id + "' appears twice");
        if (u.has("wallet")) user.wallet = bool_field(u, "wallet");
        user.validator = wallet_validator(u, user.wallet);
        n.users.push_back(std::move(user));
    }
    // Rights name parties by reference, users included: resolve once every user is known.
    const PartyDirectory directory(n);
    for (std::size_t i = 0; i < users.size(); ++i) {
        const JsonObject u(users[i], root.pointer_of("users") + "/" + std::to_string(i));
        n.users[i].rights = parse_rights(u, n.users[i].party, directory);
    }
}

model::AuthSettings parse_auth(const JsonObject& root, const std::filesystem::path& base_dir) {
    model::AuthSettings auth{.audience = std::string(default_audience)};
    const auto o = root.optional_object("auth");
    if (!o) {
        auth.hs256_secret = std::string(default_hs256_secret);
        return auth;
    }
    o->reject_unknown_keys({"hs256", "rs256", "audience", "ledger_auth"});
    if (const auto hs = o->optional_object("hs256")) {
        hs->reject_unknown_keys({"secret"});
        auth.hs256_secret = hs->string("secret");
    }
    if (const auto rs = o->optional_object("rs256")) {
        rs->reject_unknown_keys({"public_keys", "jwks_file"});
        if (rs->has("public_keys")) {
            const nlohmann::json& keys = rs->value().at("public_keys");
            if (!keys.is_array())
                throw JsonFieldError(rs->pointer_of("public_keys"), "must be an array");
            for (std::size_t i = 0; i < keys.size(); ++i) {
                const JsonObject k(keys[i],
                                   rs->pointer_of("public_keys") + "/" + std::to_string(i));
                k.reject_unknown_keys({"kid", "pem"});
                auth.rs256_keys.push_back(model::RsaKey{
                    .kid = k.optional_string("kid").value_or(""), .pem = k.string("pem")});
            }
        }
        if (const auto file = rs->optional_string("jwks_file")) {
            auth.jwks_json = read_text(base_dir / *file, rs->pointer_of("jwks_file"));
        }
    }
    if (!auth.hs256_secret && auth.rs256_keys.empty() && auth.jwks_json.empty()) {
        throw JsonFieldError(o->pointer(), "needs hs256 or rs256");
    }
    if (const auto audience = o->optional_string("audience")) auth.audience = *audience;
    if (o->has("ledger_auth")) auth.ledger_auth = bool_field(*o, "ledger_auth");
    return auth;
}

// What `load` returns; a field or append error it throws becomes a SeedError naming `source`.
template <typename Load>
auto naming_source(const std::string& source, Load load) -> decltype(load()) {
    try {
        return load();
    } catch (const JsonFieldError& e) {
        throw SeedError(source + ": " + e.what());
    } catch (const store::AppendError& e) {
        throw SeedError(source + ": " + e.what());
    }
}

// Room for about `steps` steps: most commit one transaction, and most of those create a
// contract, which brings two new Names: its id and its label.
void reserve_for(SeedContext& ctx, std::size_t steps) {
    ctx.store().reserve(steps, steps);
    model::Name::reserve(2 * steps);
}

// The JSON pointer of step `i`.
std::string step_pointer(std::size_t i) {
    return "/steps/" + std::to_string(i);
}

// Runs step `i` of the seed; a mint step with its fields read ahead (`mint_fields`, else null)
// runs from them. Throws SeedError naming the step.
void run_seed_step(SeedContext& ctx, const nlohmann::json& step, std::size_t i,
                   const std::string& source, const MintFields* mint_fields = nullptr) {
    const std::string pointer = step_pointer(i);
    // Spelt only for an error: most steps do not need it.
    const auto where = [&] { return source + ": " + step_prefix(i, step); };
    try {
        if (mint_fields != nullptr) {
            mint(ctx, JsonObject(step, pointer), *mint_fields);
        } else {
            run_step(ctx, JsonObject(step, pointer));
        }
        ctx.clear_step_labels();  // only a run-time step reports them
    } catch (const JsonFieldError& e) {
        throw SeedError(where() + e.what());
    } catch (const store::AppendError& e) {
        throw SeedError(where() + pointer + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
        // A lookup a step should have checked first: still one line, still naming the step.
        throw SeedError(where() + pointer + ": " + e.what());
    }
}

void run_steps(SeedContext& ctx, const JsonObject& root, const std::string& source) {
    if (!root.has("steps")) return;
    const nlohmann::json& steps = root.value().at("steps");
    if (!steps.is_array()) throw JsonFieldError(root.pointer_of("steps"), "must be an array");
    reserve_for(ctx, steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) run_seed_step(ctx, steps[i], i, source);
}

// The network, users and auth settings of `root`, with the bootstrap transaction committed.
LoadedSeed begin_load(const JsonObject& root, const std::filesystem::path& base_dir) {
    root.reject_unknown_keys({"network", "users", "auth", "steps"});
    NetworkSeed seed = parse_network(root.object("network"));
    parse_users(root, seed.network);
    seed.network.auth = parse_auth(root, base_dir);
    LoadedSeed loaded;
    loaded.store = std::make_unique<store::LedgerStore>(std::move(seed.network), seed.start_time);
    splice::SpliceViews::attach(*loaded.store);
    loaded.context = std::make_unique<SeedContext>(*loaded.store, seed.snapshot_interval_seconds);
    bootstrap(*loaded.context);
    return loaded;
}

// Runs the steps a parse hands it, in order, on a thread of its own while the parse goes on: a
// large seed's load then takes both cores (the parse is about a fifth of it). Steps go over in
// batches, and at most `max_waiting` batches wait, so that the seed is never held whole. The first
// step that fails stops the run: nothing after it runs, and add() or finish() rethrows its error
// on the parsing thread.
class StepPipeline {
  public:
    StepPipeline(SeedContext& ctx, std::string source)
        : ctx_(ctx), source_(std::move(source)), worker_([this] { run(); }) {}
    StepPipeline(const StepPipeline&) = delete;
    StepPipeline& operator=(const StepPipeline&) = delete;
    // Drops what waits and joins the worker, once it has run the batch in hand.
    ~StepPipeline() {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }

    // The next step, which runs after those added before it. A mint's fields are read here,
    // while the step is in this thread's cache (MintFields).
    void add(nlohmann::json&& step) {
        if (filling_.steps.empty()) filling_.mint_fields.reserve(batch_steps);
        filling_.steps.push_back(std::move(step));
        const nlohmann::json& added = filling_.steps.back();
        if (is_mint(added)) {
            const std::size_t index = next_index_ + filling_.steps.size() - 1;
            filling_.mint_fields.emplace_back(JsonObject(added, step_pointer(index)));
        } else {
            filling_.mint_fields.emplace_back(std::nullopt);
        }
        if (filling_.steps.size() == batch_steps) hand_over();
    }

    // Waits until every step added has run; rethrows the first failure.
    void finish() {
        hand_over();
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return failure_ || (waiting_.empty() && !busy_); });
        if (failure_) std::rethrow_exception(failure_);
    }

  private:
    static constexpr std::size_t batch_steps = 256;
    static constexpr std::size_t max_waiting = 4;

    struct Batch {
        std::size_t first = 0;  // the index of its first step in the seed
        std::vector<nlohmann::json> steps;
        std::vector<std::optional<MintFields>> mint_fields;  // one a step: a mint's
    };

    // The batch being filled, to the worker: waits while `max_waiting` wait. Frees the steps
    // the worker ran meanwhile (here, where they were made: the worker has no time to spare).
    void hand_over() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return failure_ || waiting_.size() < max_waiting; });
        std::vector<Batch> ran = std::exchange(ran_, {});
        if (failure_) std::rethrow_exception(failure_);
        if (filling_.steps.empty()) return;
        filling_.first = next_index_;
        next_index_ += filling_.steps.size();
        waiting_.push_back(std::exchange(filling_, {}));
        lock.unlock();
        changed_.notify_all();
        ran.clear();
    }

    void run() {
        for (;;) {
            Batch batch;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
                if (stopping_) return;
                batch = std::move(waiting_.front());
                waiting_.pop_front();
                busy_ = true;
            }
            changed_.notify_all();
            std::exception_ptr failure;
            try {
                for (std::size_t i = 0; i < batch.steps.size(); ++i) {
                    const std::optional<MintFields>& fields = batch.mint_fields[i];
                    run_seed_step(ctx_, batch.steps[i], batch.first + i, source_,
                                  fields ? &*fields : nullptr);
                }
            } catch (...) {
                failure = std::current_exception();
            }
            {
                const std::lock_guard lock(mutex_);
                ran_.push_back(std::move(batch));
                busy_ = false;
                if (failure) {
                    failure_ = failure;
                    waiting_.clear();
                }
            }
            changed_.notify_all();
            if (failure) return;
        }
    }

    SeedContext& ctx_;
    const std::string source_;
    Batch filling_;               // the parsing thread's
    std::size_t next_index_ = 0;  // the parsing thread's
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Batch> waiting_;
    std::vector<Batch> ran_;  // for the parsing thread to free
    bool busy_ = false;       // the worker is running a batch
    bool stopping_ = false;
    std::exception_ptr failure_;
    std::thread worker_;  // last: it starts once the rest is ready
};

// Streaming cannot decide the load: a network, users, auth or steps key came after the steps
// that already ran, or a step failed before the users and auth were read. Load the document whole.
struct LoadAgain {};

// The parse callback that runs each step of a seed file as soon as it is parsed and drops it,
// when the network, users and auth come before the steps (as they do in every seed cantonlite
// writes). A seed is then never held whole: its largest part is never a document.
class StreamingLoad {
  public:
    StreamingLoad(std::string source, std::filesystem::path base_dir, std::size_t steps_hint)
        : source_(std::move(source)), base_dir_(std::move(base_dir)), steps_hint_(steps_hint) {}

    // Reports the bytes of `in` read (of `size`) to `progress` every few hundred steps.
    void report_to(const LoadProgress& progress, std::istream& in, std::uint64_t size) {
        progress_ = progress;
        in_ = &in;
        size_ = size;
    }

    bool operator()(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        const bool ends_value =
            event == Event::value || event == Event::object_end || event == Event::array_end;
        if (depth == 0 && event == Event::object_start) {
            root_is_object_ = true;
        } else if (depth == 1 && event == Event::key) {
            key_ = parsed.get<std::string>();
            if (streamed_ &&
                (key_ == "network" || key_ == "users" || key_ == "auth" || key_ == "steps")) {
                throw LoadAgain{};
            }
        } else if (depth == 1 && event == Event::array_start && root_is_object_ &&
                   key_ == "steps" && head_.contains("network") && !loaded_.store) {
            loaded_ = begin_load(JsonObject(head_, ""), base_dir_);
            reserve_for(*loaded_.context, steps_hint_);
            pipeline_ = std::make_unique<StepPipeline>(*loaded_.context, source_);
            in_steps_ = streamed_ = true;
        } else if (depth == 1 && ends_value) {
            if (key_ == "steps") {
                in_steps_ = false;
                finish_steps();
            } else if (root_is_object_ && !streamed_) {
                head_[key_] = parsed;
            }
        } else if (depth == 2 && ends_value && in_steps_) {
            checking_steps([&] { pipeline_->add(std::move(parsed)); });
            ++next_step_;
            if (progress_ && next_step_ % 256 == 0) {
                const std::streamoff at = in_->tellg();
                if (at >= 0) progress_(static_cast<std::uint64_t>(at), size_);
            }
            return false;  // ran: the document does not keep it
        }
        return true;
    }

    // Waits for the steps parsed so far to run; throws the first one's error that failed.
    void finish_steps() {
        if (pipeline_) checking_steps([&] { pipeline_->finish(); });
    }

    // Whether the steps ran as they were parsed; then `document` (what was kept of the file)
    // is checked as a whole and the load finished.
    [[nodiscard]] bool streamed() const { return streamed_; }
    LoadedSeed finish(const nlohmann::json& document) {
        JsonObject(document, "").reject_unknown_keys({"network", "users", "auth", "steps"});
        loaded_.context->snapshots_until(loaded_.store->now(), true);
        return std::move(loaded_);
    }

  private:
    // Runs `f`, which hands steps on or waits for them, a step's error thrown as it is or as
    // LoadAgain: the users or auth settings may follow the steps, and only the whole document then
    // says whether that step fails.
    template <class F>
    void checking_steps(F f) {
        try {
            f();
        } catch (const SeedError&) {
            if (!head_.contains("users") || !head_.contains("auth")) throw LoadAgain{};
            throw;
        }
    }

    std::string source_;
    std::filesystem::path base_dir_;
    std::size_t steps_hint_;
    nlohmann::json head_ = nlohmann::json::object();  // the root's values before the steps
    std::string key_;                                 // the root key being parsed
    bool root_is_object_ = false;
    bool in_steps_ = false;
    bool streamed_ = false;
    std::size_t next_step_ = 0;
    LoadedSeed loaded_;
    LoadProgress progress_;
    std::istream* in_ = nullptr;
    std::uint64_t size_ = 0;
    std::unique_ptr<StepPipeline> pipeline_;  // after loaded_: it stops before the store goes
};

}  // namespace

LoadedSeed load_seed_with_context(const nlohmann::json& document, const std::string& source,
                                  const std::filesystem::path& base_dir) {
    return naming_source(source, [&] {
        const JsonObject root(document, "");
        LoadedSeed loaded = begin_load(root, base_dir);
        run_steps(*loaded.context, root, source);
        loaded.context->snapshots_until(loaded.store->now(), true);
        return loaded;
    });
}

std::unique_ptr<store::LedgerStore> load_seed(const nlohmann::json& document,
                                              const std::string& source,
                                              const std::filesystem::path& base_dir) {
    return load_seed_with_context(document, source, base_dir).store;
}

nlohmann::json read_seed_document(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SeedError(path.string() + ": cannot be read");
    try {
        // Straight from the stream: a large seed is never held as text as well as a document.
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range (1e400)
        throw SeedError(path.string() + ": is not valid JSON: " + e.what());
    }
}

LoadedSeed load_seed_file_with_context(const std::filesystem::path& path,
                                       const LoadProgress& progress) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SeedError(path.string() + ": cannot be read");
    // A mint, the most common step, takes about 100 bytes.
    std::error_code size_error;
    const std::uintmax_t size = std::filesystem::file_size(path, size_error);
    const std::string source = path.string();
    StreamingLoad load(source, path.parent_path(), size_error ? 0 : size / 100);
    if (progress && !size_error) load.report_to(progress, in, size);
    nlohmann::json document;
    const auto load_whole = [&] {
        return load_seed_with_context(read_seed_document(path), source, path.parent_path());
    };
    std::optional<std::string> invalid;
    try {
        document = naming_source(source, [&] { return nlohmann::json::parse(in, std::ref(load)); });
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range (1e400)
        invalid = e.what();
    } catch (const LoadAgain&) {
        return load_whole();
    }
    if (invalid) {
        // A step parsed before the broken JSON that fails is the error, as it would have been
        // had it run before the parse went on.
        try {
            load.finish_steps();
        } catch (const LoadAgain&) {
            return load_whole();
        }
        throw SeedError(source + ": is not valid JSON: " + *invalid);
    }
    if (!load.streamed()) return load_seed_with_context(document, source, path.parent_path());
    LoadedSeed loaded = naming_source(source, [&] { return load.finish(document); });
    if (progress && !size_error) progress(size, size);
    return loaded;
}

std::unique_ptr<store::LedgerStore> load_seed_file(const std::filesystem::path& path) {
    return load_seed_file_with_context(path).store;
}

}  // namespace cantonlite::seed
