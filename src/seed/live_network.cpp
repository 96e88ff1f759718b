#include "cantonlite/seed/live_network.hpp"

#include "cantonlite/seed/commands.hpp"

#include <algorithm>
#include <functional>
#include <mutex>

#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/util/huge_pages.hpp"
#include "cantonlite/util/whole_file.hpp"
#include "seed_context.hpp"
#include "state_codec.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

using splice::ExpiringContract;

// What the updates in (from, to] made: their ids and the contracts they created and archived.
void describe_updates(const store::LedgerStore& store, store::Offset from, store::Offset to,
                      nlohmann::json& out) {
    nlohmann::json updates = nlohmann::json::array();
    nlohmann::json created = nlohmann::json::array();
    nlohmann::json archived = nlohmann::json::array();
    for (store::Offset o = from + 1; o <= to; ++o) {
        const store::UpdatePtr u = store.update_at(o);
        updates.push_back({{"offset", o},
                           {"update_id", store::update_id_of(*u).str()},
                           {"record_time", model::format_instant(store::record_time_of(*u))}});
        const auto* tx = std::get_if<store::Transaction>(u.get());
        if (tx == nullptr) continue;
        for (const store::Node& node : tx->nodes) {
            if (const auto* c = std::get_if<store::CreatedNode>(&node.event)) {
                created.push_back(c->contract->contract_id);
            } else if (const auto& e = *store::exercised(node); e.consuming) {
                archived.push_back(e.contract_id);
            }
        }
    }
    out["updates"] = std::move(updates);
    out["created"] = std::move(created);
    out["archived"] = std::move(archived);
}

std::string_view automation_name(ExpiringContract::Kind kind) {
    switch (kind) {
        case ExpiringContract::Kind::transfer_offer:
            return "expire_transfer_offer";
        case ExpiringContract::Kind::buy_traffic_request:
            return "expire_buy_traffic_request";
        case ExpiringContract::Kind::ans_entry:
            return "expire_ans_entry";
    }
    return "";
}

// Whether the journal's store is only away for now (PostgreSQL): a 503, not a 500.
bool journal_away(const journal::JournalError& e) {
    return dynamic_cast<const journal::JournalUnavailable*>(&e) != nullptr;
}

WriteError sync_failed(const journal::JournalError& e) {
    if (journal_away(e)) {
        return WriteError(503, std::string(e.what()) +
                                   " (the write is applied here, and kept once the journal is "
                                   "back unless this daemon stops first)");
    }
    return WriteError(
        500, std::string(e.what()) + " (the write is applied but may not survive a restart)");
}

// A write the journal could not take (and that is undone or was never applied).
WriteError not_journaled(const journal::JournalError& e) {
    return WriteError(journal_away(e) ? 503 : 500, e.what());
}

const std::string& op_kind(const nlohmann::json& op) {
    return op.at("op").get_ref<const std::string&>();
}

}  // namespace

LiveNetwork::LiveNetwork(std::unique_ptr<store::LedgerStore> store,
                         std::unique_ptr<SeedContext> context)
    : store_(std::move(store)), context_(std::move(context)) {
    go_live();
}

void LiveNetwork::go_live() {
    if (!context_->snapshot_interval_seconds())
        context_->set_snapshot_interval(scan_default_snapshot_seconds);
    store_->undo().set_recording(true);
}

LiveNetwork::~LiveNetwork() = default;

std::unique_ptr<LiveNetwork> LiveNetwork::load(const nlohmann::json& document,
                                               const std::string& source,
                                               const std::filesystem::path& base_dir) {
    return adopt(load_seed_with_context(document, source, base_dir));
}

std::unique_ptr<LiveNetwork> LiveNetwork::load_file(const std::filesystem::path& path,
                                                    const LoadProgress& progress) {
    return adopt(load_seed_file_with_context(path, progress));
}

std::unique_ptr<LiveNetwork> LiveNetwork::load_state(std::string_view bytes,
                                                     const std::string& source,
                                                     const LoadProgress& progress,
                                                     std::shared_ptr<const void> lender) {
    try {
        const util::HugePagesWhileLoading huge_pages(bytes.size());
        return adopt(read_state(bytes, progress, Checksum::alongside, std::move(lender)));
    } catch (const StateError& e) {
        throw SeedError(source + ": " + e.what());
    }
}

