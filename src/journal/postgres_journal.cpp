// The PostgreSQL backend of the journal, through libpq (Debian's libpq-dev).
//
// Tables (created when missing, under a transaction-level advisory lock, so that daemons starting
// at once cannot race):
//     cantonlite_journal_meta (one row: schema_version, seed_sha256, created_at)
//     cantonlite_journal      (seq bigint primary key from 1, payload bytea, committed_at)
// A record is durable once the transaction that inserted it has committed (synchronous_commit is
// the server's). The primary key is the last guard of order: no two records ever take one number.
//
// Several daemons, one ledger. A daemon writes in its turn: a session-level advisory lock on its
// connection, taken for a group of writes (until its writes pause for 2 ms, or for 20 ms at most
// when they keep coming) and then given back. Having taken it, the daemon first applies what the
// others committed since (catch_up), then its writes, each numbered after the last; so a write is
// never made on a stale ledger. The turn is given back only once its records are committed.
// Between its turns, a follower thread applies the others' commits, woken by NOTIFY (sent in the
// inserting statement, delivered at commit) or by a poll every 250 ms.
//
// Group commit: append() only queues; the journal's thread inserts every queued record in one
// statement when a waiter asks or the turn's holders are gone, then runs the callbacks it made
// durable. Waiters that arrive meanwhile share the next transaction.
//
// When the connection breaks, the journal is unavailable: appends, turns and waits throw
// JournalUnavailable, and the thread reconnects, takes the turn, and finds out what became of the
// records in flight: committed (a commit whose answer was lost), still to commit, or lost while
// other daemons wrote (the network takes them back: on_diverged).

#include <dlfcn.h>
#include <libpq-fe.h>
#include <poll.h>

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
// The lock that makes creating the tables one daemon's job at a time.
constexpr std::string_view schema_lock = "7161677589733452906";
// The channel a commit notifies the following daemons on.
constexpr std::string_view channel = "cantonlite_journal";
// How long a daemon waits for its turn to write before answering 503.
constexpr std::string_view turn_wait = "10s";
// Rows per INSERT statement (PostgreSQL takes at most 65 535 parameters in one).
constexpr std::size_t rows_per_insert = 1000;

// libpq, opened when a journal in PostgreSQL is first opened rather than at every start of the
// process: with the libraries it needs (Kerberos, LDAP, GnuTLS and more), loading it took 1.7 ms
// of each start, a fortieth of a state file's load. The functions this journal calls, each as
// X(name), and a table of them by their names.
#define CANTONLITE_LIBPQ_FUNCTIONS(X) \
    X(PQclear)                        \
    X(PQconnectdbParams)              \
    X(PQconsumeInput)                 \
    X(PQerrorMessage)                 \
    X(PQexecParams)                   \
    X(PQfinish)                       \
    X(PQfreemem)                      \
    X(PQgetlength)                    \
    X(PQgetvalue)                     \
    X(PQnotifies)                     \
    X(PQntuples)                      \
    X(PQresultErrorMessage)           \
    X(PQresultStatus)                 \
    X(PQsetNoticeProcessor)           \
    X(PQsocket)                       \
    X(PQstatus)

struct Libpq {
#define CANTONLITE_LIBPQ_MEMBER(name) decltype(&::name) name;
    CANTONLITE_LIBPQ_FUNCTIONS(CANTONLITE_LIBPQ_MEMBER)
#undef CANTONLITE_LIBPQ_MEMBER
};

// Throws JournalError when libpq cannot be loaded (the libpq5 package).
const Libpq& libpq() {
    static const Libpq loaded = [] {
        void* const handle = ::dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            throw JournalError(
                std::string("PostgreSQL's client library (libpq5) cannot be loaded: ") +
                ::dlerror());
        }
        const auto symbol = [handle](const char* name) {
            void* const found = ::dlsym(handle, name);
            if (found == nullptr) throw JournalError(std::string("libpq has no ") + name);
            return found;
        };
        Libpq lib{};
#define CANTONLITE_LIBPQ_LOAD(name) lib.name = reinterpret_cast<decltype(lib.name)>(symbol(#name));
        CANTONLITE_LIBPQ_FUNCTIONS(CANTONLITE_LIBPQ_LOAD)
#undef CANTONLITE_LIBPQ_LOAD
        return lib;
    }();
    return loaded;
}

