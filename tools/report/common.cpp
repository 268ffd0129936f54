// What the report's sections share: tolerant input reading, small tables and bars.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/common/files.h"
#include "core/weights.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"

namespace fanorona::report {

std::string Notes::problem(const std::string& text) {
    warnings.push_back(text);
    return "<p class=\"error-note\">" + esc(text) + "</p>\n";
}

bool file_exists(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

std::optional<std::string> read_text(const std::string& path) {
    if (!file_exists(path)) return std::nullopt;
    // A run's JSON, CSV and text files, bounded as every reader is (FileError names the file).
    return read_file_bytes(path, kReportInputLimits);
}

std::optional<nlohmann::json> read_json(const std::string& path, Notes& notes, std::string& html) {
    const auto text = read_text(path);
    if (!text) return std::nullopt;
    try {
        return nlohmann::json::parse(*text);
    } catch (const nlohmann::json::exception& e) {
        html += notes.problem(path + ": not valid JSON: " + e.what());
        return std::nullopt;
    }
}

bool check_format(const nlohmann::json& j, const std::string& path, const char* expected,
                  Notes& notes, std::string& html) {
    const auto it = j.is_object() ? j.find("format") : j.end();
    if (j.is_object() && it != j.end() && *it == expected) return true;
    html += notes.problem(path + ": " +
                          (j.is_object() && it != j.end() ? "format " + it->dump()
                                                          : std::string("no \"format\" member")) +
                          " (this build reads \"" + expected + "\")");
    return false;
}

double number_of(const nlohmann::json& j) {
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

double number_at(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return std::numeric_limits<double>::quiet_NaN();
    const auto it = j.find(key);
    return it == j.end() ? std::numeric_limits<double>::quiet_NaN() : number_of(*it);
}

int int_at(const nlohmann::json& j, const char* key, int missing) {
    const double x = number_at(j, key);
    if (!(std::abs(x) <= 1e9)) return missing;
    return int(x);
}

std::string string_at(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return "";
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

const nlohmann::json& object_at(const nlohmann::json& j, const char* key) {
    static const nlohmann::json empty = nlohmann::json::object();
    if (!j.is_object()) return empty;
    const auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : empty;
}

const nlohmann::json& array_at(const nlohmann::json& j, const char* key) {
    static const nlohmann::json empty = nlohmann::json::array();
    if (!j.is_object()) return empty;
    const auto it = j.find(key);
    return it != j.end() && it->is_array() ? *it : empty;
}

bool true_at(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return false;
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

namespace {

void add_fields(const nlohmann::json& j, const std::string& prefix,
                const std::vector<std::string>& skip, std::string& rows) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string name = prefix + it.key();
        if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
        const auto& v = it.value();
        if (v.is_object()) {
            add_fields(v, name + ".", skip, rows);
            continue;
        }
        std::string text;
        if (v.is_string())
            text = v.get<std::string>();
        else if (v.is_number_float())
            text = fmt("%.6g", v.get<double>());
        else if (v.is_array() && v.size() > 12)
            text = fmt("[%zu items]", v.size());
        else
            text = to_json_text(v);
        rows += "<tr><th>" + esc(name) + "</th><td>" + esc(text) + "</td></tr>";
    }
}

} // namespace

std::string fields_table(const nlohmann::json& j, const std::vector<std::string>& skip) {
    if (!j.is_object()) return "";
    std::string rows;
    add_fields(j, "", skip, rows);
    return "<table class=\"fields\">" + rows + "</table>\n";
}

std::string wdl_bar(double white, double draws, double black) {
    const double total = white + draws + black;
    if (!(total > 0)) return "<span class=\"wdl empty\"></span>";
    const auto part = [&](const char* cls, double n, const char* name) {
        return fmt("<span class=\"%s\" style=\"width:%.2f%%\" title=\"%s %.0f (%.1f%%)\"></span>",
                   cls, 100.0 * n / total, name, n, 100.0 * n / total);
    };
    return "<span class=\"wdl\">" + part("w", white, "White wins") + part("d", draws, "draws") +
           part("b", black, "Black wins") + "</span>";
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',')
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

double parse_double(const std::string& s) {
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        return used == s.size() ? v : std::numeric_limits<double>::quiet_NaN();
    } catch (const std::exception&) {
        return std::numeric_limits<double>::quiet_NaN();
    }
}

std::map<std::string, double> weights_by_name(const std::string& text) {
    std::map<std::string, double> w;
    try {
        const Weights values = parse_weights(text, "weights");
        for (int f = 0; f < kFeatureCount; ++f)
            w[std::string(feature_name(f))] = values.values[std::size_t(f)];
    } catch (const std::exception&) {
        w.clear();
    }
    return w;
}

} // namespace fanorona::report
