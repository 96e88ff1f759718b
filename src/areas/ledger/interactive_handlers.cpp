// Interactive submission of the JSON Ledger API: prepare, and execute in its three forms. Canton
// release-line-3.5: JsInteractiveSubmissionService, InteractiveSubmissionServiceAuthorization,
// SubmitRequestValidator, InteractiveSubmissionServiceImpl, ExternalTransactionProcessor
// (research notes: /work/research-notes/interactive_submission_api.md; docs/interactive.md).
// Prepare interprets the commands as a submission would run them and commits nothing; execute
// decodes what the client gives back, checks it as the participant does, and submits an
// "execute" step that verifies the parties' signatures and commits the transaction they signed.
#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/command_requests.hpp"
#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/commands.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;

// HashingSchemeVersion, an enum decoded by its name (V4 from Canton 3.6 on).
std::string decode_scheme(const json& v, const ApiProfile& release) {
    static const std::vector<std::string> names{
        "HASHING_SCHEME_VERSION_UNSPECIFIED", "HASHING_SCHEME_VERSION_V2",
        "HASHING_SCHEME_VERSION_V3", "HASHING_SCHEME_VERSION_V4"};
    if (!v.is_string() ||
        std::find(names.begin(), names.end(), v.get<std::string>()) == names.end() ||
        (!release.canton_3_6() && v.get<std::string>() == names[3]))
        relaxed::fail_at("Invalid value", "hashingSchemeVersion");
    return v.get<std::string>();
}

// SubmitRequestValidator.validateHashingSchemeVersion, then the schemes cantonlite hashes.
interactive::HashingScheme validate_scheme(const std::string& name) {
    if (name == "HASHING_SCHEME_VERSION_UNSPECIFIED")
        throw_invalid_field("hashing_scheme_version", "Unspecified version");
    if (name == "HASHING_SCHEME_VERSION_V4") {
        throw_invalid_field("hashing_scheme_version",
                            "V4 needs protocol version 36 (dev); cantonlite hashes V2 and V3");
    }
    return name == "HASHING_SCHEME_VERSION_V3" ? interactive::HashingScheme::v3
                                               : interactive::HashingScheme::v2;
}

[[noreturn]] void failed_to_execute(const std::string& reason) {
    throw ApiError(ErrorKind::invalid_argument, "FAILED_TO_EXECUTE_TRANSACTION",
                   "The participant failed to execute the transaction: " + reason);
}

// ---- JsExecuteSubmissionRequest (and …AndWait, …AndWaitForTransaction) ----

struct GivenSignature {
    std::string format;
    std::string signature;  // base64, as given
    std::string signed_by;
    std::string algorithm;
};

struct GivenPartySignatures {
    std::string party;
    std::vector<GivenSignature> signatures;
};

struct ExecuteRequest {
    std::string prepared_base64;  // padded
    wire::PreparedTransaction prepared;
    std::vector<GivenPartySignatures> signatures;
    Deduplication deduplication;
    std::string submission_id;
    std::string user_id;
    std::string scheme_name;
    std::optional<TransactionFormat> format;
};

// An enum field of the relaxed codec: required (its pre-fill does not decode), one of `names`.
std::string decode_enum(const json& o, std::string_view key, const std::vector<std::string>& names,
                        const std::string& path) {
    const json* v = find_member(o, key);
    if (v == nullptr || v->is_null()) relaxed::fail_at("Missing required field", path);
    if (!v->is_string()) relaxed::wrong_type(*v, "string", path);
    const std::string name = v->get<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string supported;
        for (const std::string& n : names) supported += (supported.empty() ? "" : ", ") + n;
        relaxed::fail_at(
            "Unrecognized enum value " + name + ". Supported values: [" + supported + "]", path);
    }
    return name;
}

