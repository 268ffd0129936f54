#pragma once
// Corpus games from the other records of games: a games file's game (start, moves in notation,
// White's scores) and a positions log's records (searched positions, chained where consecutive).

#include <string>
#include <vector>

#include "selfplay/formats/corpus_file.h"
#include "selfplay/formats/games_file.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

// The corpus game of a games file's game: its start, every turn (the opening's too) with the
// mover's score (the file's, from White's view, turned to the mover's), result and reason; a
// `skipped` Vela place is a game without turns. `file_rules` are the file header's, `where` is
// "FILE:LINE"; a start or move that does not replay is a GamesFileError
// "WHERE: start|moves: why".
CorpusGame corpus_game(const GameRecord& record, const Rules& file_rules, const std::string& where);

// The games of a positions log's records (one chunk, in order) as chains: a record is followed by
// the turn that leads to the next record when that is a position of the same game one turn
// later reachable by one legal turn; otherwise the record ends its chain (as its end_score) and
// the next record starts a new chain from its own position. Each record is one position of the
// result, with its score, result, game index and rules; its depth is not kept.
std::vector<CorpusGame> corpus_games(const std::vector<PositionRecord>& records,
                                     const PositionLogHeader& header);

} // namespace fanorona
