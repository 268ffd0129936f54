// `fanorona corpus`: corpus files (docs/formats.md "Corpus file"). `corpus convert` writes one
// from games files and positions logs; `corpus info` counts what files or
// folders of them hold.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "selfplay/formats/corpus_convert.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/paths.h"

namespace fanorona::cli {

namespace {

struct CorpusOptions {
    std::vector<std::string> inputs;
    std::string out;
    std::uint64_t from_game = 0, to_game = ~std::uint64_t(0); // game indices [from, to)
    // next-chunk: the run folder, the chunks' folder and name, the chunk's bounds, the cap on
    // the folder's corpus files.
    std::string run, into = "data/corpus", name;
    std::uint64_t min_games = 1000, max_games = 20000;
    std::uint64_t max_bytes = std::uint64_t(64) << 20;
    std::vector<std::string> files; // info's inputs
    bool json = false;
};

// Whether `path` starts with the positions log's magic (else it is read as a games file).
bool is_position_log(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(kPositionLogMagic.size(), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    return in && head == kPositionLogMagic;
}

// A corpus written in memory from the inputs' games whose index is in [from_game, to_game).
struct Converted {
    std::string bytes;
    std::uint64_t games = 0, positions = 0;
    std::uint64_t chains_cut = 0; // logged games cut into more than one chain
    Rules rules;                  // the inputs' board and rules
};

Converted convert(const CorpusOptions& o) {
    if (o.to_game <= o.from_game)
        throw std::invalid_argument("--to-game " + std::to_string(o.to_game) +
                                    ": not above --from-game " + std::to_string(o.from_game));
    Converted c;
    std::unique_ptr<CorpusWriter> writer;
    std::string first;
    // The first input's rules are the corpus's; every other input must have the same.
    const auto open = [&](const Rules& rules, const std::string& path) {
        if (!writer) {
            writer =
                std::make_unique<CorpusWriter>(rules, [&c](const std::string& b) { c.bytes += b; });
            first = path;
        } else if (rules.variant != writer->rules().variant ||
                   rules.ruleset != writer->rules().ruleset) {
            throw std::runtime_error(path + ": header: " + rules_name(rules) + ", but " + first +
                                     " is " + rules_name(writer->rules()) +
                                     " (a corpus holds one board and rules)");
        }
    };
    const auto wanted = [&o](std::uint64_t index) {
        return index >= o.from_game && index < o.to_game;
    };
    // A game the writer refuses (a start or turn that is not legal) names its input.
    const auto add = [&](const CorpusGame& g, const std::string& path) {
        try {
            writer->add(g);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(path + ": " + e.what());
        }
    };
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
                    if (games.empty() || !wanted(games.front().index)) return;
                    c.chains_cut += games.size() - 1;
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
                if (wanted(r.index))
                    add(corpus_game(r, file.header.rules(),
                                    path + ": game " + std::to_string(r.index)),
                        path);
        }
    }
    writer->flush();
    c.rules = writer->rules();
    c.games = writer->games();
    c.positions = writer->positions();
    return c;
}

void print_written(const std::string& path, const Converted& c) {
    const double per = c.positions ? double(c.bytes.size()) / double(c.positions) : 0;
    std::printf("wrote %s: %llu games, %llu positions, %llu bytes (%.3f bytes a position)\n",
                path.c_str(), static_cast<unsigned long long>(c.games),
                static_cast<unsigned long long>(c.positions),
                static_cast<unsigned long long>(c.bytes.size()), per);
    if (c.chains_cut)
        std::printf("%llu logged games were cut into more than one chain (positions not one "
                    "turn apart)\n",
                    static_cast<unsigned long long>(c.chains_cut));
}

void run_convert(const CorpusOptions& o) {
    check_writable(o.out);
    const Converted c = convert(o);
    write_file_atomically(o.out, c.bytes);
    print_written(o.out, c);
}

// Refuses `path`, named *.fcorpus in a chunks folder, unless it is a regular file (or a link to
// one): a folder or a dangling link there is no chunk.
void require_chunk_file(const std::filesystem::path& path) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_regular_file(st)) return;
    const bool link = std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec));
    throw std::runtime_error(path.string() + ": " +
                             (std::filesystem::is_directory(st) ? "a folder"
                              : link                            ? "a link to no file"
                                                                : "not a regular file") +
                             ", not a corpus chunk; remove or rename it");
}

