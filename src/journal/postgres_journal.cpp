// The PostgreSQL backend of the journal, through libpq (Debian's libpq-dev).
//
// Tables (created when missing, under the writers' lock, so two daemons starting at once cannot
// race):
//     cantonlite_journal_meta (one row: schema_version, seed_sha256, created_at)
//     cantonlite_journal      (seq bigint primary key from 1, payload bytea, committed_at)
// A record is durable once the transaction that inserted it has committed (synchronous_commit is
// the server's). The primary key is the last guard of order: no two records can ever take one
// number, whatever a daemon believes.
//
// Group commit: append() only queues; a waiter hands its ticket to the journal's thread, which
// inserts every queued record in one transaction, then runs the callbacks it made durable.
// Waiters that arrive meanwhile share the next transaction.
//
// One writing daemon: it holds a session-level advisory lock for as long as its connection lives
// (released by PostgreSQL when the daemon dies, however it dies). When the connection breaks, the
// journal is unavailable: appends and waits throw JournalUnavailable, and the thread reconnects,
// takes the lock again, checks that nobody wrote meanwhile, and commits what it still holds.

#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "cantonlite/journal/journal.hpp"

namespace cantonlite::journal {
namespace {

constexpr int schema_version = 1;
// The writers' advisory lock: "cantonli" read as a big-endian 64-bit integer.
constexpr std::string_view writers_lock = "7161677589733452905";
// Rows per INSERT statement (PostgreSQL takes at most 65 535 parameters in one).
constexpr std::size_t rows_per_insert = 1000;

struct ConnectionCloser {
    void operator()(PGconn* connection) const { PQfinish(connection); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;
struct ResultClearer {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultClearer>;

// libpq's messages end with a newline and may hold several lines: one line, for ours.
std::string one_line(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '\n') {
            if (!out.empty() && out.back() != ' ') out += "; ";
        } else if (c != '\t' || (!out.empty() && out.back() != ' ')) {
            out += c == '\t' ? ' ' : c;
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
    return out;
}

// A parameter of a statement: text (format 0) or raw bytes (format 1, for bytea).
struct Param {
    std::string_view value;
    bool binary = false;
};

// Runs `sql` with `params`; returns the result, or throws JournalUnavailable when the connection
// is gone and JournalError for any other failure, `context` naming the journal.
Result run(PGconn* connection, const std::string& context, const std::string& sql,
           const std::vector<Param>& params = {}, bool binary_result = false) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats;
    values.reserve(params.size());
    for (const Param& p : params) {
        values.push_back(p.value.data());
        lengths.push_back(static_cast<int>(p.value.size()));
        formats.push_back(p.binary ? 1 : 0);
    }
    // Text parameters are read up to their NUL: hand libpq NUL-terminated copies of those.
    std::vector<std::string> texts;
    texts.reserve(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].binary) continue;
        texts.emplace_back(params[i].value);
        values[i] = texts.back().c_str();
    }
    Result result(PQexecParams(connection, sql.c_str(), static_cast<int>(params.size()), nullptr,
                               values.data(), lengths.data(), formats.data(),
                               binary_result ? 1 : 0));
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    const std::string why =
        one_line(result ? PQresultErrorMessage(result.get()) : PQerrorMessage(connection));
    if (PQstatus(connection) != CONNECTION_OK) {
        throw JournalUnavailable(context + ": PostgreSQL cannot be reached (" + why + ")");
    }
    throw JournalError(context + ": " + why);
}

// A connection to `url`, with time limits so that a lost server fails a call rather than hang
// it (the URL's own settings win). Throws JournalUnavailable when it cannot connect.
Connection connect(const std::string& url, const std::string& context) {
    const std::array<const char*, 7> keys = {"connect_timeout",
                                             "tcp_user_timeout",
                                             "keepalives_idle",
                                             "keepalives_interval",
                                             "fallback_application_name",
                                             "dbname",
                                             nullptr};
    const std::array<const char*, 7> values = {"5",          "10000",     "5",    "2",
                                               "cantonlite", url.c_str(), nullptr};
    Connection connection(PQconnectdbParams(keys.data(), values.data(), 1));
    if (!connection) throw JournalUnavailable(context + ": cannot connect: out of memory");
    if (PQstatus(connection.get()) != CONNECTION_OK) {
        throw JournalUnavailable(context + ": cannot connect to PostgreSQL: " +
                                 one_line(PQerrorMessage(connection.get())));
    }
    // The server's notices ("relation ... already exists, skipping") are not ours to print.
    PQsetNoticeProcessor(
        connection.get(), [](void*, const char*) {}, nullptr);
    return connection;
}

// Takes the writers' lock for this session. A session that just ended (its daemon stopped or was
// killed a moment ago) may hold it until its server process has noticed: try for a few seconds.
bool take_writers_lock(PGconn* connection, const std::string& context) {
    for (int attempt = 0;; ++attempt) {
        const Result r = run(connection, context,
                             "SELECT pg_try_advisory_lock(" + std::string(writers_lock) + ")");
        if (std::string_view(PQgetvalue(r.get(), 0, 0)) == "t") return true;
        if (attempt == 30) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

std::uint64_t read_be64(const char* at) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(at[i]);
    return v;
}

// The records numbered above `after`, in order (binary results: seq as 8 bytes, payload raw).
std::vector<Record> read_records(PGconn* connection, const std::string& context,
                                 std::uint64_t after) {
    const Result r = run(connection, context,
                         "SELECT seq, payload FROM cantonlite_journal WHERE seq > $1 ORDER BY seq",
                         {Param{std::to_string(after)}}, true);
    std::vector<Record> records;
    const int rows = PQntuples(r.get());
    records.reserve(static_cast<std::size_t>(rows));
    std::uint64_t expected = after + 1;
    for (int i = 0; i < rows; ++i) {
        const std::uint64_t seq = read_be64(PQgetvalue(r.get(), i, 0));
        if (seq != expected) {
            throw JournalError(context + ": record " + std::to_string(expected) +
                               " is missing (the records go from " + std::to_string(expected - 1) +
                               " to " + std::to_string(seq) + "); refusing to start");
        }
        records.push_back(
            Record{.offset = seq,
                   .payload = std::string(PQgetvalue(r.get(), i, 1),
                                          static_cast<std::size_t>(PQgetlength(r.get(), i, 1))),
                   .where = "number " + std::to_string(seq)});
        ++expected;
    }
    return records;
}

// Creates the tables when missing and checks the journal is ours: schema version and seed.
// REQUIRES: the writers' lock.
void check_schema(PGconn* connection, const std::string& context,
                  const std::string& seed_fingerprint) {
    const std::string advice = "; use another database, or drop its cantonlite_journal tables";
    run(connection, context, "BEGIN");
    run(connection, context,
        "CREATE TABLE IF NOT EXISTS cantonlite_journal_meta ("
        " singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),"
        " schema_version integer NOT NULL, seed_sha256 text NOT NULL,"
        " created_at timestamptz NOT NULL DEFAULT now())");
    run(connection, context,
        "CREATE TABLE IF NOT EXISTS cantonlite_journal ("
        " seq bigint PRIMARY KEY CHECK (seq > 0), payload bytea NOT NULL,"
        " committed_at timestamptz NOT NULL DEFAULT now())");
    const Result meta =
        run(connection, context, "SELECT schema_version, seed_sha256 FROM cantonlite_journal_meta");
    if (PQntuples(meta.get()) == 0) {
        run(connection, context,
            "INSERT INTO cantonlite_journal_meta (schema_version, seed_sha256) VALUES ($1, $2)",
            {Param{std::to_string(schema_version)}, Param{seed_fingerprint}});
        run(connection, context, "COMMIT");
        return;
    }
    run(connection, context, "COMMIT");
    const std::string version = PQgetvalue(meta.get(), 0, 0);
    if (version != std::to_string(schema_version)) {
        throw JournalError(context + ": journal schema version " + version +
                           " is not supported (this build reads version " +
                           std::to_string(schema_version) + ")" + advice);
    }
    const std::string theirs = PQgetvalue(meta.get(), 0, 1);
    if (theirs != seed_fingerprint) {
        throw JournalError(context + ": this journal was written for another seed (sha256 " +
                           theirs + "), not for this one (sha256 " + seed_fingerprint + ")" +
                           advice);
    }
}

// A record appended and not yet known committed.
struct Queued {
    std::uint64_t seq;
    std::string payload;
};

// Inserts `records` in one transaction. Throws as run().
void insert(PGconn* connection, const std::string& context,
            const std::vector<const Queued*>& records) {
    if (records.empty()) return;
    const bool several_statements = records.size() > rows_per_insert;
    if (several_statements) run(connection, context, "BEGIN");
    std::vector<std::string> numbers;
    for (std::size_t from = 0; from < records.size(); from += rows_per_insert) {
        const std::size_t to = std::min(records.size(), from + rows_per_insert);
        std::string sql = "INSERT INTO cantonlite_journal (seq, payload) VALUES ";
        std::vector<Param> params;
        numbers.clear();
        numbers.reserve(to - from);
        for (std::size_t i = from; i < to; ++i) {
            const std::size_t n = 2 * (i - from);
            if (i > from) sql += ',';
            sql += "($" + std::to_string(n + 1) + "::bigint,$" + std::to_string(n + 2) + "::bytea)";
            numbers.push_back(std::to_string(records[i]->seq));
        }
        for (std::size_t i = from; i < to; ++i) {
            params.push_back(Param{numbers[i - from]});
            params.push_back(Param{records[i]->payload, true});
        }
        run(connection, context, sql, params);
    }
    if (several_statements) run(connection, context, "COMMIT");
}

class PostgresJournal final : public Journal {
  public:
    PostgresJournal(std::string url, std::string context, Connection connection,
                    std::vector<Record> records)
        : url_(std::move(url)),
          context_(std::move(context)),
          connection_(std::move(connection)),
          records_(std::move(records)),
          next_seq_(records_.size() + 1),
          committed_(records_.size()) {
        worker_ = std::thread([this] { work(); });
    }

    ~PostgresJournal() override {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        worker_.join();
    }
    PostgresJournal(const PostgresJournal&) = delete;
    PostgresJournal& operator=(const PostgresJournal&) = delete;

    [[nodiscard]] const std::vector<Record>& recovered() const override { return records_; }

    [[nodiscard]] std::uint64_t append(std::string_view payload) override {
        const std::lock_guard lock(mutex_);
        throw_if_not_up();
        const std::uint64_t seq = next_seq_++;
        queued_.push_back(Queued{.seq = seq, .payload = std::string(payload)});
        return seq;
    }

    void wait_durable(std::uint64_t ticket) override {
        std::promise<void> done;
        when_durable(ticket, [&done](std::exception_ptr error) {
            if (error) {
                done.set_exception(error);
            } else {
                done.set_value();
            }
        });
        done.get_future().get();
    }

    void when_durable(std::uint64_t ticket, std::function<void(std::exception_ptr)> done) override {
        std::exception_ptr now;
        {
            const std::lock_guard lock(mutex_);
            ticket =
                std::min(ticket, next_seq_ - 1);  // a ticket from nowhere must not wait forever
            if (committed_ < ticket) {
                try {
                    throw_if_not_up();
                    waiting_.emplace_back(ticket, std::move(done));
                    wake_.notify_one();
                    return;
                } catch (const JournalError&) {
                    now = std::current_exception();
                }
            }
        }
        done(now);
    }

  private:
    // REQUIRES: mutex_.
    void throw_if_not_up() const {
        if (!broken_.empty()) throw JournalError(broken_);
        if (!unavailable_.empty()) throw JournalUnavailable(unavailable_);
    }

    // The journal's thread: commits what waiters wait for, and reconnects while the database is
    // away. On stopping, commits what is still queued (a clean stop keeps every write).
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (!unavailable_.empty() && broken_.empty()) {
                if (stopping_) break;
                lock.unlock();
                reconnect();
                lock.lock();
                if (!unavailable_.empty()) {
                    wake_.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping_; });
                }
                continue;
            }
            wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
            if (queued_.empty() || !broken_.empty()) {
                finish_waiters(lock);
                if (stopping_) break;
                continue;
            }
            commit_queued(lock);
            finish_waiters(lock);
        }
        finish_waiters(lock);
    }

    // Inserts every queued record in one transaction. REQUIRES: `lock` holds mutex_; only this
    // thread removes from queued_ (append() only adds at its end, which moves no element).
    void commit_queued(std::unique_lock<std::mutex>& lock) {
        std::vector<const Queued*> batch;
        batch.reserve(queued_.size());
        for (const Queued& q : queued_) batch.push_back(&q);
        lock.unlock();
        std::string failure;
        try {
            insert(connection_.get(), context_, batch);
        } catch (const JournalError& e) {
            failure = e.what();
        }
        lock.lock();
        if (failure.empty()) {
            committed_ = batch.back()->seq;
            queued_.erase(queued_.begin(),
                          queued_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
            return;
        }
        // Whether it committed is unknown until the database answers again: keep the records,
        // refuse writes meanwhile, and find out when reconnected.
        spdlog::error("journal: {}; reconnecting", failure);
        unavailable_ = failure;
    }

    // Runs the callbacks whose records are committed, and every one when the journal is not up.
    void finish_waiters(std::unique_lock<std::mutex>& lock) {
        std::exception_ptr error;
        try {
            throw_if_not_up();
        } catch (const JournalError&) {
            error = std::current_exception();
        }
        std::vector<std::pair<std::function<void(std::exception_ptr)>, std::exception_ptr>> ready;
        for (auto it = waiting_.begin(); it != waiting_.end();) {
            if (error || it->first <= committed_) {
                ready.emplace_back(std::move(it->second), error);
                it = waiting_.erase(it);
            } else {
                ++it;
            }
        }
        if (ready.empty()) return;
        lock.unlock();
        for (auto& [done, why] : ready) done(why);
        lock.lock();
    }

    // One attempt to get the database back: connect, take the writers' lock, check that the
    // records past the last known commit are ours (a commit whose answer was lost), commit the
    // rest. Leaves the journal up, still unavailable, or broken when another writer came.
    void reconnect() {
        std::string failure;
        std::string broken;
        connection_.reset();  // its session may still hold the writers' lock
        try {
            Connection fresh = connect(url_, context_);
            if (!take_writers_lock(fresh.get(), context_)) {
                // Still unavailable: whether the other daemon wrote is checked once the lock is
                // ours (the records past ours would not be ours).
                failure = context_ + ": the journal is in use by another cantonlite daemon";
            } else {
                std::unique_lock lock(mutex_);
                const std::uint64_t known = committed_;
                lock.unlock();
                const std::vector<Record> theirs = read_records(fresh.get(), context_, known);
                lock.lock();
                std::size_t matched = 0;
                for (const Record& r : theirs) {
                    if (matched >= queued_.size() || queued_[matched].seq != r.offset ||
                        queued_[matched].payload != r.payload) {
                        broken = context_ + ": record " + std::to_string(r.offset) +
                                 " in PostgreSQL is not this daemon's; this daemon's network is "
                                 "no longer the journal's: restart it";
                        break;
                    }
                    ++matched;
                }
                if (broken.empty() && matched > 0) {
                    committed_ = queued_[matched - 1].seq;
                    queued_.erase(queued_.begin(),
                                  queued_.begin() + static_cast<std::ptrdiff_t>(matched));
                }
                lock.unlock();
                if (broken.empty()) {
                    connection_ = std::move(fresh);
                    lock.lock();
                    unavailable_.clear();
                    const bool any = !queued_.empty();
                    lock.unlock();
                    spdlog::info("journal {}: PostgreSQL is back; writes are taken again",
                                 context_);
                    if (any) {
                        lock.lock();
                        commit_queued(lock);
                    }
                }
            }
        } catch (const JournalError& e) {
            failure = e.what();
        }
        const std::lock_guard lock(mutex_);
        if (!broken.empty()) {
            spdlog::error("journal: {}", broken);
            broken_ = broken;
        } else if (!failure.empty()) {
            unavailable_ = failure;
        }
    }

    const std::string url_;
    const std::string context_;  // the URL without its password, for messages
    Connection connection_;      // used by the opening thread, then by the journal's thread only
    const std::vector<Record> records_;

    std::mutex mutex_;  // guards what follows
    std::condition_variable wake_;
    std::uint64_t next_seq_;     // the number the next appended record takes
    std::uint64_t committed_;    // every record up to it is committed
    std::deque<Queued> queued_;  // appended, not known committed, in order
    std::string unavailable_;    // set while the database is away
    std::string broken_;         // set for good: this network is not the journal's
    std::vector<std::pair<std::uint64_t, std::function<void(std::exception_ptr)>>> waiting_;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace

bool is_postgres_url(std::string_view where) {
    return where.starts_with("postgresql://") || where.starts_with("postgres://");
}

std::string redact_url(std::string_view url) {
    std::string out(url);
    // user:password@ in the authority
    const std::size_t scheme = out.find("://");
    if (scheme != std::string::npos) {
        const std::size_t start = scheme + 3;
        const std::size_t end = out.find_first_of("/?", start);
        const std::size_t at = out.rfind('@', end == std::string::npos ? out.size() : end);
        if (at != std::string::npos && at > start) {
            const std::size_t colon = out.find(':', start);
            if (colon != std::string::npos && colon < at)
                out.replace(colon + 1, at - colon - 1, "***");
        }
    }
    // password=... among the parameters
    for (std::size_t at = out.find("password="); at != std::string::npos;
         at = out.find("password=", at + 1)) {
        if (at > 0 && out[at - 1] != '?' && out[at - 1] != '&') continue;
        const std::size_t value = at + 9;
        const std::size_t end = out.find('&', value);
        out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
    }
    return out;
}

std::unique_ptr<Journal> open_postgres_journal(const std::string& url,
                                               const std::string& seed_fingerprint) {
    const std::string context = redact_url(url);
    Connection connection = [&] {
        try {
            return connect(url, context);
        } catch (const JournalUnavailable& e) {
            throw JournalError(e.what());  // at start, unreachable is a plain failure
        }
    }();
    if (!take_writers_lock(connection.get(), context)) {
        throw JournalError(context +
                           ": the journal is in use by another cantonlite daemon (one daemon "
                           "writes to a database's journal at a time)");
    }
    check_schema(connection.get(), context, seed_fingerprint);
    std::vector<Record> records = read_records(connection.get(), context, 0);
    return std::make_unique<PostgresJournal>(url, context, std::move(connection),
                                             std::move(records));
}

std::unique_ptr<Journal> open_journal(const std::string& where,
                                      const std::string& seed_fingerprint) {
    if (is_postgres_url(where)) return open_postgres_journal(where, seed_fingerprint);
    return open_file_journal(where, seed_fingerprint);
}

}  // namespace cantonlite::journal