std::unique_ptr<LiveNetwork> LiveNetwork::load_state_file(const std::filesystem::path& path,
                                                          const LoadProgress& progress) {
    // Mapped, not read into a buffer; a pipe or the like is read.
    if (std::optional<util::MappedFile> leased = util::MappedFile::open_leased(path)) {
        auto mapping = std::make_shared<const util::MappedFile>(std::move(*leased));
        std::unique_ptr<LiveNetwork> network =
            load_state(mapping->bytes(), path.string(), progress, mapping);
        network->later([loaded = network.get(), mapping = std::move(mapping)]() mutable {
            // First the file's pages go from this process's memory (37 MiB at 100 000 amulets,
            // as soon as an unmapping would have): the chunks still unread come back from the
            // page cache as they are copied.
            mapping->release_pages();
            loaded->stop_borrowing();
            mapping.reset();  // here, whether or not the history borrowed it: unmapped (1 ms)
        });
        return network;
    }
    if (std::optional<util::MappedFile> mapped = util::MappedFile::open(path)) {
        std::unique_ptr<LiveNetwork> network = load_state(mapped->bytes(), path.string(), progress);
        network->drop_later(std::move(*mapped));
        return network;
    }
    const std::optional<std::string> bytes = util::read_file(path);
    if (!bytes) throw SeedError(path.string() + ": cannot be read");
    return load_state(*bytes, path.string(), progress);
}

void LiveNetwork::stop_borrowing() {
    const std::shared_ptr<const void> lender = store_->stop_borrowing();
    // The lender goes here, outside the store's lock.
}

std::string LiveNetwork::state() const {
    const std::shared_lock lock(gate_);
    return write_state(*store_, *context_);
}

WrittenStateFile LiveNetwork::save_state(const std::filesystem::path& path) const {
    util::AtomicFile file(path);
    std::string header;
    {
        const std::shared_lock lock(gate_);
        header = write_state_file(*store_, *context_, file);
    }
    return commit_state_file(file, std::move(header));
}

std::unique_ptr<LiveNetwork> LiveNetwork::adopt(LoadedSeed loaded) {
    return std::unique_ptr<LiveNetwork>(
        new LiveNetwork(std::move(loaded.store), std::move(loaded.context)));
}

void LiveNetwork::attach_journal(journal::Journal& journal, const LoadProgress& progress) {
    const std::unique_lock lock(gate_);
    const std::vector<journal::Record>& records = journal.recovered();
    for (std::size_t i = 0; i < records.size(); ++i) {
        const journal::Record& record = records[i];
        if (progress && i % 64 == 0) progress(i, records.size());
        try {
            apply_record(record);
        } catch (const std::exception& e) {
            throw journal::JournalError("the journal's record " + record.where +
                                        " cannot be applied to this seed: " + e.what());
        }
    }
    if (progress) progress(records.size(), records.size());
    journal_ = &journal;
    journal.on_diverged([this](std::uint64_t last_common) { return take_back(last_common); });
    journal.follow([this](const std::function<void(const journal::Journal::Apply&)>& apply_new) {
        const std::unique_lock lock(gate_);
        apply_new([this](const journal::Record& r) { apply_record(r); });
    });
}

void LiveNetwork::apply_record(const journal::Record& record) {
    (void)execute(nlohmann::json::parse(record.payload));
}

bool LiveNetwork::take_back(std::uint64_t last_common) {
    const std::unique_lock lock(gate_);
    const auto first = std::find_if(journaled_.begin(), journaled_.end(),
                                    [&](const Journaled& j) { return j.ticket > last_common; });
    const bool undoable =
        first != journaled_.end() && first->ticket == last_common + 1 &&
        std::all_of(first, journaled_.end(), [](const Journaled& j) { return j.mark.has_value(); });
    if (!undoable) return false;
    store_->rollback(*first->mark);
    journaled_.erase(first, journaled_.end());
    return true;
}