// The chunks NAME-000.fcorpus, NAME-001.fcorpus, ... in `dir`, in order, up to the first number
// missing.
std::vector<std::string> chunk_files(const std::string& dir, const std::string& name) {
    std::vector<std::string> files;
    for (int k = 0;; ++k) {
        char number[16];
        std::snprintf(number, sizeof number, "%03d", k);
        const std::string path = dir + "/" + name + "-" + number + ".fcorpus";
        std::error_code ec;
        if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return files;
        require_chunk_file(path);
        files.push_back(path);
    }
}

// The next chunk of a run: the games of RUN/games.tsv after the last game the chunks hold.
void run_next_chunk(const CorpusOptions& o) {
    if (o.name.empty() || o.name.find('/') != std::string::npos)
        throw std::invalid_argument("--name '" + o.name + "': a file name prefix, without '/'");
    if (o.min_games > o.max_games)
        throw std::invalid_argument("--min-games " + std::to_string(o.min_games) +
                                    ": above --max-games " + std::to_string(o.max_games) +
                                    " (no chunk could ever be written)");
    if (!std::filesystem::is_directory(o.into))
        throw std::runtime_error(o.into + ": not a folder (--into: the folder of the chunks)");
    // One next-chunk at a time in a folder: two at once would write the same chunk, or together
    // pass --max-bytes.
    const FolderLock lock(o.into);
    const std::vector<std::string> chunks = chunk_files(o.into, o.name);
    std::uint64_t next = 0;
    std::vector<std::pair<std::string, Rules>> chunk_rules;
    for (const std::string& path : chunks) {
        CorpusReader reader(path);
        chunk_rules.emplace_back(path, reader.rules());
        CorpusGame g;
        while (reader.next(g)) next = std::max(next, g.index + 1);
        if (!reader.tail_problem().empty())
            throw std::runtime_error(path + ": " + reader.tail_problem());
    }
    std::uint64_t held = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(o.into, ec)) {
        if (entry.path().extension() != ".fcorpus") continue;
        require_chunk_file(entry.path());
        held += std::filesystem::file_size(entry.path());
    }
    if (ec) throw std::runtime_error(o.into + ": " + ec.message());
    CorpusOptions part = o;
    part.inputs = {o.run + "/games.tsv"};
    part.from_game = next;
    part.to_game = next + o.max_games;
    char number[16];
    std::snprintf(number, sizeof number, "%03d", int(chunks.size()));
    const std::string out = o.into + "/" + o.name + "-" + number + ".fcorpus";
    check_writable(out);
    const Converted c = convert(part);
    // A chunk of another board or rules would have moved `next` past games of this run.
    for (const auto& [path, rules] : chunk_rules)
        if (rules.variant != c.rules.variant || rules.ruleset != c.rules.ruleset)
            throw std::runtime_error(path + ": header: " + rules_name(rules) + ", but " +
                                     part.inputs.front() + " is " + rules_name(c.rules) +
                                     " (the chunks of one --name hold one run's games)");
    if (c.games < o.min_games) {
        std::printf("%s: %llu games from game %llu on, fewer than --min-games %llu: no chunk "
                    "written\n",
                    part.inputs.front().c_str(), static_cast<unsigned long long>(c.games),
                    static_cast<unsigned long long>(next),
                    static_cast<unsigned long long>(o.min_games));
        return;
    }
    if (held + c.bytes.size() > o.max_bytes)
        throw std::runtime_error(out + ": " + std::to_string(c.bytes.size()) +
                                 " bytes would take " + o.into + "'s corpus files to " +
                                 std::to_string(held + c.bytes.size()) +
                                 " bytes, past --max-bytes " + std::to_string(o.max_bytes));
    write_file_atomically(out, c.bytes);
    print_written(out, c);
    std::printf("games %llu to %llu; %s's corpus files now hold %llu bytes\n",
                static_cast<unsigned long long>(next),
                static_cast<unsigned long long>(next + c.games - 1), o.into.c_str(),
                static_cast<unsigned long long>(held + c.bytes.size()));
}

