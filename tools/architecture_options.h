#pragma once
// The options that choose a network's shape, shared by `fanorona train` and `fanorona net random`
// (one declaration, one meaning): --features, --activation, --hidden, --layer2, --layer2-weights
// and --buckets.

#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "core/nnue/architecture.h"
#include "tools/paths.h"

namespace fanorona::cli {

// The feature sets a --features option takes, for help texts and errors.
inline constexpr const char* kFeatureSetNames = "points or points+lines";

// The shape options as typed. add_to() declares them; architecture() parses them into a shape
// (the variant's, other fields at their defaults), which the caller checks with
// nnue::architecture_problem; the CLI::Option pointers tell options given from defaults.
struct ArchitectureOptions {
    std::string features = "points";
    std::string activation = "crelu";
    int hidden = nnue::kDefaultHidden;
    int layer2 = 0;
    std::string layer2_weights = "int16";
    int buckets = nnue::kDefaultBuckets;
    CLI::Option *features_option = nullptr, *activation_option = nullptr, *hidden_option = nullptr,
                *layer2_option = nullptr, *layer2_weights_option = nullptr,
                *buckets_option = nullptr;

    void add_to(CLI::App& cmd);
    // The options not given on the command line take `a`'s values (a start network's shape).
    void default_to(const nnue::Architecture& a);
    // The shape on `variant`; an unknown feature set is a std::invalid_argument naming --features.
    nnue::Architecture architecture(Variant variant) const;
    // The options as a command line: " --features F [--activation A] --hidden H [--layer2 L
    // [--layer2-weights int8]] --buckets B" (the activation and second layer only when not the
    // default).
    std::string command_text() const;
};

inline void ArchitectureOptions::add_to(CLI::App& cmd) {
    features_option = cmd.add_option("--features", features,
                                     std::string("Input feature set: ") + kFeatureSetNames +
                                         " (points and every line of 3 points)")
                          ->capture_default_str();
    activation_option =
        cmd.add_option("--activation", activation,
                       "Hidden activation: crelu (clamp to [0, 1]) or screlu (the same, squared)")
            ->check(CLI::IsMember({"crelu", "screlu"}))
            ->capture_default_str();
    hidden_option = cmd.add_option("--hidden", hidden,
                                   "Hidden units per perspective (a multiple of " +
                                       std::to_string(nnue::kHiddenStep) + ", " +
                                       std::to_string(nnue::kHiddenStep) + " to " +
                                       std::to_string(nnue::kMaxHidden) + ")")
                        ->capture_default_str();
    layer2_option = cmd.add_option("--layer2", layer2,
                                   "Units of a second hidden layer between the hidden units and "
                                   "the output (0: none; crelu only)")
                        ->check(CLI::Range(0, nnue::kMaxLayer2))
                        ->capture_default_str();
    layer2_weights_option = declare_path(
        cmd.add_option("--layer2-weights", layer2_weights,
                       "The second layer's weights: int16 (1/1024) or int8 (1/32 within +-2: "
                       "half the multiplies; training sees the rounding)")
            ->check(CLI::IsMember({"int16", "int8"}))
            ->capture_default_str(),
        PathRole::NotAPath);
    buckets_option = cmd.add_option("--buckets", buckets,
                                    "Output buckets by piece count (1 to " +
                                        std::to_string(nnue::kMaxBuckets) + ")")
                         ->capture_default_str();
}

inline void ArchitectureOptions::default_to(const nnue::Architecture& a) {
    if (features_option->count() == 0) features = nnue::feature_set_name(a.features);
    if (activation_option->count() == 0) activation = nnue::activation_name(a.activation);
    if (hidden_option->count() == 0) hidden = a.hidden;
    if (layer2_option->count() == 0) layer2 = a.layer2;
    if (layer2_weights_option->count() == 0) layer2_weights = a.layer2_int8 ? "int8" : "int16";
    if (buckets_option->count() == 0) buckets = a.buckets;
}

inline nnue::Architecture ArchitectureOptions::architecture(Variant variant) const {
    nnue::Architecture a;
    a.variant = variant;
    const auto set = nnue::parse_feature_set(features);
    if (!set)
        throw std::invalid_argument("--features: unknown feature set '" + features + "' (" +
                                    kFeatureSetNames + ")");
    a.features = *set;
    a.activation = *nnue::parse_activation(activation); // checked by the option
    a.hidden = hidden;
    a.layer2 = layer2;
    a.layer2_int8 = layer2_weights == "int8";
    a.buckets = buckets;
    return a;
}

inline std::string ArchitectureOptions::command_text() const {
    return " --features " + features +
           (activation == "crelu" ? "" : " --activation " + activation) + " --hidden " +
           std::to_string(hidden) + (layer2 == 0 ? "" : " --layer2 " + std::to_string(layer2)) +
           (layer2_weights == "int8" ? " --layer2-weights int8" : "") + " --buckets " +
           std::to_string(buckets);
}

} // namespace fanorona::cli
