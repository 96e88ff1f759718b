#pragma once
// What the command service (command_handlers.cpp) and interactive submission
// (interactive_handlers.cpp) share: JsCommands decoded as the JSON layer's deriveConfiguredCodec
// decodes it (commands, commandId and actAs required; every other field defaulted; unknown keys
// ignored), its transcoding and validation, the "submit" step it becomes, the error of a refused
// command, and the transaction a command committed.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/seed/commands.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// DeduplicationPeriod: {"Empty":{}} (kind ""), {"DeduplicationDuration":{"value":{seconds,
// nanos}}} ("duration") or {"DeduplicationOffset":{"value":n}} ("offset").
struct Deduplication {
    std::string kind;
    std::int64_t value = 0;
    std::int32_t nanos = 0;
};

struct JsCommands {
    nlohmann::json commands;  // the array, each command checked for its shape
    std::string command_id;
    std::vector<std::string> act_as;
    std::string user_id;
    std::vector<std::string> read_as;
    std::string workflow_id;
    std::string submission_id;
    Deduplication deduplication;
    bool min_ledger_time_abs = false;
    bool min_ledger_time_rel = false;
    std::vector<std::string> disclosed;  // contract ids
    std::string synchronizer_id;
};

// The member `key` of the JSON object `o`, or nullptr.
[[nodiscard]] const nlohmann::json* find_member(const nlohmann::json& o, std::string_view key);

// Throws tapir's 400 text (http::DecodeError) for a body the codec refuses.
[[nodiscard]] Deduplication decode_deduplication(const nlohmann::json* v, const std::string& path);
// Takes `commands` out of `body`; `prefix` is the path of its fields ("", "commands.").
[[nodiscard]] JsCommands decode_js_commands(nlohmann::json& body, const std::string& prefix);

// The participant's error for a refused command, with its submission id as correlation id.
[[nodiscard]] http::ApiError api_error_of(const seed::CommandError& e,
                                          const std::string& submission_id);

// A fresh submission id: a random UUID, as ApiCommandService generates one.
[[nodiscard]] std::string new_submission_id();

// The JSON layer's transcoding of the commands (TranscodePackageIdResolver, SchemaProcessors),
// before any claim: the first actAs party resolves package names. The commands resolved.
std::vector<seed::ResolvedCommand> transcode(const model::Network& n, const JsCommands& c);

// CommandsValidator's parties and synchronizer.
void validate_parties_and_synchronizer(const model::Network& n, const JsCommands& c);

// CommandsValidator's deduplication period: a duration that is not negative, an offset that is
// not negative.
void validate_deduplication(const Deduplication& d);

// The "submit" step of a command request (journaled as is; interactive submission interprets
// it): takes the commands out of `c`.
[[nodiscard]] nlohmann::json submit_step(JsCommands& c, const std::string& user_id,
                                         const std::string& submission_id);
// The step's form of a deduplication period (nothing for the maximum).
void add_deduplication(nlohmann::json& step, const Deduplication& d);

// Writes a command's step: a refusal becomes the participant's error, with `submission_id` its
// correlation id; a failed write a 500.
[[nodiscard]] seed::Written write_command(seed::LiveNetwork& network, nlohmann::json step,
                                          const std::string& submission_id,
                                          const http::RequestContext& ctx);
// The same for an "execute" step that seed::check_execution checked (null: not checked).
[[nodiscard]] seed::Written write_command(seed::LiveNetwork& network, nlohmann::json step,
                                          std::shared_ptr<const seed::CheckedExecution> checked,
                                          const std::string& submission_id,
                                          const http::RequestContext& ctx);
// The same for a "submit" step whose commands `transcode` resolved.
[[nodiscard]] seed::Written write_command(seed::LiveNetwork& network, nlohmann::json step,
                                          std::vector<seed::ResolvedCommand> resolved,
                                          const std::string& submission_id,
                                          const http::RequestContext& ctx);
// The offset of the command's transaction (automation it set off may follow it: an accepted
// offer's payment).
[[nodiscard]] std::int64_t command_offset(const seed::Written& written);

// What a command's write answers: nothing ({}), {updateId, completionOffset}, or its transaction
// ({"transaction": …}) or transaction tree ({"transactionTree": …}).
enum class CommandAnswer { none, update_id, transaction, transaction_tree };

// The body of `answer` for the command committed at `offset`; a transaction shown as `format`
// (ignored by the other answers).
[[nodiscard]] std::string command_answer(seed::LiveNetwork& network, std::int64_t offset,
                                         CommandAnswer answer, const TransactionFormat& format,
                                         const ApiProfile& release);

// The default TransactionFormat of a command that answers its transaction: every act-as and
// read-as party, a wildcard, verbose, ACS_DELTA (ApiCommandService).
[[nodiscard]] TransactionFormat default_transaction_format(const std::vector<std::string>& act_as,
                                                           const std::vector<std::string>& read_as);

}  // namespace cantonlite::areas::ledger