LiveNetwork::WriteLock LiveNetwork::lock_for_write() {
    WriteLock w;
    if (journal_ != nullptr) {
        try {
            w.turn = journal_->writers_turn();
        } catch (const journal::JournalError& e) {
            throw not_journaled(e);
        }
    }
    w.gate = std::unique_lock(gate_);
    if (journal_ != nullptr) {
        try {
            journal_->catch_up([this](const journal::Record& r) { apply_record(r); });
        } catch (const journal::JournalError& e) {
            throw not_journaled(e);
        }
    }
    return w;
}

namespace {

void count_write(LiveNetwork::Activity& activity, const std::string& kind) {
    if (kind == "steps") ++activity.steps;
    if (kind == "time") ++activity.time;
    if (kind == "snapshot") ++activity.snapshots;
    if (kind == "revert") ++activity.reverts;
    if (kind == "reset") ++activity.resets;
}

}  // namespace

LiveNetwork::Activity LiveNetwork::activity() const {
    Activity now = activity_;
    now.snapshots_saved = snapshots_.size();
    return now;
}

Written LiveNetwork::write(const nlohmann::json& op) {
    const WriteLock lock = lock_for_write();
    return write_locked(op);
}

Written LiveNetwork::write(const std::function<nlohmann::json()>& make_op) {
    const WriteLock lock = lock_for_write();
    return write_locked(make_op());
}

void LiveNetwork::remember_journaled(std::uint64_t ticket,
                                     std::optional<store::UndoLog::Mark> mark) {
    journaled_.push_back(Journaled{.ticket = ticket, .mark = mark});
    if (journaled_.size() > 4096) journaled_.pop_front();
}

Written LiveNetwork::write_locked(const nlohmann::json& op, bool brief) {
    std::uint64_t ticket = 0;
    nlohmann::json answer;
    const std::string& kind = op_kind(op);
    if (kind == "steps" || kind == "time") {
        // These can fail half-way: apply first, journal what was applied, undo if the journal
        // cannot take it.
        const store::UndoLog::Mark mark = store_->undo().mark();
        answer = execute(op, brief);
        if (journal_ != nullptr) {
            try {
                ticket = journal_->append(op.dump());
            } catch (const journal::JournalError& e) {
                store_->rollback(mark);
                throw not_journaled(e);
            }
            remember_journaled(ticket, mark);
        }
    } else {
        // Snapshots, reverts and resets cannot fail once checked, and a revert cannot be
        // undone: check, journal, then apply.
        if (kind == "revert" &&
            find_snapshot(op.at("id").get_ref<const std::string&>()) == snapshots_.end()) {
            execute_revert(op.at("id").get<std::string>());  // throws the 404
        }
        if (journal_ != nullptr) {
            try {
                ticket = journal_->append(op.dump());
            } catch (const journal::JournalError& e) {
                throw not_journaled(e);
            }
            remember_journaled(ticket, std::nullopt);
        }
        answer = execute(op, brief);
    }
    count_write(activity_, kind);
    if (journal_ == nullptr) return Written{.answer = std::move(answer)};
    return Written{.answer = std::move(answer), .ticket = ticket};
}

void LiveNetwork::when_durable(const Written& written,
                               std::function<void(std::exception_ptr)> done) {
    if (!written.ticket) return done(nullptr);
    journal_->when_durable(*written.ticket, [done = std::move(done)](std::exception_ptr error) {
        if (!error) return done(nullptr);
        try {
            std::rethrow_exception(error);
        } catch (const journal::JournalError& e) {
            done(std::make_exception_ptr(sync_failed(e)));
        } catch (...) {
            done(std::current_exception());
        }
    });
}

nlohmann::json LiveNetwork::execute(const nlohmann::json& op, bool brief) {
    const std::string& kind = op_kind(op);
    if (kind == "steps") return execute_steps(op.at("steps"), brief);
    if (kind == "time") {
        const auto t = model::parse_timestamp(op.at("to").get<std::string>());
        if (!t) throw WriteError(400, "bad time in record");
        return execute_time(*t);
    }
    if (kind == "snapshot") {
        SavedSnapshot saved{.id = std::to_string(next_snapshot_id_++),
                            .mark = store_->undo().mark(),
                            .ledger_end = store_->ledger_end(),
                            .now = store_->now()};
        snapshots_.push_back(saved);
        nlohmann::json answer = clock_json();
        answer["id"] = saved.id;
        return answer;
    }
    if (kind == "revert") return execute_revert(op.at("id").get<std::string>());
    if (kind == "reset") {
        store_->rollback(0);
        snapshots_.clear();
        return clock_json();
    }
    throw WriteError(400, "unknown record kind '" + kind + "'");
}

