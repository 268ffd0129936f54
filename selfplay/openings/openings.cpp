#include "selfplay/openings/openings.h"

#include <mutex>
#include <sstream>
#include <unordered_set>

#include "core/board/notation.h"
#include "core/board/playout.h"
#include "core/board/replay.h"
#include "core/common/files.h"
#include "core/common/rng.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

OpeningSpec OpeningSpec::parse(const std::string& text) {
    OpeningSpec s;
    if (text.empty() || text == "start") return s;
    if (text.rfind("random:", 0) == 0) {
        const std::string n = text.substr(7);
        if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument("--openings: expected random:TURNS with TURNS a number "
                                        "from 0 to 999, found '" +
                                        text + "'");
        s.kind = Kind::Random;
        s.plies = std::stoi(n);
        return s;
    }
    s.kind = Kind::File;
    s.path = text;
    return s;
}

std::string OpeningSpec::describe() const {
    switch (kind) {
    case Kind::Start:
        return "start";
    case Kind::Random:
        return "random:" + std::to_string(plies);
    case Kind::File:
        return path;
    }
    return "start";
}

// Draws random openings one after the other: each a random walk of `plies` turns from the start
// (attempt after attempt from the seed's streams) until one ends in a final position not seen
// before, or the attempts run out. (Not in an anonymous namespace: RunOpenings::State holds one.)
class RandomOpeningDraw {
public:
    RandomOpeningDraw(const Rules& rules, int plies, std::uint64_t seed)
        : rules_(rules), plies_(plies), seed_(seed), start_(Position::start(rules.variant)) {}

    Opening next() {
        constexpr int kAttempts = 64;
        Opening chosen;
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            Rng rng = Rng::derive(seed_, 0x0FE4, stream_++);
            Game game(rules_, start_);
            // The walk goes on through a draw on the way; only its last position must go on.
            const int played = random_playout(game, {.max_turns = plies_, .stop_when_over = false},
                                              [&rng](const Game&, const MoveList& list) {
                                                  return rng.below(std::uint64_t(list.size()));
                                              });
            if (played < plies_ || game.outcome().over()) continue;
            chosen = Opening{start_, game.moves()};
            if (used_.insert(game.position().hash()).second) break; // new final position
        }
        if (chosen.moves.size() != std::size_t(plies_) && plies_ > 0)
            throw std::runtime_error("could not find a random opening of " +
                                     std::to_string(plies_) + " turns that does not end the game");
        return chosen;
    }
    int plies() const { return plies_; }
    std::uint64_t seed() const { return seed_; }

private:
    Rules rules_;
    int plies_;
    std::uint64_t seed_;
    Position start_;
    std::uint64_t stream_ = 0;
    std::unordered_set<Key> used_;
};

std::vector<Opening> random_openings(const Rules& rules, int plies, std::uint64_t pairs,
                                     std::uint64_t seed) {
    RandomOpeningDraw draw(rules, plies, seed);
    std::vector<Opening> result;
    for (std::uint64_t p = 0; p < pairs; ++p) result.push_back(draw.next());
    return result;
}

// A RunOpenings' openings: a list, or a draw and the openings drawn so far (under the mutex).
struct RunOpenings::State {
    std::vector<Opening> list;
    std::unique_ptr<RandomOpeningDraw> draw;
    std::mutex mutex;
};

RunOpenings::RunOpenings(std::vector<Opening> list) {
    if (list.empty()) return;
    state_ = std::make_shared<State>();
    state_->list = std::move(list);
}

RunOpenings RunOpenings::random(const Rules& rules, int plies, std::uint64_t seed) {
    RunOpenings r;
    r.state_ = std::make_shared<State>();
    r.state_->draw = std::make_unique<RandomOpeningDraw>(rules, plies, seed);
    return r;
}

Opening RunOpenings::at(std::uint64_t pair) const {
    if (!state_) throw std::logic_error("RunOpenings: no openings");
    if (!state_->draw) return state_->list[pair % state_->list.size()];
    const std::lock_guard<std::mutex> lock(state_->mutex);
    while (state_->list.size() <= pair) state_->list.push_back(state_->draw->next());
    return state_->list[pair];
}

int RunOpenings::random_plies() const {
    return state_ && state_->draw ? state_->draw->plies() : -1;
}

std::uint64_t RunOpenings::random_seed() const {
    return state_ && state_->draw ? state_->draw->seed() : 0;
}

const std::vector<Opening>& RunOpenings::list() const {
    static const std::vector<Opening> none;
    return state_ && !state_->draw ? state_->list : none;
}

std::vector<Opening> parse_opening_suite(const std::string& text, const Rules& rules,
                                         const std::string& source) {
    std::vector<Opening> result;
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.pop_back();
        std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        line.erase(0, first);
        const std::string where = source + ":" + std::to_string(line_no);
        if (line.find('/') != std::string::npos) {
            try {
                Opening o{Position::from_string(line, rules.variant), {}};
                if (Game(rules, o.start).outcome().over())
                    throw OpeningError(where + ": position: the game is already over there");
                result.push_back(std::move(o));
            } catch (const std::invalid_argument& e) {
                throw OpeningError(where + ": position: " + e.what());
            }
            continue;
        }
        Game game(rules, Position::start(rules.variant));
        std::istringstream words(line);
        int n = 0;
        for (std::string w; words >> w;) {
            ++n;
            try {
                play_listed_move(game, w, n);
            } catch (const ReplayError& e) {
                throw OpeningError(where + ": " + e.what());
            }
            if (game.outcome().over())
                throw OpeningError(where + ": " +
                                   ReplayError(n, w, "the game is over after it").what());
        }
        result.push_back(Opening{game.start(), game.moves()});
    }
    if (result.empty()) throw OpeningError(source + ": no openings in the file");
    return result;
}

std::vector<Opening> read_opening_file(const std::string& path, const Rules& rules) {
    std::string text;
    try {
        text = read_text_file(path, kOpeningsFileLimits);
    } catch (const FileError&) {
        throw OpeningError(path + ": cannot open the openings file");
    }
    return parse_opening_suite(text, rules, path);
}

std::vector<Opening> load_openings(const OpeningSpec& spec, const Rules& rules, std::uint64_t pairs,
                                   std::uint64_t seed) {
    switch (spec.kind) {
    case OpeningSpec::Kind::Start:
        return {Opening{Position::start(rules.variant), {}}};
    case OpeningSpec::Kind::Random:
        return random_openings(rules, spec.plies, pairs, seed);
    case OpeningSpec::Kind::File: {
        std::vector<Opening> suite = read_opening_file(spec.path, rules);
        if (spec.shuffled) Rng::derive(seed, 0x5E7, 0).shuffle(suite);
        return suite;
    }
    }
    return {};
}

RunOpenings run_openings(const OpeningSpec& spec, const Rules& rules, std::uint64_t seed) {
    if (spec.kind == OpeningSpec::Kind::Random) return RunOpenings::random(rules, spec.plies, seed);
    return RunOpenings(load_openings(spec, rules, 1, seed));
}

} // namespace fanorona
