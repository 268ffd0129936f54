// `fanorona net`: network files. `net info FILE` prints the header (architecture, quantisation,
// provenance, checksum); `net random` writes a network of random weights (for tests and speed
// measurements until a trained one exists); `net loss` measures networks on data.

#include <cinttypes>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/board/rules.h"
#include "core/builtins.h"
#include "core/common/files.h"
#include "core/nnue/network.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/net_file.h"
#include "tools/architecture_options.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/train_options.h"
#include "tuner/net/loss.h"

namespace fanorona::cli {

namespace {

struct NetOptions {
    std::string file;
    bool json = false;
    // net random
    std::string out;
    std::uint64_t seed = 1;
    std::string variant = "tsivy";
    ArchitectureOptions architecture;
    // net loss
    NetLossConfig loss;
    std::string k = "auto";
    bool keep_decisive = false;
    std::string json_out;
};

std::string net_hex(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    return buf;
}

void run_net_info(const NetOptions& o) {
    const NetFile f = read_net_file(o.file);
    const nnue::Architecture& a = f.net.arch;
    const NetProvenance& p = f.provenance;
    if (o.json) {
        const nlohmann::json j = {{"file", o.file},
                                  {"format", "fanorona-net 1"},
                                  {"variant", variant_name(a.variant)},
                                  {"features", nnue::feature_set_name(a.features)},
                                  {"activation", nnue::activation_name(a.activation)},
                                  {"inputs", nnue::input_count(a)},
                                  {"hidden", a.hidden},
                                  {"layer2", a.layer2},
                                  {"layer2_weights", a.layer2_int8 ? "int8" : "int16"},
                                  {"buckets", a.buckets},
                                  {"qa", a.qa},
                                  {"qb", a.qb},
                                  {"scale", a.scale},
                                  {"architecture", net_hex(nnue::architecture_hash(a))},
                                  {"architecture_text", nnue::architecture_text(a)},
                                  {"data_files", p.data_files},
                                  {"positions", p.positions},
                                  {"games", p.games},
                                  {"epochs", p.epochs},
                                  {"train_loss", p.train_loss},
                                  {"validation_loss", p.validation_loss},
                                  {"seed", p.seed},
                                  {"command", p.command},
                                  {"created", p.created},
                                  {"checksum", net_hex(f.checksum)}};
        std::printf("%s\n", to_json_text(j, 1).c_str());
        return;
    }
    std::printf("file            %s (fanorona-net 1)\n", o.file.c_str());
    std::printf("architecture    %s (hash %s)\n", nnue::architecture_text(a).c_str(),
                net_hex(nnue::architecture_hash(a)).c_str());
    const std::string layer2 = a.layer2 > 0 ? " -> " + std::to_string(a.layer2) + " hidden (crelu" +
                                                  (a.layer2_int8 ? ", int8 weights" : "") + ")"
                                            : std::string();
    std::printf("layers          %d inputs (%s) -> 2 x %d hidden (%s)%s -> 1 output, %d "
                "bucket%s by pieces on the board\n",
                nnue::input_count(a), std::string(nnue::feature_set_name(a.features)).c_str(),
                a.hidden, std::string(nnue::activation_name(a.activation)).c_str(), layer2.c_str(),
                a.buckets, a.buckets == 1 ? "" : "s");
    std::printf("quantisation    qa %d, qb %d, scale %d (centi-pieces = output x scale)\n", a.qa,
                a.qb, a.scale);
    std::printf("data files      %zu\n", p.data_files.size());
    for (const std::string& d : p.data_files) std::printf("                %s\n", d.c_str());
    std::printf("positions       %lld\n", static_cast<long long>(p.positions));
    std::printf("games           %lld\n", static_cast<long long>(p.games));
    std::printf("epochs          %lld\n", static_cast<long long>(p.epochs));
    std::printf("train loss      %.9g\n", p.train_loss);
    std::printf("validation loss %.9g\n", p.validation_loss);
    std::printf("seed            %llu\n", static_cast<unsigned long long>(p.seed));
    std::printf("command         %s\n", p.command.c_str());
    std::printf("created         %s\n", p.created.c_str());
    std::printf("checksum        %s (FNV-1a 64%s, verified)\n", net_hex(f.checksum).c_str(),
                f.short_basis_checksum ? " with the short offset basis of older files" : "");
}

void run_net_random(const NetOptions& o, const std::string& command) {
    const auto v = parse_variant(o.variant);
    if (!v)
        throw std::invalid_argument("--variant: '" + o.variant + "': " + std::string(kVariantHelp));
    const nnue::Architecture a = o.architecture.architecture(*v);
    if (const std::string why = nnue::architecture_problem(a); !why.empty())
        throw std::invalid_argument("net random: " + why);
    NetFile f;
    f.net = nnue::quantise(nnue::random_float_network(a, o.seed));
    f.provenance.seed = o.seed;
    f.provenance.command = command;
    write_net_file(o.out, f);
    std::printf("wrote %s: random weights, %s, seed %llu\n", o.out.c_str(),
                nnue::architecture_text(a).c_str(), static_cast<unsigned long long>(o.seed));
}

void run_net_loss(NetOptions& o) {
    o.loss.k = parse_sigmoid_scale(o.k);
    o.loss.filter.skip_decisive = !o.keep_decisive;
    const NetLossReport r = measure_net_loss(o.loss);
    std::printf("%llu positions of %llu games; K = %.6g (%s); target = %g * sigmoid(K * score) + "
                "%g * result\n",
                static_cast<unsigned long long>(r.positions),
                static_cast<unsigned long long>(r.games), r.k,
                r.k_fitted ? "fitted to the scores" : "given", o.loss.lambda, 1 - o.loss.lambda);
    std::printf("%-10s %-18s %s\n", "loss", "against results", "network");
    for (const NetLossRow& row : r.rows)
        std::printf("%-10.6f %-18.6f %s (%s)\n", row.loss, row.result_loss, row.net.c_str(),
                    row.fingerprint.c_str());
    std::printf("%-10s %-18.6f the data's own scores\n", "-", r.label_result_loss);
    if (o.json_out.empty()) return;
    nlohmann::json rows = nlohmann::json::array();
    for (const NetLossRow& row : r.rows)
        rows.push_back({{"net", row.net},
                        {"fingerprint", row.fingerprint},
                        {"loss", row.loss},
                        {"result_loss", row.result_loss}});
    const nlohmann::json j = {{"format", "fanorona-net-loss 1"},
                              {"data", o.loss.data},
                              {"positions", r.positions},
                              {"games", r.games},
                              {"k", r.k},
                              {"k_fitted", r.k_fitted},
                              {"lambda", o.loss.lambda},
                              {"label_result_loss", r.label_result_loss},
                              {"networks", rows}};
    write_file_atomically(o.json_out, to_json_text(j, 1) + "\n");
}

} // namespace

void add_net_command(CLI::App& app) {
    auto o = std::make_shared<NetOptions>();
    auto* cmd = app.add_subcommand("net", "Network files (fanorona-net 1): show one, or write a "
                                          "random one");
    cmd->require_subcommand(1);
    auto* info = cmd->add_subcommand(
        "info", "Print a network file's header: architecture, quantisation, provenance and "
                "checksum (the whole file is read and checked)");
    declare_path(
        info->add_option("file", o->file,
                         "Network file, or a built-in network by name: " + builtin_names("net"))
            ->required(),
        PathRole::InputFile);
    info->add_flag("--json", o->json, "Print it as JSON");
    info->callback([o] { run_net_info(*o); });
    auto* random = cmd->add_subcommand(
        "random", "Write a network of random weights (a pure function of the seed), for tests "
                  "and speed measurements");
    declare_path(random->add_option("--out", o->out, "The file to write (atomically)")->required(),
                 PathRole::OutputFile);
    random->add_option("--seed", o->seed, "Random seed")->capture_default_str();
    random->add_option("--variant", o->variant, "The board it plays")->capture_default_str();
    o->architecture.add_to(*random);
    auto* loss = cmd->add_subcommand(
        "loss", "Measure networks on data held out from their training: the loss train reports "
                "(the same target, K and positions), of the integer networks the engine plays, "
                "and against the game results alone");
    declare_path(
        loss->add_option("data", o->loss.data,
                         "Positions logs, corpus files or folders of corpus files (as train reads "
                         "them)")
            ->required(),
        PathRole::InputFile);
    declare_path(
        loss->add_option("--net", o->loss.nets,
                         "A network file, or a built-in network by name: " + builtin_names("net") +
                             " (repeatable: each is measured on the same positions)")
            ->required(),
        PathRole::InputFile);
    add_lambda_option(*loss, o->loss.lambda);
    add_k_option(*loss, o->k);
    add_keep_decisive_flag(*loss, o->keep_decisive);
    add_skip_captures_flag(*loss, o->loss.filter.skip_captures);
    declare_path(
        loss->add_option("--json-out", o->json_out, "Also write the results to this JSON file"),
        PathRole::OutputFile);
    loss->callback([o] { run_net_loss(*o); });
    random->callback([o] {
        run_net_random(*o, "fanorona net random --out " + o->out + " --seed " +
                               std::to_string(o->seed) + " --variant " + o->variant +
                               o->architecture.command_text());
    });
}

} // namespace fanorona::cli
