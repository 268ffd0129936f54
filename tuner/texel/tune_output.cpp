// The files a tuning run writes: the weights file (core's format, with a comment header),
// loss.csv and tune.json beside it (docs/formats.md, "Tuning output").

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/common/files.h"
#include "core/common/text.h"
#include "core/weights.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/rules_json.h"
#include "tuner/texel/tune.h"

namespace fanorona {

namespace {

std::string number(double v, const char* fmt = "%.6f") {
    if (std::isnan(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

nlohmann::ordered_json json_number(double v) {
    return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
}

std::string settings_line(const TuneConfig& c, const TuneReport& r) {
    const OptimizerSettings& o = c.optimizer;
    std::string s = "target=" + c.target.to_string() + " loss=" + loss_name(c.loss) +
                    " optimizer=" + optimizer_name(o.kind) + " epochs=" + std::to_string(o.epochs) +
                    " l2=" + number(c.l2, "%g") + " k=" + number(r.k, "%.6g") +
                    (r.k_fitted ? "(fitted)" : "(given)") +
                    " validation=" + number(c.validation, "%g") + " seed=" + std::to_string(c.seed);
    if (c.filter.tables && c.filter.table_positions != DataFilter::TablePositions::Keep)
        s += " tables=" + c.filter.tables_dir + " table_positions=" +
             (c.filter.table_positions == DataFilter::TablePositions::Skip ? "skip" : "relabel");
    if (c.patterns.enabled) {
        const PatternSettings& p = c.patterns;
        s += " patterns=on pattern_rounds=" + std::to_string(p.rounds) +
             " pattern_epochs=" + std::to_string(p.epochs) +
             " pattern_batch=" + std::to_string(p.batch) + " pattern_lr=" + number(p.lr, "%g") +
             " pattern_l2=" + number(p.l2, "%g") +
             " pattern_min_count=" + std::to_string(p.min_count);
    }
    if (o.kind == OptimizerKind::Adam)
        s += " batch=" + std::to_string(o.batch) + " lr=" + number(o.lr, "%g") +
             " lr_decay=" + number(o.lr_decay, "%g");
    return s;
}

} // namespace

std::string tuned_weights_text(const TuneConfig& c, const TuneReport& r) {
    const FitResult& f = r.fit;
    std::vector<std::string> comments = {
        "Tuned by `fanorona tune` from the start weights '" + c.start_name + "'.",
        "data: " + join(r.files, ", ") + " (" + rules_name(r.rules) +
            "): " + std::to_string(r.train_positions) + " training positions of " +
            std::to_string(r.train_games) + " games, " + std::to_string(r.validation_positions) +
            " validation positions of " + std::to_string(r.validation_games) + " games; " +
            std::to_string(r.counts.skipped_decisive) + " positions with decisive scores skipped",
        "settings: " + settings_line(c, r),
        "frozen: " + (r.frozen.empty() ? std::string("none") : join(r.frozen, ",")),
        std::string(c.patterns.enabled ? "fit (the last round's terms): " : "fit: ") +
            std::to_string(int(f.history.size()) - 1) + " epochs, best epoch " +
            std::to_string(f.best_epoch) + ", " +
            (f.converged       ? "converged"
             : f.stopped_early ? "stopped early on the validation loss"
                               : "epoch limit reached") +
            ", " + number(f.seconds, "%.2f") + " s",
        "loss (" + loss_name(c.loss) + ", rounded weights): validation " +
            number(r.start_validation_loss) + " -> " + number(r.final_validation_loss) +
            ", train " + number(r.start_train_loss) + " -> " + number(r.final_train_loss),
    };
    if (c.patterns.enabled)
        comments.insert(comments.end() - 1,
                        "patterns: " + std::to_string(r.rounds.size()) + " rounds, " +
                            std::to_string(r.pattern_free) + " patterns fitted, " +
                            std::to_string(r.pattern_active) + " pattern weights not 0");
    return format_weights(r.final, comments);
}

nlohmann::ordered_json tune_json(const TuneConfig& c, const TuneReport& r) {
    const OptimizerSettings& o = c.optimizer;
    const FitResult& f = r.fit;
    nlohmann::ordered_json changed = nlohmann::ordered_json::array();
    for (const WeightChange& w : r.changed)
        changed.push_back({{"name", w.name}, {"start", w.start}, {"final", w.final}});
    const double rows = double(r.train_positions + r.validation_positions);
    nlohmann::ordered_json j = {{"format", kTuneFormat}, {"data", r.files}};
    put_rules(j, r.rules); // after "data", as before
    j.update(nlohmann::ordered_json{
        {"positions",
         {{"read", r.counts.read},
          {"skipped_decisive", r.counts.skipped_decisive},
          {"table_positions", r.counts.table_positions},
          {"relabelled", r.counts.relabelled},
          {"train", r.train_positions},
          {"validation", r.validation_positions}}},
        {"games", {{"train", r.train_games}, {"validation", r.validation_games}}},
        {"settings",
         {{"start_weights", c.start_name},
          {"target", c.target.to_string()},
          {"loss", loss_name(c.loss)},
          {"optimizer", optimizer_name(o.kind)},
          {"epochs", o.epochs},
          {"batch", o.batch},
          {"lr", o.lr},
          {"lr_decay", o.lr_decay},
          {"tolerance", o.tolerance},
          {"patience", o.patience},
          {"l2", c.l2},
          {"k", c.k ? nlohmann::ordered_json(*c.k) : nlohmann::ordered_json("auto")},
          {"validation", c.validation},
          {"freeze", c.freeze},
          {"threads", c.threads},
          {"seed", c.seed},
          {"patterns", c.patterns.enabled},
          {"pattern_rounds", c.patterns.rounds},
          {"pattern_epochs", c.patterns.epochs},
          {"pattern_batch", c.patterns.batch},
          {"pattern_lr", c.patterns.lr},
          {"pattern_l2", c.patterns.l2},
          {"pattern_min_count", c.patterns.min_count}}},
        {"k", r.k},
        {"k_fitted", r.k_fitted},
        {"start_train_loss", json_number(r.start_train_loss)},
        {"start_validation_loss", json_number(r.start_validation_loss)},
        {"fitted_train_loss", json_number(r.fitted_train_loss)},
        {"fitted_validation_loss", json_number(r.fitted_validation_loss)},
        {"final_train_loss", json_number(r.final_train_loss)},
        {"final_validation_loss", json_number(r.final_validation_loss)},
        {"epochs", int(f.history.size()) - 1},
        {"best_epoch", f.best_epoch},
        {"converged", f.converged},
        {"stopped_early", f.stopped_early},
        {"passes", f.history.empty() ? 0 : f.history.back().passes},
        {"seconds", r.seconds},
        {"fit_seconds", f.seconds},
        {"extraction_seconds", r.extraction_seconds},
        {"nonzeros", r.nonzeros},
        {"matrix_bytes", r.matrix_bytes},
        {"bytes_per_position", rows > 0 ? double(r.matrix_bytes) / rows : 0.0},
        {"frozen", r.frozen},
        {"unused", r.unused},
        {"changed_weights", changed},
        {"warnings", r.warnings},
        {"out_dir", c.out_dir},
    });
    if (c.patterns.enabled) {
        nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
        for (const PatternRound& p : r.rounds)
            rounds.push_back({
                {"round", p.round},
                {"start_train_loss", json_number(p.start_train)},
                {"start_validation_loss", json_number(p.start_validation)},
                {"patterns_train_loss", json_number(p.patterns_train)},
                {"patterns_validation_loss", json_number(p.patterns_validation)},
                {"terms_train_loss", json_number(p.terms_train)},
                {"terms_validation_loss", json_number(p.terms_validation)},
                {"pattern_epochs", int(p.patterns.history.size()) - 1},
                {"pattern_best_epoch", p.patterns.best_epoch},
                {"pattern_stopped_early", p.patterns.stopped_early},
                {"pattern_seconds", p.patterns.seconds},
                {"term_epochs", int(p.terms.history.size()) - 1},
                {"term_best_epoch", p.terms.best_epoch},
                {"term_seconds", p.terms.seconds},
                {"seconds", p.seconds},
            });
        j["patterns"] = {{"patterns", kPatternCount},
                         {"weights", 2 * kPatternCount},
                         {"free_patterns", r.pattern_free},
                         {"active_weights", r.pattern_active},
                         {"rounds", rounds}};
    }
    return j;
}

std::string loss_csv(const TuneReport& r) {
    auto row = [](int epoch, const EpochRecord& e) {
        return std::to_string(epoch) + "," + number(e.train_loss, "%.8f") + "," +
               number(e.validation_loss, "%.8f") + "," + number(e.seconds, "%.4f");
    };
    if (r.rounds.empty()) {
        std::string out = "epoch,train_loss,validation_loss,seconds\n";
        for (const EpochRecord& e : r.fit.history) out += row(e.epoch, e) + "\n";
        return out;
    }
    // With patterns: every epoch of every fit, numbered on from one fit to the next (each fit's
    // epoch 0, its start, only for the first), seconds within the fit.
    std::string out = "epoch,train_loss,validation_loss,seconds,round,stage\n";
    int epoch = 0;
    for (const PatternRound& p : r.rounds)
        for (const auto* h : {&p.patterns.history, &p.terms.history})
            for (const EpochRecord& e : *h) {
                if (e.epoch == 0 && epoch > 0) continue;
                out += row(epoch++, e) + "," + std::to_string(p.round) + "," +
                       (h == &p.patterns.history ? "patterns" : "terms") + "\n";
            }
    return out;
}

void write_tune_outputs(const TuneConfig& c, const TuneReport& r) {
    if (c.out_dir.empty()) return;
    const std::filesystem::path dir(c.out_dir);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir.string() + ": cannot create the folder: " + ec.message());
    write_file_atomically((dir / "weights.txt").string(), tuned_weights_text(c, r));
    write_file_atomically((dir / "loss.csv").string(), loss_csv(r));
    write_file_atomically((dir / "tune.json").string(), to_json_text(tune_json(c, r), 2) + "\n");
}

} // namespace fanorona