nlohmann::json LiveNetwork::execute_steps(const nlohmann::json& body, bool brief) {
    (void)context_->take_retired();  // what a writer left (a replay, an admin write): freed here
    if (!body.is_array() && !body.is_object()) {
        throw WriteError(400, "the body must be a step object or an array of steps, got " +
                                  model::describe_json(body));
    }
    const bool single = body.is_object();
    const std::size_t count = single ? 1 : body.size();
    const store::UndoLog::Mark mark = store_->undo().mark();
    nlohmann::json results = nlohmann::json::array();
    for (std::size_t i = 0; i < count; ++i) {
        const nlohmann::json& step = single ? body : body[i];
        const std::string pointer = single ? "" : "/" + std::to_string(i);
        const std::string where = step_prefix(i, step);
        const store::Offset before = store_->ledger_end();
        context_->clear_step_labels();
        try {
            run_step(*context_, model::JsonObject(step, pointer));
        } catch (const model::JsonFieldError& e) {
            store_->rollback(mark);
            throw WriteError(400, where + e.what());
        } catch (const store::AppendError& e) {
            store_->rollback(mark);
            throw WriteError(400, where + (pointer.empty() ? "/" : pointer) + ": " + e.what());
        } catch (const nlohmann::json::exception& e) {
            store_->rollback(mark);
            throw WriteError(400, where + (pointer.empty() ? "/" : pointer) + ": " + e.what());
        } catch (...) {
            store_->rollback(mark);
            throw;
        }
        // The sender's wallet completes an accepted offer at once (AcceptedTransferOfferTrigger).
        const std::string& kind = step.at("step").get_ref<const std::string&>();
        nlohmann::json automation = nlohmann::json::array();
        if (kind == "accept_transfer_offer" || kind == "submit" || kind == "execute") {
            const auto u = store_->update_at(store_->ledger_end());
            const auto& tx = std::get<store::Transaction>(*u);
            for (const store::Node& node : tx.nodes) {
                const auto* c = std::get_if<store::CreatedNode>(&node.event);
                if (c == nullptr) continue;
                const std::string_view entity = c->contract->template_id().entity_name.view();
                const std::string cid = c->contract->contract_id.str();
                try {
                    const char* done = nullptr;
                    if (entity == "AcceptedTransferOffer" &&
                        automation_complete_accepted_transfer_offer(*context_, cid,
                                                                    store_->now())) {
                        done = "complete_accepted_transfer_offer";
                    }
                    if (entity == "TransferPreapprovalProposal" &&
                        automation_accept_transfer_preapproval_proposal(*context_, cid)) {
                        done = "accept_transfer_preapproval_proposal";
                    }
                    if (done != nullptr) {
                        automation.push_back(
                            {{"automation", done},
                             {"contract_id", cid},
                             {"offset", store_->ledger_end()},
                             {"update_id", store_->update_id_for(store_->ledger_end())}});
                    }
                } catch (...) {
                    store_->rollback(mark);
                    throw;
                }
            }
        }
        nlohmann::json result{{"index", i}, {"step", step.at("step")}};
        if (brief) {
            nlohmann::json updates = nlohmann::json::array();
            if (store_->ledger_end() > before) updates.push_back({{"offset", before + 1}});
            result["updates"] = std::move(updates);
            results.push_back(std::move(result));
            continue;
        }
        describe_updates(*store_, before, store_->ledger_end(), result);
        if (!automation.empty()) result["automation"] = std::move(automation);
        nlohmann::json labels = nlohmann::json::object();
        for (const auto& [label, cid] : context_->step_labels()) labels[label.str()] = cid.str();
        result["contracts"] = std::move(labels);
        if (kind == "add_party") {
            // Without an alias the party is its own key (POST /v2/parties).
            const std::string alias = step.contains("alias") ? step.at("alias").get<std::string>()
                                                             : step.at("party").get<std::string>();
            result["parties"] = {{alias, store_->network().parties.at(alias)}};
        } else if (kind == "add_user") {
            const std::string id = step.at("id").get<std::string>();
            result["parties"] = {{id, store_->network().find_user(id)->party}};
        }
        results.push_back(std::move(result));
    }
    return {{"ledger_end", store_->ledger_end()}, {"results", std::move(results)}};
}

