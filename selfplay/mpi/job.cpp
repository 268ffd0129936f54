#include "selfplay/mpi/job.h"

#include <cstring>
#include <stdexcept>

#include "core/board/notation.h"
#include "selfplay/engine/engine_spec_json.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/mpi/bytes.h"
#include "selfplay/mpi/identity.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

Json encode_openings(const std::vector<Opening>& openings, const Rules& rules) {
    Json lines = Json::array();
    for (const Opening& o : openings) {
        Json moves = Json::array();
        Position p = o.start;
        for (const Move& m : o.moves) {
            moves.push_back(move_to_string(p, rules, m));
            p.make_move(m);
        }
        lines.push_back({{"start", o.start.to_string()}, {"moves", moves}});
    }
    return lines;
}

std::vector<Opening> decode_openings(const Json& lines, const Rules& rules) {
    std::vector<Opening> openings;
    for (const Json& o : lines) {
        Opening op{Position::from_string(o.at("start").get<std::string>(), rules.variant), {}};
        Position p = op.start;
        for (const Json& m : o.at("moves")) {
            op.moves.push_back(parse_move(p, rules, m.get<std::string>()));
            p.make_move(op.moves.back());
        }
        openings.push_back(std::move(op));
    }
    return openings;
}

// A run's openings: lazy random openings as their plies and seed (the ranks draw the same
// ones), a list as its openings.
Json encode_run_openings(const RunOpenings& openings, const Rules& rules) {
    if (openings.random_plies() >= 0)
        return {{"random_plies", openings.random_plies()}, {"seed", openings.random_seed()}};
    return encode_openings(openings.list(), rules);
}

RunOpenings decode_run_openings(const Json& j, const Rules& rules) {
    if (j.is_object())
        return RunOpenings::random(rules, j.at("random_plies").get<int>(),
                                   j.at("seed").get<std::uint64_t>());
    return RunOpenings(decode_openings(j, rules));
}

} // namespace

Json encode_job(const RunConfig& c, const RunOpenings& openings, const RunOpenings& vela_openings) {
    Json players = Json::array();
    for (const EngineSpec& p : c.players) players.push_back(Json(p));
    Rules vela_rules = c.rules;
    vela_rules.ruleset = RuleSet::Vela;
    Json j = {{"players", players},
              {"pairing", int(c.pairing)},
              {"games", c.games},
              {"seed", c.seed},
              {"adjudication",
               {c.adjudication.max_turns, c.adjudication.win_margin, c.adjudication.win_turns,
                c.adjudication.draw_margin, c.adjudication.draw_turns, c.adjudication.draw_after}},
              {"adjudicate_tables", c.adjudication.tables_dir},
              {"epsilon", c.exploration.epsilon},
              {"explore_turns", c.exploration.turns},
              {"log_positions", c.log_positions},
              {"threads", c.threads},
              {"vela_series", c.vela_series},
              {"openings", encode_run_openings(openings, c.rules)},
              {"vela_openings", encode_run_openings(vela_openings, vela_rules)},
              {"fingerprints", run_fingerprints(c)}};
    put_rules(j, c.rules);
    return j;
}

GamesJob decode_job(const Json& j) {
    GamesJob job;
    RunConfig& c = job.config;
    c.rules = rules_from_json(j);
    c.players = j.at("players").get<std::vector<EngineSpec>>();
    c.pairing = Pairing(j.at("pairing").get<int>());
    c.games = j.at("games").get<std::uint64_t>();
    c.seed = j.at("seed").get<std::uint64_t>();
    const auto adj = j.at("adjudication").get<std::vector<int>>();
    if (adj.size() != 6) throw std::invalid_argument("job: adjudication needs six numbers");
    c.adjudication = AdjudicationConfig{};
    c.adjudication.max_turns = adj[0];
    c.adjudication.win_margin = adj[1];
    c.adjudication.win_turns = adj[2];
    c.adjudication.draw_margin = adj[3];
    c.adjudication.draw_turns = adj[4];
    c.adjudication.draw_after = adj[5];
    if (j.contains("adjudicate_tables"))
        open_adjudication_tables(c.adjudication, j.at("adjudicate_tables").get<std::string>());
    c.exploration.epsilon = j.at("epsilon").get<double>();
    c.exploration.turns = j.at("explore_turns").get<int>();
    c.log_positions = j.at("log_positions").get<bool>();
    c.threads = j.at("threads").get<int>();
    c.vela_series = j.at("vela_series").get<bool>();
    Rules vela_rules = c.rules;
    vela_rules.ruleset = RuleSet::Vela;
    job.openings = decode_run_openings(j.at("openings"), c.rules);
    job.vela_openings = decode_run_openings(j.at("vela_openings"), vela_rules);
    // What the players and adjudication read here (a network, tables) must be what rank 0 read.
    check_job_fingerprints(j, run_fingerprints(c));
    return job;
}

void append_game_bytes(std::string& out, std::uint64_t position, const PlayedGame& game) {
    const std::string line = format_game_record(game.record, true); // with kind and beneficiary
    put_bytes<std::uint64_t>(out, position);
    put_bytes<std::uint32_t>(out, std::uint32_t(line.size()));
    out += line;
    put_bytes<std::uint32_t>(out, std::uint32_t(game.positions.size()));
    for (const PositionRecord& r : game.positions) {
        const auto bytes = encode_record(r);
        out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    put_bytes<std::uint32_t>(out, std::uint32_t(game.fault.size()));
    out += game.fault;
}

std::vector<std::pair<std::uint64_t, PlayedGame>> decode_game_bytes(const std::string& in) {
    std::vector<std::pair<std::uint64_t, PlayedGame>> games;
    std::size_t at = 0;
    while (at < in.size()) {
        const auto position = take_bytes<std::uint64_t>(in, at, "games message");
        const auto length = take_bytes<std::uint32_t>(in, at, "games message");
        if (at + length > in.size()) throw std::runtime_error("games message: truncated line");
        std::string line = in.substr(at, length);
        at += length;
        if (!line.empty() && line.back() == '\n') line.pop_back();
        PlayedGame g;
        g.record = parse_game_record(line, "games message");
        const auto records = take_bytes<std::uint32_t>(in, at, "games message");
        if (at + std::size_t(records) * kPositionRecordBytes > in.size())
            throw std::runtime_error("games message: truncated positions");
        for (std::uint32_t k = 0; k < records; ++k) {
            g.positions.push_back(
                decode_record(reinterpret_cast<const std::uint8_t*>(in.data() + at)));
            at += kPositionRecordBytes;
        }
        const auto fault_length = take_bytes<std::uint32_t>(in, at, "games message");
        if (at + fault_length > in.size())
            throw std::runtime_error("games message: truncated fault");
        g.fault = in.substr(at, fault_length);
        at += fault_length;
        games.emplace_back(position, std::move(g));
    }
    return games;
}

} // namespace fanorona
