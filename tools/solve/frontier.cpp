// The positions of a frontier, their solves, their summaries and their CSV (see frontier.h).

#include "tools/solve/frontier.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <tbb/parallel_for.h>

#include "core/board/movegen.h"
#include "core/board/notation.h"
#include "core/common/files.h"
#include "core/common/fork_join.h"
#include "core/common/rng.h"
#include "core/solver/pns_unit.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/games_file.h"

namespace fanorona::cli {

namespace {

// The game the solvers play: standard rules, no repetition or no-capture ending.
Rules solver_rules(Variant v) {
    Rules r{v};
    r.repetition_count = 0;
    r.no_capture_limit = 0;
    return r;
}

void add_tree(const Position& pos, const std::string& line, int turns, int depth, int parent,
              std::vector<FrontierPosition>& out) {
    const Rules rules = solver_rules(pos.variant());
    MoveList moves;
    generate_moves(pos, rules, moves);
    for (const Move& m : moves) {
        FrontierPosition p;
        p.group = "tree";
        p.turns = turns;
        p.source = (line.empty() ? "" : line + " ") + move_to_string(pos, rules, m);
        p.parent = parent;
        p.pos = pos;
        p.pos.make_move(m);
        out.push_back(p);
        if (turns < depth) add_tree(p.pos, p.source, turns + 1, depth, int(out.size()) - 1, out);
    }
}

// A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// The fields of one CSV line (quoted fields as csv_field writes them); false when malformed.
bool csv_split(const std::string& line, std::vector<std::string>& fields) {
    fields.assign(1, "");
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"')
                fields.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += '"', ++i;
            else
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return !quoted;
}

constexpr const char* kCsvHeader = "group,turns,source,position,value,lower,upper,nodes,seconds";

} // namespace

std::vector<FrontierPosition> tree_positions(const Position& root, int depth) {
    std::vector<FrontierPosition> out;
    if (depth > 0) add_tree(root, "", 1, depth, -1, out);
    return out;
}

std::vector<ValueBounds> back_up(const std::vector<FrontierPosition>& tree, ValueBounds& root) {
    // From the children: lo = best of -child.hi, hi = best of -child.lo (all children listed).
    std::vector<ValueBounds> from(tree.size(), ValueBounds{-1, -1});
    std::vector<char> has(tree.size(), 0);
    std::vector<ValueBounds> out(tree.size());
    ValueBounds top{-1, -1};
    for (std::size_t k = tree.size(); k-- > 0;) { // children after their parent
        ValueBounds v = tree[k].value;
        if (has[k]) {
            v.lo = std::max(v.lo, from[k].lo);
            v.hi = std::min(v.hi, from[k].hi);
        }
        if (v.lo > v.hi) v = tree[k].value; // cannot happen with sound proofs; trust the search
        out[k] = v;
        ValueBounds& up = tree[k].parent < 0 ? top : from[std::size_t(tree[k].parent)];
        up.lo = std::max(up.lo, -v.hi);
        up.hi = std::max(up.hi, -v.lo);
        if (tree[k].parent >= 0) has[std::size_t(tree[k].parent)] = 1;
    }
    root = tree.empty() ? ValueBounds{} : top;
    return out;
}

std::vector<TurnSample> sample_positions(const std::vector<std::string>& files, Variant v,
                                         const std::vector<int>& turns, int samples,
                                         std::uint64_t seed) {
    struct Source {
        std::size_t file;
        const GameRecord* game;
    };
    std::vector<GamesFile> read(files.size());
    std::vector<Source> games;
    int longest = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        try {
            read[f] = read_games_file(files[f]);
        } catch (const std::exception& e) {
            throw std::invalid_argument(e.what());
        }
        const GamesHeader& h = read[f].header;
        if (h.variant != v)
            throw std::invalid_argument(files[f] + ": games of " +
                                        std::string(variant_name(h.variant)) + ", not --variant " +
                                        std::string(variant_name(v)));
        if (h.ruleset != RuleSet::Standard)
            throw std::invalid_argument(files[f] + ": games under the " +
                                        std::string(ruleset_name(h.ruleset)) +
                                        " rules (the solver handles the standard rules only)");
        for (const GameRecord& g : read[f].games)
            if (g.kind == GameKind::Normal) {
                games.push_back({f, &g});
                longest = std::max(longest, int(g.moves.size()));
            }
    }
    std::vector<TurnSample> out;
    for (int t : turns) {
        TurnSample s;
        s.turns = t;
        std::vector<std::size_t> eligible;
        for (std::size_t i = 0; i < games.size(); ++i)
            if (int(games[i].game->moves.size()) > t) eligible.push_back(i);
        if (eligible.empty())
            throw std::invalid_argument(
                "--turns " + std::to_string(t) + ": no game of the games files goes on past turn " +
                std::to_string(t) + " (the longest has " + std::to_string(longest) + " turns)");
        s.eligible = eligible.size();
        Rng rng = Rng::derive(seed, 0x46524f4e54ULL /* "FRONT" */, std::uint64_t(t));
        rng.shuffle(eligible);
        eligible.resize(std::min(eligible.size(), std::size_t(samples)));
        std::sort(eligible.begin(), eligible.end());
        for (std::size_t i : eligible) {
            const Source& src = games[i];
            const std::string where = files[src.file] + ": game " + std::to_string(src.game->index);
            FrontierPosition p;
            p.group = "turn";
            p.turns = t;
            p.source = files[src.file] + "#" + std::to_string(src.game->index);
            try {
                p.pos = replay_game(*src.game, read[src.file].header.rules(), where, std::size_t(t))
                            .position();
            } catch (const std::exception& e) {
                throw std::invalid_argument(e.what());
            }
            s.positions.push_back(p);
        }
        out.push_back(std::move(s));
    }
    return out;
}

