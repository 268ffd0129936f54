// `fanorona eval`: the static evaluation of a position, term by term.

#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "common/weights_file.h"
#include "core/evaluate.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct EvalOptions {
    BoardOptions board;
    std::string weights = "default";
    bool json = false;
    bool all = false;
};

bool term_applies(int term, Variant v) {
    if (term >= TermPstTsivy0 && term < TermPstTsivyEnd) return v == Variant::Tsivy;
    if (term >= TermPstDimy0 && term < TermPstDimyEnd) return v == Variant::Dimy;
    return true;
}

void run_eval(const EvalOptions& o) {
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
                             {"contribution", double(value[f]) * w.values[f] / kEvalScale}});
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
    std::printf("phase %d of %d: feature value = raw term x %d (_mg) or x %d (_eg)\n\n", phase,
                kPhaseScale, phase, kPhaseScale - phase);
    std::printf("%-20s %6s %8s %8s %13s\n", "feature", "raw", "value", "weight", "contribution");
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!term_applies(f / 2, rules.variant)) continue;
        if (!o.all && value[f] == 0) continue;
        std::printf("%-20s %6d %8d %8d %13.2f\n", std::string(feature_name(f)).c_str(), raw[f / 2],
                    value[f], w.values[f], double(value[f]) * w.values[f] / kEvalScale);
    }
    std::printf("\nsum %lld / %d = %.2f\n", static_cast<long long>(sum), kEvalScale,
                double(sum) / kEvalScale);
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
    cmd->add_flag("--json", o->json, "Print the evaluation as JSON");
    cmd->callback([o] { run_eval(*o); });
}

} // namespace fanorona::cli
