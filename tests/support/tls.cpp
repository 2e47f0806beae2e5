#include "support/tls.hpp"

#include <sys/stat.h>

#include <cstdlib>

namespace tapdiffgen::testing {

std::optional<TlsFiles> tlsFiles() {
    auto get = [](const char* name) -> std::string {
        const char* value = std::getenv(name);
        return value != nullptr ? value : "";
    };
    TlsFiles files{get("TDG_TEST_TLS_CA"), get("TDG_TEST_TLS_OTHER_CA"),
                   get("TDG_TEST_TLS_CLIENT_CERT"), get("TDG_TEST_TLS_CLIENT_KEY")};
    if (files.ca.empty() || files.otherCa.empty() || files.clientCert.empty() ||
        files.clientKey.empty()) {
        return std::nullopt;
    }
    return files;
}

std::string tlsProblem(const TlsFiles& files, const DatabaseEnv& env) {
    const std::string script = env.dialect == "postgres" ? "postgres.sh" : "mariadb.sh";
    for (const std::string* file :
         {&files.ca, &files.otherCa, &files.clientCert, &files.clientKey}) {
        struct stat info {};
        if (::stat(file->c_str(), &info) != 0) {
            return "TLS file " + *file + " is missing: tests/servers/" + script + " start makes it";
        }
    }
    const bool offered = env.dialect == "postgres" ? queryScalar(env, "SHOW ssl") == "on"
                                                   : queryScalar(env, "SELECT @@have_ssl") == "YES";
    if (offered) return "";
    return "the test server on port " + env.port +
           " runs without TLS (it was started before the test servers had TLS): restart it with "
           "TDG_TEST_KEEP_SERVERS=0 bash tests/servers/" +
           script + " stop, then bash tests/servers/" + script + " start";
}

}  // namespace tapdiffgen::testing
