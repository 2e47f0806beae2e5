#include "metrics/metrics_endpoint.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <prometheus/exposer.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "config/tap_config.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

std::string listeningPort(const std::string& address, int port) {
    return address + ":" + std::to_string(port);
}

// Why address:port cannot be listened on (the system's words), or empty when it can. civetweb
// only says that it failed; a socket of our own, closed at once, tells why.
std::string whyNotListening(const std::string& address, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return std::strerror(errno);
    // As civetweb sets it: a port left in TIME_WAIT by a previous run is free.
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_in socketAddress{};
    socketAddress.sin_family = AF_INET;
    socketAddress.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, address.c_str(), &socketAddress.sin_addr);
    const int result =
        ::bind(fd, reinterpret_cast<sockaddr*>(&socketAddress), sizeof(socketAddress));
    const std::string why = result == 0 ? "" : std::strerror(errno);
    ::close(fd);
    return why;
}

// One connection to address:port, closed at once (0.0.0.0 is reached on loopback).
void knock(const std::string& address, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    sockaddr_in socketAddress{};
    socketAddress.sin_family = AF_INET;
    socketAddress.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, address == "0.0.0.0" ? "127.0.0.1" : address.c_str(),
                &socketAddress.sin_addr);
    ::connect(fd, reinterpret_cast<sockaddr*>(&socketAddress), sizeof(socketAddress));
    ::close(fd);
}

[[noreturn]] void cannotListen(const std::string& address, int port, const std::string& why) {
    throw ConfigError("metrics_port " + std::to_string(port) + ": cannot listen on " +
                      listeningPort(address, port) + " for the metrics endpoint: " + why);
}

}  // namespace

MetricsEndpoint::MetricsEndpoint(const std::string& address, int port)
    : address_(address), port_(port), observer_(std::make_shared<PrometheusObserver>()) {
    if (const std::string why = whyNotListening(address, port); !why.empty()) {
        cannotListen(address, port, why);
    }
    try {
        exposer_ = std::make_unique<prometheus::Exposer>(listeningPort(address, port), 2);
    } catch (const std::exception& failure) {
        cannotListen(address, port, failure.what());
    }
    exposer_->RegisterCollectable(observer_);
    log::info("metrics on http://" + listeningPort(address, port) + "/metrics");
}

// civetweb's listener sees that it is stopped only when its poll returns, which without a
// connection takes up to 2 s: every run would end that much later. Connections while the
// exposer stops wake it at once.
MetricsEndpoint::~MetricsEndpoint() {
    probe_.reset();
    std::atomic<bool> stopped{false};
    std::thread waker([this, &stopped] {
        while (!stopped) {
            knock(address_, port_);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    exposer_.reset();
    stopped = true;
    waker.join();
}

void MetricsEndpoint::probeHead(const ConnectionFactory& connections, const TableRef& diffgen) {
    probe_ = std::make_unique<HeadProbe>(connections, diffgen, *observer_);
}

}  // namespace tapdiffgen::core
