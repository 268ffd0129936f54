// Fuzz target: games files (read_games_file, then replay_game for each game). Every game read
// formats back to a line that parses to the same record; every error is a one-line
// GamesFileError naming the file.

#include "selfplay/formats/games_file.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(games) {
    using namespace fanorona;
    const std::string path = fuzz::write_temp("games.tsv", fuzz::as_text(data, size));
    GamesFile file;
    try {
        file = read_games_file(path);
    } catch (const GamesFileError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(path), "error without the file name");
        return 0;
    }
    for (const GameRecord& g : file.games) {
        std::string line = format_game_record(g, file.header.series);
        fuzz::check(!line.empty() && line.back() == '\n', "a formatted line without its newline");
        line.pop_back();
        GameRecord again;
        try {
            again = parse_game_record(line, "formatted");
        } catch (const GamesFileError& e) {
            fuzz::fail(std::string("a read game formats to a line that does not parse: ") +
                       e.what());
        }
        fuzz::check(again == g, "games line round trip: " + line);
        if (!g.played()) continue;
        try {
            (void)replay_game(g, g.rules(file.header.rules()), "game");
        } catch (const GamesFileError& e) {
            fuzz::check_one_line(e);
        }
    }
    return 0;
}
