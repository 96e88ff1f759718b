// The PostgreSQL journal against a real server: a throwaway one (scripts/test-postgres.sh) that
// this process starts on first use and stops at exit, each test in a database of its own.

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include "cantonlite/journal/journal.hpp"

namespace cantonlite::journal::postgres_journal_test {
namespace {

const std::string seed = "5d41402abc4b2a76b9719d911017c592aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string other_seed = "7c211433f02071597741e6ff5a8ea34789abbf43bbbbbbbbbbbbbbbbbbbbbbbb";

// Runs a shell command; returns its standard output, or throws with its exit status.
std::string shell(const std::string& command) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    if (!pipe) throw std::runtime_error("cannot run " + command);
    std::string out;
    char buffer[4096];
    for (std::size_t n = 0; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
        out.append(buffer, n);
    const int status = ::pclose(pipe.release());
    if (status != 0) throw std::runtime_error(command + " failed (" + std::to_string(status) + ")");
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

// The server: started once per process, stopped when the process exits.
class Server {
  public:
    static Server& get() {
        static Server server;
        return server;
    }
    ~Server() {
        try {
            shell(script_ + " stop " + dir_);
        } catch (const std::exception&) {  // nothing to do at exit
        }
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // A new empty database; its URL.
    std::string fresh_database() {
        const std::string name = "j" + std::to_string(++databases_);
        sql(url_, "CREATE DATABASE " + name);
        return url_.substr(0, url_.rfind('/') + 1) + name;
    }
    void stop() { shell(script_ + " stop-server " + dir_); }
    void start() { shell(script_ + " start-server " + dir_); }

    // Runs `statement` on `url`; the first value of its result ("" when none).
    static std::string sql(const std::string& url, const std::string& statement) {
        PGconn* c = PQconnectdb(url.c_str());
        std::string value;
        std::string error;
        if (PQstatus(c) != CONNECTION_OK) {
            error = PQerrorMessage(c);
        } else {
            PGresult* r = PQexec(c, statement.c_str());
            const auto status = PQresultStatus(r);
            if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
                error = PQresultErrorMessage(r);
            } else if (PQntuples(r) > 0) {
                value = PQgetvalue(r, 0, 0);
            }
            PQclear(r);
        }
        PQfinish(c);
        if (!error.empty()) throw std::runtime_error(statement + ": " + error);
        return value;
    }

  private:
    Server()
        : script_(std::string(CANTONLITE_SOURCE_DIR) + "/scripts/test-postgres.sh"),
          dir_(make_dir()),
          url_(shell(script_ + " start " + dir_ + " " + std::to_string(::getpid()))) {
        // spdlog's registry, made here before the journals' threads log at once: the library
        // is not instrumented, so TSan would not see the guard of its first use.
        (void)spdlog::default_logger_raw();
    }

    static std::string make_dir() {
        std::string pattern = "/tmp/cantonlite-pg-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        return pattern;
    }

    std::string script_;
    std::string dir_;
    std::string url_;
    std::atomic<int> databases_{0};
};

std::vector<std::string> payloads(const Journal& journal) {
    std::vector<std::string> out;
    for (const auto& record : journal.recovered()) out.push_back(record.payload);
    return out;
}

// append() in a turn of its own (a one-daemon test).
std::uint64_t append_in_turn(Journal& journal, const std::string& payload) {
    const auto turn = journal.writers_turn();
    journal.catch_up([](const Record&) {});
    return journal.append(payload);
}

// Runs `write` until the journal takes it (it is back after a restart): 10 s at most. Whether it
// did.
bool once_back(const std::function<void()>& write) {
    for (int attempt = 0; attempt < 200; ++attempt) {
        try {
            write();
            return true;
        } catch (const JournalUnavailable&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return false;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const JournalError& e) {
        return e.what();
    }
    return "";
}

// What a daemon's network does with its journal, on a list of payloads: each write in its turn,
// caught up first, and following the others' writes. A write's payload says how many records its
// network held when it was made: in the journal, record n must say n - 1 (made on the whole
// ledger before it, never on a stale one).
class Network {
  public:
    Network(std::unique_ptr<Journal> journal, std::string name)
        : owned_(std::move(journal)), journal_(*owned_), name_(std::move(name)) {
        applied_ = payloads(journal_);
        journal_.on_diverged([this](std::uint64_t last_common) {
            const std::lock_guard lock(gate_);
            applied_.resize(last_common);  // a list takes back anything
            ++taken_back_;
            return true;
        });
        journal_.follow([this](const std::function<void(const Journal::Apply&)>& apply_new) {
            const std::lock_guard lock(gate_);
            apply_new([this](const Record& r) { applied_.push_back(r.payload); });
        });
    }
    // Appends one write; returns its ticket (not waited for).
    std::uint64_t write_async() {
        const auto turn = journal_.writers_turn();
        return write_in(*turn);
    }
    // The same in a turn the caller holds.
    std::uint64_t write_in(const Journal::Turn& /*turn*/) {
        const std::lock_guard lock(gate_);
        journal_.catch_up([this](const Record& r) { applied_.push_back(r.payload); });
        const std::string payload = name_ + ":" + std::to_string(applied_.size());
        const std::uint64_t ticket = journal_.append(payload);
        applied_.push_back(payload);
        return ticket;
    }
    void write() { journal_.wait_durable(write_async()); }
    std::vector<std::string> applied() {
        const std::lock_guard lock(gate_);
        return applied_;
    }
    // Waits (5 s at most) until this network holds `n` records.
    bool wait_for(std::size_t n) {
        for (int i = 0; i < 500; ++i) {
            if (applied().size() >= n) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

    int taken_back() {
        const std::lock_guard lock(gate_);
        return taken_back_;
    }
    Journal& journal() { return journal_; }
    // The journal goes first, as in the daemon: its threads call into the network.
    ~Network() { owned_.reset(); }
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

  private:
    std::unique_ptr<Journal> owned_;
    Journal& journal_;
    std::string name_;
    std::mutex gate_;
    std::vector<std::string> applied_;
    int taken_back_ = 0;
};

class PostgresJournal : public ::testing::Test {
  protected:
    void SetUp() override { url_ = Server::get().fresh_database(); }
    std::string url_;
};

TEST_F(PostgresJournal, RecordsComeBackInOrderByteForByte) {
    const std::vector<std::string> records = {R"({"write":1})",     "",
                                              "two\nlines\n",       std::string("nul\0byte", 8),
                                              "\xff\xfe not UTF-8", "ünïcödé"};
    {
        const auto journal = open_postgres_journal(url_, seed);
        EXPECT_TRUE(journal->recovered().empty());
        std::vector<std::uint64_t> tickets;
        const auto turn = journal->writers_turn();
        for (const auto& record : records) tickets.push_back(journal->append(record));
        EXPECT_EQ(tickets, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
        journal->wait_durable(tickets.back());
        journal->wait_durable(tickets.front());  // already durable
    }
    for (int round = 0; round < 2; ++round) {  // reopening changes nothing
        const auto journal = open_postgres_journal(url_, seed);
        EXPECT_EQ(payloads(*journal), records);
        EXPECT_EQ(journal->recovered()[2].offset, 3U);
        EXPECT_EQ(journal->recovered()[2].where, "number 3");
    }
    // Kept as rows an operator can read with psql.
    EXPECT_EQ(Server::sql(url_, "SELECT count(*) FROM cantonlite_journal"), "6");
    EXPECT_EQ(Server::sql(url_,
                          "SELECT convert_from(payload, 'UTF8') FROM cantonlite_journal "
                          "WHERE seq = 1"),
              R"({"write":1})");
}

TEST_F(PostgresJournal, AppendsAfterReopenFollowTheRecoveredRecords) {
    {
        const auto journal = open_postgres_journal(url_, seed);
        journal->wait_durable(append_in_turn(*journal, "a"));
    }
    {
        const auto journal = open_postgres_journal(url_, seed);
        const auto ticket = append_in_turn(*journal, "b");
        EXPECT_EQ(ticket, 2U);
        journal->wait_durable(ticket);
    }
    EXPECT_EQ(payloads(*open_postgres_journal(url_, seed)), (std::vector<std::string>{"a", "b"}));
}

TEST_F(PostgresJournal, ACleanStopCommitsWhatNobodyWaitedFor) {
    {
        const auto journal = open_postgres_journal(url_, seed);
        const auto turn = journal->writers_turn();
        (void)journal->append("a");
        (void)journal->append("b");
    }
    EXPECT_EQ(payloads(*open_postgres_journal(url_, seed)), (std::vector<std::string>{"a", "b"}));
}

TEST_F(PostgresJournal, AJournalOfAnotherSeedIsRefused) {
    open_postgres_journal(url_, seed)->wait_durable(1);
    const std::string error = error_of([&] { (void)open_postgres_journal(url_, other_seed); });
    EXPECT_NE(error.find(url_), std::string::npos) << error;
    EXPECT_NE(error.find("written for another seed (sha256 " + seed + ")"), std::string::npos)
        << error;
}

TEST_F(PostgresJournal, ANewerSchemaIsRefused) {
    { const auto journal = open_postgres_journal(url_, seed); }
    Server::sql(url_, "UPDATE cantonlite_journal_meta SET schema_version = 2");
    EXPECT_NE(error_of([&] {
                  (void)open_postgres_journal(url_, seed);
              }).find("journal schema version 2 is not supported (this build reads version 1)"),
              std::string::npos);
}

TEST_F(PostgresJournal, AGapInTheRecordsIsRefused) {
    {
        const auto journal = open_postgres_journal(url_, seed);
        for (const char* r : {"a", "b", "c"}) (void)append_in_turn(*journal, r);
        journal->wait_durable(3);
    }
    Server::sql(url_, "DELETE FROM cantonlite_journal WHERE seq = 2");
    EXPECT_NE(error_of([&] {
                  (void)open_postgres_journal(url_, seed);
              }).find("record 2 is missing (the records go from 1 to 3); refusing to start"),
              std::string::npos);
}

// Two daemons on one journal: each write in its turn, on the whole ledger before it, each network
// following the other's writes; the journal holds them once each, in one order both agree on.
TEST_F(PostgresJournal, TwoDaemonsWriteInTurnsAndFollowEachOther) {
    Network a(open_postgres_journal(url_, seed), "a");
    Network b(open_postgres_journal(url_, seed), "b");
    a.write();
    ASSERT_TRUE(b.wait_for(1));
    b.write();  // in its turn, after a's
    ASSERT_TRUE(a.wait_for(2));
    EXPECT_EQ(a.applied(), (std::vector<std::string>{"a:0", "b:1"}));
    EXPECT_EQ(b.applied(), a.applied());
    EXPECT_EQ(a.journal().stats().records_written, 1U);
    EXPECT_EQ(a.journal().stats().records_followed, 1U);
    EXPECT_EQ(b.journal().stats().records_followed, 1U);
    // A third daemon starts from what the two wrote.
    const auto journal_c = open_postgres_journal(url_, seed);
    EXPECT_EQ(payloads(*journal_c), a.applied());
}

TEST_F(PostgresJournal, ConcurrentWritersOnThreeDaemonsMakeOneLedger) {
    std::vector<std::unique_ptr<Network>> networks;
    for (const char* name : {"a", "b", "c"}) {
        networks.push_back(std::make_unique<Network>(open_postgres_journal(url_, seed), name));
    }
    std::vector<std::thread> writers;
    for (auto& network : networks) {
        for (int t = 0; t < 3; ++t) {
            writers.emplace_back([&network] {
                for (int i = 0; i < 40; ++i) network->write();
            });
        }
    }
    for (auto& w : writers) w.join();
    const std::size_t total = 3 * 3 * 40;
    for (auto& network : networks) ASSERT_TRUE(network->wait_for(total));
    const std::vector<std::string> order = payloads(*open_postgres_journal(url_, seed));
    ASSERT_EQ(order.size(), total);
    for (std::size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(order[i].substr(2), std::to_string(i)) << "record " << i + 1 << ": " << order[i];
    }
    for (auto& network : networks) EXPECT_EQ(network->applied(), order);
}

// PostgreSQL restarts while daemon a holds a write it has not committed, and daemon b writes
// first once it is back: a takes its write back (it was never acknowledged) and follows b's.
TEST_F(PostgresJournal, AWriteLostInARestartIsTakenBackWhenAnotherDaemonWroteFirst) {
    Network a(open_postgres_journal(url_, seed), "a");
    Network b(open_postgres_journal(url_, seed), "b");
    a.write();
    ASSERT_TRUE(b.wait_for(1));
    {
        const auto turn = a.journal().writers_turn();
        const std::uint64_t lost = a.write_in(*turn);  // applied in a, not committed
        EXPECT_EQ(lost, 2U);
        Server::get().stop();
        Server::get().start();
        ASSERT_TRUE(once_back([&] { b.write(); })) << "b could not write after the restart";
    }  // a's turn ends: its commit fails, it reconnects and finds b's record in its place
    for (int i = 0; i < 200 && a.taken_back() == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    EXPECT_EQ(a.taken_back(), 1);
    ASSERT_TRUE(a.wait_for(2));
    for (int i = 0; i < 200 && a.applied() != b.applied(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    EXPECT_EQ(a.applied(), (std::vector<std::string>{"a:0", "b:1"}));
    EXPECT_EQ(b.applied(), a.applied());
    // And a writes again, after b's.
    ASSERT_TRUE(once_back([&] { a.write(); }));
    EXPECT_EQ(payloads(*open_postgres_journal(url_, seed)),
              (std::vector<std::string>{"a:0", "b:1", "a:2"}));
}

TEST_F(PostgresJournal, AnUnreachableServerIsOneLineWithoutThePassword) {
    const std::string error = error_of([] {
        (void)open_postgres_journal("postgresql://me:s3cret@%2Fnonexistent-socket-dir/db", seed);
    });
    EXPECT_NE(error.find("postgresql://me:***@%2Fnonexistent-socket-dir/db: cannot connect"),
              std::string::npos)
        << error;
    EXPECT_EQ(error.find("s3cret"), std::string::npos);
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(PostgresUrl, PasswordsAreRedacted) {
    EXPECT_EQ(redact_url("postgresql://u:pw@h:5432/db"), "postgresql://u:***@h:5432/db");
    EXPECT_EQ(redact_url("postgres://u@h/db?password=pw&sslmode=require"),
              "postgres://u@h/db?password=***&sslmode=require");
    EXPECT_EQ(redact_url("postgresql://h/db"), "postgresql://h/db");
    EXPECT_TRUE(is_postgres_url("postgresql://h/db"));
    EXPECT_TRUE(is_postgres_url("postgres://h/db"));
    EXPECT_FALSE(is_postgres_url("journal.log"));
    EXPECT_FALSE(is_postgres_url("/var/lib/postgresql/journal"));
}

// Concurrent waiters share transactions: 8 writers of 100 records each, appends in one order as
// the network's writer makes them, every wait answered, every record kept once, in order.
TEST_F(PostgresJournal, ConcurrentWaitersShareCommits) {
    Network network(open_postgres_journal(url_, seed), "a");
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 100; ++i) network.write();
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(Server::sql(url_, "SELECT count(*) FROM cantonlite_journal"), "800");
    EXPECT_EQ(Server::sql(url_, "SELECT max(seq) FROM cantonlite_journal"), "800");
    const Journal::Stats stats = network.journal().stats();
    EXPECT_EQ(stats.records_written, 800U);
    EXPECT_EQ(stats.records_followed, 0U);
    EXPECT_GE(stats.commits, 1U);
    EXPECT_LT(stats.commits, 800U);  // shared
    EXPECT_GE(stats.turns, 1U);
    EXPECT_TRUE(stats.available);
}

TEST_F(PostgresJournal, WhenDurableCallbacksRunOnceEach) {
    const auto journal = open_postgres_journal(url_, seed);
    std::atomic<int> calls{0};
    std::promise<void> all;
    for (int i = 0; i < 50; ++i) {
        journal->when_durable(append_in_turn(*journal, "r"), [&](std::exception_ptr error) {
            EXPECT_FALSE(error);
            if (++calls == 50) all.set_value();
        });
    }
    all.get_future().wait();
    EXPECT_EQ(calls.load(), 50);
}

// PostgreSQL goes away and comes back: writes are refused meanwhile (JournalUnavailable), never
// lost, and taken again once it is back, the records in order without a gap.
TEST_F(PostgresJournal, WritesWaitOutAServerRestart) {
    const auto journal = open_postgres_journal(url_, seed);
    journal->wait_durable(append_in_turn(*journal, "before"));
    auto turn = journal->writers_turn();  // held while PostgreSQL goes
    Server::get().stop();
    const auto queued = journal->append("during");  // taken: nothing knows yet
    bool unavailable = false;
    try {
        journal->wait_durable(queued);
    } catch (const JournalUnavailable& e) {
        unavailable = true;
        EXPECT_NE(std::string(e.what()).find(url_), std::string::npos) << e.what();
    }
    EXPECT_TRUE(unavailable);
    EXPECT_FALSE(journal->stats().available);
    EXPECT_THROW((void)journal->append("refused"), JournalUnavailable);
    EXPECT_THROW((void)journal->writers_turn(), JournalUnavailable);
    // Left, as a write leaves its turn when it fails: a turn still held would keep the next one,
    // once its 20 ms are up, waiting for it (this thread's) for ever.
    turn.reset();
    Server::get().start();
    // Back within a few reconnection attempts.
    std::uint64_t after = 0;
    ASSERT_TRUE(once_back([&] { after = append_in_turn(*journal, "after"); }))
        << "the journal did not come back";
    journal->wait_durable(after);
    EXPECT_EQ(Server::sql(url_,
                          "SELECT string_agg(convert_from(payload, 'UTF8'), ',' ORDER BY "
                          "seq) FROM cantonlite_journal"),
              "before,during,after");
}

}  // namespace
}  // namespace cantonlite::journal::postgres_journal_test
