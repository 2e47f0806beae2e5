// Singer METRIC log lines (`METRIC: {"type":...,"metric":...,"value":...,"tags":{...}}`), the
// form targets and orchestrators read from a tap's stderr.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tapdiffgen::core {

using MetricTags = std::vector<std::pair<std::string, std::string>>;

std::string counterMetricLine(const std::string& metric, int64_t value, const MetricTags& tags);
std::string timerMetricLine(const std::string& metric, double seconds, const MetricTags& tags);

}  // namespace tapdiffgen::core
