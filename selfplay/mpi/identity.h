#pragma once
// What every rank of an MPI job checks against rank 0 (selfplay/mpi/cluster.h): that it runs the
// same program (the bench signature, checked once at start-up) and that a job's settings made it
// read the same files from its own disk (the fingerprints of each player's weights, search
// parameters, network and tables, and of the adjudication tables, checked with every job). A rank
// that differs refuses, naming what differs.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/endgame.h"
#include "selfplay/engine/engine_spec.h"

namespace fanorona {

struct RunConfig;

// The node count of `fanorona bench` with the default settings (the number in
// data/bench_signature.txt for this build): another search, evaluation, default network or
// built-in weights or parameters gives another count. About half a second of one core.
std::uint64_t bench_signature();

// 16 hex digits naming a folder of endgame tables as opened: each file's material, size and stored
// CRC-32 (core/tables/table_file.h; the files are not read through); "-" for tables that are not
// a folder of table files.
std::string tables_fingerprint(const EndgameProbe& probe);

// What a rank read and its fingerprint, in a fixed order: {"player A's net nets/x.net",
// "0123456789abcdef"}, ... Travels as a JSON array of such pairs.
using Fingerprints = std::vector<std::pair<std::string, std::string>>;

// A player's: its weights and Vela weights (selfplay/formats/weights_fingerprint.h), search
// parameters, network (selfplay/formats/net_file.h) and tables; nothing for an external engine or
// a baseline mover.
void add_fingerprints(Fingerprints& out, const EngineSpec& spec);
// A run's: every player's, then the adjudication tables'.
Fingerprints run_fingerprints(const RunConfig& config);

// The first difference between this rank's fingerprints and rank 0's, as one line ("player A's
// net x.net fingerprint 0123... differs from rank 0's 4567..."), or "" when they agree.
std::string fingerprint_difference(const Fingerprints& mine, const Fingerprints& rank0s);

// The one check every job kind (games, openings, rescore, pns) makes on every rank, once the job
// has opened what it reads here: `job` carries rank 0's fingerprints ("fingerprints", which
// every job's encoder puts in) and `mine` are this rank's of the same files. Throws
// std::runtime_error naming the first difference, or saying that the job carries none.
void check_job_fingerprints(const nlohmann::json& job, const Fingerprints& mine);

} // namespace fanorona
