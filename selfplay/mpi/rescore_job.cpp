#include "selfplay/mpi/rescore_job.h"

#include <stdexcept>

#include "selfplay/engine/engine_spec_json.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/mpi/bytes.h"
#include "selfplay/mpi/identity.h"

namespace fanorona {

Fingerprints rescore_fingerprints(const RescoreSettings& settings) {
    Fingerprints out;
    add_fingerprints(out, settings.engine);
    return out;
}

nlohmann::json encode_rescore_job(const Rules& corpus_rules, const RescoreSettings& settings,
                                  int threads) {
    nlohmann::json j = {{"kind", "rescore"},
                        {"engine", nlohmann::json(settings.engine)},
                        {"all", settings.all},
                        {"threads", threads},
                        {"fingerprints", rescore_fingerprints(settings)}};
    put_rules(j, corpus_rules);
    return j;
}

RescoreJob decode_rescore_job(const nlohmann::json& j) {
    RescoreJob job;
    job.rules = rules_from_json(j);
    job.settings.engine = j.at("engine").get<EngineSpec>();
    job.settings.all = j.at("all").get<bool>();
    job.threads = j.at("threads").get<int>();
    // The engine's network, tables and weights read here must be rank 0's.
    check_job_fingerprints(j, rescore_fingerprints(job.settings));
    return job;
}

void append_game_words(std::vector<std::uint64_t>& out, const CorpusGame& g, bool all) {
    out.push_back(g.index);
    out.push_back(std::uint64_t(g.ruleset) |
                  std::uint64_t(g.start.side_to_move() == Color::Black ? 1 : 0) << 2 |
                  std::uint64_t(g.end_score ? 1 : 0) << 3);
    out.push_back(g.start.pieces(Color::White));
    out.push_back(g.start.pieces(Color::Black));
    out.push_back(std::uint64_t(g.start.turns_since_capture()));
    out.push_back(std::uint64_t(g.start.turn()));
    out.push_back(g.moves.size());
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        out.push_back(g.moves[i].captured);
        out.push_back(std::uint64_t(g.moves[i].from) | std::uint64_t(g.moves[i].to) << 8 |
                      std::uint64_t(rescored(g, i, all) ? 1 : 0) << 16);
    }
}

CorpusGame take_game_words(const std::vector<std::uint64_t>& w, std::size_t& at,
                           const Rules& corpus_rules) {
    const auto take = [&] {
        if (at >= w.size()) throw std::runtime_error("rescore block: truncated game");
        return w[at++];
    };
    CorpusGame g;
    g.index = take();
    const std::uint64_t flags = take();
    if ((flags & 3) > 2 || flags >> 4) throw std::runtime_error("rescore block: unknown flags");
    g.ruleset = RuleSet(flags & 3);
    const std::uint64_t white = take(), black = take(), quiet = take(), turn = take();
    if (quiet > (1u << 30) || turn > (1u << 30))
        throw std::runtime_error("rescore block: turn counters out of range");
    g.start = Position::from_pieces(corpus_rules.variant, white, black,
                                    (flags >> 2 & 1) ? Color::Black : Color::White, int(quiet),
                                    int(turn));
    if (const std::string why = position_problem(g.start); !why.empty())
        throw std::runtime_error("rescore block: start: " + why);
    const std::uint64_t n = take();
    if (n > (w.size() - at) / 2) throw std::runtime_error("rescore block: truncated game");
    Rules rules = corpus_rules;
    rules.ruleset = g.ruleset;
    Position pos = g.start;
    MoveList list;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t captured = take(), ends = take();
        const Move m{captured, std::uint8_t(ends & 0xFF), std::uint8_t(ends >> 8 & 0xFF)};
        generate_moves(pos, rules, list);
        if (!list.contains(m) || ends >> 17)
            throw std::runtime_error("rescore block: turn " + std::to_string(i + 1) +
                                     " is not legal");
        g.moves.push_back(m);
        g.scores.push_back((ends >> 16 & 1) ? std::optional<int>(0) : std::nullopt);
        pos.make_move(m);
    }
    if (flags >> 3 & 1) g.end_score = 0;
    g.result = GameResult::Draw; // not sent: rescoring does not read it
    return g;
}

void append_rescore_result(std::string& out, std::uint64_t k, const CorpusGame& g,
                           const RescoreCount& count) {
    std::vector<int> scores;
    for (const auto& s : g.scores)
        if (s) scores.push_back(*s);
    if (g.end_score) scores.push_back(*g.end_score);
    put_bytes<std::uint64_t>(out, k);
    put_bytes<std::uint64_t>(out, count.positions);
    put_bytes<std::uint64_t>(out, count.nodes);
    put_bytes<std::uint32_t>(out, std::uint32_t(scores.size()));
    for (const int s : scores) put_bytes<std::int32_t>(out, s);
}

std::vector<RescoreResult> decode_rescore_results(const std::string& in) {
    std::vector<RescoreResult> results;
    std::size_t at = 0;
    while (at < in.size()) {
        RescoreResult r;
        r.k = take_bytes<std::uint64_t>(in, at, "rescore message");
        r.count.positions = take_bytes<std::uint64_t>(in, at, "rescore message");
        r.count.nodes = take_bytes<std::uint64_t>(in, at, "rescore message");
        const auto n = take_bytes<std::uint32_t>(in, at, "rescore message");
        if (std::size_t(n) * 4 > in.size() - at)
            throw std::runtime_error("rescore message: truncated");
        for (std::uint32_t i = 0; i < n; ++i)
            r.scores.push_back(take_bytes<std::int32_t>(in, at, "rescore message"));
        results.push_back(std::move(r));
    }
    return results;
}

CorpusGame apply_rescore_result(const CorpusGame& game, const RescoreResult& r, bool all) {
    CorpusGame out = game;
    std::size_t next = 0;
    const auto score = [&] {
        if (next >= r.scores.size())
            throw std::runtime_error("rescore message: game " + std::to_string(game.index) +
                                     ": fewer scores than searched positions");
        return std::optional<int>(r.scores[next++]);
    };
    for (std::size_t i = 0; i < game.moves.size(); ++i)
        out.scores[i] = rescored(game, i, all) ? score() : std::nullopt;
    if (rescored(game, game.moves.size(), all)) out.end_score = score();
    if (next != r.scores.size())
        throw std::runtime_error("rescore message: game " + std::to_string(game.index) +
                                 ": more scores than searched positions");
    return out;
}

} // namespace fanorona
