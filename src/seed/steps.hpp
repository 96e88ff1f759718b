#pragma once
// The step kinds of a seed (docs/seed-format.md), each compiling one step into the store.

#include <initializer_list>
#include <string_view>

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

void mint(SeedContext& ctx, const JsonObject& step);
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

void reassign(SeedContext& ctx, const JsonObject& step);
void unassign(SeedContext& ctx, const JsonObject& step);
void assign(SeedContext& ctx, const JsonObject& step);
void migrate(SeedContext& ctx, const JsonObject& step);
void snapshot(SeedContext& ctx, const JsonObject& step);
void advance_time(SeedContext& ctx, const JsonObject& step);
void raw_transaction(SeedContext& ctx, const JsonObject& step);

// A value in the typed (protobuf JSON with labels) form of docs/seed-format.md, with party and
// contract references resolved. Throws model::JsonFieldError at the offending pointer.
[[nodiscard]] model::Value typed_value(const SeedContext& ctx, const nlohmann::json& v,
                                       const std::string& pointer);

}  // namespace cantonlite::seed
