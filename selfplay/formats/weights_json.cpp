#include "selfplay/formats/weights_json.h"

#include <set>
#include <stdexcept>
#include <string>

#include "core/weights.h"

namespace fanorona {

namespace {

std::int32_t weight_value(const nlohmann::json& v, const std::string& what) {
    if (!v.is_number_integer() || v.get<long long>() < -kMaxWeight ||
        v.get<long long>() > kMaxWeight)
        throw std::invalid_argument("weights: " + what + ": expected a whole number from " +
                                    std::to_string(-kMaxWeight) + " to " +
                                    std::to_string(kMaxWeight));
    return std::int32_t(v.get<long long>());
}

} // namespace

void to_json(nlohmann::json& j, const Weights& w) {
    nlohmann::json terms = nlohmann::json::object();
    for (int f = 0; f < kFeatureCount; ++f)
        terms[std::string(feature_name(f))] = w.values[std::size_t(f)];
    nlohmann::json patterns = nlohmann::json::array();
    if (w.patterns)
        for (std::size_t n = 0; n < std::size_t(kPatternCount); ++n) {
            const std::int32_t mg = w.patterns->values[2 * n], eg = w.patterns->values[2 * n + 1];
            if (mg != 0 || eg != 0) patterns.push_back({n, mg, eg});
        }
    j = {{"terms", std::move(terms)}, {"patterns", std::move(patterns)}};
}

void from_json(const nlohmann::json& j, Weights& w) {
    if (!j.is_object() || !j.contains("terms") || !j.at("terms").is_object())
        throw std::invalid_argument("weights: expected an object with \"terms\" and \"patterns\"");
    Weights out;
    std::set<int> seen;
    for (const auto& [name, value] : j.at("terms").items()) {
        const int f = feature_index(name);
        if (f < 0) throw std::invalid_argument("weights: unknown term weight '" + name + "'");
        seen.insert(f);
        out.values[std::size_t(f)] = weight_value(value, name);
    }
    if (seen.size() != std::size_t(kFeatureCount))
        for (int f = 0; f < kFeatureCount; ++f)
            if (!seen.contains(f))
                throw std::invalid_argument("weights: missing the weight '" +
                                            std::string(feature_name(f)) + "'");
    const auto it = j.find("patterns");
    if (it == j.end() || !it->is_array())
        throw std::invalid_argument("weights: \"patterns\": expected an array");
    if (!it->empty()) {
        auto p = std::make_shared<PatternWeights>();
        std::set<long long> numbers;
        for (const nlohmann::json& e : *it) {
            if (!e.is_array() || e.size() != 3 || !e[0].is_number_integer() ||
                e[0].get<long long>() < 0 || e[0].get<long long>() >= kPatternCount)
                throw std::invalid_argument("weights: \"patterns\": expected [number, mg, eg] "
                                            "with a number from 0 to " +
                                            std::to_string(kPatternCount - 1));
            const long long n = e[0].get<long long>();
            if (!numbers.insert(n).second)
                throw std::invalid_argument("weights: pattern " + std::to_string(n) +
                                            " listed twice");
            p->values[2 * std::size_t(n)] = weight_value(e[1], "pattern " + std::to_string(n));
            p->values[2 * std::size_t(n) + 1] = weight_value(e[2], "pattern " + std::to_string(n));
        }
        out.patterns = std::move(p);
    }
    w = std::move(out);
}

} // namespace fanorona
