// The compliance checker's first groups: start-up and handshake, each advertised option, a new
// game and the lines an engine must survive.

#include <chrono>

#include "core/common/text.h"
#include "selfplay/engine/compliance_run.h"

namespace fanorona {

namespace {

// The first error line among `lines`, into `which`.
bool is_error_answer(const std::vector<std::string>& lines, std::string& which) {
    for (const std::string& l : lines)
        if (is_error_line(l)) {
            which = l;
            return true;
        }
    return false;
}

std::string join_names(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// What is wrong with an advertised option by its type: an unknown type, a spin without a range
// or a default inside it, a combo's default not among its vars, a check's default not a boolean.
void judge_option_type(CheckBuilder& c, const std::string& l, const AdvertisedOption& o) {
    const std::string& t = o.type;
    if (t != "check" && t != "spin" && t != "combo" && t != "button" && t != "string")
        c.warn("'" + l + "': type '" + t + "' is not check, spin, combo, button or string");
    if (t == "spin") {
        if (!o.min || !o.max)
            c.warn("'" + l + "': a spin option without min and max");
        else if (!o.default_value || !is_integer(*o.default_value))
            c.warn("'" + l + "': no integer default");
        else if (const long long d = std::stoll(*o.default_value); d < *o.min || d > *o.max)
            c.warn("'" + l + "': the default is outside [min, max]");
    }
    if (t == "combo" && o.default_value) {
        bool listed = false;
        for (const auto& v : o.vars) listed = listed || lower(v) == lower(*o.default_value);
        if (!listed) c.warn("'" + l + "': the default is not one of its vars");
    }
    if (t == "check" && o.default_value && *o.default_value != "true" &&
        *o.default_value != "false")
        c.warn("'" + l + "': a check option's default is true or false");
}

} // namespace

void ComplianceRun::read_option_lines(CheckBuilder& c, const std::vector<std::string>& lines) {
    for (const std::string& l : lines) {
        if (split_words(l).empty() || split_words(l)[0] != "option") continue;
        AdvertisedOption o;
        try {
            o = parse_option_line(l);
        } catch (const std::invalid_argument& e) {
            c.fail("'" + l + "': " + e.what());
            continue;
        }
        judge_option_type(c, l, o);
        if (advertised(o.name)) c.warn("'" + l + "': option '" + o.name + "' again");
        options_.push_back(std::move(o));
    }
}

void ComplianceRun::claim_boards(CheckBuilder& c, std::vector<std::string>& claimed) {
    if (const AdvertisedOption* v = advertised("Variant")) {
        for (const std::string& name : v->vars) {
            const auto variant = parse_variant(lower(name));
            if (!variant) {
                c.warn("Variant '" + name + "' is not a board of docs/rules.md: not checked");
                continue;
            }
            if (*variant == Variant::Tsivy) {
                tsivy_name_ = name;
                continue;
            }
            bool known = false;
            for (const auto& [seen, spelled] : variants_) known = known || seen == *variant;
            if (!known) variants_.emplace_back(*variant, name);
            if (!known) claimed.push_back(name);
        }
        if (v->default_value)
            if (const auto d = parse_variant(lower(*v->default_value))) default_board_.variant = *d;
    }
    if (const AdvertisedOption* r = advertised("Rules")) {
        for (const std::string& name : r->vars) {
            const auto ruleset = parse_ruleset(lower(name));
            if (!ruleset) {
                c.warn("Rules '" + name + "' is not a rule set of docs/rules.md: not checked");
                continue;
            }
            if (*ruleset == RuleSet::Standard) {
                standard_name_ = name;
                continue;
            }
            bool known = false;
            for (const auto& [seen, spelled] : rulesets_) known = known || seen == *ruleset;
            if (!known) rulesets_.emplace_back(*ruleset, name);
            if (!known) claimed.push_back("rules " + name);
        }
        if (r->default_value)
            if (const auto d = parse_ruleset(lower(*r->default_value))) default_board_.ruleset = *d;
    }
}

void ComplianceRun::group_startup() {
    std::vector<std::string> lines;
    check("uci to uciok", [&](CheckBuilder& c) {
        const auto t0 = std::chrono::steady_clock::now();
        start_engine(lines);
        const double ms = ms_since(t0);
        for (const std::string& l : lines) {
            const auto words = split_words(l);
            if (words.size() >= 2 && words[0] == "id" && words[1] == "name") {
                report_.engine_name.clear();
                for (std::size_t i = 2; i < words.size(); ++i)
                    report_.engine_name += (i > 2 ? " " : "") + words[i];
            }
        }
        if (report_.engine_name.empty()) c.warn("no 'id name' line before 'uciok'");
        c.note = "'" + report_.engine_name + "', uciok after " + std::to_string(int(ms)) + " ms";
    });
    check(
        "option lines",
        [&](CheckBuilder& c) {
            read_option_lines(c, lines);
            // The boards it claims: the Variant and Rules options (docs/rules.md).
            std::vector<std::string> claimed;
            claim_boards(c, claimed);
            board_ = default_board_;
            c.note = std::to_string(options_.size()) + " options";
            if (!claimed.empty()) c.note += "; claims " + join_names(claimed);
        },
        CheckStatus::Fail, true); // the lines: uci to uciok
    if (!config_.engine.options.empty())
        check("options given", [&](CheckBuilder& c) {
            for (const auto& [name, value] : config_.engine.options)
                if (!advertised(name)) c.warn("option '" + name + "' is not advertised");
            const auto sent = send_configured_options();
            refuse_errors(c, sync("the options given"), "the options given", false);
            c.note = std::to_string(sent.size()) + " set";
        });
    check("isready at rest", [&](CheckBuilder& c) {
        const auto t0 = std::chrono::steady_clock::now();
        sync_clean(c, "");
        c.note = "readyok after " + std::to_string(int(ms_since(t0))) + " ms";
    });
}

void ComplianceRun::group_options() {
    for (const AdvertisedOption& option : options_) {
        const AdvertisedOption o = option; // options_ does not change here; a copy stays valid
        check("setoption " + o.name, [&](CheckBuilder& c) {
            std::optional<std::string> value;
            std::string why = "its default";
            if (const auto given = configured(o.name)) {
                value = given;
                why = "the value given";
            } else if (o.type == "button") {
                why = "a button";
            } else if (o.default_value) {
                value = o.default_value->empty() ? "<empty>" : *o.default_value;
            } else {
                c.warn("no default advertised: not set");
                return;
            }
            const std::string line =
                "'setoption name " + o.name + (value ? " value " + *value : "") + "'";
            refuse_errors(c, set_option(o.name, value), line, false);
            if (value) note_board_option(o.name, *value);
            c.note = why == "a button" ? "pressed" : "set to " + why;
        });
    }
    check("unknown option", [&](CheckBuilder& c) {
        const auto lines = set_option("NoSuchOptionOfTheChecker", std::string("1"));
        std::string error;
        if (is_error_answer(lines, error))
            c.note = "'" + error + "'";
        else
            c.warn("no 'info string error' line for an option it does not have (docs/rules.md, "
                   "Errors)");
        for (const std::string& l : lines)
            if (first_word(l) == "bestmove") c.fail("'" + l + "' with no search running");
    });
}

void ComplianceRun::group_game() {
    check("ucinewgame", [&](CheckBuilder& c) {
        session_.send("ucinewgame");
        sync_clean(c, "'ucinewgame'");
        c.note = "readyok";
    });
    check("unknown command", [&](CheckBuilder& c) {
        session_.send("xyzzy");
        const auto lines = sync("'xyzzy'");
        std::string error;
        if (is_error_answer(lines, error))
            c.note = "'" + error + "', then readyok";
        else
            c.warn("no 'info string error' line for an unknown command (docs/rules.md, Errors)");
        for (const std::string& l : lines)
            if (first_word(l) == "bestmove") c.fail("'" + l + "' with no search running");
    });
    check("stop at rest", [&](CheckBuilder& c) {
        session_.send("stop");
        for (const std::string& l : sync("'stop'"))
            if (first_word(l) == "bestmove")
                c.warn("'" + l + "' for a 'stop' with no search running");
        c.note = "no bestmove";
    });
}

} // namespace fanorona
