#include "tools/loop/train_step.h"
#include "selfplay/formats/json_text.h"

#include <filesystem>
#include <stdexcept>

#include "core/common/files.h"
#include "core/common/text.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/net_file.h"

namespace fanorona {

namespace fs = std::filesystem;
using Json = nlohmann::json;

nnue::Network loop_start_network(const LoopConfig& c) {
    if (c.engine.net) return *c.engine.net;
    nnue::Architecture a;
    a.variant = c.rules.variant;
    return nnue::quantise(nnue::random_float_network(a, c.seed));
}

LoopNet write_start_network(const LoopConfig& c, const nnue::Network& start) {
    const std::string path = c.out_dir + "/start.net";
    if (!fs::exists(path)) {
        NetFile f;
        f.net = start;
        f.provenance.seed = c.seed;
        f.provenance.command =
            c.engine.net
                ? "start network of the loop in " + c.out_dir + ", from " + c.engine.net_path
                : "start network of the loop in " + c.out_dir +
                      ": random (fanorona net random --seed " + std::to_string(c.seed) + ")";
        write_net_file(path, f);
    }
    return {std::make_shared<const nnue::Network>(read_net_file(path).net), path};
}

namespace {

// The training's settings for iteration `n` (the data of the window, the current network).
NetTrainConfig training_config(const LoopConfig& c, int n, const LoopNet& current,
                               const std::string& out) {
    NetTrainConfig t = c.train;
    t.data.clear();
    for (int k = std::max(1, n - c.window + 1); k <= n; ++k)
        t.data.push_back(c.out_dir + "/iter-" + std::to_string(k) + "/selfplay/positions.bin");
    t.out = out;
    t.init = current.path;
    // The architecture is the current network's (training starts from it).
    t.shape = current.net->arch;
    t.seed = c.seed + std::uint64_t(n);
    t.command = "fanorona loop --net, iteration " + std::to_string(n) + " of " + c.out_dir +
                ": trained from " + current.path + " on iterations " +
                std::to_string(std::max(1, n - c.window + 1)) + " to " + std::to_string(n);
    t.created = creation_time(); // SOURCE_DATE_EPOCH when set, as train
    t.resume = false;
    return t;
}

Json summary_json(const NetTrainReport& r) {
    const NetEpoch& first = r.history.front();
    const NetEpoch& best = r.history[std::size_t(r.best_epoch)];
    return {{"positions", r.positions},
            {"games", r.games},
            {"train_positions", r.train_positions},
            {"validation_positions", r.validation_positions},
            {"k", r.k},
            {"k_fitted", r.k_fitted},
            {"epochs", r.history.back().epoch},
            {"best_epoch", r.best_epoch},
            {"stopped_early", r.stopped_early},
            {"start_train_loss", first.train_loss},
            {"final_train_loss", best.train_loss},
            {"start_validation_loss", first.validation_loss},
            {"final_validation_loss", best.validation_loss},
            {"seconds", r.history.back().seconds}};
}

} // namespace

LoopNet train_step(const LoopConfig& c, int n, const LoopNet& current,
                   const std::function<void(const std::string&)>& say) {
    const std::string dir = c.out_dir + "/iter-" + std::to_string(n);
    const std::string done = dir + "/train";
    // Named by its iteration: engine descriptions (games files, settings) then tell the
    // networks of a match apart.
    const std::string name = "iter-" + std::to_string(n) + ".net";
    const std::string net = done + "/" + name;
    if (!fs::exists(net)) {
        // Trained in train.partial (its checkpoint survives a kill), moved once complete.
        const std::string partial = dir + "/train.partial";
        fs::create_directories(partial);
        NetTrainConfig t = training_config(c, n, current, partial + "/" + name);
        t.resume = fs::exists(checkpoint_path(t.out));
        say("iteration " + std::to_string(n) + ": training" +
            (t.resume ? " (resumed from its checkpoint)" : ""));
        auto log = [&](const std::string& line) { say("  " + line); };
        NetTrainReport r;
        try {
            r = run_net_training(t, log);
        } catch (const std::exception& e) {
            if (!t.resume) throw;
            // A checkpoint of other settings or a damaged one: train afresh (the data and
            // settings errors of a fresh run are the user's to see).
            say("  cannot resume the training (" + std::string(e.what()) + "): training afresh");
            fs::remove(checkpoint_path(t.out));
            t.resume = false;
            r = run_net_training(t, log);
        }
        write_file_atomically(partial + "/train.json", to_json_text(summary_json(r), 2) + "\n");
        fs::remove_all(done);
        fs::rename(partial, done); // the step counts as done only once complete
    }
    return {std::make_shared<const nnue::Network>(read_net_file(net).net), net};
}

Json train_summary(const std::string& iteration_dir) {
    return Json::parse(read_text_file(iteration_dir + "/train/train.json", kJsonFileLimits));
}

} // namespace fanorona
