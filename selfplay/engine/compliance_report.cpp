// The compliance checker's report: a text table and JSON.

#include <algorithm>
#include <cstdio>

#include "core/timeman.h"
#include "selfplay/engine/compliance_report.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

// The most lines of one check the table shows (the JSON keeps them all): the last ones.
constexpr std::size_t kShownLines = 24;

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string line_text(const ExchangedLine& l) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%8.1f ms", l.ms);
    return std::string(l.sent ? "  > " : "  < ") + ms + "  " + l.text;
}

std::string lateness_text(const char* what, const Lateness& l) {
    if (l.samples_ms.empty()) return std::string(what) + ": no timed search answered\n";
    char text[200];
    std::snprintf(text, sizeof text, "%s: min %.1f, median %.1f, max %.1f ms over %zu searches\n",
                  what, l.min(), l.median(), l.max(), l.samples_ms.size());
    return text;
}

nlohmann::json lateness_json(const Lateness& l, int warn_ms, int fail_ms) {
    return {{"searches", l.samples_ms.size()}, {"late_ms", l.samples_ms}, {"min_ms", l.min()},
            {"median_ms", l.median()},         {"max_ms", l.max()},       {"warn_past_ms", warn_ms},
            {"fail_past_ms", fail_ms}};
}

} // namespace

std::string render_compliance_table(const ComplianceReport& report) {
    std::size_t group_width = 5, check_width = 5;
    for (const CheckResult& c : report.checks) {
        group_width = std::max(group_width, c.group.size());
        check_width = std::max(check_width, c.name.size());
    }
    std::string out =
        pad("group", group_width) + "  " + pad("check", check_width) + "  status  detail\n";
    for (const CheckResult& c : report.checks) {
        out += pad(c.group, group_width) + "  " + pad(c.name, check_width) + "  " +
               pad(std::string(check_status_name(c.status)), 6) + "  " + c.detail + "\n";
        if (c.status == CheckStatus::Pass || c.status == CheckStatus::Skip) continue;
        const std::size_t from = c.lines.size() > kShownLines ? c.lines.size() - kShownLines : 0;
        if (from > 0)
            out += "    (" + std::to_string(from) + " earlier lines; --json-out keeps them)\n";
        for (std::size_t i = from; i < c.lines.size(); ++i)
            out += "  " + line_text(c.lines[i]) + "\n";
    }
    out += lateness_text("late past the movetime", report.movetime);
    out += lateness_text("past the clock (time left: negative)", report.clock);
    // The player's name when it has one, with what the engine calls itself.
    const std::string id =
        report.engine_name.empty() ? "no id name" : "'" + report.engine_name + "'";
    out += "engine " + (report.player.empty() ? id : report.player + " (" + id + ")") + ": " +
           std::to_string(report.checks.size()) + " checks, " +
           std::to_string(report.count(CheckStatus::Pass)) + " pass, " +
           std::to_string(report.count(CheckStatus::Warn)) + " warn, " +
           std::to_string(report.count(CheckStatus::Fail)) + " fail, " +
           std::to_string(report.count(CheckStatus::Skip)) + " skip\n";
    return out;
}

nlohmann::json compliance_json(const ComplianceConfig& config, const ComplianceReport& report) {
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [name, value] : config.engine.options) options[name] = value;
    nlohmann::json checks = nlohmann::json::array();
    for (const CheckResult& c : report.checks) {
        nlohmann::json lines = nlohmann::json::array();
        for (const ExchangedLine& l : c.lines)
            lines.push_back({{"sent", l.sent}, {"ms", l.ms}, {"text", l.text}});
        checks.push_back({{"group", c.group},
                          {"check", c.name},
                          {"status", check_status_name(c.status)},
                          {"detail", c.detail},
                          {"lines", lines}});
    }
    return {
        {"format", kCheckEngineFormat},
        {"engine", config.engine.argv},
        {"options", options},
        {"name", report.engine_name},
        {"positions", config.positions},
        {"seed", config.seed},
        {"timeout_ms", config.answer_timeout_ms},
        {"checks", checks},
        {"time",
         {{"movetime", lateness_json(report.movetime, kLateWarningMs, TimeMargins::kReplyGraceMs)},
          {"clock", lateness_json(report.clock, 0, TimeMargins::kClockGraceMs)}}},
        {"summary",
         {{"pass", report.count(CheckStatus::Pass)},
          {"warn", report.count(CheckStatus::Warn)},
          {"fail", report.count(CheckStatus::Fail)},
          {"skip", report.count(CheckStatus::Skip)}}},
        {"passed", !report.failed()}};
}

} // namespace fanorona