nlohmann::json LiveNetwork::execute_time(model::Timestamp t) {
    const model::Timestamp now = store_->now();
    if (t < now) {
        throw WriteError(409, "the ledger clock is at " + model::format_instant(now) +
                                  "; it cannot be set back to " + model::format_instant(t));
    }
    const store::UndoLog::Mark mark = store_->undo().mark();
    const std::size_t snapshots_before = store_->snapshot_times().size();
    nlohmann::json automation = nlohmann::json::array();
    try {
        // The automation acts once an expiry is automation_delay behind the clock, in expiry
        // order; Scan's interval snapshots fall in between as the clock passes them.
        const model::Timestamp horizon{t.micros - automation_delay_micros};
        for (const ExpiringContract& due : splice::views(*store_).expiring_until(horizon)) {
            const model::Timestamp at{
                std::max(due.expires_at.micros + automation_delay_micros, store_->now().micros)};
            const store::Offset before = store_->ledger_end();
            switch (due.kind) {
                case ExpiringContract::Kind::transfer_offer:
                    automation_expire_transfer_offer(*context_, due.contract_id.str(), at);
                    break;
                case ExpiringContract::Kind::buy_traffic_request:
                    automation_expire_buy_traffic_request(*context_, due.contract_id.str(), at);
                    break;
                case ExpiringContract::Kind::ans_entry:
                    automation_expire_ans_entry(*context_, due.contract_id.str(), at);
                    break;
            }
            if (store_->ledger_end() == before) continue;  // no wallet follows it
            const store::UpdatePtr u = store_->update_at(store_->ledger_end());
            automation.push_back({{"automation", automation_name(due.kind)},
                                  {"contract_id", due.contract_id},
                                  {"offset", store_->ledger_end()},
                                  {"update_id", store::update_id_of(*u).str()},
                                  {"record_time", model::format_instant(at)}});
        }
        context_->snapshots_until(t, true);
        if (store_->now() < t) store_->advance_time(t);
    } catch (const std::exception& e) {
        store_->rollback(mark);
        throw WriteError(500, std::string("the automation failed: ") + e.what());
    }
    nlohmann::json answer = clock_json();
    answer["automation"] = std::move(automation);
    // The snapshots taken, the first 100 of them by time (a clock moved by years takes thousands).
    nlohmann::json taken = nlohmann::json::array();
    const auto times = store_->snapshot_times();
    answer["scan_snapshots_taken"] = times.size() - snapshots_before;
    for (std::size_t i = snapshots_before; i < std::min(times.size(), snapshots_before + 100);
         ++i) {
        taken.push_back({{"migration_id", times[i].first},
                         {"record_time", model::format_instant(times[i].second)}});
    }
    answer["scan_snapshots"] = std::move(taken);
    return answer;
}

nlohmann::json LiveNetwork::execute_revert(const std::string& id) {
    const auto it = find_snapshot(id);
    if (it == snapshots_.end()) {
        throw WriteError(
            404, "no snapshot '" + id + "': it was never taken, or a revert or reset dropped it");
    }
    store_->rollback(it->mark);
    snapshots_.erase(std::next(it), snapshots_.end());  // the ones taken after it
    nlohmann::json answer = clock_json();
    answer["id"] = id;
    return answer;
}

std::vector<LiveNetwork::SavedSnapshot>::const_iterator LiveNetwork::find_snapshot(
    std::string_view id) const {
    return std::find_if(snapshots_.begin(), snapshots_.end(),
                        [&](const SavedSnapshot& s) { return s.id == id; });
}

nlohmann::json LiveNetwork::clock_json() const {
    return {{"now", model::format_instant(store_->now())}, {"ledger_end", store_->ledger_end()}};
}