void solve_positions(const std::vector<FrontierPosition*>& todo, const PnsRootConfig& cfg,
                     ProofStore& store, const std::function<void(FrontierPosition&)>& finished) {
    std::vector<FrontierPosition*> open;
    for (FrontierPosition* p : todo)
        if (!p->solved) open.push_back(p);
    std::mutex mutex;
    // Only the bounds the run started with: a position's result depends on nothing else.
    PnsUnitSettings settings;
    settings.hash_mb = cfg.hash_mb;
    settings.tables = cfg.tables;
    settings.initial = &store.initial();
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    tbb::parallel_for(0, int(open.size()), 1, fork_join.body([&](int i) {
        FrontierPosition& p = *open[std::size_t(i)];
        PnsLimits limits;
        limits.max_nodes = cfg.max_nodes;
        limits.max_seconds = cfg.max_seconds;
        limits.poll_seconds = std::min(0.25, cfg.proof_interval);
        auto last_merge = std::chrono::steady_clock::now();
        PnsUnitResult r = solve_pns_unit(
            p.pos, settings, PnsQuestion::Value, limits, [&](const ProofSearch& searcher) {
                const auto now = std::chrono::steady_clock::now();
                if (!cfg.proof.empty() &&
                    std::chrono::duration<double>(now - last_merge).count() >= cfg.proof_interval) {
                    store.merge(searcher);
                    last_merge = now;
                }
                return false;
            });
        if (!cfg.proof.empty()) store.merge(r.proven);
        std::lock_guard lock(mutex);
        p.value = r.value;
        p.nodes = r.nodes;
        p.seconds = r.seconds;
        p.solved = true;
        if (finished) finished(p);
    }));
    fork_join.joined();
}

FrontierSummary summarize(const std::vector<const FrontierPosition*>& positions,
                          const std::vector<ValueBounds>& values) {
    FrontierSummary s;
    s.positions = positions.size();
    std::vector<double> seconds;
    std::vector<std::uint64_t> nodes;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const ValueBounds& v = values[i];
        if (!v.exact()) continue;
        ++s.proven;
        (v.lo > 0 ? s.wins : v.lo == 0 ? s.draws : s.losses)++;
        seconds.push_back(positions[i]->seconds);
        nodes.push_back(positions[i]->nodes);
    }
    if (seconds.empty()) return s;
    std::sort(seconds.begin(), seconds.end());
    std::sort(nodes.begin(), nodes.end());
    const std::size_t n = seconds.size();
    s.median_seconds = n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
    s.median_nodes = n % 2 ? nodes[n / 2] : (nodes[n / 2 - 1] + nodes[n / 2]) / 2;
    s.max_seconds = seconds.back();
    s.max_nodes = nodes.back();
    return s;
}

