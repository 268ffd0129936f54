// `fanorona eval`: the static evaluation of a position, term by term; `--terms`: the registry of
// evaluation terms (core/terms.h).

#include <cstdio>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/builtins.h"
#include "core/evaluate.h"
#include "core/nnue/network.h"
#include "core/terms.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_file.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct EvalOptions {
    BoardOptions board;
    std::string weights = "default";
    CLI::Option* weights_option = nullptr;
    std::string net; // --net: a network file or name, or none
    bool json = false;
    bool all = false;
    bool terms = false;
    bool markdown = false;
};

// The registry of terms, as a table, JSON or docs/formats.md's Markdown table.
void print_terms(bool json, bool markdown) {
    if (markdown) {
        std::fputs(terms_markdown_table().c_str(), stdout);
        return;
    }
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (int t = 0; t < kTermCount; ++t) {
            const TermInfo& info = kTerms[t];
            list.push_back(
                {{"name", info.name},
                 {"weights",
                  {feature_name(feature_of(t, false)), feature_name(feature_of(t, true))}},
                 {"tapered", info.tapered},
                 {"group", term_group_name(info.group)},
                 {"board", term_board_name(info.board)},
                 {"description", info.description}});
        }
        nlohmann::json j;
        j["phase_scale"] = kPhaseScale;
        j["eval_scale"] = kEvalScale;
        j["terms"] = list;
        std::printf("%s\n", to_json_text(j, 1).c_str());
        return;
    }
    std::printf("%-14s %-12s %-6s %s\n", "term", "group", "board", "raw value");
    for (const TermInfo& info : kTerms)
        std::printf("%-14s %-12s %-6s %s\n", std::string(info.name).c_str(),
                    std::string(term_group_name(info.group)).c_str(),
                    std::string(term_board_name(info.board)).c_str(),
                    std::string(info.description).c_str());
    std::printf("\n%d terms, each with an _mg and an _eg weight: %d weights\n", kTermCount,
                kFeatureCount);
}

// One position's evaluation, term by term: what `eval` prints.
struct EvalBreakdown {
    Rules rules;
    Position pos;
    Weights w;
    std::array<int, kTermCount> raw{};
    std::array<int, kFeatureCount> value{}; // each feature's value
    int phase = 0, score = 0;
    std::int64_t sum = 0, patterns = 0; // the features' and the pattern windows' sums
    bool show_patterns = false;
    PatternIndices windows{};
    // The engine's network as --weights and --net choose it in every command (the default
    // network unless weights are chosen; --net none: none).
    EngineSpec engine{};
    const nnue::Network* net = nullptr;
    std::string net_name{};
    bool net_plays = false;
    const char* used = "linear"; // the evaluation the search uses

    // Window i's _mg and _eg weights and its part of the sum.
    std::array<std::int64_t, 3> window_weights(int i) const {
        const std::uint32_t k = windows[std::size_t(i)];
        const std::int32_t mg = w.patterns->values[2 * k], eg = w.patterns->values[2 * k + 1];
        return {mg, eg, blend(std::int64_t(mg), std::int64_t(eg), std::int64_t(phase))};
    }
};

// Step 1 of run_eval: the evaluation of the options' position.
EvalBreakdown break_down(const EvalOptions& o) {
    EvalBreakdown e{o.board.make_rules(), o.board.make_position(), load_weights_file(o.weights)};
    const Position& pos = e.pos;
    extract_terms(pos, e.rules, e.raw);
    Features features;
    extract_features(pos, e.rules, features);
    for (int i = 0; i < features.count; ++i)
        e.value[features.entries[i].index] = features.entries[i].value;
    e.phase = game_phase(pos);
    e.score = evaluate(pos, e.rules, e.w);
    for (int f = 0; f < kFeatureCount; ++f) e.sum += std::int64_t(e.value[f]) * e.w.values[f];
    e.patterns = pattern_sum(pos, e.w);
    e.show_patterns = has_pattern_weights(e.w) && patterns_apply(pos.variant());
    if (e.show_patterns) position_pattern_indices(pos, e.windows);
    // The network: its integer output (what the search uses on its board) and the float
    // reference from its dequantised parameters.
    try {
        if (o.weights_option->count() > 0) e.engine.set("weights", o.weights);
        if (!o.net.empty()) e.engine.set("net", o.net);
    } catch (const std::invalid_argument& ex) {
        throw std::invalid_argument(std::string("--net: ") + ex.what());
    }
    e.net = e.engine.net.get();
    e.net_name = builtin_display_name("net", e.engine.net_path);
    e.net_plays = e.net && nnue::plays(e.net->arch, pos);
    e.used = e.net_plays ? "network" : "linear";
    return e;
}

