#pragma once
// The step kinds of a seed (docs/seed-format.md), each compiling one step into the store.

#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cantonlite/model/decimal.hpp"
#include "seed_context.hpp"

namespace cantonlite::seed {

// Runs one step: dispatches on its "step" key. Throws model::JsonFieldError (with the pointer of
// the offending value) or store::AppendError.
void run_step(SeedContext& ctx, const JsonObject& step);

// Commits the bootstrap transaction: DsoRules, AmuletRules, ExternalPartyAmuletRules and one
// WalletAppInstall per wallet user, at the start time, and records their contract ids in ctx.
void bootstrap(SeedContext& ctx);

// ---- helpers shared by the step files ----

// Which keys besides "step" and its own a step accepts: a step that commits a transaction takes
// at, command_id and workflow_id; one that commits another update (reassignment, migration,
// snapshot) takes at; one that only moves the clock takes neither. "as" is an own key of the
// steps that create a contract.
enum class Commits { transaction, update, nothing };

// Throws for a key that is neither one of `own` nor one `commits` allows.
void allow_keys(const JsonObject& step, Commits commits,
                std::initializer_list<std::string_view> own);

// A decimal string field ("100", "12.5"). `positive`: must be > 0.
[[nodiscard]] model::Decimal decimal_field(const JsonObject& o, std::string_view key,
                                           bool positive);
[[nodiscard]] model::Decimal optional_decimal(const JsonObject& o, std::string_view key,
                                              model::Decimal fallback);
// An optional text field, "" when absent (empty allowed).
[[nodiscard]] std::string text_or_empty(const JsonObject& o, std::string_view key);
// The field at `path` of a record value the seed created. Throws JsonFieldError at `pointer`
// (a contract created by a raw transaction may lack it).
[[nodiscard]] const model::Value& field_at(const model::Value& v,
                                           std::initializer_list<std::string_view> path,
                                           const std::string& pointer);

// A required boolean field.
[[nodiscard]] bool bool_field(const JsonObject& o, std::string_view key);

// A party id field: "<hint>::<fingerprint>", both non-empty.
[[nodiscard]] std::string party_id(const JsonObject& o, std::string_view key);

// The ledger rights of user object `u` ("rights", docs/seed-format.md "users"), party references
// resolved through `directory`; without "rights", acting as `party`.
[[nodiscard]] model::LedgerRights parse_rights(const JsonObject& u, const Party& party,
                                               const PartyDirectory& directory);

// The "validator" of user object `u` (docs/seed-format.md "users"): one of
// model::localnet_validators, only for a wallet user; "" when absent.
[[nodiscard]] std::string wallet_validator(const JsonObject& u, bool wallet);

// The WalletAppInstall of wallet user `user_id` (party `party`), as the validator app creates it:
// signed by the validator operator and the end user, once when they are one party (the
// validator's own wallet).
[[nodiscard]] store::CreateDraft wallet_install(const model::Network& n, const std::string& user_id,
                                                const Party& party);

// A step's place in a list of steps, for its errors: "step 3 (mint): ". `step` may be anything.
[[nodiscard]] std::string step_prefix(std::size_t index, const nlohmann::json& step);

// ---- amulet transfers, shared by the steps and the commands ----

// The holding fee rate of the amulets the network creates (Splice's default, per round).
extern const model::Decimal default_holding_rate;

struct Lock {
    std::vector<Party> holders;
    Timestamp expires_at;
    std::optional<std::string> context;
};

struct Output {
    Party receiver;
    model::Decimal amount;
    std::optional<Lock> lock;
    std::optional<std::string> label;
};

// Archives `inputs` (amulets of `sender`, (contract id, pointer)) under `parent`, as a transfer
// consumes them.
void add_input_archives(const model::Network& n, store::TransactionDraft& d, int parent,
                        const Party& sender,
                        const std::vector<std::pair<std::string, std::string>>& inputs);

// What add_transfer() added.
struct TransferNodes {
    int root = 0;                                             // the AmuletRules_Transfer node
    std::vector<std::pair<std::string, std::string>> labels;  // (label, cid) of the outputs
    std::optional<std::string> change;                        // the sender's change amulet
    Value result;                                             // the TransferResult
};

// Adds under `parent` the AmuletRules_Transfer of `inputs` (amulets of `sender`, worth `in`) to
// `outputs` plus the sender's change, by `actors`, as the real transfer does (without fees):
// the inputs archived, an Amulet or LockedAmulet per output, the change.
// `argument`: the choice argument of the AmuletRules_Transfer node, when the caller gave one
// (a command); by default the transfer alone.
TransferNodes add_transfer(const SeedContext& ctx, store::TransactionDraft& d, int parent,
                           const Party& sender, const Party& provider, std::vector<Party> actors,
                           const std::vector<std::pair<std::string, std::string>>& inputs,
                           model::Decimal in, const std::vector<Output>& outputs,
                           const Value* argument = nullptr);

// What add_two_step_offer() added.
struct OfferNodes {
    std::string instruction;            // the AmuletTransferInstruction
    std::string locked;                 // its LockedAmulet
    std::optional<std::string> change;  // the sender's change amulet
};

// The offer branch of the token standard's TransferFactory_Transfer, under its node `root`
// (prepareTwoStepTransfer): `inputs` (amulets of `sender`, worth `in`) archived, `amount` locked
// to the DSO until `execute_before`, the change, and the AmuletTransferInstruction that tracks
// the lock; sets the root's result (TransferInstructionResult_Pending).
OfferNodes add_two_step_offer(const SeedContext& ctx, store::TransactionDraft& d, int root,
                              const Party& sender, const Party& receiver, model::Decimal amount,
                              const std::vector<std::pair<std::string, std::string>>& inputs,
                              model::Decimal in, Timestamp requested_at, Timestamp execute_before);

// Runs a "submit" step: the commands of a JSON Ledger API submission (seed/commands.hpp).
void submit_commands(SeedContext& ctx, const JsonObject& step);
// Runs an "execute" step: a prepared transaction, signed by its external parties, interpreted
// again and committed if it is the transaction they signed (interactive submission's execute).
void execute_prepared(SeedContext& ctx, const JsonObject& step);

// The pieces both share. The transaction the step's commands make at `now` (its effective time),
// not committed; its contract ids derive from `contract_id_salt` ("": the update id).
store::TransactionDraft interpret_submission(SeedContext& ctx, const JsonObject& s,
                                             const std::vector<Party>& act_as,
                                             const std::vector<Party>& read_as, Timestamp now,
                                             const std::string& contract_id_salt);
// A submission's deduplication period: kind "" (the maximum), "duration" (value seconds, nanos)
// or "offset" (value).
struct CommandDeduplication {
    std::string kind;
    std::int64_t value = 0;
    std::int32_t nanos = 0;
};
[[nodiscard]] CommandDeduplication deduplication_of(const JsonObject& step);
// CommandDeduplicator: throws DUPLICATE_COMMAND when a command of the same change id (user,
// command id, act-as parties) was accepted within the period before `now`.
void refuse_duplicate(const SeedContext& ctx, const std::string& user_id,
                      const std::string& command_id, const std::vector<Party>& act_as,
                      const CommandDeduplication& dedup, Timestamp now);
// Commits `d` and its completion.
void commit_command(SeedContext& ctx, const store::TransactionDraft& d, const std::string& user_id,
                    const std::string& submission_id, const CommandDeduplication& dedup);

// A value read from a step's JSON ahead of its use, or the error reading it threw: get() gives
// the one or rethrows the other.
template <class T>
class ReadAhead {
  public:
    ReadAhead() = default;
    template <class Read>
    explicit ReadAhead(Read&& read) {
        try {
            value_ = std::forward<Read>(read)();
        } catch (...) {
            error_ = std::current_exception();
        }
    }
    const T& get() const {
        if (error_) std::rethrow_exception(error_);
        return value_;
    }