FrontierCsvRows parse_frontier_csv(const std::string& text, const std::string& path,
                                   const std::string& settings) {
    const std::string first = "# fanorona frontier 1: " + settings;
    FrontierCsvRows out;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    const auto bad = [&](const std::string& why) {
        return std::invalid_argument("--csv-out: " + path + ":" + std::to_string(number) + ": " +
                                     why);
    };
    while (std::getline(in, line)) {
        ++number;
        if (number == 1) {
            if (line != first)
                throw bad("written with other settings ('" + line + "', now '" + first +
                          "'); give another file");
            continue;
        }
        if (number == 2) {
            if (line != kCsvHeader)
                throw bad("not the header line '" + std::string(kCsvHeader) + "'");
            continue;
        }
        std::vector<std::string> f;
        if (!csv_split(line, f) || f.size() != 9) throw bad("expected 9 fields");
        // Every field checked before a row is trusted: a reused row stands for a solve.
        FrontierPosition p;
        p.group = f[0];
        p.source = f[2];
        if (p.group != "tree" && p.group != "turn")
            throw bad("group: expected tree or turn, found '" + f[0] + "'");
        const auto whole = [&](const std::string& field, const char* name, long long lo,
                               long long hi) {
            long long v = 0;
            const char* end = field.data() + field.size();
            const auto [at, error] = std::from_chars(field.data(), end, v);
            if (field.empty() || error != std::errc() || at != end || v < lo || v > hi)
                throw bad(std::string(name) + ": expected a whole number from " +
                          std::to_string(lo) + " to " + std::to_string(hi) + ", found '" + field +
                          "'");
            return v;
        };
        p.turns = int(whole(f[1], "turns", 0, 1000000));
        p.value = {int(whole(f[5], "lo", -1, 1)), int(whole(f[6], "hi", -1, 1))};
        if (p.value.lo > p.value.hi) throw bad("bounds: lo " + f[5] + " above hi " + f[6]);
        const std::string shown = p.value.exact() ? value_text(p.value) : "unknown";
        if (f[4] != shown)
            throw bad("value: '" + f[4] + "' does not match the bounds " + f[5] + "," + f[6] +
                      " ('" + shown + "')");
        p.nodes = std::uint64_t(whole(f[7], "nodes", 0, std::numeric_limits<long long>::max()));
        try {
            std::size_t used = 0;
            p.seconds = std::stod(f[8], &used);
            if (used != f[8].size() || !(p.seconds >= 0)) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw bad("seconds: expected a non-negative number, found '" + f[8] + "'");
        }
        p.solved = true;
        out.rows.push_back(std::move(p));
        out.positions.push_back(f[3]);
    }
    return out;
}

FrontierCsv::FrontierCsv(const std::string& path, const std::string& settings) : path_(path) {
    const std::string first = "# fanorona frontier 1: " + settings;
    bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    if (!fresh) {
        std::string text;
        try {
            text = read_text_file(path, kFrontierCsvLimits);
        } catch (const FileError& e) {
            throw std::invalid_argument("--csv-out: " + std::string(e.what()));
        }
        // A torn last line (a run killed while appending) is dropped.
        const std::size_t end = text.rfind('\n');
        const std::size_t keep = end == std::string::npos ? 0 : end + 1;
        if (keep < text.size()) {
            std::filesystem::resize_file(path, keep);
            text.resize(keep);
        }
        FrontierCsvRows read = parse_frontier_csv(text, path, settings);
        rows_ = std::move(read.rows);
        positions_ = std::move(read.positions);
        fresh = text.empty();
    }
    try {
        file_ = AppendFile(path, false);
        if (fresh) file_.append(first + "\n" + kCsvHeader + "\n");
    } catch (const FileError& e) {
        throw std::invalid_argument("--csv-out: " + std::string(e.what()));
    }
}

bool FrontierCsv::reuse(FrontierPosition& p) const {
    const std::string pos = p.pos.to_string();
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const FrontierPosition& r = rows_[i];
        if (r.group == p.group && r.turns == p.turns && r.source == p.source &&
            positions_[i] == pos) {
            p.value = r.value;
            p.nodes = r.nodes;
            p.seconds = r.seconds;
            p.solved = p.reused = true;
            return true;
        }
    }
    return false;
}

void FrontierCsv::append(const FrontierPosition& p) {
    if (!file_.is_open()) return;
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%d,%d,%llu,%.3f", p.value.lo, p.value.hi,
                  (unsigned long long)p.nodes, p.seconds);
    file_.append(csv_field(p.group) + "," + std::to_string(p.turns) + "," + csv_field(p.source) +
                 "," + csv_field(p.pos.to_string()) + "," +
                 (p.value.exact() ? value_text(p.value) : "unknown") + "," + numbers + "\n");
}

} // namespace fanorona::cli
