#pragma once
// Runs over many machines with MPI. Launched by `mpirun -np R` (or Slurm's `srun`), every command
// spreads its games over the ranks with no extra flag: rank 0 runs the command and owns the output
// folder; every other rank serves as a worker that plays the blocks of game indices rank 0 hands
// out (on request, so fast ranks take more) on its own oneTBB workers and sends the finished games
// back, and rank 0 writes them in order: the files are those one process writes. Without mpirun
// (or in a build without MPI) nothing here starts MPI and the program runs as one process.

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/solver/pns_unit.h"
#include "selfplay/games/remote_link.h"
#include "selfplay/games/scheduled_games.h"
#include "selfplay/openings/remote_scoring.h"
#include "selfplay/rescore/rescore.h"

namespace fanorona::cluster {

// Starts MPI when the launcher's environment says this process is one rank of a job with more
// than one rank; returns this process's rank (0 when not under MPI). Every rank then checks that
// it runs the same program as rank 0 (selfplay/mpi/identity.h: the bench signature): when one
// does not, MPI ends, rank 0 throws std::runtime_error naming the rank and both signatures, and
// serve_as_worker() returns 1 on the other ranks.
int start(int& argc, char**& argv);
// Plugs the other ranks into the seams (core/common/seam.h) of the driver
// (selfplay/games/remote_link.h), of the openings scorer (selfplay/openings/remote_scoring.h) and
// of rescoring (selfplay/rescore/rescore.h); called once by main() at start-up, on rank 0, before
// any thread starts.
void install();
// True when this process is rank 0 of a job with other ranks.
bool has_workers();
// The work of a rank other than 0: plays the blocks rank 0 hands out, job after job, until rank 0
// ends the job. Returns the process's exit status.
int serve_as_worker();
// Rank 0 at the end of the program (normal or not): releases the workers and ends MPI. `failed`
// says whether rank 0 ends with an error (the workers then exit with status 1 too).
void finish(bool failed);

// The other ranks as players of a batch, or nullptr when there are none.
std::unique_ptr<RemotePlayers> remote_players(ScheduledGames& games);

// Rank 0 of `openings --by-search`: has the other ranks score openings that `claim(n)` hands out
// (positions [first, last) of `openings`, an empty range when none are left) and writes their
// scores into `openings`; returns when every rank is done. Does nothing without other ranks.
void score_openings_remotely(
    std::vector<ScoredOpening>& openings, const OpeningScoring& scoring,
    const std::function<std::pair<std::size_t, std::size_t>(std::size_t)>& claim);

// Rank 0 of `rescore`: has the other ranks rescore the games of `games` that `claim(n)` hands out
// (each rank with `threads` workers, 0: all its cores) and hands each result to `deliver`;
// returns when every rank is done, then throws the first rank's error. Does nothing without
// other ranks.
void rescore_remotely(const std::vector<CorpusGame>& games, const Rules& corpus_rules,
                      const RescoreSettings& settings, int threads, const RescoreClaim& claim,
                      const RescoreDeliver& deliver);

// Rank 0 of `solve --method pns`: has the other ranks solve the units `source.claim` hands out
// (one at a time per searcher; each rank runs `job.threads` searchers, 0: all its cores) with the
// job's settings and the tables opened from `job.tables_dir` on their machine, hands every result
// to `source.deliver`, and stops the running units once `source.stopped()`; returns when every
// rank is done, then throws the first rank's error. Does nothing without other ranks. main()
// installs it in the df-pn seam (tools/solve/remote_pns.h), which this layer cannot name.
void solve_pns_remotely(const PnsUnitJob& job, const PnsUnitSource& source);

} // namespace fanorona::cluster

namespace fanorona::cluster {

// What rank 0 sent and received since the program started (for benchmarks and summaries).
struct Traffic {
    int ranks = 1;
    std::uint64_t bytes_sent = 0;     // jobs and blocks, to the other ranks
    std::uint64_t bytes_received = 0; // requests and finished games, from the other ranks
    std::uint64_t remote_games = 0;   // games the other ranks played
    double serve_cpu_seconds = 0;     // CPU time of rank 0's thread serving the other ranks
};
Traffic traffic();

} // namespace fanorona::cluster
