#include "singer/metric_line.hpp"

#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

std::string metricLine(const char* type, const std::string& metric, const std::string& valueJson,
                       const MetricTags& tags) {
    std::string line = R"(METRIC: {"type":")";
    line += type;
    line += R"(","metric":)";
    appendJsonString(line, metric);
    line += R"(,"value":)";
    line += valueJson;
    line += R"(,"tags":{)";
    for (size_t i = 0; i < tags.size(); ++i) {
        if (i > 0) line += ',';
        appendJsonString(line, tags[i].first);
        line += ':';
        appendJsonString(line, tags[i].second);
    }
    line += "}}";
    return line;
}

}  // namespace

std::string counterMetricLine(const std::string& metric, int64_t value, const MetricTags& tags) {
    std::string valueJson;
    appendInt64(valueJson, value);
    return metricLine("counter", metric, valueJson, tags);
}

std::string timerMetricLine(const std::string& metric, double seconds, const MetricTags& tags) {
    return metricLine("timer", metric, std::to_string(seconds), tags);
}

}  // namespace tapdiffgen::core
