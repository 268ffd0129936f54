// `fanorona corpus`: corpus files (docs/formats.md "Corpus file"). `corpus convert` writes one
// from games files and positions logs; `corpus info` counts what one holds.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "selfplay/formats/corpus_convert.h"
#include "selfplay/formats/formats.h"
#include "tools/commands.h"

namespace fanorona::cli {

namespace {

struct CorpusOptions {
    std::vector<std::string> inputs;
    std::string out;
    std::string file;
    bool json = false;
};

// Whether `path` starts with the positions log's magic (else it is read as a games file).
bool is_position_log(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(kPositionLogMagic.size(), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    return in && head == kPositionLogMagic;
}

std::string rules_text(const Rules& r) {
    return std::string(variant_name(r.variant)) + ", " + std::string(ruleset_name(r.ruleset));
}

void run_convert(const CorpusOptions& o) {
    std::vector<FileUse> inputs;
    for (const std::string& in : o.inputs) inputs.push_back({"input", in});
    check_outputs(inputs, {{"--out", o.out}});
    check_writable(o.out);
    std::string bytes;
    std::unique_ptr<CorpusWriter> writer;
    std::string first;
    // The first input's rules are the corpus's; every other input must have the same.
    const auto open = [&](const Rules& rules, const std::string& path) {
        if (!writer) {
            writer = std::make_unique<CorpusWriter>(rules,
                                                    [&bytes](const std::string& b) { bytes += b; });
            first = path;
        } else if (rules.variant != writer->rules().variant ||
                   rules.ruleset != writer->rules().ruleset) {
            throw std::runtime_error(path + ": header: " + rules_text(rules) + ", but " + first +
                                     " is " + rules_text(writer->rules()) +
                                     " (a corpus holds one board and rules)");
        }
    };
    // A game the writer refuses (a start or turn that is not legal) names its input.
    const auto add = [&](const CorpusGame& g, const std::string& path) {
        try {
            writer->add(g);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(path + ": " + e.what());
        }
    };
    std::uint64_t chains_cut = 0;
    for (const std::string& path : o.inputs) {
        if (is_position_log(path)) {
            const PositionLogHeader header = read_position_log_header(path);
            Rules rules;
            rules.variant = header.variant;
            rules.ruleset = header.ruleset;
            open(rules, path);
            const PositionLog log =
                scan_position_log(path, [&](const std::vector<PositionRecord>& records) {
                    const std::vector<CorpusGame> games = corpus_games(records, header);
                    if (!games.empty()) chains_cut += games.size() - 1;
                    for (const CorpusGame& g : games) add(g, path);
                });
            if (!log.tail_problem.empty())
                std::fprintf(stderr,
                             "fanorona: %s: %s; the %llu intact games before it were read\n",
                             path.c_str(), log.tail_problem.c_str(),
                             static_cast<unsigned long long>(log.chunks));
        } else {
            const GamesFile file = read_games_file(path);
            open(file.header.rules(), path);
            for (const GameRecord& r : file.games)
                add(corpus_game(r, file.header.rules(), path + ": game " + std::to_string(r.index)),
                    path);
        }
    }
    writer->flush();
    write_file_atomically(o.out, bytes);
    const double per = writer->positions() ? double(bytes.size()) / double(writer->positions()) : 0;
    std::printf("wrote %s: %llu games, %llu positions, %llu bytes (%.3f bytes a position)\n",
                o.out.c_str(), static_cast<unsigned long long>(writer->games()),
                static_cast<unsigned long long>(writer->positions()),
                static_cast<unsigned long long>(bytes.size()), per);
    if (chains_cut)
        std::printf("%llu logged games were cut into more than one chain (positions not one "
                    "turn apart)\n",
                    static_cast<unsigned long long>(chains_cut));
}

void run_info(const CorpusOptions& o) {
    CorpusReader reader(o.file);
    CorpusGame g;
    std::uint64_t positions = 0, scored = 0, turns = 0, games[3] = {0, 0, 0};
    while (reader.next(g)) {
        positions += g.positions();
        turns += g.moves.size();
        for (const auto& s : g.scores) scored += s.has_value();
        scored += g.end_score.has_value();
        ++games[int(g.ruleset)];
    }
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(o.file, ec);
    const double per = positions ? double(reader.valid_bytes()) / double(positions) : 0;
    if (o.json) {
        const nlohmann::json j = {{"file", o.file},
                                  {"variant", variant_name(reader.rules().variant)},
                                  {"rules", ruleset_name(reader.rules().ruleset)},
                                  {"blocks", reader.blocks()},
                                  {"games", reader.games()},
                                  {"vela_games", games[int(RuleSet::Vela)]},
                                  {"turns", turns},
                                  {"positions", positions},
                                  {"scored_positions", scored},
                                  {"bytes", reader.valid_bytes()},
                                  {"bytes_per_position", per},
                                  {"tail_problem", reader.tail_problem()}};
        std::printf("%s\n", j.dump(1).c_str());
    } else {
        std::printf("file        %s (corpus version %d)\n", o.file.c_str(), int(kCorpusVersion));
        std::printf("rules       %s\n", rules_text(reader.rules()).c_str());
        std::printf("blocks      %llu\n", static_cast<unsigned long long>(reader.blocks()));
        std::printf("games       %llu (%llu under Vela rules)\n",
                    static_cast<unsigned long long>(reader.games()),
                    static_cast<unsigned long long>(games[int(RuleSet::Vela)]));
        std::printf("positions   %llu (%llu with a score)\n",
                    static_cast<unsigned long long>(positions),
                    static_cast<unsigned long long>(scored));
        std::printf("bytes       %llu (%.3f a position)\n",
                    static_cast<unsigned long long>(reader.valid_bytes()), per);
    }
    if (!reader.tail_problem().empty())
        std::fprintf(stderr,
                     "fanorona: %s: %s; the %llu intact games before it were read (%llu "
                     "bytes dropped)\n",
                     o.file.c_str(), reader.tail_problem().c_str(),
                     static_cast<unsigned long long>(reader.games()),
                     static_cast<unsigned long long>(size - reader.valid_bytes()));
}

} // namespace

void add_corpus_command(CLI::App& app) {
    auto o = std::make_shared<CorpusOptions>();
    auto* cmd = app.add_subcommand(
        "corpus", "Corpus files: games chained turn by turn in compressed blocks, about 1.5 bytes "
                  "a position (docs/formats.md)");
    cmd->require_subcommand(1);
    auto* convert = cmd->add_subcommand(
        "convert", "Write a corpus from games files (games.tsv: every turn, with its score) and "
                   "positions logs (positions.bin: the logged positions, chained where one turn "
                   "apart)");
    convert
        ->add_option("inputs", o->inputs,
                     "Games files and positions logs (told apart by their first bytes), all of "
                     "one board and rules")
        ->required();
    convert->add_option("--out", o->out, "The corpus file to write (atomically)")->required();
    convert->callback([o] { run_convert(*o); });
    auto* info = cmd->add_subcommand(
        "info", "Read a whole corpus file and print what it holds: rules, blocks, games, "
                "positions and bytes a position");
    info->add_option("file", o->file, "The corpus file")->required();
    info->add_flag("--json", o->json, "Print it as JSON");
    info->callback([o] { run_info(*o); });
}

} // namespace fanorona::cli