// PartySignatures {signatures: [SinglePartySignatures {party, signatures: [Signature]}]}.
std::vector<GivenPartySignatures> decode_party_signatures(const json& v) {
    static const std::vector<std::string> formats{
        "SIGNATURE_FORMAT_UNSPECIFIED", "SIGNATURE_FORMAT_RAW", "SIGNATURE_FORMAT_DER",
        "SIGNATURE_FORMAT_CONCAT", "SIGNATURE_FORMAT_SYMBOLIC"};
    static const std::vector<std::string> algorithms{
        "SIGNING_ALGORITHM_SPEC_UNSPECIFIED", "SIGNING_ALGORITHM_SPEC_ED25519",
        "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256", "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384"};
    relaxed::require_object(v, "signatures");
    std::vector<GivenPartySignatures> out;
    const json* list = relaxed::member(v, "signatures");
    if (list == nullptr || list->is_null()) return out;
    if (!list->is_array()) relaxed::wrong_type(*list, "array", "signatures");
    for (const json& p : *list) {
        relaxed::require_object(p, "party");
        GivenPartySignatures party{
            .party = relaxed::decode_string(relaxed::member(p, "party"), "party"),
            .signatures = {}};
        const json* signatures = relaxed::member(p, "signatures");
        if (signatures != nullptr && !signatures->is_null()) {
            if (!signatures->is_array()) relaxed::wrong_type(*signatures, "array", "signatures");
            for (const json& s : *signatures) {
                relaxed::require_object(s, "format");
                party.signatures.push_back(
                    {.format = decode_enum(s, "format", formats, "format"),
                     .signature =
                         relaxed::decode_string(relaxed::member(s, "signature"), "signature"),
                     .signed_by =
                         relaxed::decode_string(relaxed::member(s, "signedBy"), "signedBy"),
                     .algorithm = decode_enum(s, "signingAlgorithmSpec", algorithms,
                                              "signingAlgorithmSpec")});
            }
        }
        out.push_back(std::move(party));
    }
    return out;
}

// The body, as the JSON layer decodes it (deriveConfiguredCodec: preparedTransaction,
// partySignatures, deduplicationPeriod, submissionId and hashingSchemeVersion required), and the
// prepared transaction parsed (ProtocolConverters: "Cannot parse prepared_transaction").
ExecuteRequest decode_execute_request(std::string_view text, bool for_transaction,
                                      const ApiProfile& release) {
    json body = relaxed::parse_body(text);
    if (!body.is_object()) relaxed::fail_at("Missing required field", "preparedTransaction");
    ExecuteRequest r;
    const json* prepared = find_member(body, "preparedTransaction");
    if (prepared == nullptr) relaxed::fail_at("Missing required field", "preparedTransaction");
    if (!prepared->is_string()) relaxed::wrong_type(*prepared, "string", "preparedTransaction");
    const auto bytes = relaxed::base64_bytes(prepared->get<std::string>());
    if (!bytes) {
        relaxed::fail_at("The string is not a valid Base64: " + prepared->get<std::string>(),
                         "preparedTransaction");
    }
    const json* signatures = find_member(body, "partySignatures");
    if (signatures == nullptr) relaxed::fail_at("Missing required field", "partySignatures");
    r.signatures = decode_party_signatures(*signatures);
    const json* dedup = find_member(body, "deduplicationPeriod");
    if (dedup == nullptr || dedup->is_null())
        relaxed::fail_at("Missing required field", "deduplicationPeriod");
    r.deduplication = decode_deduplication(dedup, "deduplicationPeriod");
    const json* submission = find_member(body, "submissionId");
    if (submission == nullptr) relaxed::fail_at("Missing required field", "submissionId");
    if (!submission->is_string()) relaxed::wrong_type(*submission, "string", "submissionId");
    r.submission_id = submission->get<std::string>();
    r.user_id = relaxed::decode_string(find_member(body, "userId"), "userId");
    const json* scheme = find_member(body, "hashingSchemeVersion");
    if (scheme == nullptr || scheme->is_null())
        relaxed::fail_at("Missing required field", "hashingSchemeVersion");
    r.scheme_name = decode_scheme(*scheme, release);
    if (for_transaction) {
        if (const json* f = find_member(body, "transactionFormat"); f != nullptr && !f->is_null())
            r.format = relaxed::decode_transaction_format(*f);
    }
    if (!r.prepared.ParseFromString(*bytes))
        throw_invalid_argument("Cannot parse prepared_transaction");
    r.prepared_base64 = model::base64_encode(*bytes);
    return r;
}