// ---- the public operations ----

Written LiveNetwork::apply_steps(const nlohmann::json& steps) {
    return write({{"op", "steps"}, {"steps", steps}});
}

namespace {

// The record of a steps write, the steps moved in.
nlohmann::json steps_op(nlohmann::json&& steps) {
    nlohmann::json op = nlohmann::json::object();
    op["op"] = "steps";
    op["steps"] = std::move(steps);
    return op;
}

}  // namespace

Written LiveNetwork::apply_steps(nlohmann::json&& steps) {
    return write(steps_op(std::move(steps)));
}

Written LiveNetwork::apply_submission(nlohmann::json&& step, std::vector<ResolvedCommand> resolved,
                                      std::shared_ptr<const CheckedExecution> checked) {
    const nlohmann::json op = steps_op(std::move(step));
    std::vector<store::TransactionDraft> retired;    // freed once the lock is let go
    std::shared_ptr<const CheckedExecution> unused;  // freed once the lock is let go too
    const WriteLock lock = lock_for_write();
    context_->set_resolved_commands(std::move(resolved));
    context_->set_checked_execution(std::move(checked));
    struct Forget {  // whatever happens, the next step resolves and checks its own
        SeedContext& ctx;
        std::vector<store::TransactionDraft>& retired;
        std::shared_ptr<const CheckedExecution>& unused;
        ~Forget() {
            (void)ctx.take_resolved_commands();
            unused = ctx.take_checked_execution();
            retired = ctx.take_retired();
        }
    } forget{*context_, retired, unused};
    return write_locked(op, true);
}

store::TransactionDraft LiveNetwork::interpret(const nlohmann::json& submit_step,
                                               const std::string& contract_id_salt) {
    const std::unique_lock lock(gate_);
    const store::UndoLog::Mark mark = store_->undo().mark();
    try {
        store::TransactionDraft d = interpret_commands(
            *context_, submit_step, model::Timestamp{store_->now().micros + 1}, contract_id_salt);
        store_->rollback(mark);  // (interpreting changes nothing; should it, nothing stays)
        return d;
    } catch (...) {
        store_->rollback(mark);
        throw;
    }
}

nlohmann::json LiveNetwork::time() const {
    const std::shared_lock lock(gate_);
    nlohmann::json answer = clock_json();
    if (const auto next = context_->next_interval_snapshot()) {
        answer["next_scan_snapshot"] = model::format_instant(*next);
    }
    return answer;
}

Written LiveNetwork::set_time(model::Timestamp t) {
    return write({{"op", "time"}, {"to", model::format_instant(t)}});
}

Written LiveNetwork::advance_time(const std::string& duration) {
    const auto micros = model::parse_duration_micros(duration);
    if (!micros) {
        throw WriteError(400, "advance: '" + duration +
                                  "' is not an ISO-8601 duration such as PT1H, PT30M or P1D");
    }
    // The target is taken under the lock: two concurrent advances each move the clock.
    return write([&]() -> nlohmann::json {
        std::int64_t target = 0;
        if (__builtin_add_overflow(store_->now().micros, *micros, &target)) {
            throw WriteError(400, "advance: '" + duration + "' is out of range");
        }
        return {{"op", "time"}, {"to", model::format_instant({target})}};
    });
}

Written LiveNetwork::take_snapshot() {
    return write({{"op", "snapshot"}});
}

std::pair<Written, WrittenStateFile> LiveNetwork::take_snapshot_to_file(
    const std::filesystem::path& path) {
    // Whether the network is as it was when snapshot `id` was taken: every change since would be
    // in the undo log (a revert to it brings the log back to its mark).
    const auto at_snapshot = [this](const nlohmann::json& id) {
        const auto it = find_snapshot(id.get_ref<const std::string&>());
        return it != snapshots_.end() && it->mark == store_->undo().mark();
    };
    // The file is encoded under the lock, and synced once the lock is let go.
    util::AtomicFile file(path);
    std::string header;
    std::optional<Written> written;
    for (int attempt = 0; attempt < 2 && !written; ++attempt) {
        Written taken = take_snapshot();
        const std::shared_lock lock(gate_);
        if (at_snapshot(taken.answer.at("id"))) {
            header = write_state_file(*store_, *context_, file);
            written = std::move(taken);
        }
    }
    if (!written) {
        const WriteLock lock = lock_for_write();
        written = write_locked({{"op", "snapshot"}});
        header = write_state_file(*store_, *context_, file);
    }
    return {std::move(*written), commit_state_file(file, std::move(header))};
}

