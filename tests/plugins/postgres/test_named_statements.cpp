// NamedStatements, the PostgreSQL driver's cache of fetches prepared under names: what it asks
// to prepare, what it forgets and deallocates, and when it gives names up.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "named_statements.hpp"

using tapdiffgen::postgres::NamedStatements;

namespace {

// A HostLog whose lines land in a vector.
struct CapturedLog {
    std::vector<std::string> lines;
    TdgConnectParams params{};
    tapdiffgen::sdk::HostLog log;

    CapturedLog() : log(paramsLoggingHere()) {}
    const TdgConnectParams& paramsLoggingHere() {
        params.log = [](void* context, int32_t, const char* message) {
            static_cast<CapturedLog*>(context)->lines.emplace_back(message);
        };
        params.log_context = this;
        return params;
    }
};

NamedStatements::Use prepareOnce(NamedStatements& named, const std::string& sql) {
    NamedStatements::Use use = *named.use(sql);
    if (use.parse) named.prepared(use.name);
    return use;
}

}  // namespace

TEST_CASE("named statements: a text is parsed once under one name, another text gets another") {
    NamedStatements named;
    const NamedStatements::Use first = *named.use("SELECT 1");
    CHECK(first.parse);
    CHECK(first.name.rfind("tdg_", 0) == 0);
    named.prepared(first.name);
    const NamedStatements::Use again = *named.use("SELECT 1");
    CHECK_FALSE(again.parse);
    CHECK(again.name == first.name);
    const NamedStatements::Use other = *named.use("SELECT 2");
    CHECK(other.parse);
    CHECK(other.name != first.name);
    // A second use before the server answered follows the first one's Parse in the pipeline.
    CHECK_FALSE(named.use("SELECT 2")->parse);
    CHECK(named.takeDropped().empty());
}

TEST_CASE("named statements: two sessions never share a name") {
    NamedStatements one, two;
    CHECK(one.use("SELECT 1")->name != two.use("SELECT 1")->name);
}

TEST_CASE("named statements: a Parse not seen to succeed is sent again under a new name") {
    NamedStatements named;
    const NamedStatements::Use kept = prepareOnce(named, "SELECT 1");
    const NamedStatements::Use unanswered = *named.use("SELECT 2");
    named.forgetUnprepared();
    CHECK(named.takeDropped().empty());  // most likely never prepared: no DEALLOCATE for it
    const NamedStatements::Use retried = *named.use("SELECT 2");
    CHECK(retried.parse);
    CHECK(retried.name != unanswered.name);
    CHECK_FALSE(named.use("SELECT 1")->parse);
    CHECK(named.use("SELECT 1")->name == kept.name);
}

TEST_CASE("named statements: beyond the capacity the least recently used is deallocated") {
    NamedStatements named(2);
    const NamedStatements::Use a = prepareOnce(named, "SELECT 'a'");
    const NamedStatements::Use b = prepareOnce(named, "SELECT 'b'");
    prepareOnce(named, "SELECT 'a'");  // a is now the more recent
    prepareOnce(named, "SELECT 'c'");
    CHECK(named.takeDropped() == std::vector<std::string>{b.name});
    CHECK(named.takeDropped().empty());
    CHECK_FALSE(named.use("SELECT 'a'")->parse);
    CHECK(named.use("SELECT 'a'")->name == a.name);
    CHECK(named.use("SELECT 'b'")->parse);
}

TEST_CASE("named statements: a plan whose result type changed is dropped and prepared afresh") {
    CapturedLog captured;
    NamedStatements named;
    const NamedStatements::Use stale = prepareOnce(named, "SELECT n FROM t");
    CHECK(named.failed(stale.name, "0A000", captured.log));
    CHECK(named.takeDropped() == std::vector<std::string>{stale.name});
    const NamedStatements::Use fresh = *named.use("SELECT n FROM t");
    CHECK(fresh.parse);
    CHECK(fresh.name != stale.name);
    CHECK(named.on());
    CHECK(captured.lines.empty());
}

TEST_CASE("named statements: a server that does not keep names turns them off, with one warning") {
    for (const char* sqlstate : {"26000", "42P05"}) {
        INFO(sqlstate);
        CapturedLog captured;
        NamedStatements named;
        const NamedStatements::Use use = prepareOnce(named, "SELECT 1");
        CHECK(named.failed(use.name, sqlstate, captured.log));
        CHECK_FALSE(named.on());
        CHECK_FALSE(named.use("SELECT 1").has_value());
        CHECK_FALSE(named.use("SELECT 2").has_value());
        CHECK(named.failed(use.name, sqlstate, captured.log));
        REQUIRE(captured.lines.size() == 1);
        CHECK(captured.lines[0].find(std::string("SQLSTATE ") + sqlstate) != std::string::npos);
        CHECK(captured.lines[0].find("unnamed statements from now on") != std::string::npos);
        // Behind a pooler a DEALLOCATE would reach some other connection: none is sent.
        CHECK(named.takeDropped().empty());
    }
}

TEST_CASE("named statements: any other failure is the statement's own and keeps its name") {
    CapturedLog captured;
    NamedStatements named;
    const NamedStatements::Use use = prepareOnce(named, "SELECT 1");
    CHECK_FALSE(named.failed(use.name, "22P02", captured.log));
    CHECK_FALSE(named.use("SELECT 1")->parse);
    CHECK(named.takeDropped().empty());
}