// What corpus files hold, counted by reading them whole: a value that adds up over files.
// Invariant: scored <= positions; bytes counts the intact part only.
struct CorpusCount {
    std::uint64_t files = 0, blocks = 0, games = 0, vela_games = 0, turns = 0, positions = 0,
                  scored = 0, bytes = 0;

    CorpusCount& operator+=(const CorpusCount& o) {
        files += o.files, blocks += o.blocks, games += o.games, vela_games += o.vela_games;
        turns += o.turns, positions += o.positions, scored += o.scored, bytes += o.bytes;
        return *this;
    }
    double bytes_per_position() const { return positions ? double(bytes) / double(positions) : 0; }
    nlohmann::json to_json() const {
        return {{"files", files},
                {"blocks", blocks},
                {"games", games},
                {"vela_games", vela_games},
                {"turns", turns},
                {"positions", positions},
                {"scored_positions", scored},
                {"bytes", bytes},
                {"bytes_per_position", bytes_per_position()}};
    }
};

// One corpus file read whole: its count, its rules and what ends its intact part (a torn or
// corrupted tail, said on stderr: the games before it are counted).
struct CorpusFileCount {
    std::string file;
    Rules rules;
    CorpusCount count;
    std::string tail_problem;
};

CorpusFileCount count_corpus_file(const std::string& path) {
    CorpusReader reader(path);
    CorpusGame g;
    CorpusFileCount c{path, reader.rules(), {}, {}};
    while (reader.next(g)) {
        c.count.positions += g.positions();
        c.count.turns += g.moves.size();
        for (const auto& s : g.scores) c.count.scored += s.has_value();
        c.count.scored += g.end_score.has_value();
        c.count.vela_games += g.ruleset == RuleSet::Vela;
    }
    c.count.files = 1;
    c.count.blocks = reader.blocks();
    c.count.games = reader.games();
    c.count.bytes = reader.valid_bytes();
    c.tail_problem = reader.tail_problem();
    if (!c.tail_problem.empty()) {
        std::error_code ec;
        const std::uint64_t size = std::filesystem::file_size(path, ec);
        std::fprintf(stderr,
                     "fanorona: %s: %s; the %llu intact games before it were read (%llu bytes "
                     "dropped)\n",
                     path.c_str(), c.tail_problem.c_str(),
                     static_cast<unsigned long long>(c.count.games),
                     static_cast<unsigned long long>(size - c.count.bytes));
    }
    return c;
}

// One file: its count as a block of lines (or one JSON object). Several files, or a folder's: a
// line each and their total (or {"files": [...], "total": {...}}).
void run_info(const CorpusOptions& o) {
    const std::vector<std::string> files = corpus_input_files(o.files);
    const bool one = o.files.size() == 1 && files.size() == 1 && files.front() == o.files.front();
    std::vector<CorpusFileCount> counts;
    CorpusCount total;
    for (const std::string& file : files) {
        counts.push_back(count_corpus_file(file));
        total += counts.back().count;
    }
    auto file_json = [](const CorpusFileCount& c) {
        nlohmann::json j = {{"file", c.file},
                            {"variant", variant_name(c.rules.variant)},
                            {"rules", ruleset_name(c.rules.ruleset)}};
        j.update(c.count.to_json());
        j.erase("files");
        j["tail_problem"] = c.tail_problem;
        return j;
    };
    if (o.json) {
        nlohmann::json j;
        if (one) {
            j = file_json(counts.front());
        } else {
            j = {{"files", nlohmann::json::array()}, {"total", total.to_json()}};
            for (const CorpusFileCount& c : counts) j["files"].push_back(file_json(c));
        }
        std::printf("%s\n", to_json_text(j, 1).c_str());
        return;
    }
    if (one) {
        const CorpusFileCount& c = counts.front();
        std::printf("file        %s (corpus version %d)\n", c.file.c_str(), int(kCorpusVersion));
        std::printf("rules       %s\n", rules_name(c.rules).c_str());
        std::printf("blocks      %llu\n", static_cast<unsigned long long>(c.count.blocks));
        std::printf("games       %llu (%llu under Vela rules)\n",
                    static_cast<unsigned long long>(c.count.games),
                    static_cast<unsigned long long>(c.count.vela_games));
        std::printf("positions   %llu (%llu with a score)\n",
                    static_cast<unsigned long long>(c.count.positions),
                    static_cast<unsigned long long>(c.count.scored));
        std::printf("bytes       %llu (%.3f a position)\n",
                    static_cast<unsigned long long>(c.count.bytes), c.count.bytes_per_position());
        return;
    }
    std::size_t width = std::string("total").size();
    for (const CorpusFileCount& c : counts) width = std::max(width, c.file.size());
    auto line = [&](const std::string& name, const CorpusCount& c) {
        std::printf("%-*s %9llu %11llu %11llu %11llu %6.3f\n", int(width), name.c_str(),
                    static_cast<unsigned long long>(c.games),
                    static_cast<unsigned long long>(c.positions),
                    static_cast<unsigned long long>(c.scored),
                    static_cast<unsigned long long>(c.bytes), c.bytes_per_position());
    };
    std::printf("%-*s %9s %11s %11s %11s %6s\n", int(width), "file", "games", "positions", "scored",
                "bytes", "b/pos");
    for (const CorpusFileCount& c : counts) line(c.file, c.count);
    line("total", total);
}

} // namespace