struct ConnectionCloser {
    void operator()(PGconn* connection) const { libpq().PQfinish(connection); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;
struct ResultClearer {
    void operator()(PGresult* result) const { libpq().PQclear(result); }
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
    Result result(libpq().PQexecParams(connection, sql.c_str(), static_cast<int>(params.size()),
                                       nullptr, values.data(), lengths.data(), formats.data(),
                                       binary_result ? 1 : 0));
    const ExecStatusType status = result ? libpq().PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    const std::string why = one_line(result ? libpq().PQresultErrorMessage(result.get())
                                            : libpq().PQerrorMessage(connection));
    if (libpq().PQstatus(connection) != CONNECTION_OK) {
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
    Connection connection(libpq().PQconnectdbParams(keys.data(), values.data(), 1));
    if (!connection) throw JournalUnavailable(context + ": cannot connect: out of memory");
    if (libpq().PQstatus(connection.get()) != CONNECTION_OK) {
        throw JournalUnavailable(context + ": cannot connect to PostgreSQL: " +
                                 one_line(libpq().PQerrorMessage(connection.get())));
    }
    // The server's notices ("relation ... already exists, skipping") are not ours to print.
    libpq().PQsetNoticeProcessor(
        connection.get(), [](void*, const char*) {}, nullptr);
    return connection;
}

// Takes the writers' lock for this session: waits while another daemon has its turn, at most
// lock_timeout (set at connect). Throws JournalUnavailable when the wait is too long.
void take_writers_lock(PGconn* connection, const std::string& context) {
    try {
        run(connection, context, "SELECT pg_advisory_lock(" + std::string(writers_lock) + ")");
    } catch (const JournalUnavailable&) {
        throw;
    } catch (const JournalError& e) {
        throw JournalUnavailable(context + ": the writers' turn did not come within " +
                                 std::string(turn_wait) + " (" + e.what() + ")");
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
    const int rows = libpq().PQntuples(r.get());
    records.reserve(static_cast<std::size_t>(rows));
    std::uint64_t expected = after + 1;
    for (int i = 0; i < rows; ++i) {
        const std::uint64_t seq = read_be64(libpq().PQgetvalue(r.get(), i, 0));
        if (seq != expected) {
            throw JournalError(context + ": record " + std::to_string(expected) +
                               " is missing (the records go from " + std::to_string(expected - 1) +
                               " to " + std::to_string(seq) + "); refusing to start");
        }
        records.push_back(Record{
            .offset = seq,
            .payload = std::string(libpq().PQgetvalue(r.get(), i, 1),
                                   static_cast<std::size_t>(libpq().PQgetlength(r.get(), i, 1))),
            .where = "number " + std::to_string(seq)});
        ++expected;
    }
    return records;
}

// Creates the tables when missing and checks the journal is ours: schema version and seed.
void check_schema(PGconn* connection, const std::string& context,
                  const std::string& seed_fingerprint) {
    const std::string advice = "; use another database, or drop its cantonlite_journal tables";
    run(connection, context, "BEGIN");
    run(connection, context, "SELECT pg_advisory_xact_lock(" + std::string(schema_lock) + ")");
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
    if (libpq().PQntuples(meta.get()) == 0) {
        run(connection, context,
            "INSERT INTO cantonlite_journal_meta (schema_version, seed_sha256) VALUES ($1, $2)",
            {Param{std::to_string(schema_version)}, Param{seed_fingerprint}});
        run(connection, context, "COMMIT");
        return;
    }
    run(connection, context, "COMMIT");
    const std::string version = libpq().PQgetvalue(meta.get(), 0, 0);
    if (version != std::to_string(schema_version)) {
        throw JournalError(context + ": journal schema version " + version +
                           " is not supported (this build reads version " +
                           std::to_string(schema_version) + ")" + advice);
    }
    const std::string theirs = libpq().PQgetvalue(meta.get(), 0, 1);
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

// Inserts `records` in one transaction, and notifies the daemons that follow the journal (a
// notification is delivered when its transaction commits). Throws as run().
void insert(PGconn* connection, const std::string& context,
            const std::vector<const Queued*>& records) {
    if (records.empty()) return;
    const bool several_statements = records.size() > rows_per_insert;
    if (several_statements) run(connection, context, "BEGIN");
    std::vector<std::string> numbers;
    for (std::size_t from = 0; from < records.size(); from += rows_per_insert) {
        const std::size_t to = std::min(records.size(), from + rows_per_insert);
        std::string sql = "WITH inserted AS (INSERT INTO cantonlite_journal (seq, payload) VALUES ";
        std::vector<Param> params;
        numbers.clear();
        numbers.reserve(to - from);
        for (std::size_t i = from; i < to; ++i) {
            const std::size_t n = 2 * (i - from);
            if (i > from) sql += ',';
            sql += "($" + std::to_string(n + 1) + "::bigint,$" + std::to_string(n + 2) + "::bytea)";
            numbers.push_back(std::to_string(records[i]->seq));
        }
        sql += " RETURNING seq) SELECT pg_notify('" + std::string(channel) +
               "', max(seq)::text) FROM inserted";
        for (std::size_t i = from; i < to; ++i) {
            params.push_back(Param{numbers[i - from]});
            params.push_back(Param{records[i]->payload, true});
        }
        run(connection, context, sql, params);
    }
    if (several_statements) run(connection, context, "COMMIT");
}

class PostgresJournal;

class PostgresTurn final : public Journal::Turn {
  public:
    explicit PostgresTurn(PostgresJournal& journal) : journal_(journal) {}
    ~PostgresTurn() override;
    PostgresTurn(const PostgresTurn&) = delete;
    PostgresTurn& operator=(const PostgresTurn&) = delete;

  private:
    PostgresJournal& journal_;
};

// The writers' turn of this daemon: the session advisory lock, taken on the journal's connection
// for a while (a group of writes), then given back so that other daemons get theirs.
enum class Lease { none, taking, held, giving_back };

class PostgresJournal final : public Journal {
  public:
    PostgresJournal(std::string url, std::string context, Connection connection,
                    std::vector<Record> records)
        : url_(std::move(url)),
          context_(std::move(context)),
          connection_(std::move(connection)),
          records_(std::move(records)),
          applied_(records_.size()),
          committed_(records_.size()) {
        worker_ = std::thread([this] { work(); });
    }

    ~PostgresJournal() override {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        turn_changed_.notify_all();
        if (follower_.joinable()) follower_.join();
        worker_.join();
    }
    PostgresJournal(const PostgresJournal&) = delete;
    PostgresJournal& operator=(const PostgresJournal&) = delete;

    [[nodiscard]] const std::vector<Record>& recovered() const override { return records_; }

    [[nodiscard]] Stats stats() const override {
        const std::lock_guard lock(mutex_);
        Stats s = stats_;
        s.available = unavailable_.empty() && broken_.empty();
        return s;
    }

    [[nodiscard]] std::unique_ptr<Turn> writers_turn() override {
        std::unique_lock lock(mutex_);
        for (;;) {
            throw_if_not_up();
            if (lease_ == Lease::held && !handing_over_) {
                ++holders_;
                return std::make_unique<PostgresTurn>(*this);
            }
            if (lease_ == Lease::none) break;
            turn_changed_.wait(lock);
        }
        lease_ = Lease::taking;
        lock.unlock();
        std::string failure;
        bool away = false;
        try {
            const std::lock_guard use(connection_mutex_);
            take_writers_lock(connection_.get(), context_);
        } catch (const JournalUnavailable& e) {
            failure = e.what();
            away = true;
        } catch (const JournalError& e) {
            failure = e.what();
        }
        lock.lock();
        if (!failure.empty()) {
            lease_ = Lease::none;
            if (away) become_unavailable(failure);
            turn_changed_.notify_all();
            throw JournalUnavailable(failure);
        }
        lease_ = Lease::held;
        lease_since_ = std::chrono::steady_clock::now();
        caught_up_ = false;
        ++holders_;
        ++stats_.turns;
        turn_changed_.notify_all();
        wake_.notify_all();  // the worker hands the turn over after a while
        return std::make_unique<PostgresTurn>(*this);
    }

    void catch_up(const Apply& apply) override {
        std::uint64_t from = 0;
        {
            const std::lock_guard lock(mutex_);
            throw_if_not_up();
            if (lease_ != Lease::held) {
                throw JournalError(context_ + ": catching up outside this daemon's turn (a bug)");
            }
            if (caught_up_) return;
            from = applied_;
        }
        std::vector<Record> records;
        try {
            const std::lock_guard use(connection_mutex_);
            records = read_records(connection_.get(), context_, from);
        } catch (const JournalUnavailable& e) {
            const std::lock_guard lock(mutex_);
            become_unavailable(e.what());
            throw;
        }
        apply_new(records, apply);
        const std::lock_guard lock(mutex_);
        caught_up_ = true;
    }

    void follow(Follow follow) override {
        const std::lock_guard lock(mutex_);
        if (follower_.joinable()) return;
        follower_ = std::thread([this, follow = std::move(follow)] { run_follower(follow); });
    }

    void on_diverged(Diverged handler) override {
        const std::lock_guard lock(mutex_);
        diverged_ = std::move(handler);
    }

    [[nodiscard]] std::uint64_t append(std::string_view payload) override {
        const std::lock_guard lock(mutex_);
        throw_if_not_up();
        if (lease_ != Lease::held || holders_ == 0) {
            throw JournalError(context_ + ": a write outside this daemon's turn (a bug)");
        }
        const std::uint64_t seq = ++applied_;
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
            ticket = std::min(ticket, applied_);  // a ticket from nowhere must not wait forever
            if (committed_ < ticket) {
                try {
                    throw_if_not_up();
                    waiting_.emplace_back(ticket, std::move(done));
                    wake_.notify_all();
                    return;
                } catch (const JournalError&) {
                    now = std::current_exception();
                }
            }
        }
        done(now);
    }

    // A Turn ends.
    void leave_turn() {
        const std::lock_guard lock(mutex_);
        if (--holders_ == 0) {
            last_left_ = std::chrono::steady_clock::now();
            wake_.notify_all();
        }
    }

  private:
    // How long a daemon keeps the turn while its writes keep coming, before it hands it over,
    // and how long it keeps it after its writes pause.
    static constexpr std::chrono::milliseconds turn_length{20};
    static constexpr std::chrono::milliseconds turn_idle{2};

    // REQUIRES: mutex_.
    void throw_if_not_up() const {
        if (!broken_.empty()) throw JournalError(broken_);
        if (!unavailable_.empty()) throw JournalUnavailable(unavailable_);
    }

    // The database went away (`why`): writes are refused, the turn is gone with the session, and
    // the worker reconnects. Nothing changes when the journal is not up already.
    // REQUIRES: mutex_.
    void become_unavailable(const std::string& why) {
        if (!unavailable_.empty() || !broken_.empty()) return;
        spdlog::error("journal: {}; reconnecting", why);
        unavailable_ = why;
        lease_ = Lease::none;
        turn_changed_.notify_all();
        wake_.notify_all();
    }

    // Applies, in order, the records of `records` that follow the last one applied here.
    // REQUIRES: the network's writers' lock (the caller's).
    void apply_new(const std::vector<Record>& records, const Apply& apply) {
        for (const Record& r : records) {
            {
                const std::lock_guard lock(mutex_);
                if (r.offset <= applied_) continue;
                if (r.offset != applied_ + 1 || !queued_.empty()) return;  // not yet its turn
            }
            try {
                apply(r);
            } catch (const std::exception& e) {
                const std::string why = context_ + ": record " + std::to_string(r.offset) +
                                        " of another daemon cannot be applied here: " + e.what();
                const std::lock_guard lock(mutex_);
                spdlog::error("journal: {}", why);
                broken_ = why;
                turn_changed_.notify_all();
                throw JournalError(why);
            }
            const std::lock_guard lock(mutex_);
            applied_ = committed_ = r.offset;
            ++stats_.records_followed;
        }
    }

    // The follower: listens for the journal's commits (LISTEN/NOTIFY) and polls every 250 ms
    // besides, on a connection of its own; applies the records the other daemons committed.
    void run_follower(const Follow& follow) {
        Connection listening;
        bool warned = false;
        for (;;) {
            std::uint64_t from = 0;
            {
                std::unique_lock lock(mutex_);
                if (stopping_) return;
                from = applied_;
            }
            try {
                if (!listening) {
                    listening = connect(url_, context_);
                    run(listening.get(), context_, "LISTEN " + std::string(channel));
                    warned = false;
                }
                // Nothing to follow while this daemon holds the turn: nobody else writes.
                bool mine = false;
                {
                    const std::lock_guard lock(mutex_);
                    mine = lease_ == Lease::held || lease_ == Lease::giving_back;
                }
                if (!mine) {
                    const std::vector<Record> records =
                        read_records(listening.get(), context_, from);
                    if (!records.empty()) {
                        follow([&](const Apply& apply) { apply_new(records, apply); });
                    }
                }
                wait_for_notification(listening.get());
            } catch (const JournalUnavailable& e) {
                if (!warned) spdlog::warn("journal: following: {}; reconnecting", e.what());
                warned = true;
                listening.reset();
                std::unique_lock lock(mutex_);
                wake_.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping_; });
            } catch (const JournalError&) {
                // broken: the record was reported; nothing more to follow
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stopping_; });
            }
        }
    }

