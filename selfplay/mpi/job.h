#pragma once
// What travels between the ranks of an MPI job: a run's game-deciding settings with its engines
// (each in EngineSpec's one JSON form, selfplay/engine/engine_spec_json.h: weights as values,
// pattern weights and Vela weights included) and openings, as JSON; and finished games, as bytes
// (the games-file line and the 24-byte position records). Encoding then decoding gives back the
// same games.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/games/driver.h"

namespace fanorona {

// The run's settings that decide its games (folder, display and resume fields are not sent),
// its openings (and a Vela series' Vela openings) as position and move strings, the threads
// each rank uses, and the fingerprints of what its players read (selfplay/mpi/identity.h).
nlohmann::json encode_job(const RunConfig& config, const RunOpenings& openings,
                          const RunOpenings& vela_openings);
struct GamesJob {
    RunConfig config;
    RunOpenings openings, vela_openings;
};
// Decodes a job: the players' networks and tables and the adjudication tables are opened again,
// here. Throws std::runtime_error naming the first of them whose fingerprint differs from the
// one rank 0 put in the job.
GamesJob decode_job(const nlohmann::json& j);

// Finished games keyed by their position in the batch: [position u64][line length u32][line]
// [records u32][records x 24 bytes], repeated (the games of a unit, a Vela series, share their
// position and come in their order).
void append_game_bytes(std::string& out, std::uint64_t position, const PlayedGame& game);
std::vector<std::pair<std::uint64_t, PlayedGame>> decode_game_bytes(const std::string& bytes);

} // namespace fanorona