// The pattern windows of a breakdown as JSON.
nlohmann::json patterns_json(const EvalBreakdown& e) {
    nlohmann::json list = nlohmann::json::array();
    for (int i = 0; i < kPatternWindows; ++i) {
        const auto [mg, eg, part] = e.window_weights(i);
        const std::uint32_t k = e.windows[std::size_t(i)];
        list.push_back(
            {{"centre", square_name(pattern_windows()[std::size_t(i)].centre, e.pos.variant())},
             {"class", pattern_class_name(int(k) / kPatternConfigs)},
             {"config", pattern_config_string(int(k) % kPatternConfigs)},
             {"pattern", k},
             {"weight_mg", mg},
             {"weight_eg", eg},
             {"sum", part},
             {"contribution", eval_of_sum(double(part))}});
    }
    return {
        {"sum", e.patterns}, {"contribution", eval_of_sum(double(e.patterns))}, {"windows", list}};
}

// Step 2 of run_eval, with --json.
void print_eval_json(const EvalBreakdown& e) {
    const Position& pos = e.pos;
    nlohmann::json j;
    j["position"] = pos.to_string();
    put_rules(j, e.rules);
    j["side_to_move"] = pos.side_to_move() == Color::White ? "w" : "b";
    j["phase"] = e.phase;
    j["phase_scale"] = kPhaseScale;
    j["eval_scale"] = kEvalScale;
    nlohmann::json terms = nlohmann::json::array();
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!term_applies(f / 2, e.rules.variant)) continue;
        terms.push_back({{"name", feature_name(f)},
                         {"term", term_name(f / 2)},
                         {"raw", e.raw[f / 2]},
                         {"value", e.value[f]},
                         {"weight", e.w.values[f]},
                         {"contribution", eval_of_sum(double(e.value[f]) * e.w.values[f])}});
    }
    j["features"] = terms;
    if (e.show_patterns) j["patterns"] = patterns_json(e);
    j["sum"] = e.sum + e.patterns;
    j["score"] = e.score;
    j["evaluation"] = e.used;
    if (e.net)
        j["net"] = {
            {"file", e.engine.net_path},
            {"variant", variant_name(e.net->arch.variant)},
            {"plays", e.net_plays},
            {"score", e.net_plays ? nlohmann::json(nnue::evaluate(*e.net, pos)) : nlohmann::json()},
            {"float",
             e.net_plays ? nlohmann::json(nnue::evaluate_float(*e.net, pos)) : nlohmann::json()}};
    std::printf("%s\n", to_json_text(j, 1).c_str());
}

// The pattern windows of a breakdown as a table.
void print_patterns_text(const EvalBreakdown& e) {
    std::printf("\n%-6s %-5s %-11s %8s %8s %13s\n", "window", "class", "config", "mg", "eg",
                "contribution");
    for (int i = 0; i < kPatternWindows; ++i) {
        const auto [mg, eg, part] = e.window_weights(i);
        const int k = int(e.windows[std::size_t(i)]);
        std::printf("%-6s %-5s %-11s %8lld %8lld %13.2f\n",
                    square_name(pattern_windows()[std::size_t(i)].centre, e.pos.variant()).c_str(),
                    std::string(pattern_class_name(k / kPatternConfigs)).c_str(),
                    pattern_config_string(k % kPatternConfigs).c_str(), static_cast<long long>(mg),
                    static_cast<long long>(eg), eval_of_sum(double(part)));
    }
    std::printf("patterns: sum %lld / %d = %.2f\n", static_cast<long long>(e.patterns), kEvalScale,
                eval_of_sum(double(e.patterns)));
}