// SubmitRequestValidator.validatePartySignatures (CryptoValidator for each signature).
void validate_party_signatures(const std::vector<GivenPartySignatures>& given) {
    for (const GivenPartySignatures& p : given) {
        if (const auto e = lf_party_error(p.party))
            throw_invalid_field("SinglePartySignatures.party", *e);
        if (p.party.find("::") == std::string::npos) {
            throw_invalid_field(
                "SinglePartySignatures.party",
                "Invalid unique identifier `" + p.party + "` with missing namespace.");
        }
        for (const GivenSignature& s : p.signatures) {
            if (s.format == "SIGNATURE_FORMAT_UNSPECIFIED")
                throw_invalid_field("format", "Signature format must be specified");
            if (s.signed_by.size() > 68 || s.signed_by.find("::") != std::string::npos) {
                throw_invalid_field("SinglePartySignatures.signature",
                                    "Invalid fingerprint " + s.signed_by);
            }
            if (s.algorithm == "SIGNING_ALGORITHM_SPEC_UNSPECIFIED") {
                throw_invalid_field("SinglePartySignatures.signature",
                                    "Signing algorithm spec " + s.algorithm + " not supported");
            }
            if (!relaxed::base64_bytes(s.signature))
                throw_invalid_field("SinglePartySignatures.signature", "not base64");
        }
    }
}

// InteractiveSubmissionServiceConfig.maximumNumberOfSignaturesPerParty.
constexpr std::size_t max_signatures_per_party = 50;

