// `fanorona eval`: the static evaluation of a position, term by term; `--terms`: the registry of
// evaluation terms (core/terms.h).

#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "common/weights_file.h"
#include "core/evaluate.h"
#include "core/terms.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct EvalOptions {
    BoardOptions board;
    std::string weights = "default";
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
        std::printf("%s\n", j.dump(1).c_str());
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

    if (o.json) {
        nlohmann::json j;
        j["position"] = pos.to_string();
        j["variant"] = variant_name(rules.variant);
        j["rules"] = ruleset_name(rules.ruleset);
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
        j["sum"] = sum;
        j["score"] = score;
        std::printf("%s\n", j.dump(1).c_str());
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
    std::printf("\nsum %lld / %d = %.2f\n", static_cast<long long>(sum), kEvalScale,
                eval_of_sum(double(sum)));
    std::printf("total %d (centi-pieces for %s to move)\n", score,
                pos.side_to_move() == Color::White ? "White" : "Black");
}

} // namespace

void add_eval_command(CLI::App& app) {
    auto o = std::make_shared<EvalOptions>();
    auto* cmd = app.add_subcommand(
        "eval", "Print the static evaluation of a position: each feature's value, weight and "
                "contribution, and the total");
    o->board.add_to(*cmd);
    cmd->add_option("--weights", o->weights, "Weights file ('default': the compiled-in weights)")
        ->capture_default_str();
    cmd->add_flag("--all", o->all, "Also list the features whose value is zero");
    cmd->add_flag("--json", o->json, "Print the evaluation (or with --terms the terms) as JSON");
    cmd->add_flag("--terms", o->terms,
                  "List the evaluation terms (name, group, board, meaning) instead; no position");
    cmd->add_flag("--markdown", o->markdown,
                  "With --terms: print the Markdown table of docs/formats.md");
    cmd->callback([o] { run_eval(*o); });
}

} // namespace fanorona::cli
