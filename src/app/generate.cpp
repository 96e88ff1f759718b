#include "cantonlite/app/generate.hpp"

#include <array>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/util/json_escape.hpp"

namespace cantonlite::app {
namespace {

using model::micros_per_second;
constexpr std::int64_t day = 86'400;
constexpr std::string_view start_time = "2025-01-01T00:00:00Z";

// A JSON string literal, as the shared writer escapes it.
std::string json_string(std::string_view s) {
    std::string out;
    util::append_json_string(out, s);
    return out;
}

// One step as one line of JSON: {"step": kind, "at": time, ...members in the order added}.
class StepLine {
  public:
    StepLine(std::string_view kind, model::Timestamp at) {
        line_ =
            "{\"step\":" + json_string(kind) + ",\"at\":" + json_string(model::format_instant(at));
    }
    StepLine& text(std::string_view key, std::string_view value) {
        return raw(key, json_string(value));
    }
    StepLine& number(std::string_view key, std::int64_t value) {
        return raw(key, std::to_string(value));
    }
    StepLine& raw(std::string_view key, std::string_view json) {
        line_ += ',';
        line_ += json_string(key);
        line_ += ':';
        line_ += json;
        return *this;
    }
    std::string done() { return line_ + "}"; }

  private:
    std::string line_;
};

// "12.34" from 1234 hundredths.
std::string amount_text(std::int64_t cents) {
    const std::int64_t fraction = cents % 100;
    return std::to_string(cents / 100) + (fraction < 10 ? ".0" : ".") + std::to_string(fraction);
}

enum class Kind {
    transfer,
    offer,
    traffic_request,
    traffic_outcome,
    ans_entry,
    transfer_command,
    vote_request,
    cast_vote
};

// Percentages of the kinds among the further steps (they add up to 100).
constexpr std::array<std::pair<Kind, int>, 8> kind_weights{{{Kind::transfer, 40},
                                                            {Kind::offer, 15},
                                                            {Kind::traffic_request, 10},
                                                            {Kind::traffic_outcome, 10},
                                                            {Kind::ans_entry, 10},
                                                            {Kind::transfer_command, 10},
                                                            {Kind::vote_request, 3},
                                                            {Kind::cast_vote, 2}}};

// Writes one generated seed. Not thread-safe; lives for one call.
class Generator {
  public:
    Generator(std::ostream& out, const GenerateSpec& spec)
        : out_(out),
          spec_(spec),
          rng_(spec.seed),
          wallets_((spec.parties + 1) / 2),
          namespace_(
              model::sha256_hex("cantonlite-generate/participant/" + std::to_string(spec.seed))),
          start_(*model::parse_timestamp(start_time)),
          holdings_(static_cast<std::size_t>(spec.parties)) {}

    void run() {
        write_network();
        write_users();
        out_ << "\"auth\": {\"hs256\": {\"secret\": \"unsafe\"}, "
                "\"audience\": \"https://canton.network.global\"},\n\"steps\": [\n";
        const std::int64_t total = spec_.amulets + spec_.updates;
        for (std::int64_t i = 0; i < total; ++i) {
            if (i == total / 2) snapshot();
            if (i < spec_.amulets) {
                mint(i);
            } else {
                further_step();
            }
        }
        snapshot();
        out_ << "\n]\n}\n";
    }

  private:
    // A uniform integer in [0, n). Plain modulo, not std::uniform_int_distribution, whose
    // algorithm differs between standard libraries: the output must not.
    std::int64_t below(std::int64_t n) {
        return static_cast<std::int64_t>(rng_() % static_cast<std::uint64_t>(n));
    }
    std::string user(std::int64_t i) const { return "party-" + std::to_string(i); }
    std::string party(std::int64_t i) const { return user(i) + "::1220" + namespace_; }
    std::string party_of(std::string_view hint) const {
        return std::string(hint) + "::1220" +
               model::sha256_hex("cantonlite-generate/" + std::string(hint) + "/" +
                                 std::to_string(spec_.seed));
    }
    // Any party but `not_this` (unless it is the only one).
    std::int64_t other_party(std::int64_t not_this) {
        if (spec_.parties == 1) return not_this;
        const std::int64_t p = below(spec_.parties - 1);
        return p >= not_this ? p + 1 : p;
    }

    // The time of the next step: one second after the previous one.
    model::Timestamp next_time() {
        ++steps_;
        return model::Timestamp{start_.micros + steps_ * micros_per_second};
    }
    std::string later(model::Timestamp t, std::int64_t seconds) const {
        return model::format_instant(model::Timestamp{t.micros + seconds * micros_per_second});
    }