http::Response execute(seed::LiveNetwork& network, const RouteAuth& auth,
                       const http::RequestContext& ctx, const ApiProfile& release,
                       CommandAnswer answer) {
    const model::Network& n = network.store().network();
    ExecuteRequest r;
    std::exception_ptr json_error;
    try {
        r = decode_execute_request(ctx.request.body, answer == CommandAnswer::transaction, release);
    } catch (...) {
        json_error = std::current_exception();
    }
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    if (json_error) std::rethrow_exception(json_error);
    // InteractiveSubmissionServiceAuthorization: MatchUserId and ExecuteAs each party the
    // prepared transaction acts as; the transaction format's readers for …ForTransaction.
    const wire::Metadata& m = r.prepared.metadata();
    const std::vector<std::string> act_as(m.submitter_info().act_as().begin(),
                                          m.submitter_info().act_as().end());
    const std::string user_id = auth.authorize_execution(caller, r.user_id, act_as);
    if (r.format && r.format->event_format) {
        const UpdateFormat f{.include_transactions = r.format};
        validate_update_format(f);
        auth.authorize(caller, parties_of(f), reads_any_party(f));
    }
    // SubmitRequestValidator.validateExecute.
    const std::string submission_id =
        r.submission_id.empty() ? new_submission_id() : r.submission_id;
    validate_deduplication(r.deduplication);
    validate_party_signatures(r.signatures);
    const interactive::HashingScheme scheme = validate_scheme(r.scheme_name);
    if (!r.prepared.has_metadata()) throw_missing_field("synchronizer_id");
    if (m.synchronizer_id().find("::") == std::string::npos) {
        throw_invalid_field("synchronizer_id", "Invalid unique identifier `" + m.synchronizer_id() +
                                                   "` with missing namespace.");
    }
    // InteractiveSubmissionServiceImpl and ExternalTransactionProcessor.
    if (answer == CommandAnswer::none &&
        std::any_of(r.signatures.begin(), r.signatures.end(),
                    [](const auto& p) { return p.signatures.size() > max_signatures_per_party; })) {
        failed_to_execute(
            "One or more parties provided more than the maximum number of "
            "signatures allowed (50)");
    }
    if (r.prepared.transaction().roots_size() > 1)
        failed_to_execute("Transaction with multiple root nodes are not supported");
    if (!m.has_submitter_info()) throw_missing_field("submitter_info");
    if (!r.prepared.has_transaction()) throw_missing_field("transaction");
    if (m.synchronizer_id() != n.synchronizer_id &&
        std::find(n.other_synchronizers.begin(), n.other_synchronizers.end(),
                  m.synchronizer_id()) == n.other_synchronizers.end()) {
        failed_to_execute("Cannot find a physical synchronizer for " + m.synchronizer_id() +
                          ". Make sure the participant is connected to the synchronizer.");
    }
    // The signing keys the step's checks need, copied: they run after the lock is let go.
    std::map<std::string, std::string> keys;
    for (const std::string& party : act_as) {
        if (const auto it = n.external_keys.find(party); it != n.external_keys.end())
            keys.emplace(party, it->second);
    }
    lock.unlock();

    json step = json::object();
    step["step"] = "execute";
    step["user_id"] = user_id;
    step["submission_id"] = submission_id;
    step["prepared"] = std::move(r.prepared_base64);
    step["hashing_scheme"] = static_cast<int>(scheme);
    step["signatures"] = json::array();
    for (const GivenPartySignatures& p : r.signatures) {
        json signatures = json::array();
        for (const GivenSignature& s : p.signatures) {
            signatures.push_back(
                {{"format", s.format},
                 {"algorithm", s.algorithm},
                 {"signed_by", s.signed_by},
                 {"signature", model::base64_encode(*relaxed::base64_bytes(s.signature))}});
        }
        step["signatures"].push_back({{"party", p.party}, {"signatures", std::move(signatures)}});
    }
    add_deduplication(step, r.deduplication);
    // The hash, the signatures and the root command, checked here rather than under the writers'
    // lock (the Ed25519 verification most of all).
    std::shared_ptr<const seed::CheckedExecution> checked =
        seed::check_execution(std::move(r.prepared), step, keys);
    seed::Written written =
        write_command(network, std::move(step), std::move(checked), submission_id, ctx);
    // executeAndWaitForTransaction's format: asked for, else the act-as parties'.
    TransactionFormat format;
    if (answer == CommandAnswer::transaction)
        format = r.format.value_or(default_transaction_format(act_as, {}));
    std::string out = command_answer(network, command_offset(written), answer, format, release);
    return answer_once_durable(network, std::move(written), std::move(out));
}

}  // namespace

