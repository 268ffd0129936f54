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

void run_eval(const EvalOptions& o) {
    if (o.terms) {
        print_terms(o.json, o.markdown);
        return;
    }
    const Rules rules = o.board.make_rules();
    const Position pos = o.board.make_position();
    const Weights w = load_weights_file(o.weights);
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw);
    Features features;
    extract_features(pos, rules, features);
    std::array<int, kFeatureCount> value{};
    for (int i = 0; i < features.count; ++i)
        value[features.entries[i].index] = features.entries[i].value;
    const int phase = game_phase(pos);
    const int score = evaluate(pos, rules, w);
    std::int64_t sum = 0;
    for (int f = 0; f < kFeatureCount; ++f) sum += std::int64_t(value[f]) * w.values[f];
    const std::int64_t patterns = pattern_sum(pos, w);
    const bool show_patterns = has_pattern_weights(w) && patterns_apply(pos.variant());
    PatternIndices windows{};
    if (show_patterns) position_pattern_indices(pos, windows);
    // Window i's _mg and _eg weights and its part of the sum.
    const auto window_weights = [&](int i) {
        const std::uint32_t k = windows[std::size_t(i)];
        const std::int32_t mg = w.patterns->values[2 * k], eg = w.patterns->values[2 * k + 1];
        return std::array<std::int64_t, 3>{
            mg, eg, blend(std::int64_t(mg), std::int64_t(eg), std::int64_t(phase))};
    };

    // The network: its integer output (what the search uses on its board) and the float
    // reference from its dequantised parameters.
    // The engine's network as --weights and --net choose it in every command (the default
    // network unless weights are chosen; --net none: none).
    EngineSpec engine;
    try {
        if (o.weights_option->count() > 0) engine.set("weights", o.weights);
        if (!o.net.empty()) engine.set("net", o.net);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--net: ") + e.what());
    }
    const nnue::Network* net = engine.net.get();
    const std::string net_name = builtin_display_name("net", engine.net_path);
    const bool net_plays = net && nnue::plays(net->arch, pos);
    const char* used = net_plays ? "network" : "linear";

    if (o.json) {
        nlohmann::json j;
        j["position"] = pos.to_string();
        put_rules(j, rules);
        j["side_to_move"] = pos.side_to_move() == Color::White ? "w" : "b";
        j["phase"] = phase;
        j["phase_scale"] = kPhaseScale;
        j["eval_scale"] = kEvalScale;
        nlohmann::json terms = nlohmann::json::array();
        for (int f = 0; f < kFeatureCount; ++f) {
            if (!term_applies(f / 2, rules.variant)) continue;
            terms.push_back({{"name", feature_name(f)},
                             {"term", term_name(f / 2)},
                             {"raw", raw[f / 2]},
                             {"value", value[f]},
                             {"weight", w.values[f]},
                             {"contribution", eval_of_sum(double(value[f]) * w.values[f])}});
        }
        j["features"] = terms;
        if (show_patterns) {
            nlohmann::json list = nlohmann::json::array();
            for (int i = 0; i < kPatternWindows; ++i) {
                const auto [mg, eg, part] = window_weights(i);
                const std::uint32_t k = windows[std::size_t(i)];
                list.push_back({{"centre", square_name(pattern_windows()[std::size_t(i)].centre,
                                                       pos.variant())},
                                {"class", pattern_class_name(int(k) / kPatternConfigs)},
                                {"config", pattern_config_string(int(k) % kPatternConfigs)},
                                {"pattern", k},
                                {"weight_mg", mg},
                                {"weight_eg", eg},
                                {"sum", part},
                                {"contribution", eval_of_sum(double(part))}});
            }
            j["patterns"] = {{"sum", patterns},
                             {"contribution", eval_of_sum(double(patterns))},
                             {"windows", list}};
        }
        j["sum"] = sum + patterns;
        j["score"] = score;
        j["evaluation"] = used;
        if (net)
            j["net"] = {
                {"file", engine.net_path},
                {"variant", variant_name(net->arch.variant)},
                {"plays", net_plays},
                {"score", net_plays ? nlohmann::json(nnue::evaluate(*net, pos)) : nlohmann::json()},
                {"float",
                 net_plays ? nlohmann::json(nnue::evaluate_float(*net, pos)) : nlohmann::json()}};
        std::printf("%s\n", to_json_text(j, 1).c_str());
        return;
    }
    std::printf("position %s (%s, %s)\n", pos.to_string().c_str(),
                std::string(variant_name(rules.variant)).c_str(),
                std::string(ruleset_name(rules.ruleset)).c_str());
    const auto unit = taper(1, phase); // the features of a raw value of 1
    std::printf("phase %d of %d: feature value = raw term x %d (_mg) or x %d (_eg)\n\n", phase,
                kPhaseScale, unit.mg, unit.eg);
    std::printf("%-20s %6s %8s %8s %13s\n", "feature", "raw", "value", "weight", "contribution");
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!term_applies(f / 2, rules.variant)) continue;
        if (!o.all && value[f] == 0) continue;
        std::printf("%-20s %6d %8d %8d %13.2f\n", std::string(feature_name(f)).c_str(), raw[f / 2],
                    value[f], w.values[f], eval_of_sum(double(value[f]) * w.values[f]));
    }
    if (show_patterns) {
        std::printf("\n%-6s %-5s %-11s %8s %8s %13s\n", "window", "class", "config", "mg", "eg",
                    "contribution");
        for (int i = 0; i < kPatternWindows; ++i) {
            const auto [mg, eg, part] = window_weights(i);
            const int k = int(windows[std::size_t(i)]);
            std::printf(
                "%-6s %-5s %-11s %8lld %8lld %13.2f\n",
                square_name(pattern_windows()[std::size_t(i)].centre, pos.variant()).c_str(),
                std::string(pattern_class_name(k / kPatternConfigs)).c_str(),
                pattern_config_string(k % kPatternConfigs).c_str(), static_cast<long long>(mg),
                static_cast<long long>(eg), eval_of_sum(double(part)));
        }
        std::printf("patterns: sum %lld / %d = %.2f\n", static_cast<long long>(patterns),
                    kEvalScale, eval_of_sum(double(patterns)));
    }
    std::printf("\nsum %lld / %d = %.2f\n", static_cast<long long>(sum + patterns), kEvalScale,
                eval_of_sum(double(sum + patterns)));
    std::printf("total %d (centi-pieces for %s to move)\n", score,
                pos.side_to_move() == Color::White ? "White" : "Black");
    if (net && net_plays)
        std::printf("network %s: %d (float reference %.2f)\n", net_name.c_str(),
                    nnue::evaluate(*net, pos), nnue::evaluate_float(*net, pos));
    else if (net)
        std::printf("network %s plays %s, not this board\n", net_name.c_str(),
                    std::string(variant_name(net->arch.variant)).c_str());
    if (net) std::printf("the search evaluates with the %s evaluation\n", used);
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
