#include "selfplay/games/adjudication.h"

#include <algorithm>
#include <stdexcept>

#include "core/tables/tablebase.h"

namespace fanorona {

void parse_draw_adjudication(std::string_view text, AdjudicationConfig& config) {
    const auto bad = [&text](const std::string& why) {
        return std::invalid_argument("--draw-adjudicate '" + std::string(text) + "': " + why +
                                     " (give after=N,turns=M,score=S, e.g. "
                                     "after=40,turns=8,score=20)");
    };
    int score = 20;
    std::string given[3]; // the key that set after, turns and score (each may be given once)
    const auto once = [&](int which, const std::string& key) {
        if (!given[which].empty())
            throw bad(key + " given twice" +
                      (given[which] == key ? std::string() : " (as " + given[which] + ")"));
        given[which] = key;
    };
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string_view part = text.substr(at, comma - at);
        at = comma + 1;
        const std::size_t eq = part.find('=');
        if (eq == std::string_view::npos) throw bad("'" + std::string(part) + "' is not KEY=VALUE");
        const std::string key(part.substr(0, eq)), value(part.substr(eq + 1));
        std::size_t used = 0;
        long long v = -1;
        try {
            v = std::stoll(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != value.size() || v < 0 || v > 100000)
            throw bad(key + "=" + value + ": not a whole number from 0 to 100000");
        if (key == "after") {
            once(0, key);
            config.draw_after = int(v);
        } else if (key == "movenumber") { // full moves, as fastchess and cutechess count: 2 turns
            once(0, key);
            if (v > 50000) throw bad(key + "=" + value + ": not a whole number from 0 to 50000");
            config.draw_after = int(2 * v);
        } else if (key == "turns" || key == "movecount") {
            once(1, key);
            if (v < 1 || v > 1000) throw bad(key + "=" + value + ": not from 1 to 1000");
            config.draw_turns = int(v);
        } else if (key == "score") {
            once(2, key);
            if (v < 1) throw bad(key + "=" + value + ": 0 would turn it off");
            score = int(v);
        } else
            throw bad("unknown key '" + key + "'");
    }
    config.draw_margin = score;
}

void open_adjudication_tables(AdjudicationConfig& config, const std::string& dir) {
    if (dir.empty()) {
        config.tables.reset();
        config.tables_dir.clear();
        return;
    }
    try {
        config.tables = tables::open_tables(dir);
    } catch (const std::exception& e) {
        throw std::invalid_argument(e.what());
    }
    config.tables_dir = dir;
}

} // namespace fanorona