    void emit(StepLine line) {
        out_ << (first_step_ ? "" : ",\n") << line.done();
        first_step_ = false;
    }

    void write_network() {
        const std::string seed = std::to_string(spec_.seed);
        out_ << "{\n\"network\": {\"dso_party\": " << json_string(party_of("DSO"))
             << ", \"svs\": [{\"name\": \"Sv-1\", \"party\": " << json_string(party_of("sv-1"))
             << "}, {\"name\": \"Sv-2\", \"party\": " << json_string(party_of("sv-2")) << "}]"
             << ", \"synchronizer_id\": " << json_string(party_of("global-domain"))
             << ", \"participant_id\": " << json_string("PAR::participant1::1220" + namespace_)
             << ", \"validator_party\": " << json_string("validator::1220" + namespace_)
             << ", \"start_time\": " << json_string(start_time)
             << ", \"id_namespace\": " << json_string("generated-" + seed) << "},\n";
    }

    void write_users() {
        out_ << "\"users\": [\n";
        for (std::int64_t i = 0; i < spec_.parties; ++i) {
            out_ << (i == 0 ? "" : ",\n") << "{\"id\": " << json_string(user(i))
                 << ", \"party\": " << json_string(party(i))
                 << ", \"wallet\": " << (i < wallets_ ? "true" : "false") << '}';
        }
        out_ << "\n],\n";
    }

    // Amulets are labelled "a<n>", n counting up from 0.
    static std::string label_text(std::uint64_t label) { return "a" + std::to_string(label); }

    void add_holding(std::int64_t owner, std::uint64_t label, std::int64_t cents) {
        holdings_[static_cast<std::size_t>(owner)].push_back({label, cents});
        ++holding_count_;
    }

