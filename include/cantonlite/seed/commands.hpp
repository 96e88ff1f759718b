#pragma once
// Commands of the JSON Ledger API's command service, as a participant without a Daml engine runs
// them: the choices cantonlite models (docs/commands.md), each as its Splice or token-standard Daml
// does it, with the participant's checks and its errors.
//
// A submission is a step of the network ("submit", journaled like any admin write): decoded by the
// API area first (resolve_commands, the JSON layer's checks), then run by the step under the
// writers' lock, which checks what depends on the ledger and commits one transaction.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"
#include "cantonlite/model/template_id.hpp"
#include "cantonlite/model/value.hpp"
#include "cantonlite/store/transaction_draft.hpp"

namespace cantonlite::wire {
class PreparedTransaction;
}

namespace cantonlite::seed {

// A command refused, as the participant reports it: a Canton error code, its category
// (8 invalid given any state, 9 invalid given the current state, 10 already exists, 11 not found,
// 2 contention), its cause, context and resources. `json_layer`: raised by the JSON API's own
// decoding (JsCantonError.fromErrorCode), not by its gRPC services.
class CommandError : public std::runtime_error {
  public:
    using KeyValues = std::vector<std::pair<std::string, std::string>>;
    CommandError(std::string code, int category, const std::string& cause, KeyValues context = {},
                 KeyValues resources = {})
        : std::runtime_error(cause),
          code_(std::move(code)),
          category_(category),
          context_(std::move(context)),
          resources_(std::move(resources)) {}
    [[nodiscard]] const std::string& code() const { return code_; }
    [[nodiscard]] int category() const { return category_; }
    [[nodiscard]] const KeyValues& context() const { return context_; }
    [[nodiscard]] const KeyValues& resources() const { return resources_; }
    [[nodiscard]] bool json_layer() const { return json_layer_; }
    CommandError& from_json_layer() {
        json_layer_ = true;
        return *this;
    }

  private:
    std::string code_;
    int category_;
    KeyValues context_;
    KeyValues resources_;
    bool json_layer_ = false;
};

// One command, its template (or interface) resolved and its arguments decoded against the
// modelled Daml types.
struct ResolvedCommand {
    enum class Kind { create, exercise, create_and_exercise };
    Kind kind = Kind::exercise;
    model::TemplateId template_id;  // the command's templateId: a template, or an interface
    bool is_interface = false;
    std::string contract_id;  // exercise
    std::string choice;       // exercise, create_and_exercise
    model::Value create_argument;
    model::Value choice_argument;
};

// The JSON layer's reading of JsCommands.commands (each {"CreateCommand":…}, {"ExerciseCommand":…}
// or {"CreateAndExerciseCommand":…}), after the body's shape was decoded: the template or
// interface exists in the participant's packages (404 TEMPLATES_OR_INTERFACES_NOT_FOUND), the
// choice exists (400 INVALID_ARGUMENT), the arguments fit their types (400
// COMMAND_PREPROCESSING_FAILED / INVALID_ARGUMENT). Throws CommandError.
// REQUIRES: `commands` is an array of single-key objects whose values carry their fields as
// strings and objects (the body decoder checked it).
// `first_act_as`: the first actAs party, for whom a package name is resolved.
[[nodiscard]] std::vector<ResolvedCommand> resolve_commands(const model::Network& n,
                                                            const nlohmann::json& commands,
                                                            const std::string& first_act_as);

class SeedContext;

// The transaction a "submit" step's commands make at `now` (its effective and record time), as
// the step would commit it, but not committed, nor deduplicated: for interactive submission's
// prepare, and its execute, which interprets the commands again. `contract_id_salt` names what
// its contract ids derive from ("": its update id). Throws CommandError.
[[nodiscard]] store::TransactionDraft interpret_commands(SeedContext& ctx,
                                                         const nlohmann::json& step,
                                                         model::Timestamp now,
                                                         const std::string& contract_id_salt);

// The choices cantonlite runs, "<Module>:<Entity>.<Choice>" (the interface's for an interface
// choice), for docs and errors.
[[nodiscard]] std::vector<std::string> modelled_choices();

// The participant's maximum deduplication duration (ParticipantNodeParameters, 7 days).
inline constexpr std::int64_t max_deduplication_seconds = 7 * 24 * 3600;

// ---- interactive submission's execute ----

// What an "execute" step checks that reads nothing but the step and its parties' keys: the
// prepared transaction parsed, its hash, every actAs party's signatures over it, and the one
// root command it ran (src/seed/execute_steps.cpp).
struct CheckedExecution;

// Those checks of "execute" step `step`, whose prepared transaction is `prepared`, with the
// signing keys of its actAs parties that have one (`keys`, a copy of the network's); null when
// one fails (the step then fails it under the writers' lock, as it would have). The API area
// runs them outside any lock and passes them to LiveNetwork::apply_submission; the step takes
// them unless a party's key has changed since.
[[nodiscard]] std::shared_ptr<const CheckedExecution> check_execution(
    wire::PreparedTransaction&& prepared, const nlohmann::json& step,
    const std::map<std::string, std::string>& keys);

}  // namespace cantonlite::seed
