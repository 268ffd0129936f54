// `fanorona dump`: a positions log or a corpus file (told apart by their magic) as text or CSV,
// so it can be loaded anywhere.

#include <cstdio>
#include <fstream>
#include <memory>

#include "core/board/notation.h"
#include "selfplay/formats/corpus_file.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/position_log.h"
#include "tools/commands.h"
#include "tools/paths.h"

namespace fanorona::cli {

namespace {

struct DumpOptions {
    std::string file;
    bool csv = false;
    std::uint64_t limit = 0;
};

// Whether `path` starts with the corpus file's magic.
bool is_corpus(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(kCorpusMagic.size(), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    return in && head == kCorpusMagic;
}

// A corpus: every position (where a turn was played, or a chain's scored end), with its turn.
void run_corpus(const DumpOptions& o) {
    CorpusPositionReader reader(o.file);
    const Rules file_rules = reader.games().rules();
    std::uint64_t shown = 0;
    if (o.csv) std::printf("game,turn,side,score,result,turns_since_capture,rules,move,position\n");
    CorpusPosition p;
    while ((!o.limit || shown < o.limit) && reader.next(p)) {
        ++shown;
        Rules rules = file_rules;
        rules.ruleset = p.ruleset;
        const std::string fen = p.position.to_string();
        const std::string result(result_name(p.result));
        const std::string score = p.score ? std::to_string(*p.score) : (o.csv ? "" : "-");
        const std::string move = p.move ? move_to_string(p.position, rules, *p.move) : "-";
        const std::string ruleset(ruleset_name(p.ruleset));
        if (o.csv)
            std::printf("%llu,%d,%c,%s,%s,%d,%s,%s,%s\n", static_cast<unsigned long long>(p.game),
                        p.position.turn(), p.position.side_to_move() == Color::White ? 'w' : 'b',
                        score.c_str(), result.c_str(), p.position.turns_since_capture(),
                        ruleset.c_str(), move.c_str(), fen.c_str());
        else
            std::printf("game %llu turn %d score %s result %s move %s  %s\n",
                        static_cast<unsigned long long>(p.game), p.position.turn(), score.c_str(),
                        result.c_str(), move.c_str(), fen.c_str());
    }
    const CorpusReader& games = reader.games();
    if (!games.tail_problem().empty())
        std::fprintf(stderr, "fanorona: %s: %s; the %llu intact games before it were read\n",
                     o.file.c_str(), games.tail_problem().c_str(),
                     static_cast<unsigned long long>(games.games()));
}

void run(const DumpOptions& o) {
    if (is_corpus(o.file)) return run_corpus(o);
    const Variant variant = read_position_log_header(o.file).variant;
    std::uint64_t shown = 0;
    if (o.csv) std::printf("game,turn,side,score,depth,result,turns_since_capture,position\n");
    const PositionLog log = scan_position_log(o.file, [&](const std::vector<PositionRecord>& recs) {
        for (const PositionRecord& r : recs) {
            if (o.limit && shown >= o.limit) return;
            ++shown;
            const std::string fen = r.position(variant).to_string();
            const std::string result(result_name(r.result));
            if (o.csv)
                std::printf("%u,%u,%c,%d,%u,%s,%u,%s\n", r.game_index, r.turn,
                            r.side_to_move == Color::White ? 'w' : 'b', r.score, r.depth,
                            result.c_str(), r.turns_since_capture, fen.c_str());
            else
                std::printf("game %u turn %u score %d depth %u result %s  %s\n", r.game_index,
                            r.turn, r.score, r.depth, result.c_str(), fen.c_str());
        }
    });
    if (!log.tail_problem.empty())
        std::fprintf(stderr, "fanorona: %s: %s; the %llu intact games before it were read\n",
                     o.file.c_str(), log.tail_problem.c_str(),
                     static_cast<unsigned long long>(log.chunks));
}

} // namespace

void add_dump_command(CLI::App& app) {
    auto o = std::make_shared<DumpOptions>();
    auto* cmd = app.add_subcommand(
        "dump",
        "Print a positions log (positions.bin) or a corpus file (corpus.fcorpus) as text or CSV");
    declare_path(cmd->add_option("file", o->file,
                                 "The positions log or corpus file (told apart by its first bytes)")
                     ->required(),
                 PathRole::InputFile);
    cmd->add_flag("--csv", o->csv, "CSV with a header line instead of text");
    cmd->add_option("--limit", o->limit, "Print at most this many positions (0: all)");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