    // Returns on a notification, after 250 ms, or when the connection breaks (throws).
    void wait_for_notification(PGconn* connection) {
        pollfd fd{.fd = libpq().PQsocket(connection), .events = POLLIN, .revents = 0};
        if (fd.fd < 0) throw JournalUnavailable(context_ + ": the connection is closed");
        ::poll(&fd, 1, 250);
        if (libpq().PQconsumeInput(connection) == 0) {
            throw JournalUnavailable(context_ + ": PostgreSQL cannot be reached (" +
                                     one_line(libpq().PQerrorMessage(connection)) + ")");
        }
        while (PGnotify* n = libpq().PQnotifies(connection)) libpq().PQfreemem(n);
    }

    // The journal's thread: commits the queued records (when waited for, or when the turn is
    // left), hands the turn over once its holders are gone, and reconnects while the database is
    // away. On stopping, commits what is still queued (a clean stop keeps every write).
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (!broken_.empty()) {
                finish_waiters(lock);
                if (stopping_) break;
                wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
                continue;
            }
            if (!unavailable_.empty()) {
                finish_waiters(lock);
                if (stopping_) break;
                lock.unlock();
                reconnect();
                lock.lock();
                if (!unavailable_.empty()) {
                    wake_.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping_; });
                }
                continue;
            }
            const auto commit_due = [&] {
                return !queued_.empty() && (!waiting_.empty() || holders_ == 0 || stopping_);
            };
            // The turn is given back when its time is up, or when this daemon's writes pause.
            const auto give_back_due = [&] {
                return lease_ == Lease::held && holders_ == 0 && queued_.empty() &&
                       (handing_over_ || stopping_ ||
                        std::chrono::steady_clock::now() >= last_left_ + turn_idle);
            };
            if (lease_ == Lease::held) {
                const auto due = [&] {
                    return stopping_ || commit_due() || !unavailable_.empty() ||
                           (handing_over_ && give_back_due());
                };
                if (handing_over_) {
                    // Its time is up: until the holders leave (leave_turn wakes it) or a write
                    // is waited for, without spinning on a deadline that has passed.
                    wake_.wait(lock, [&] { return due() || !waiting_.empty(); });
                } else {
                    auto until = lease_since_ + turn_length;
                    if (holders_ == 0 && queued_.empty())
                        until = std::min(until, last_left_ + turn_idle);
                    wake_.wait_until(lock, until, due);
                    if (std::chrono::steady_clock::now() >= lease_since_ + turn_length) {
                        handing_over_ = true;  // no new holders: the others' turn comes
                    }
                }
            } else {
                wake_.wait(lock, [&] {
                    return stopping_ || commit_due() || lease_ == Lease::held ||
                           !waiting_.empty() || !unavailable_.empty();
                });
            }
            if (!unavailable_.empty()) continue;
            if (commit_due()) commit_queued(lock);
            finish_waiters(lock);
            if (give_back_due()) give_back_turn(lock);
            if (stopping_ && queued_.empty() && waiting_.empty() && lease_ != Lease::held) break;
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
            const std::lock_guard use(connection_mutex_);
            insert(connection_.get(), context_, batch);
        } catch (const JournalError& e) {
            failure = e.what();
        }
        lock.lock();
        if (failure.empty()) {
            committed_ = batch.back()->seq;
            stats_.records_written += batch.size();
            ++stats_.commits;
            queued_.erase(queued_.begin(),
                          queued_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
            return;
        }
        // Whether it committed is unknown until the database answers again: keep the records,
        // refuse writes meanwhile, and find out when reconnected.
        become_unavailable(failure);
    }

    void give_back_turn(std::unique_lock<std::mutex>& lock) {
        lease_ = Lease::giving_back;
        lock.unlock();
        std::string failure;
        try {
            const std::lock_guard use(connection_mutex_);
            run(connection_.get(), context_,
                "SELECT pg_advisory_unlock(" + std::string(writers_lock) + ")");
        } catch (const JournalError& e) {
            failure = e.what();
        }
        lock.lock();
        lease_ = Lease::none;
        handing_over_ = false;
        caught_up_ = false;
        if (!failure.empty() && unavailable_.empty()) unavailable_ = failure;
        turn_changed_.notify_all();
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

    // One attempt to get the database back: connect, take the turn, and find out what became of
    // the records in flight: committed (a commit whose answer was lost), still to commit, or lost
    // while other daemons wrote (the network takes them back: on_diverged). Leaves the journal up
    // holding the turn (given back once the rest is committed), or still unavailable.
    void reconnect() {
        {
            const std::lock_guard use(connection_mutex_);
            connection_.reset();  // its session may still hold the writers' lock
        }
        try {
            Connection fresh = connect(url_, context_);
            take_writers_lock(fresh.get(), context_);
            std::unique_lock lock(mutex_);
            const std::uint64_t known = committed_;
            lock.unlock();
            const std::vector<Record> theirs = read_records(fresh.get(), context_, known);
            lock.lock();
            std::size_t matched = 0;
            while (matched < theirs.size() && matched < queued_.size() &&
                   queued_[matched].payload == theirs[matched].payload) {
                ++matched;
            }
            const bool lost =
                !queued_.empty() && matched < queued_.size() && matched < theirs.size();
            if (matched > 0) {
                committed_ = queued_[matched - 1].seq;
                queued_.erase(queued_.begin(),
                              queued_.begin() + static_cast<std::ptrdiff_t>(matched));
            }
            if (lost) {
                const std::uint64_t last_common = committed_;
                const std::string why = context_ + ": " + std::to_string(queued_.size()) +
                                        " writes from record " + std::to_string(last_common + 1) +
                                        " were not committed, and another daemon wrote since";
                Diverged handler = diverged_;
                lock.unlock();
                const bool taken_back = handler && handler(last_common);
                lock.lock();
                if (!taken_back) {
                    broken_ = why +
                              "; they cannot be taken back (a snapshot, revert or reset among "
                              "them): restart this daemon to load the journal";
                    spdlog::critical("journal: {}", broken_);
                    turn_changed_.notify_all();
                    return;
                }
                spdlog::warn("journal: {}: taken back", why);
                queued_.clear();
                applied_ = last_common;
            }
            {
                const std::lock_guard use(connection_mutex_);
                connection_ = std::move(fresh);
            }
            unavailable_.clear();
            lease_ = Lease::held;
            lease_since_ = std::chrono::steady_clock::now();
            caught_up_ = false;
            handing_over_ = false;
            spdlog::info("journal {}: PostgreSQL is back; writes are taken again", context_);
            if (!queued_.empty()) commit_queued(lock);
            turn_changed_.notify_all();
        } catch (const JournalError& e) {
            const std::lock_guard lock(mutex_);
            unavailable_ = e.what();
        }
    }

    const std::string url_;
    const std::string context_;    // the URL without its password, for messages
    std::mutex connection_mutex_;  // one statement at a time on connection_
    Connection connection_;        // the turn's session: lock, catch-up reads, inserts
    const std::vector<Record> records_;

    mutable std::mutex mutex_;  // guards what follows
    Stats stats_;
    std::condition_variable wake_;          // the worker's and the follower's
    std::condition_variable turn_changed_;  // writers waiting for the turn
    std::uint64_t applied_;                 // every record up to it is applied to the network
    std::uint64_t committed_;               // every record up to it is committed
    std::deque<Queued> queued_;             // appended, not known committed, in order
    Lease lease_ = Lease::none;
    int holders_ = 0;            // Turns alive
    bool handing_over_ = false;  // held long enough: no new holders
    bool caught_up_ = false;     // with the others' records, since the turn was taken
    std::chrono::steady_clock::time_point lease_since_;
    std::chrono::steady_clock::time_point last_left_;  // when the last holder left
    std::string unavailable_;                          // set while the database is away
    std::string broken_;  // set for good: a record of another daemon does not apply here
    std::vector<std::pair<std::uint64_t, std::function<void(std::exception_ptr)>>> waiting_;
    Diverged diverged_;
    bool stopping_ = false;
    std::thread worker_;
    std::thread follower_;
};

PostgresTurn::~PostgresTurn() {
    journal_.leave_turn();
}

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