http::Response post_prepare_submission(seed::LiveNetwork& network, const RouteAuth& auth,
                                       const http::RequestContext& ctx, const ApiProfile& release) {
    // JsPrepareSubmissionRequest: JsCommands' fields, synchronizerId and
    // packageIdSelectionPreference required by the codec (no defaults), and prepare's own.
    const model::Network& n = network.store().network();
    JsCommands c;
    bool verbose = false;
    std::optional<model::Timestamp> max_record_time;
    std::string scheme_name = "HASHING_SCHEME_VERSION_V2";
    std::exception_ptr json_error;
    try {
        json body = relaxed::parse_body(ctx.request.body);
        c = decode_js_commands(body, "");
        for (const char* field : {"synchronizerId", "packageIdSelectionPreference"}) {
            if (find_member(body, field) == nullptr)
                relaxed::fail_at("Missing required field", field);
        }
        verbose = relaxed::decode_bool(find_member(body, "verboseHashing"), "verboseHashing");
        if (const auto t = relaxed::decode_optional_string(find_member(body, "maxRecordTime"),
                                                           "maxRecordTime")) {
            max_record_time = model::parse_timestamp(*t);
            if (!max_record_time) relaxed::fail_at("Invalid value", "maxRecordTime");
        }
        if (const json* v = find_member(body, "hashingSchemeVersion"); v && !v->is_null())
            scheme_name = decode_scheme(*v, release);
        // The JSON layer's transcoding, before any claim (as the command service's).
        (void)transcode(n, c);
    } catch (...) {
        json_error = std::current_exception();
    }
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    if (json_error) std::rethrow_exception(json_error);
    // InteractiveSubmissionServiceAuthorization: MatchUserId, and ReadAs each of actAs and
    // readAs: preparing reads, it does not act.
    std::vector<std::string> readers = c.act_as;
    readers.insert(readers.end(), c.read_as.begin(), c.read_as.end());
    const std::string user_id = auth.authorize_user_reads(caller, c.user_id, readers, false);
    // SubmitRequestValidator.validatePrepare.
    if (c.command_id.empty()) throw_missing_field("command_id");
    validate_parties_and_synchronizer(n, c);
    if (c.commands.empty()) throw_missing_field("commands");
    const interactive::HashingScheme scheme = validate_scheme(scheme_name);
    if (c.commands.size() > 1) {
        throw ApiError(ErrorKind::invalid_argument, "FAILED_TO_PREPARE_TRANSACTION",
                       "The participant failed to prepare the transaction: Preparing multiple "
                       "commands is currently not supported");
    }
    const std::string synchronizer =
        c.synchronizer_id.empty() ? n.synchronizer_id : c.synchronizer_id;
    const std::vector<std::string> act_as = c.act_as;
    const std::string command_id = c.command_id;
    lock.unlock();
    // The commands interpreted as the submission would run them, nothing committed; the contract
    // ids derive from the transaction's uuid.
    const std::string uuid = new_submission_id();
    const json step = submit_step(c, user_id, uuid);
    store::TransactionDraft draft;
    try {
        draft = network.interpret(step, "prepared/" + uuid);
    } catch (const seed::CommandError& e) {
        throw api_error_of(e, "");
    }
    lock.lock();
    const store::LedgerStore& store = network.store();
    const interactive::PrepareInputs inputs{
        .act_as = act_as,
        .command_id = command_id,
        .synchronizer_id = synchronizer,
        .transaction_uuid = uuid,
        .preparation_time = draft.effective_at,
        .max_record_time = max_record_time,
        .contract = [&](const std::string& cid) -> model::ContractPtr {
            const auto state = store.contract(cid);
            return state ? state->contract : nullptr;
        }};
    const wire::PreparedTransaction prepared = interactive::encode_prepared(draft, inputs);
    lock.unlock();
    const interactive::Hash hash = interactive::prepared_transaction_hash(prepared, scheme);
    std::string out = "{";
    http::append_string_field(out, "preparedTransaction",
                              model::base64_encode(prepared.SerializeAsString()), true);
    out += ',';
    http::append_string_field(out, "preparedTransactionHash",
                              model::base64_encode(std::string_view(
                                  reinterpret_cast<const char*>(hash.data()), hash.size())),
                              true);
    out += ',';
    http::append_string_field(out, "hashingSchemeVersion", scheme_name, true);
    if (verbose) {
        // InteractiveSubmissionServiceConfig.enableVerboseHashing is off by default.
        out += ',';
        http::append_string_field(out, "hashingDetails",
                                  "Verbose hashing is disabled on this participant. Contact the "
                                  "node administrator for more details.",
                                  true);
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response post_execute_submission(seed::LiveNetwork& network, const RouteAuth& auth,
                                       const http::RequestContext& ctx, const ApiProfile& release) {
    return execute(network, auth, ctx, release, CommandAnswer::none);
}

http::Response post_execute_submission_and_wait(seed::LiveNetwork& network, const RouteAuth& auth,
                                                const http::RequestContext& ctx,
                                                const ApiProfile& release) {
    return execute(network, auth, ctx, release, CommandAnswer::update_id);
}

http::Response post_execute_submission_and_wait_for_transaction(seed::LiveNetwork& network,
                                                                const RouteAuth& auth,
                                                                const http::RequestContext& ctx,
                                                                const ApiProfile& release) {
    return execute(network, auth, ctx, release, CommandAnswer::transaction);
}

}  // namespace cantonlite::areas::ledger
