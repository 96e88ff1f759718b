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
          url_(shell(script_ + " start " + dir_)) {}

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

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const JournalError& e) {
        return e.what();
    }
    return "";
}

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
        journal->wait_durable(journal->append("a"));
    }
    {
        const auto journal = open_postgres_journal(url_, seed);
        const auto ticket = journal->append("b");
        EXPECT_EQ(ticket, 2U);
        journal->wait_durable(ticket);
    }
    EXPECT_EQ(payloads(*open_postgres_journal(url_, seed)), (std::vector<std::string>{"a", "b"}));
}

TEST_F(PostgresJournal, ACleanStopCommitsWhatNobodyWaitedFor) {
    {
        const auto journal = open_postgres_journal(url_, seed);
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
        for (const char* r : {"a", "b", "c"}) (void)journal->append(r);
        journal->wait_durable(3);
    }
    Server::sql(url_, "DELETE FROM cantonlite_journal WHERE seq = 2");
    EXPECT_NE(error_of([&] {
                  (void)open_postgres_journal(url_, seed);
              }).find("record 2 is missing (the records go from 1 to 3); refusing to start"),
              std::string::npos);
}

TEST_F(PostgresJournal, ASecondWriterIsRefusedWhileTheFirstRuns) {
    auto first = open_postgres_journal(url_, seed);
    EXPECT_NE(error_of([&] {
                  (void)open_postgres_journal(url_, seed);
              }).find("in use by another cantonlite daemon"),
              std::string::npos);
    first.reset();  // its session, and so its lock, ends
    EXPECT_NO_THROW((void)open_postgres_journal(url_, seed));
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
    const auto journal = open_postgres_journal(url_, seed);
    std::mutex writer;  // the network's writers' lock
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 100; ++i) {
                std::uint64_t ticket = 0;
                {
                    const std::lock_guard lock(writer);
                    ticket = journal->append(std::to_string(t) + "/" + std::to_string(i));
                }
                journal->wait_durable(ticket);
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(Server::sql(url_, "SELECT count(*) FROM cantonlite_journal"), "800");
    EXPECT_EQ(Server::sql(url_, "SELECT max(seq) FROM cantonlite_journal"), "800");
}

TEST_F(PostgresJournal, WhenDurableCallbacksRunOnceEach) {
    const auto journal = open_postgres_journal(url_, seed);
    std::atomic<int> calls{0};
    std::promise<void> all;
    for (int i = 0; i < 50; ++i) {
        journal->when_durable(journal->append("r"), [&](std::exception_ptr error) {
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
    journal->wait_durable(journal->append("before"));
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
    EXPECT_THROW((void)journal->append("refused"), JournalUnavailable);
    Server::get().start();
    // Back within a few reconnection attempts.
    std::uint64_t after = 0;
    for (int attempt = 0; attempt < 200 && after == 0; ++attempt) {
        try {
            after = journal->append("after");
        } catch (const JournalUnavailable&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ASSERT_NE(after, 0U) << "the journal did not come back";
    journal->wait_durable(after);
    EXPECT_EQ(Server::sql(url_,
                          "SELECT string_agg(convert_from(payload, 'UTF8'), ',' ORDER BY "
                          "seq) FROM cantonlite_journal"),
              "before,during,after");
}

}  // namespace
}  // namespace cantonlite::journal::postgres_journal_test