  private:
    T value_{};
    std::exception_ptr error_;
};

// What a mint step reads of its JSON, read ahead: by a seed load, on the thread that parsed the
// step (while the step is in its cache: the worker that runs the steps is a load's bottleneck,
// and it spent a fifteenth of its time on a mint's JSON). Each read's error is rethrown when the
// mint comes to it, so that a mint read ahead fails as one read in place.
struct MintFields {
    explicit MintFields(const JsonObject& step);
    ReadAhead<bool> keys;                   // allow_keys: an unknown key
    const nlohmann::json* owner = nullptr;  // null when absent
    ReadAhead<model::Decimal> amount;
    ReadAhead<std::optional<Timestamp>> at;
    ReadAhead<std::optional<std::int64_t>> round;
    ReadAhead<model::Decimal> rate;
    ReadAhead<std::string> command_id;
    ReadAhead<std::string> workflow_id;
    ReadAhead<std::optional<std::string>> as;
};
// Whether `step` is a mint step (an object whose "step" is "mint"), which MintFields reads.
[[nodiscard]] bool is_mint(const nlohmann::json& step);

void mint(SeedContext& ctx, const JsonObject& step);
void mint(SeedContext& ctx, const JsonObject& step, const MintFields& fields);
void lock(SeedContext& ctx, const JsonObject& step);
void unlock(SeedContext& ctx, const JsonObject& step);
void transfer(SeedContext& ctx, const JsonObject& step);

void create_transfer_offer(SeedContext& ctx, const JsonObject& step);
void accept_transfer_offer(SeedContext& ctx, const JsonObject& step);
void withdraw_transfer_offer(SeedContext& ctx, const JsonObject& step);
void expire_transfer_offer(SeedContext& ctx, const JsonObject& step);
void create_buy_traffic_request(SeedContext& ctx, const JsonObject& step);
void complete_buy_traffic_request(SeedContext& ctx, const JsonObject& step);
void cancel_buy_traffic_request(SeedContext& ctx, const JsonObject& step);
void expire_buy_traffic_request(SeedContext& ctx, const JsonObject& step);

void register_ans_entry(SeedContext& ctx, const JsonObject& step);
void renew_ans_entry(SeedContext& ctx, const JsonObject& step);
void request_vote(SeedContext& ctx, const JsonObject& step);
void cast_vote(SeedContext& ctx, const JsonObject& step);
void close_vote(SeedContext& ctx, const JsonObject& step);
void transfer_command(SeedContext& ctx, const JsonObject& step);
void create_transfer_preapproval(SeedContext& ctx, const JsonObject& step);
void create_transfer_instruction(SeedContext& ctx, const JsonObject& step);
void feature_app(SeedContext& ctx, const JsonObject& step);
void open_mining_round(SeedContext& ctx, const JsonObject& step);

void add_party(SeedContext& ctx, const JsonObject& step);
void add_user(SeedContext& ctx, const JsonObject& step);
void grant_rights(SeedContext& ctx, const JsonObject& step);
// The Ledger API's user management, journaled: party ids as written, not references.
void create_user(SeedContext& ctx, const JsonObject& step);
void delete_user(SeedContext& ctx, const JsonObject& step);
void grant_user_rights(SeedContext& ctx, const JsonObject& step);
void revoke_user_rights(SeedContext& ctx, const JsonObject& step);
void update_user(SeedContext& ctx, const JsonObject& step);

void reassign(SeedContext& ctx, const JsonObject& step);
void unassign(SeedContext& ctx, const JsonObject& step);
void assign(SeedContext& ctx, const JsonObject& step);
void migrate(SeedContext& ctx, const JsonObject& step);
void snapshot(SeedContext& ctx, const JsonObject& step);
void advance_time(SeedContext& ctx, const JsonObject& step);
void raw_transaction(SeedContext& ctx, const JsonObject& step);

// ---- the network's automation (run when the ledger clock is moved at run time) ----

// The wallet's ExpireTransferOfferTrigger: WalletAppInstall_TransferOffer_Expire on the install of
// the sender (else the receiver), submitted by the validator, at `t`.
void automation_expire_transfer_offer(SeedContext& ctx, const std::string& offer, Timestamp t);
// The wallet's ExpireBuyTrafficRequestsTrigger: WalletAppInstall_BuyTrafficRequest_Expire.
void automation_expire_buy_traffic_request(SeedContext& ctx, const std::string& request,
                                           Timestamp t);
// The sender wallet's AcceptedTransferOfferTrigger: WalletAppInstall_ExecuteBatch with
// CO_CompleteAcceptedTransfer, whose AcceptedTransferOffer_Complete transfers the amount from the
// sender's amulets (oldest first) to the receiver. False when the sender has no wallet here or its
// amulets do not cover the amount (nothing is committed).
bool automation_complete_accepted_transfer_offer(SeedContext& ctx, const std::string& accepted,
                                                 Timestamp t);
// The validator's AcceptTransferPreapprovalProposalTrigger: the network's validator, as the
// provider of `proposal`, accepts it (TransferPreapprovalProposal_Accept, the preapproval expiring
// after 90 days) unless the receiver has a TransferPreapproval. False when it does nothing.
bool automation_accept_transfer_preapproval_proposal(SeedContext& ctx, const std::string& proposal);
// The SV app's ExpiredAnsEntryTrigger: DsoRules_ExpireAnsEntry by the first SV (the DSO when the
// network has none), whose child is AnsEntry_Expire with the DSO as actor.
void automation_expire_ans_entry(SeedContext& ctx, const std::string& entry, Timestamp t);

// A value in the typed (protobuf JSON with labels) form of docs/seed-format.md, with party and
// contract references resolved. Throws model::JsonFieldError at the offending pointer.
[[nodiscard]] model::Value typed_value(const SeedContext& ctx, const nlohmann::json& v,
                                       const std::string& pointer);

}  // namespace cantonlite::seed
