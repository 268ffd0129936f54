#include "selfplay/mpi/cluster.h"
#include "selfplay/formats/json_text.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef FANORONA_MPI
#include <mpi.h>
#include <time.h>

#include <chrono>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <thread>

#include <tbb/enumerable_thread_specific.h>

#include <future>

#include "core/board/notation.h"
#include "core/common/fork_join.h"
#include "core/tables/tablebase.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/formats/weights_json.h"
#include "selfplay/mpi/identity.h"
#include "selfplay/mpi/job.h"
#include "selfplay/mpi/pns_job.h"
#include "selfplay/mpi/rescore_job.h"
#endif

namespace fanorona::cluster {

namespace {

// The process's place in an MPI job. Written once by start(), before any other thread exists.
struct State {
    bool mpi = false;     // MPI was started (finish() must end it)
    bool refused = false; // the ranks do not all run the same program: every rank ends
    int rank = 0, size = 1;
    std::uint64_t next_job = 1;
    std::atomic<std::uint64_t> sent{0}, received{0}, remote_games{0};
    std::atomic<std::uint64_t> serve_cpu_ns{0}; // CPU time of rank 0's serving thread
};

State& state() {
    static State s;
    return s;
}

// Set by start() in the environment of a rank, which every program the rank starts inherits:
// an external engine that is this program (`cmd=fanorona,args=engine`) then runs as one process
// instead of joining the job (which hung it).
constexpr const char* kRankMarker = "FANORONA_MPI_RANK";

// Set by mpirun (Open MPI), by PMI launchers (MPICH, Slurm) and by PMIx launchers (srun), and
// not started by a rank.
bool launched_by_mpi() {
    if (std::getenv(kRankMarker)) return false;
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

} // namespace

Traffic traffic() {
    const State& s = state();
    return {s.size, s.sent.load(), s.received.load(), s.remote_games.load(),
            double(s.serve_cpu_ns.load()) * 1e-9};
}

bool has_workers() {
    return state().mpi && state().rank == 0 && state().size > 1;
}

#ifndef FANORONA_MPI

int start(int&, char**&) {
    if (launched_by_mpi() && std::getenv("OMPI_COMM_WORLD_SIZE") &&
        std::string(std::getenv("OMPI_COMM_WORLD_SIZE")) != "1")
        throw std::runtime_error("launched by mpirun, but this build has no MPI (install "
                                 "libopenmpi-dev and rebuild)");
    return 0;
}
int serve_as_worker() {
    return 0;
}
void finish(bool) {}
std::unique_ptr<RemotePlayers> remote_players(ScheduledGames&) {
    return nullptr;
}
void score_openings_remotely(
    std::vector<ScoredOpening>&, const OpeningScoring&,
    const std::function<std::pair<std::size_t, std::size_t>(std::size_t)>&) {}
void solve_pns_remotely(const PnsUnitJob&, const PnsUnitSource&) {}
void rescore_remotely(const std::vector<CorpusGame>&, const Rules&, const RescoreSettings&, int,
                      const RescoreClaim&, const RescoreDeliver&) {}

#else

namespace {

enum Tag : int {
    kJob = 1,
    kRequest = 2,
    kBlock = 3,
    kResults = 4,
    kError = 5,
    kEnd = 6,
    kStop = 7
};

void check(int code, const char* what) {
    if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

void send_bytes(const std::string& bytes, int to, int tag) {
    check(MPI_Send(bytes.data(), int(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD), "send");
}

std::string receive_bytes(const MPI_Status& probed) {
    int count = 0;
    MPI_Get_count(&probed, MPI_BYTE, &count);
    std::string bytes(static_cast<std::size_t>(count), 0);
    check(MPI_Recv(bytes.data(), count, MPI_BYTE, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "receive");
    return bytes;
}

void send_words(const std::vector<std::uint64_t>& words, int to, int tag) {
    check(MPI_Send(words.data(), int(words.size()), MPI_UINT64_T, to, tag, MPI_COMM_WORLD), "send");
}

// Waits for a message without spinning: MPI_Probe busy-waits a whole core in Open MPI, which
// would take it from the games (rank 0 plays on its own workers too) and from rank 0's tuning
// while the other ranks wait between jobs. Polls with a backoff from 20 us to 2 ms.
MPI_Status wait_message(int source, int tag) {
    int delay_us = 20;
    while (true) {
        int flag = 0;
        MPI_Status st;
        check(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st), "probe");
        if (flag) return st;
        std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
        delay_us = std::min(2000, delay_us * 2);
    }
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::vector<std::uint64_t> receive_words(const MPI_Status& probed) {
    int count = 0;
    MPI_Get_count(&probed, MPI_UINT64_T, &count);
    std::vector<std::uint64_t> words(static_cast<std::size_t>(count));
    check(MPI_Recv(words.data(), count, MPI_UINT64_T, probed.MPI_SOURCE, probed.MPI_TAG,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "receive");
    return words;
}

using Claim = std::function<std::pair<std::size_t, std::size_t>(std::size_t)>;

// Rank 0's side of one job: sends `text` to every other rank, then answers their requests
// ([job, how many positions it wants, how many units it still has in flight]) with blocks:
// `next_block(n)` gives what follows the job word (empty when none is left), and hands each
// results message, without its job word, to `deliver` with the rank that sent it. A rank is done
// when it gets an empty block with nothing in flight; a rank's error goes to `fail`. Returns when
// every other rank is done.
void serve_job(std::uint64_t job, const std::string& text,
               const std::function<std::vector<std::uint64_t>(std::size_t)>& next_block,
               const std::function<void(const std::string&, int rank)>& deliver,
               const std::function<void(std::exception_ptr)>& fail) {
    State& s = state();
    for (int w = 1; w < s.size; ++w) {
        send_bytes(text, w, kJob);
        s.sent += text.size();
    }
    const double cpu_start = thread_cpu_seconds();
    int active = s.size - 1;
    while (active > 0) {
        const MPI_Status st = wait_message(MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (st.MPI_TAG == kRequest) {
            const auto words = receive_words(st); // job, threads[, in flight]
            s.received += words.size() * 8;
            const std::size_t want = words.size() > 1 ? std::size_t(words[1]) : 1;
            const bool idle = words.size() < 3 || words[2] == 0;
            std::vector<std::uint64_t> block = next_block(want);
            block.insert(block.begin(), job);
            send_words(block, st.MPI_SOURCE, kBlock);
            s.sent += block.size() * 8;
            if (block.size() == 1 && idle) --active; // that rank is done with this job
        } else if (st.MPI_TAG == kResults) {
            const std::string bytes = receive_bytes(st);
            s.received += bytes.size();
            deliver(bytes.substr(8), st.MPI_SOURCE);
        } else if (st.MPI_TAG == kError) {
            const std::string why = receive_bytes(st);
            fail(std::make_exception_ptr(
                std::runtime_error("rank " + std::to_string(st.MPI_SOURCE) + ": " + why)));
            --active; // it sends no more requests for this job
        } else {
            receive_bytes(st); // not expected here: drop it
        }
    }
    s.serve_cpu_ns += std::uint64_t((thread_cpu_seconds() - cpu_start) * 1e9);
}

// The blocks of positions [first, last) that `claim(n)` hands out: [first, index_of(p)...].
std::function<std::vector<std::uint64_t>(std::size_t)>
position_blocks(const Claim& claim, const std::function<std::uint64_t(std::size_t)>& index_of) {
    return [claim, index_of](std::size_t want) {
        const auto [first, last] = claim(want);
        std::vector<std::uint64_t> block;
        if (first == last) return block;
        block.push_back(first);
        for (std::size_t p = first; p < last; ++p) block.push_back(index_of(p));
        return block;
    };
}

// Rank 0's side of a batch of games: the games of a unit (a Vela series) come back with the
// same position and are delivered together.
class MpiPlayers : public RemotePlayers {
public:
    explicit MpiPlayers(ScheduledGames& games) : games_(games) {}
    int ranks() const override { return state().size; }

    void serve(BatchQueue& queue) override {
        State& s = state();
        const std::uint64_t job = s.next_job++;
        nlohmann::json j = encode_job(games_.config(), games_.openings(), games_.vela_openings());
        j["job"] = job;
        serve_job(
            job, to_json_text(j),
            position_blocks([&](std::size_t n) { return queue.claim(n); },
                            [&](std::size_t p) { return queue.indices()[p]; }),
            [&](const std::string& bytes, int rank) {
                auto games = decode_game_bytes(bytes);
                for (std::size_t k = 0; k < games.size();) {
                    const std::uint64_t position = games[k].first;
                    std::vector<PlayedGame> unit;
                    for (; k < games.size() && games[k].first == position; ++k) {
                        unit.push_back(std::move(games[k].second));
                        unit.back().rank = rank;
                    }
                    s.remote_games += unit.size();
                    queue.deliver(std::size_t(position), std::move(unit));
                }
            },
            [&](std::exception_ptr e) { queue.fail(e); });
    }

private:
    ScheduledGames& games_;
};

// A worker's loop over one job's blocks: requests a block, `process(block)` turns it (job,
// first position, indices...) into the results bytes, sends them; until an empty block.
void work_on_blocks(std::uint64_t job, int threads,
                    const std::function<std::string(const std::vector<std::uint64_t>&)>& process) {
    try {
        while (true) {
            send_words({job, std::uint64_t(threads)}, 0, kRequest);
            const MPI_Status st = wait_message(0, kBlock);
            const auto block = receive_words(st);
            if (block.size() <= 1) return;
            std::string bytes(8, '\0');
            std::memcpy(bytes.data(), &job, 8);
            bytes += process(block);
            send_bytes(bytes, 0, kResults);
        }
    } catch (const std::exception& e) {
        send_bytes(e.what(), 0, kError);
    }
}

// Plays the blocks of a games job (a Vela series job's indices are series).
void work_on_games(const nlohmann::json& j, std::uint64_t job) {
    GamesJob decoded = decode_job(j);
    const int threads =
        decoded.config.threads > 0 ? decoded.config.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    const bool series = decoded.config.vela_series;
    ScheduledGames games(std::move(decoded.config), std::move(decoded.openings),
                         std::move(decoded.vela_openings));
    work_on_blocks(job, threads, [&](const std::vector<std::uint64_t>& block) {
        const std::size_t n = block.size() - 2;
        std::vector<std::vector<PlayedGame>> played(n);
        arena.execute([&] {
            tbb::parallel_for(std::size_t(0), n, [&](std::size_t k) {
                if (series)
                    played[k] = games.play_series(block[k + 2]);
                else
                    played[k].push_back(games.play(block[k + 2]));
            });
        });
        std::string bytes;
        for (std::size_t k = 0; k < n; ++k)
            for (const PlayedGame& g : played[k]) append_game_bytes(bytes, block[1] + k, g);
        return bytes;
    });
}

// What an openings job reads: its weights (sent as values, so the check holds by construction).
Fingerprints scoring_fingerprints(const Weights& weights) {
    return {{"--weights", weights_fingerprint(weights)}};
}

// What an openings job carries: the scoring settings (the rules and weights in their one JSON
// form, pattern weights included) and the move strings of every opening.
nlohmann::json encode_scoring_job(const std::vector<ScoredOpening>& openings,
                                  const OpeningScoring& scoring) {
    nlohmann::json lines = nlohmann::json::array();
    for (const ScoredOpening& o : openings) lines.push_back(o.moves);
    nlohmann::json j = {{"kind", "openings"},
                        {"weights", scoring.weights},
                        {"depth", scoring.depth},
                        {"hash", scoring.hash_mb},
                        {"threads", scoring.threads},
                        {"openings", lines},
                        {"fingerprints", scoring_fingerprints(scoring.weights)}};
    put_rules(j, scoring.rules);
    return j;
}

// Scores the blocks of an openings job: [position u64][score i32][depth i32] per opening.
void work_on_openings(const nlohmann::json& j, std::uint64_t job) {
    OpeningScoring scoring;
    scoring.rules = rules_from_json(j);
    scoring.weights = j.at("weights").get<Weights>();
    scoring.depth = j.at("depth").get<int>();
    scoring.hash_mb = j.at("hash").get<std::size_t>();
    scoring.threads = j.at("threads").get<int>();
    check_job_fingerprints(j, scoring_fingerprints(scoring.weights));
    const auto lines = j.at("openings").get<std::vector<std::vector<std::string>>>();
    const int threads = scoring.threads > 0 ? scoring.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    tbb::enumerable_thread_specific<Searcher> searchers([&] {
        Searcher s(scoring.hash_mb);
        s.set_weights(scoring.weights);
        return s;
    });
    work_on_blocks(job, threads, [&](const std::vector<std::uint64_t>& block) {
        const std::size_t n = block.size() - 2;
        std::vector<ScoredOpening> scored(n);
        arena.execute([&] {
            tbb::parallel_for(std::size_t(0), n, [&](std::size_t k) {
                ScoredOpening& o = scored[k];
                o.moves = lines.at(std::size_t(block[k + 2]));
                Game game(scoring.rules, Position::start(scoring.rules.variant));
                for (const auto& m : o.moves) game.play(m);
                o.position = game.position();
                score_opening(searchers.local(), scoring, o);
            });
        });
        std::string bytes;
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint64_t position = block[1] + k;
            const std::int32_t values[2] = {scored[k].score, scored[k].depth};
            bytes.append(reinterpret_cast<const char*>(&position), 8);
            bytes.append(reinterpret_cast<const char*>(values), 8);
        }
        return bytes;
    });
}

// Rescores the games of a rescore job's blocks ([first position, the games as words]) on this
// rank's workers and sends back their scores.
void work_on_rescore(const nlohmann::json& j, std::uint64_t job) {
    const RescoreJob decoded = decode_rescore_job(j);
    const int threads = decoded.threads > 0 ? decoded.threads : tbb::info::default_concurrency();
    RescoreSettings settings = decoded.settings;
    settings.all = false; // the words mark the positions to search with a placeholder score
    GameRescorer rescorer(decoded.rules, settings, threads);
    work_on_blocks(job, threads, [&](const std::vector<std::uint64_t>& block) {
        std::vector<CorpusGame> games, results;
        for (std::size_t at = 2; at < block.size();)
            games.push_back(take_game_words(block, at, decoded.rules));
        std::vector<RescoreCount> counts(games.size());
        rescorer.rescore(games, results,
                         [&](std::size_t k, const RescoreCount& c) { counts[k] = c; });
        std::string bytes;
        for (std::size_t k = 0; k < games.size(); ++k)
            append_rescore_result(bytes, block[1] + k, results[k], counts[k]);
        return bytes;
    });
}

// Solves the units of a `solve --method pns` job: up to `threads` at once, each on a thread of
// its own, requested one at a time (so fast ranks take more) and sent back as each finishes.
// After an empty block it asks again only once nothing is in flight: rank 0 then counts it done.
void work_on_pns(const std::string& text, const nlohmann::json& header) {
    std::uint64_t job = 0;
    std::vector<ProvenBound> initial;
    PnsUnitJob pns = decode_pns_job(text, job, initial);
    try {
        if (!pns.tables_dir.empty()) pns.settings.tables = tables::open_tables(pns.tables_dir);
    } catch (const std::exception& e) {
        send_bytes("--tables: " + std::string(e.what()), 0, kError);
        return;
    }
    // The tables read here must be rank 0's.
    try {
        check_job_fingerprints(header, pns_fingerprints(pns));
    } catch (const std::exception& e) {
        send_bytes(e.what(), 0, kError);
        return;
    }
    const std::size_t threads =
        std::size_t(pns.threads > 0 ? pns.threads : tbb::info::default_concurrency());
    std::atomic<bool> stop{false};
    std::vector<std::future<std::string>> running;
    try {
        bool exhausted = false;
        while (true) {
            while (running.size() < threads && !(exhausted && !running.empty())) {
                send_words({job, 1, running.size()}, 0, kRequest);
                const auto block = receive_words(wait_message(0, kBlock));
                if (block.size() < 5) {
                    exhausted = true;
                    if (running.empty()) return; // counted done
                    break;
                }
                PnsTask task;
                task.unit = std::size_t(block[1]);
                if (task.unit >= pns.units.size())
                    throw std::runtime_error("pns block: no such unit");
                if (block[2] > std::uint64_t(PnsQuestion::AvoidsLoss))
                    throw std::runtime_error("pns block: no such question");
                task.question = PnsQuestion(block[2]);
                task.limits.max_nodes = block[3];
                std::memcpy(&task.limits.max_seconds, &block[4], 8);
                task.limits.poll_seconds = 0.25;
                running.push_back(std::async(std::launch::async, [&pns, &stop, job, task] {
                    std::string bytes(8, '\0');
                    std::memcpy(bytes.data(), &job, 8);
                    append_pns_result(
                        bytes, task.unit,
                        solve_pns_unit(pns.units[task.unit], pns.settings, task.question,
                                       task.limits,
                                       [&stop](const ProofSearch&) { return stop.load(); }));
                    return bytes;
                }));
            }
            // Wait for a unit to finish (units take long: a coarse poll is enough).
            for (int delay_us = 100;; delay_us = std::min(20000, delay_us * 2)) {
                const auto done = std::find_if(running.begin(), running.end(), [](auto& f) {
                    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                });
                if (done != running.end()) {
                    send_bytes(done->get(), 0, kResults);
                    running.erase(done);
                    break;
                }
                // Rank 0 stops the units running (a first move won, a budget ran out).
                int flag = 0;
                MPI_Status st;
                check(MPI_Iprobe(0, kStop, MPI_COMM_WORLD, &flag, &st), "probe");
                if (flag) {
                    const auto words = receive_words(st);
                    if (!words.empty() && words[0] == job) stop = true;
                }
                std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
            }
        }
    } catch (const std::exception& e) {
        stop = true;
        running.clear(); // waits for the units in flight
        send_bytes(e.what(), 0, kError);
    }
}

// Runs one job on this rank until rank 0 answers a request with an empty block.
// A job this rank cannot even start on is reported as its error (rank 0 stops waiting for it).
void work_on_job(const std::string& text) {
    try {
        // A pns job's JSON header ends at a zero byte (its bounds follow).
        const nlohmann::json j = nlohmann::json::parse(text.substr(0, text.find('\0')));
        const std::uint64_t job = j.at("job").get<std::uint64_t>();
        // Every kind carries rank 0's fingerprints; each kind's decoder opens what it reads here
        // and checks them (check_job_fingerprints), before any work.
        if (!j.contains("fingerprints"))
            throw std::runtime_error("a job without rank 0's fingerprints (of the files it reads)");
        if (j.value("kind", "games") == "pns")
            work_on_pns(text, j);
        else if (j.value("kind", "games") == "openings")
            work_on_openings(j, job);
        else if (j.value("kind", "games") == "rescore")
            work_on_rescore(j, job);
        else
            work_on_games(j, job);
    } catch (const std::exception& e) {
        send_bytes(e.what(), 0, kError);
    }
}

// At start-up, on every rank at once: each computes its bench signature and all compare. When a
// rank's differs from rank 0's, every rank ends MPI (state().refused) and rank 0 throws, naming
// the first such rank. A hook for the tests: FANORONA_TEST_BENCH_OFFSET, when set, is added to
// this rank's signature (the tests cannot run two builds).
void check_same_program() {
    State& s = state();
    std::uint64_t mine = bench_signature();
    if (const char* offset = std::getenv("FANORONA_TEST_BENCH_OFFSET"))
        mine += std::strtoull(offset, nullptr, 10);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(s.size));
    check(MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD),
          "allgather");
    int first = 0, differ = 0;
    for (int r = 1; r < s.size; ++r)
        if (all[std::size_t(r)] != all[0] && ++differ == 1) first = r;
    if (differ == 0) return;
    s.refused = true;
    s.mpi = false;
    MPI_Finalize();
    if (s.rank == 0)
        throw std::runtime_error(
            "rank " + std::to_string(first) + ": bench signature " +
            std::to_string(all[std::size_t(first)]) + " differs from rank 0's " +
            std::to_string(all[0]) +
            (differ > 1 ? " (and " + std::to_string(differ - 1) + " more ranks differ)" : "") +
            ": every machine must run the same build (`fanorona bench` prints its signature)");
}

} // namespace

int start(int& argc, char**& argv) {
    State& s = state();
    if (!launched_by_mpi()) return 0;
    setenv(kRankMarker, "1", 1); // before MPI starts threads
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "init");
    s.mpi = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.size);
    if (provided < MPI_THREAD_SERIALIZED) {
        if (s.rank == 0)
            std::fprintf(stderr, "fanorona: this MPI library does not allow calls from more "
                                 "than one thread (MPI_THREAD_SERIALIZED)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (s.size > 1) check_same_program();
    return s.rank;
}

int serve_as_worker() {
    // Refused at start-up: rank 0 names the difference and exits with 1. This rank ends with 0,
    // or mpirun could see its failure first and kill rank 0 before it has said why.
    if (state().refused) return 0;
    std::signal(SIGINT, SIG_IGN); // rank 0 decides when to stop; its games in flight finish
    int status = 0;
    while (true) {
        const MPI_Status st = wait_message(0, MPI_ANY_TAG);
        const std::string bytes = receive_bytes(st);
        if (st.MPI_TAG == kEnd) {
            status = bytes.empty() ? 0 : int(bytes[0]);
            break;
        }
        if (st.MPI_TAG == kJob) work_on_job(bytes);
    }
    MPI_Finalize();
    return status;
}

void finish(bool failed) {
    State& s = state();
    if (!s.mpi) return;
    s.mpi = false;
    if (s.rank == 0)
        for (int w = 1; w < s.size; ++w) send_bytes(std::string(1, char(failed ? 1 : 0)), w, kEnd);
    MPI_Finalize();
}

std::unique_ptr<RemotePlayers> remote_players(ScheduledGames& games) {
    if (!has_workers()) return nullptr;
    return std::make_unique<MpiPlayers>(games);
}

void score_openings_remotely(std::vector<ScoredOpening>& openings, const OpeningScoring& scoring,
                             const Claim& claim) {
    if (!has_workers()) return;
    State& s = state();
    const std::uint64_t job = s.next_job++;
    nlohmann::json j = encode_scoring_job(openings, scoring);
    j["job"] = job;
    std::exception_ptr failure;
    serve_job(
        job, to_json_text(j),
        position_blocks(claim, [](std::size_t p) { return std::uint64_t(p); }),
        [&](const std::string& bytes, int) {
            if (bytes.size() % 16) throw std::runtime_error("openings message: truncated");
            for (std::size_t at = 0; at < bytes.size(); at += 16) {
                std::uint64_t position;
                std::int32_t values[2];
                std::memcpy(&position, bytes.data() + at, 8);
                std::memcpy(values, bytes.data() + at + 8, 8);
                ScoredOpening& o = openings.at(std::size_t(position));
                o.score = values[0];
                o.depth = values[1];
                ++s.remote_games;
            }
        },
        [&](std::exception_ptr e) {
            if (!failure) failure = e;
            claim(openings.size()); // no new block for anyone
        });
    if (failure) std::rethrow_exception(failure);
}

void rescore_remotely(const std::vector<CorpusGame>& games, const Rules& corpus_rules,
                      const RescoreSettings& settings, int threads, const RescoreClaim& claim,
                      const RescoreDeliver& deliver) {
    if (!has_workers()) return;
    State& s = state();
    const std::uint64_t job = s.next_job++;
    nlohmann::json j = encode_rescore_job(corpus_rules, settings, threads);
    j["job"] = job;
    std::exception_ptr failure;
    serve_job(
        job, to_json_text(j),
        [&](std::size_t want) {
            std::vector<std::uint64_t> block;
            if (failure) return block; // no new block for anyone
            const auto [first, last] = claim(want);
            if (first == last) return block;
            block.push_back(first);
            for (std::size_t p = first; p < last; ++p)
                append_game_words(block, games[p], settings.all);
            return block;
        },
        [&](const std::string& bytes, int) {
            for (const RescoreResult& r : decode_rescore_results(bytes)) {
                if (r.k >= games.size()) throw std::runtime_error("rescore result: no such game");
                ++s.remote_games;
                deliver(std::size_t(r.k), apply_rescore_result(games[r.k], r, settings.all),
                        r.count);
            }
        },
        [&](std::exception_ptr e) {
            if (!failure) failure = e;
        });
    if (failure) std::rethrow_exception(failure);
}

void solve_pns_remotely(const PnsUnitJob& pns, const PnsUnitSource& source) {
    if (!has_workers()) return;
    State& s = state();
    const std::uint64_t job = s.next_job++;
    std::exception_ptr failure;
    bool stop_sent = false;
    // Once the solve says stop, every rank stops its running units (their bounds still come back).
    const auto stop_if_stopped = [&] {
        if (stop_sent || !source.stopped()) return;
        stop_sent = true;
        for (int w = 1; w < s.size; ++w) send_words({job}, w, kStop);
    };
    serve_job(
        job, encode_pns_job(pns, job),
        [&](std::size_t) {
            PnsTask task;
            std::vector<std::uint64_t> block;
            if (!failure && source.claim(task)) {
                std::uint64_t seconds_bits = 0;
                std::memcpy(&seconds_bits, &task.limits.max_seconds, 8);
                block = {task.unit, std::uint64_t(task.question), task.limits.max_nodes,
                         seconds_bits};
            }
            stop_if_stopped();
            return block;
        },
        [&](const std::string& bytes, int) {
            for (auto& [unit, result] : decode_pns_results(bytes)) {
                if (unit >= pns.units.size()) throw std::runtime_error("pns result: no such unit");
                ++s.remote_games;
                source.deliver(std::size_t(unit), std::move(result));
            }
            stop_if_stopped();
        },
        [&](std::exception_ptr e) {
            if (!failure) failure = e;
        });
    if (failure) std::rethrow_exception(failure);
}

#endif

void install() {
    Seam<RemoteLink>::install(
        {.players = [](ScheduledGames& games) { return remote_players(games); },
         .traffic = []() -> nlohmann::json {
             const Traffic tr = traffic();
             if (tr.ranks <= 1) return nullptr;
             return {{"ranks", tr.ranks},
                     {"bytes_sent", tr.bytes_sent},
                     {"bytes_received", tr.bytes_received},
                     {"remote_games", tr.remote_games},
                     {"bytes_received_per_remote_game",
                      tr.remote_games ? double(tr.bytes_received) / double(tr.remote_games) : 0.0},
                     {"rank0_serve_cpu_seconds", tr.serve_cpu_seconds}};
         }});
    Seam<RemoteScorer>::install(
        {.available = [] { return has_workers(); },
         .score =
             [](std::vector<ScoredOpening>& openings, const OpeningScoring& scoring,
                const OpeningClaim& claim) { score_openings_remotely(openings, scoring, claim); }});
    Seam<RemoteRescorer>::install(
        {.available = [] { return has_workers(); }, .rescore = rescore_remotely});
}

} // namespace fanorona::cluster
