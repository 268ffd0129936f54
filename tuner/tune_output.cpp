// The files a tuning run writes: the weights file (core's format, with a comment header),
// loss.csv and tune.json beside it (docs/formats.md, "Tuning output").

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "common/files.h"
#include "core/weights.h"
#include "tuner/tune.h"

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

std::string join(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
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
        "data: " + join(r.files, ", ") + " (" + std::string(variant_name(r.rules.variant)) + ", " +
            std::string(ruleset_name(r.rules.ruleset)) + "): " + std::to_string(r.train_positions) +
            " training positions of " + std::to_string(r.train_games) + " games, " +
            std::to_string(r.validation_positions) + " validation positions of " +
            std::to_string(r.validation_games) + " games; " + std::to_string(r.skipped_decisive) +
            " positions with decisive scores skipped",
        "settings: " + settings_line(c, r),
        "frozen: " + (r.frozen.empty() ? std::string("none") : join(r.frozen, ",")),
        "fit: " + std::to_string(int(f.history.size()) - 1) + " epochs, best epoch " +
            std::to_string(f.best_epoch) + ", " +
            (f.converged       ? "converged"
             : f.stopped_early ? "stopped early on the validation loss"
                               : "epoch limit reached") +
            ", " + number(f.seconds, "%.2f") + " s",
        "loss (" + loss_name(c.loss) + ", rounded weights): validation " +
            number(r.start_validation_loss) + " -> " + number(r.final_validation_loss) +
            ", train " + number(r.start_train_loss) + " -> " + number(r.final_train_loss),
    };
    return format_weights(r.final, comments);
}

nlohmann::ordered_json tune_json(const TuneConfig& c, const TuneReport& r) {
    const OptimizerSettings& o = c.optimizer;
    const FitResult& f = r.fit;
    nlohmann::ordered_json changed = nlohmann::ordered_json::array();
    for (const WeightChange& w : r.changed)
        changed.push_back({{"name", w.name}, {"start", w.start}, {"final", w.final}});
    const double rows = double(r.train_positions + r.validation_positions);
    nlohmann::ordered_json j = {
        {"format", "fanorona-tune 1"},
        {"data", r.files},
        {"variant", variant_name(r.rules.variant)},
        {"rules", ruleset_name(r.rules.ruleset)},
        {"positions",
         {{"read", r.positions_read},
          {"skipped_decisive", r.skipped_decisive},
          {"table_positions", r.table_positions},
          {"relabelled", r.relabelled},
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
          {"seed", c.seed}}},
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
    };
    return j;
}

std::string loss_csv(const TuneReport& r) {
    std::string out = "epoch,train_loss,validation_loss,seconds\n";
    for (const EpochRecord& e : r.fit.history)
        out += std::to_string(e.epoch) + "," + number(e.train_loss, "%.8f") + "," +
               number(e.validation_loss, "%.8f") + "," + number(e.seconds, "%.4f") + "\n";
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
    write_file_atomically((dir / "tune.json").string(), tune_json(c, r).dump(2) + "\n");
}

} // namespace fanorona
