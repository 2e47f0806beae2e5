// The Prometheus endpoint of a run (metrics_port, metrics_address): the observer that keeps the
// metrics, served on /metrics by prometheus-cpp's Exposer for as long as this object lives, and
// the head probe that keeps the events behind current. Made before the run's first output, so
// that a port it cannot listen on ends the run before anything is written.
#pragma once

#include <memory>
#include <string>

#include "metrics/head_probe.hpp"
#include "metrics/prometheus_observer.hpp"

namespace prometheus {
class Exposer;
}

namespace tapdiffgen::core {

class MetricsEndpoint {
public:
    /// Listens on address:port; throws ConfigError naming metrics_port when it cannot.
    MetricsEndpoint(const std::string& address, int port);
    ~MetricsEndpoint();
    MetricsEndpoint(const MetricsEndpoint&) = delete;
    MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

    RunObserver& observer() { return *observer_; }
    /// From now on, reads the log's head once a second on a session of its own.
    void probeHead(const ConnectionFactory& connections, const TableRef& diffgen);

private:
    std::string address_;
    int port_;
    std::shared_ptr<PrometheusObserver> observer_;
    std::unique_ptr<prometheus::Exposer> exposer_;
    // Stopped first: it calls the observer.
    std::unique_ptr<HeadProbe> probe_;
};

}  // namespace tapdiffgen::core
