#include "replay/timing/stop_signal.hpp"

#include <csignal>

namespace tapdiffgen::core {
namespace {

volatile std::sig_atomic_t stopSignal = 0;

extern "C" void onStopSignal(int signal) { stopSignal = signal; }

}  // namespace

void installStopHandlers() {
    struct sigaction action {};
    action.sa_handler = &onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    // A reader that goes away is reported by write(2) as EPIPE, handled where output is written.
    std::signal(SIGPIPE, SIG_IGN);
}

bool stopRequested() { return stopSignal != 0; }

const char* stopSignalName() {
    switch (stopSignal) {
        case 0:
            return nullptr;
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        default:
            return "a signal";
    }
}

void requestStop(bool requested) { stopSignal = requested ? SIGTERM : 0; }

}  // namespace tapdiffgen::core
