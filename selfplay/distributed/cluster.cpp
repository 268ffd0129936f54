#include "selfplay/distributed/cluster.h"

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

#include "common/fork_join.h"
#include "selfplay/distributed/job.h"
#endif

namespace fanorona::cluster {

namespace {

// The process's place in an MPI job. Written once by start(), before any other thread exists.
struct State {
    bool mpi = false; // MPI was started (finish() must end it)
    int rank = 0, size = 1;
    std::uint64_t next_job = 1;
    std::atomic<std::uint64_t> sent{0}, received{0}, remote_games{0};
    std::atomic<std::uint64_t> serve_cpu_ns{0}; // CPU time of rank 0's serving thread
};

State& state() {
    static State s;
    return s;
}

// Set by mpirun (Open MPI), by PMI launchers (MPICH, Slurm) and by PMIx launchers (srun).
bool launched_by_mpi() {
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

#else

namespace {

enum Tag : int { kJob = 1, kRequest = 2, kBlock = 3, kResults = 4, kError = 5, kEnd = 6 };

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

// Rank 0's side of a batch: sends the job to every other rank, then answers their requests with
// blocks of the queue's positions (as many as the rank has threads) and delivers their games.
class MpiPlayers : public RemotePlayers {
public:
    explicit MpiPlayers(ScheduledGames& games) : games_(games) {}

    void serve(BatchQueue& queue) override {
        State& s = state();
        const std::uint64_t job = s.next_job++;
        nlohmann::json j = encode_job(games_.config(), games_.openings());
        j["job"] = job;
        const std::string text = j.dump();
        for (int w = 1; w < s.size; ++w) {
            send_bytes(text, w, kJob);
            s.sent += text.size();
        }
        const double cpu_start = thread_cpu_seconds();
        int active = s.size - 1;
        while (active > 0) {
            const MPI_Status st = wait_message(MPI_ANY_SOURCE, MPI_ANY_TAG);
            if (st.MPI_TAG == kRequest) {
                const auto words = receive_words(st); // job, threads
                s.received += words.size() * 8;
                const std::size_t want = words.size() > 1 ? std::size_t(words[1]) : 1;
                const auto [first, last] = queue.claim(want);
                std::vector<std::uint64_t> block = {job, first};
                for (std::size_t p = first; p < last; ++p) block.push_back(queue.indices()[p]);
                send_words(block, st.MPI_SOURCE, kBlock);
                s.sent += block.size() * 8;
                if (first == last) --active; // that rank is done with this job
            } else if (st.MPI_TAG == kResults) {
                const std::string bytes = receive_bytes(st);
                s.received += bytes.size();
                for (auto& [position, game] : decode_game_bytes(bytes.substr(8))) {
                    ++s.remote_games;
                    queue.deliver(std::size_t(position), std::move(game));
                }
            } else if (st.MPI_TAG == kError) {
                const std::string why = receive_bytes(st);
                queue.fail(std::make_exception_ptr(
                    std::runtime_error("rank " + std::to_string(st.MPI_SOURCE) + ": " + why)));
                --active; // it sends no more requests for this job
            } else {
                receive_bytes(st); // not expected here: drop it
            }
        }
        s.serve_cpu_ns += std::uint64_t((thread_cpu_seconds() - cpu_start) * 1e9);
    }

private:
    ScheduledGames& games_;
};

// Plays one job's blocks on this rank until rank 0 answers a request with an empty block.
void work_on_job(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text);
    const std::uint64_t job = j.at("job").get<std::uint64_t>();
    GamesJob decoded = decode_job(j);
    const int threads =
        decoded.config.threads > 0 ? decoded.config.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    ScheduledGames games(std::move(decoded.config), std::move(decoded.openings));
    try {
        while (true) {
            send_words({job, std::uint64_t(threads)}, 0, kRequest);
            const MPI_Status st = wait_message(0, kBlock);
            const auto block = receive_words(st); // job, first position, indices...
            if (block.size() <= 2) return;
            const std::size_t n = block.size() - 2;
            std::vector<PlayedGame> played(n);
            const ForkJoin fork_join; // what TSan cannot see inside libtbb
            arena.execute(fork_join.body([&] {
                tbb::parallel_for(std::size_t(0), n, fork_join.body([&](std::size_t k) {
                    played[k] = games.play(block[k + 2]);
                }));
            }));
            fork_join.joined();
            std::string bytes(8, '\0');
            std::memcpy(bytes.data(), &job, 8);
            for (std::size_t k = 0; k < n; ++k) append_game_bytes(bytes, block[1] + k, played[k]);
            send_bytes(bytes, 0, kResults);
        }
    } catch (const std::exception& e) {
        send_bytes(e.what(), 0, kError);
    }
}

} // namespace

int start(int& argc, char**& argv) {
    State& s = state();
    if (!launched_by_mpi()) return 0;
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
    return s.rank;
}

int serve_as_worker() {
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

#endif

} // namespace fanorona::cluster