void add_corpus_command(CLI::App& app) {
    auto o = std::make_shared<CorpusOptions>();
    auto* cmd = app.add_subcommand(
        "corpus", "Corpus files: games chained turn by turn in compressed blocks, about 1.2 bytes "
                  "a position (docs/formats.md)");
    cmd->require_subcommand(1);
    auto* convert = cmd->add_subcommand(
        "convert", "Write a corpus from games files (games.tsv: every turn, with its score) and "
                   "positions logs (positions.bin: the logged positions, chained where one turn "
                   "apart)");
    declare_path(
        convert
            ->add_option("inputs", o->inputs,
                         "Games files and positions logs (told apart by their first bytes), all of "
                         "one board and rules")
            ->required(),
        PathRole::InputFile);
    declare_path(
        convert->add_option("--out", o->out, "The corpus file to write (atomically)")->required(),
        PathRole::OutputFile);
    convert->add_option("--from-game", o->from_game,
                        "Only the games whose index is this or more (a run's next chunk: the "
                        "number of games in the chunks before it)");
    convert->add_option("--to-game", o->to_game, "Only the games whose index is below this");
    convert->callback([o] { run_convert(*o); });
    auto* chunk = cmd->add_subcommand(
        "next-chunk",
        "Write the next chunk of a self-play run's corpus: the games of RUN/games.tsv after the "
        "last game of the chunks DIR/NAME-000.fcorpus, NAME-001.fcorpus, ..., as the next "
        "number (data/corpus/README.md); nothing when fewer than --min-games are ready");
    declare_path(chunk->add_option("run", o->run, "The run folder (it may be running)")->required(),
                 PathRole::InputFolder);
    declare_path(
        chunk->add_option("--into", o->into, "The folder of the chunks")->capture_default_str(),
        PathRole::OutputFolder);
    chunk
        ->add_option("--name", o->name,
                     "The chunks' name before -NNN.fcorpus, e.g. "
                     "tsivy-gen4-n20000-s7")
        ->required();
    chunk->add_option("--min-games", o->min_games, "The fewest games a chunk holds")
        ->capture_default_str();
    chunk->add_option("--max-games", o->max_games, "The most games a chunk holds")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
    declare_path(
        chunk
            ->add_option("--max-bytes", o->max_bytes,
                         "Refuse a chunk that would take the folder's corpus files past this many "
                         "bytes (the repository's cap: 64 MB)")
            ->capture_default_str(),
        PathRole::NotAPath);
    chunk->callback([o] { run_next_chunk(*o); });
    auto* info = cmd->add_subcommand(
        "info", "Read whole corpus files and print what they hold: rules, blocks, games, "
                "positions (and those with a search score) and bytes a position");
    declare_path(
        info->add_option(
                "inputs", o->files,
                "Corpus files, or folders of corpus files (every *.fcorpus "
                "inside, in natural name order: s9 before s10): several files get a line each and "
                "their total")
            ->required(),
        PathRole::InputFile);
    info->add_flag("--json", o->json, "Print it as JSON");
    info->callback([o] { run_info(*o); });
}

} // namespace fanorona::cli