    void mint(std::int64_t i) {
        const std::int64_t owner = i % spec_.parties;
        const std::int64_t cents = 100 + below(100'000);
        const std::uint64_t label = next_label_++;
        emit(StepLine("mint", next_time())
                 .text("owner", user(owner))
                 .text("amount", amount_text(cents))
                 .text("as", label_text(label)));
        add_holding(owner, label, cents);
    }

    Kind pick_kind() {
        std::int64_t roll = below(100);
        for (const auto& [kind, weight] : kind_weights) {
            if (roll < weight) return kind;
            roll -= weight;
        }
        return Kind::transfer_command;
    }

    void further_step() {
        switch (pick_kind()) {
            case Kind::transfer:
                return holding_count_ > 0 ? transfer() : transfer_command();
            case Kind::offer:
                return offer();
            case Kind::traffic_request:
                return traffic_request();
            case Kind::traffic_outcome:
                return pending_traffic_.empty() ? traffic_request() : traffic_outcome();
            case Kind::ans_entry:
                return ans_entry();
            case Kind::transfer_command:
                return transfer_command();
            case Kind::vote_request:
                return vote_request();
            case Kind::cast_vote:
                return unvoted_.empty() ? vote_request() : cast_vote();
        }
    }

    // The first party with an unspent amulet from a random start.
    std::int64_t sender_with_holdings() {
        std::int64_t p = below(spec_.parties);
        while (holdings_[static_cast<std::size_t>(p)].empty()) p = (p + 1) % spec_.parties;
        return p;
    }

    void transfer() {
        const std::int64_t sender = sender_with_holdings();
        auto& mine = holdings_[static_cast<std::size_t>(sender)];
        const auto index = static_cast<std::size_t>(below(static_cast<std::int64_t>(mine.size())));
        const Holding input = mine[index];
        mine[index] = mine.back();
        mine.pop_back();
        --holding_count_;
        const std::int64_t receiver = other_party(sender);
        const std::int64_t cents = 1 + below(input.cents);
        const std::uint64_t label = next_label_++;
        StepLine line("transfer", next_time());
        line.text("sender", user(sender))
            .raw("inputs", "[" + json_string(label_text(input.label)) + "]")
            .raw("outputs", "[{\"receiver\":" + json_string(user(receiver)) +
                                ",\"amount\":" + json_string(amount_text(cents)) +
                                ",\"as\":" + json_string(label_text(label)) + "}]");
        add_holding(receiver, label, cents);
        if (cents < input.cents) {
            const std::uint64_t change = next_label_++;
            line.text("change_as", label_text(change));
            add_holding(sender, change, input.cents - cents);
        }
        emit(std::move(line));
    }

    void offer() {
        const std::int64_t sender = below(wallets_);
        const std::string id = "offer-" + std::to_string(++offers_);
        const model::Timestamp t = next_time();
        emit(StepLine("create_transfer_offer", t)
                 .text("sender", user(sender))
                 .text("receiver", user(other_party(sender)))
                 .text("amount", amount_text(100 + below(10'000)))
                 .text("description", "generated " + id)
                 .text("expires_at", later(t, 30 * day))
                 .text("tracking_id", id)
                 .text("as", id));
    }

    void traffic_request() {
        const std::string id = "traffic-" + std::to_string(++traffic_);
        const model::Timestamp t = next_time();
        emit(StepLine("create_buy_traffic_request", t)
                 .text("user", user(below(wallets_)))
                 .number("traffic_amount", 10'000 + below(1'000'000))
                 .text("tracking_id", id)
                 .text("expires_at", later(t, day))
                 .text("as", id));
        pending_traffic_.push_back(id);
    }

    // Settles the oldest pending request: completed (half), cancelled or expired.
    void traffic_outcome() {
        const std::string id = pending_traffic_[pending_head_++];
        if (pending_head_ == pending_traffic_.size()) {
            pending_traffic_.clear();
            pending_head_ = 0;
        }
        const std::int64_t roll = below(4);
        const model::Timestamp t = next_time();
        if (roll < 2) {
            emit(StepLine("complete_buy_traffic_request", t).text("request", id));
        } else if (roll == 2) {
            emit(StepLine("cancel_buy_traffic_request", t)
                     .text("request", id)
                     .text("reason", "out of funds"));
        } else {
            emit(StepLine("expire_buy_traffic_request", t).text("request", id));
        }
    }

    void ans_entry() {
        const std::int64_t owner = below(spec_.parties);
        const std::string n = std::to_string(++ans_);
        const model::Timestamp t = next_time();
        emit(StepLine("register_ans_entry", t)
                 .text("user", user(owner))
                 .text("name", user(owner) + "-" + n + ".unverified.ans")
                 .text("url", "https://" + user(owner) + ".example/" + n)
                 .text("description", "generated entry " + n)
                 .text("expires_at", later(t, 365 * day)));
    }

    void transfer_command() {
        emit(StepLine("transfer_command", next_time()).text("sender", user(below(spec_.parties))));
    }

    void vote_request() {
        const std::string id = "vote-" + std::to_string(++votes_);
        const model::Timestamp t = next_time();
        emit(StepLine("request_vote", t)
                 .text("requester", "Sv-1")
                 .raw("action", R"({"offboard_sv":"Sv-2"})")
                 .raw("reason", "{\"url\":" + json_string("https://forum.example/" + id) +
                                    ",\"body\":\"generated\"}")
                 .text("vote_before", later(t, 7 * day))
                 .text("as", id));
        unvoted_.push_back(id);
    }

    void cast_vote() {
        const std::string id = unvoted_.back();
        unvoted_.pop_back();
        emit(StepLine("cast_vote", next_time())
                 .text("vote_request", id)
                 .text("voter", "Sv-2")
                 .raw("accept", below(2) == 0 ? "true" : "false"));
    }

    void snapshot() { emit(StepLine("snapshot", next_time())); }

    struct Holding {
        std::uint64_t label = 0;
        std::int64_t cents = 0;
    };

    std::ostream& out_;
    const GenerateSpec spec_;
    std::mt19937_64 rng_;
    const std::int64_t wallets_;    // parties 0 .. wallets_-1 have wallets
    const std::string namespace_;   // fingerprint of the participant's parties
    const model::Timestamp start_;  // the network's start_time
    std::int64_t steps_ = 0;        // steps written: the clock, in seconds after the start
    bool first_step_ = true;
    std::uint64_t next_label_ = 0;
    std::vector<std::vector<Holding>> holdings_;  // unspent amulets, by owner
    std::int64_t holding_count_ = 0;
    std::vector<std::string> pending_traffic_;  // requests without outcome, oldest first
    std::size_t pending_head_ = 0;              // the oldest pending request
    std::vector<std::string> unvoted_;          // vote requests Sv-2 has not voted on
    std::int64_t offers_ = 0, traffic_ = 0, ans_ = 0, votes_ = 0;
};

}  // namespace

void write_generated_seed(std::ostream& out, const GenerateSpec& spec) {
    Generator(out, spec).run();
}

}  // namespace cantonlite::app