nlohmann::json LiveNetwork::snapshots() const {
    const std::shared_lock lock(gate_);
    nlohmann::json list = nlohmann::json::array();
    for (const SavedSnapshot& s : snapshots_) {
        list.push_back(
            {{"id", s.id}, {"ledger_end", s.ledger_end}, {"now", model::format_instant(s.now)}});
    }
    return {{"snapshots", std::move(list)}};
}

Written LiveNetwork::revert(const std::string& id) {
    return write({{"op", "revert"}, {"id", id}});
}

Written LiveNetwork::reset() {
    return write({{"op", "reset"}});
}

namespace {

// What of `loaded` differs from `running` that the APIs were made with (their auth verifiers,
// the ids they answer); nullopt when only what writes change differs (users, parties, keys).
std::optional<std::string> fixed_facts_differ(const model::Network& running,
                                              const model::Network& loaded) {
    const auto svs = [](const model::Network& n) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& sv : n.svs) out.emplace_back(sv.name, sv.party);
        return out;
    };
    const auto keys = [](const model::AuthSettings& a) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& k : a.rs256_keys) out.emplace_back(k.kid, k.pem);
        return out;
    };
    const model::AuthSettings& a = running.auth;
    const model::AuthSettings& b = loaded.auth;
    const std::pair<bool, const char*> checks[] = {
        {running.dso_party == loaded.dso_party, "its DSO party differs"},
        {svs(running) == svs(loaded), "its super validators differ"},
        {running.synchronizer_id == loaded.synchronizer_id &&
             running.other_synchronizers == loaded.other_synchronizers,
         "its synchronizers differ"},
        {running.participant_id == loaded.participant_id &&
             running.validator_party == loaded.validator_party &&
             running.validator_user == loaded.validator_user,
         "its participant or validator differs"},
        {running.ans_acronym == loaded.ans_acronym && running.package_ids == loaded.package_ids &&
             running.lsu == loaded.lsu && running.id_namespace == loaded.id_namespace,
         "its packages, ANS acronym, upgrade or id namespace differ"},
        {a.hs256_secret == b.hs256_secret && keys(running.auth) == keys(loaded.auth) &&
             a.jwks_json == b.jwks_json && a.audience == b.audience &&
             a.ledger_auth == b.ledger_auth,
         "its auth settings differ"},
    };
    for (const auto& [same, what] : checks) {
        if (!same) return std::string(what);
    }
    return std::nullopt;
}

}  // namespace

Written LiveNetwork::load_state_bytes(std::string_view bytes, const std::string& source) {
    if (journal_ != nullptr) {  // (set before the network serves)
        throw WriteError(409,
                         "a journaled network does not load a state file while it runs (its "
                         "journal would not replay on it): restart it with --load-state");
    }
    // Read whole into a network of its own, without the lock (readers go on meanwhile): a file
    // that does not load changes nothing. Then the two exchange their contents in a moment, and
    // the old network is freed on another thread.
    LoadedSeed loaded;
    try {
        const util::HugePagesWhileLoading huge_pages(bytes.size());
        loaded = read_state(bytes);
    } catch (const StateError& e) {
        throw WriteError(400, source + ": " + e.what());
    }
    const std::unique_lock lock(gate_);
    if (const auto what = fixed_facts_differ(store_->network(), loaded.store->network())) {
        throw WriteError(409, source + ": is the state of another network (" + *what +
                                  "): start a daemon on it with --load-state");
    }
    store_->swap_contents(*loaded.store);
    loaded.context->rebind(*store_);
    std::swap(context_, loaded.context);
    snapshots_.clear();
    go_live();
    nlohmann::json answer = clock_json();
    answer["loaded"] = source;
    drop_later(std::move(loaded));
    return Written{.answer = std::move(answer)};
}

}  // namespace cantonlite::seed
