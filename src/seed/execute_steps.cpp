// The "execute" step: interactive submission's execute. A prepared transaction comes back with its
// parties' signatures; the participant hashes what it was given, checks every actAs party signed
// that hash, then runs the transaction's one root command again, as prepare ran it (its
// preparation time, its uuid's contract ids), and commits it only if it is the very transaction
// the parties signed. The step keeps the prepared transaction and the signatures, so a journal
// replays it through the same checks. docs/interactive.md.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cantonlite/interactive/external_signatures.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/interactive/wire_value.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/seed/commands.hpp"
#include "steps.hpp"

namespace cantonlite::seed {

struct CheckedExecution {
    wire::PreparedTransaction prepared;
    interactive::HashingScheme scheme{};
    interactive::Hash hash{};
    std::vector<std::pair<Party, std::string>> keys;  // (party, the key its signatures verified)
    nlohmann::json command;                           // the root's, as JsCommands carries it
};

namespace {

[[noreturn]] void failed_to_execute(const std::string& reason) {
    throw CommandError("FAILED_TO_EXECUTE_TRANSACTION", 8,
                       "The participant failed to execute the transaction: " + reason);
}

// The step's signatures: [{"party", "signatures": [{"format", "algorithm", "signed_by",
// "signature" (base64)}]}].
std::vector<interactive::PartySignatures> signatures_of(const nlohmann::json& list) {
    std::vector<interactive::PartySignatures> out;
    for (const nlohmann::json& p : list) {
        interactive::PartySignatures party{.party = p.at("party").get<std::string>(),
                                           .signatures = {}};
        for (const nlohmann::json& s : p.at("signatures")) {
            const auto bytes = model::base64_decode(s.at("signature").get<std::string>());
            if (!bytes) throw std::invalid_argument("a signature is not base64");
            party.signatures.push_back({.format = s.at("format").get<std::string>(),
                                        .algorithm = s.at("algorithm").get<std::string>(),
                                        .signed_by = s.at("signed_by").get<std::string>(),
                                        .bytes = *bytes});
        }
        out.push_back(std::move(party));
    }
    return out;
}

std::string identifier_text(const wire::Identifier& id) {
    return id.package_id() + ":" + id.module_name() + ":" + id.entity_name();
}

// A value as the JSON Ledger API carries it in a command.
nlohmann::json ledger_json(const wire::Value& v) {
    return nlohmann::json::parse(
        model::value_json(model::pack(interactive::from_wire(v)), model::ValueEncoding::ledger));
}

// The one command a prepared transaction's single root ran, as JsCommands.commands carries it:
// {"ExerciseCommand":…} (templateId the interface's for an interface choice) or
// {"CreateCommand":…}, its argument in the JSON Ledger API's encoding. Throws
// std::invalid_argument (more than one root; a root that is no node, or neither a create nor an
// exercise) and WireValueError.
nlohmann::json root_command(const wire::DamlTransaction& t) {
    if (t.roots_size() != 1)
        throw std::invalid_argument("Transaction with multiple root nodes are not supported");
    const auto node = std::find_if(t.nodes().begin(), t.nodes().end(),
                                   [&](const auto& n) { return n.node_id() == t.roots(0); });
    if (node == t.nodes().end() || !node->has_v1())
        throw std::invalid_argument("the root " + t.roots(0) + " is no node of the transaction");
    const wire::Node& n = node->v1();
    if (n.has_exercise()) {
        const wire::Exercise& x = n.exercise();
        return {{"ExerciseCommand",
                 {{"templateId",
                   identifier_text(x.has_interface_id() ? x.interface_id() : x.template_id())},
                  {"contractId", x.contract_id()},
                  {"choice", x.choice_id()},
                  {"choiceArgument", ledger_json(x.chosen_value())}}}};
    }
    if (n.has_create()) {
        const wire::Create& c = n.create();
        return {{"CreateCommand",
                 {{"templateId", identifier_text(c.template_id())},
                  {"createArguments", ledger_json(c.argument())}}}};
    }
    throw std::invalid_argument("the root " + t.roots(0) + " is neither a create nor an exercise");
}

std::string hex_of(const interactive::Hash& h) {
    return model::hex(std::string_view(reinterpret_cast<const char*>(h.data()), h.size()));
}

// The checks of an "execute" step that read nothing but the step and the parties' keys: the
// prepared transaction (`prepared`, parsed from the step), its hash, every actAs party's
// signatures over it, and the one root command it ran. Throws as the step fails.
CheckedExecution check(wire::PreparedTransaction prepared, const JsonObject& s,
                       const interactive::SigningKeyOf& key_of) {
    CheckedExecution c{.prepared = std::move(prepared)};
    c.scheme = static_cast<interactive::HashingScheme>(s.integer("hashing_scheme", 2, 3));
    const wire::Metadata& m = c.prepared.metadata();
    const std::vector<Party> act_as(m.submitter_info().act_as().begin(),
                                    m.submitter_info().act_as().end());
    // A transaction no party acts for has nobody's signature to check: refused, as Canton's
    // decoder refuses submitter info without actAs.
    if (act_as.empty()) failed_to_execute("Failed to deserialize submitter info: no actAs party");

    // ExternalTransactionProcessor: the hash of what was given, then the signatures over it.
    try {
        c.hash = interactive::prepared_transaction_hash(c.prepared, c.scheme);
    } catch (const interactive::HashError& e) {
        failed_to_execute(e.what());
    }
    try {
        interactive::verify_signatures(act_as, signatures_of(s.value().at("signatures")), c.hash,
                                       [&](const std::string& party) {
                                           std::optional<std::string> key = key_of(party);
                                           if (key) c.keys.emplace_back(party, *key);
                                           return key;
                                       });
    } catch (const interactive::SignatureError& e) {
        failed_to_execute(e.what());
    }
    try {
        c.command = root_command(c.prepared.transaction());
    } catch (const std::invalid_argument& e) {
        failed_to_execute(e.what());
    } catch (const interactive::WireValueError& e) {
        failed_to_execute(std::string("Failed to deserialize transaction: ") + e.what());
    }
    return c;
}

// The signing key of each party that has one in `keys` (the network's, or a copy of them).
interactive::SigningKeyOf keys_in(const std::map<Party, std::string>& keys) {
    return [&keys](const std::string& party) -> std::optional<std::string> {
        const auto it = keys.find(party);
        if (it == keys.end()) return std::nullopt;
        return it->second;
    };
}

// The prepared transaction of step `s`. Throws std::invalid_argument.
wire::PreparedTransaction prepared_of(const JsonObject& s) {
    const auto bytes = model::base64_decode(s.string("prepared"));
    wire::PreparedTransaction prepared;
    if (!bytes || !prepared.ParseFromString(*bytes))
        throw std::invalid_argument("prepared: not a base64 PreparedTransaction");
    return prepared;
}

}  // namespace

std::shared_ptr<const CheckedExecution> check_execution(wire::PreparedTransaction&& prepared,
                                                        const nlohmann::json& step,
                                                        const std::map<Party, std::string>& keys) {
    try {
        return std::make_shared<const CheckedExecution>(
            check(std::move(prepared), JsonObject(step, ""), keys_in(keys)));
    } catch (...) {
        return nullptr;  // the step fails the same check under the writers' lock
    }
}

void execute_prepared(SeedContext& ctx, const JsonObject& s) {
    allow_keys(
        s, Commits::transaction,
        {"user_id", "submission_id", "deduplication", "prepared", "hashing_scheme", "signatures"});
    const std::string user_id = s.string("user_id");
    // Checked by the API area outside the writers' lock, unless a party's key changed since;
    // else (a step replayed from the journal, or one that failed there) checked here.
    std::shared_ptr<const CheckedExecution> checked = ctx.take_checked_execution();
    if (checked && !std::all_of(checked->keys.begin(), checked->keys.end(), [&](const auto& k) {
            const auto it = ctx.network().external_keys.find(k.first);
            return it != ctx.network().external_keys.end() && it->second == k.second;
        }))
        checked = nullptr;
    if (!checked) {
        checked = std::make_shared<const CheckedExecution>(
            check(prepared_of(s), s, keys_in(ctx.network().external_keys)));
    }
    const wire::PreparedTransaction& prepared = checked->prepared;
    const interactive::HashingScheme scheme = checked->scheme;
    const interactive::Hash& hash = checked->hash;
    nlohmann::json command = checked->command;
    const wire::Metadata& m = prepared.metadata();
    const std::vector<Party> act_as(m.submitter_info().act_as().begin(),
                                    m.submitter_info().act_as().end());
    const std::string& uuid = m.transaction_uuid();

    // Sequenced now; the confirming participants' time checks (TimeValidator).
    const Timestamp record_time{ctx.store().now().micros + 1};
    const Timestamp preparation_time{static_cast<std::int64_t>(m.preparation_time())};
    if (m.has_max_record_time() &&
        record_time.micros > static_cast<std::int64_t>(m.max_record_time())) {
        throw CommandError(
            "LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED", 2,
            "Rejected transaction as record time exceeds the maximum record time: recordTime=" +
                model::format_instant(record_time) + ", maxRecordTime=" +
                model::format_instant(Timestamp{static_cast<std::int64_t>(m.max_record_time())}));
    }
    constexpr std::int64_t preparation_tolerance = 24LL * 3600 * 1'000'000;  // 24h
    if (std::abs(record_time.micros - preparation_time.micros) > preparation_tolerance) {
        throw CommandError("LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND", 2,
                           "Rejected transaction as delta of the preparation time and the record "
                           "time exceed the time tolerance preparationTime=" +
                               model::format_instant(preparation_time) + ", recordTime=" +
                               model::format_instant(record_time) + ", maxDelta=PT24H");
    }
    const std::string& command_id = m.submitter_info().command_id();
    const CommandDeduplication dedup = deduplication_of(s);
    refuse_duplicate(ctx, user_id, command_id, act_as, dedup, record_time);

    // The root command again, at the preparation time, with the contracts the transaction uses as
    // disclosed (the hash binds them, and the client may have been given them with disclosure).
    nlohmann::json submit = nlohmann::json::object();
    submit["command_id"] = command_id;
    submit["commands"] = nlohmann::json::array({std::move(command)});
    submit["disclosed"] = nlohmann::json::array();
    for (const auto& input : m.input_contracts())
        submit["disclosed"].push_back(input.v1().contract_id());
    store::TransactionDraft d;
    try {
        d = interpret_submission(ctx, JsonObject(submit, s.pointer_of("prepared")), act_as, {},
                                 preparation_time, "prepared/" + uuid);
    } catch (const CommandError& e) {
        // A contract it uses is gone since: the confirmers' activeness check.
        if (e.code() != "CONTRACT_NOT_FOUND") throw;
        throw CommandError("LOCAL_VERDICT_INACTIVE_CONTRACTS", 11,
                           "Rejected transaction is referring to inactive contracts ", {},
                           e.resources());
    }
    d.record_time = record_time;
    const interactive::PrepareInputs inputs{
        .act_as = act_as,
        .command_id = command_id,
        .synchronizer_id = m.synchronizer_id(),
        .transaction_uuid = uuid,
        .preparation_time = preparation_time,
        .max_record_time =
            m.has_max_record_time()
                ? std::optional(Timestamp{static_cast<std::int64_t>(m.max_record_time())})
                : std::nullopt,
        .contract = [&](const std::string& cid) -> model::ContractPtr {
            const auto state = ctx.store().contract(cid);
            return state ? state->contract : nullptr;
        }};
    const interactive::Hash ran =
        interactive::prepared_transaction_hash(interactive::encode_prepared(d, inputs), scheme);
    if (ran != hash) {
        // The signed transaction is not what its command does on this ledger (tampered with,
        // or prepared elsewhere): the confirmers' model conformance check.
        throw CommandError("LOCAL_VERDICT_FAILED_MODEL_CONFORMANCE_CHECK", 8,
                           "Rejected transaction due to a failed model conformance check: the "
                           "transaction signed (hash 1220" +
                               hex_of(hash) + ") is not the one its command makes (hash 1220" +
                               hex_of(ran) + ")");
    }
    d.external_transaction_hash = hex_of(hash);
    commit_command(ctx, d, user_id, s.optional_string("submission_id").value_or(""), dedup);
}

}  // namespace cantonlite::seed
