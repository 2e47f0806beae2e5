#include "sqlite_cli.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tapdiffgen::testing {

int applySql(const std::string& database, const std::string& script,
             const std::string& workingDir) {
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        int input = open(script.c_str(), O_RDONLY);
        if (input < 0 || dup2(input, 0) < 0 || chdir(workingDir.c_str()) != 0) _exit(126);
        execl(TDG_SQLITE3_CLI, "sqlite3", database.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace tapdiffgen::testing