// Step 2 of run_eval, as text (`all`: the features whose value is 0 too).
void print_eval_text(const EvalBreakdown& e, bool all) {
    const Position& pos = e.pos;
    std::printf("position %s (%s, %s)\n", pos.to_string().c_str(),
                std::string(variant_name(e.rules.variant)).c_str(),
                std::string(ruleset_name(e.rules.ruleset)).c_str());
    const auto unit = taper(1, e.phase); // the features of a raw value of 1
    std::printf("phase %d of %d: feature value = raw term x %d (_mg) or x %d (_eg)\n\n", e.phase,
                kPhaseScale, unit.mg, unit.eg);
    std::printf("%-20s %6s %8s %8s %13s\n", "feature", "raw", "value", "weight", "contribution");
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!term_applies(f / 2, e.rules.variant)) continue;
        if (!all && e.value[f] == 0) continue;
        std::printf("%-20s %6d %8d %8d %13.2f\n", std::string(feature_name(f)).c_str(),
                    e.raw[f / 2], e.value[f], e.w.values[f],
                    eval_of_sum(double(e.value[f]) * e.w.values[f]));
    }
    if (e.show_patterns) print_patterns_text(e);
    std::printf("\nsum %lld / %d = %.2f\n", static_cast<long long>(e.sum + e.patterns), kEvalScale,
                eval_of_sum(double(e.sum + e.patterns)));
    std::printf("total %d (centi-pieces for %s to move)\n", e.score,
                pos.side_to_move() == Color::White ? "White" : "Black");
    if (e.net && e.net_plays)
        std::printf("network %s: %d (float reference %.2f)\n", e.net_name.c_str(),
                    nnue::evaluate(*e.net, pos), nnue::evaluate_float(*e.net, pos));
    else if (e.net)
        std::printf("network %s plays %s, not this board\n", e.net_name.c_str(),
                    std::string(variant_name(e.net->arch.variant)).c_str());
    if (e.net) std::printf("the search evaluates with the %s evaluation\n", e.used);
}

void run_eval(const EvalOptions& o) {
    if (o.terms) {
        print_terms(o.json, o.markdown);
        return;
    }
    const EvalBreakdown e = break_down(o);
    if (o.json)
        print_eval_json(e);
    else
        print_eval_text(e, o.all);
}

} // namespace

void add_eval_command(CLI::App& app) {
    auto o = std::make_shared<EvalOptions>();
    auto* cmd = app.add_subcommand(
        "eval", "Print the static evaluation of a position: each feature's value, weight and "
                "contribution, each pattern window's weights (when the weights have patterns; "
                "5x9 board only), and the total");
    o->board.add_to(*cmd);
    o->weights_option = declare_path(
        cmd->add_option("--weights", o->weights, weights_option_help())->capture_default_str(),
        PathRole::InputFile);
    declare_path(
        cmd->add_option("--net", o->net,
                        "Network file or built-in network (" + builtin_names("net") +
                            "), or none: its evaluation is printed too (and its float "
                            "reference's). As the engine plays: the default network unless "
                            "--weights is given; the search uses it on its board"),
        PathRole::InputFile);
    cmd->add_flag("--all", o->all, "Also list the features whose value is zero");
    cmd->add_flag("--json", o->json, "Print the evaluation (or with --terms the terms) as JSON");
    cmd->add_flag("--terms", o->terms,
                  "List the evaluation terms (name, group, board, meaning) instead; no position");
    cmd->add_flag("--markdown", o->markdown,
                  "With --terms: print the Markdown table of docs/formats.md");
    cmd->callback([o] { run_eval(*o); });
}

} // namespace fanorona::cli
