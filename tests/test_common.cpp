// The helpers of common/ through their public interfaces: whole-file reads and atomic writes,
// the checked appender, the folder lock (in this process and from another), the random
// generator, the text helpers, the progress line and the thread limit.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <numeric>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "core/common/append_file.h"
#include "core/common/clock.h"
#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/progress.h"
#include "core/common/rng.h"
#include "core/common/text.h"
#include "core/common/thread_limit.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
namespace fs = std::filesystem;

namespace {

// Runs `body` in a forked child and returns its exit status (128 + signal when killed). The child
// exits 0 when `body` returns true.
template <class F> int in_child(F body) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(body() ? 0 : 1);
    int st = 0;
    ::waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// What `f` writes on stderr (file descriptor 2) while it runs.
template <class F> std::string captured_stderr(const std::string& file, F f) {
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 2);
    ::close(fd);
    f();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    return test_cli::slurp(file);
}

std::size_t current_parallelism() {
    return tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
}

} // namespace

TEST_CASE("the text helpers: join, format, percent, percent_of, seconds_since", "[common]") {
    using fanorona::join;
    CHECK(join({}) == "");
    CHECK(join({"a", "b", "c"}) == "a b c");
    CHECK(join({"x.bin", "y.bin"}, ", ") == "x.bin, y.bin");
    // The separator goes before every item after the first non-empty one.
    CHECK(join({"", "a", "", "b"}, ",") == "a,,b");
    CHECK(fanorona::format("%d-%s", 7, "x") == "7-x");
    const std::string wide(600, 'w'); // longer than any fixed buffer the copies had
    CHECK(fanorona::format("[%s]", wide.c_str()) == "[" + wide + "]");
    CHECK(fanorona::percent(0.125) == "12.5%");
    CHECK(fanorona::percent(0.5, 0) == "50%");
    CHECK(fanorona::percent(std::nan(""), 1, "&ndash;") == "&ndash;");
    CHECK(fanorona::percent(INFINITY) == "-");
    CHECK(fanorona::percent_of(1, 4) == 25.0);
    CHECK(fanorona::percent_of(3, 0) == 0.0);
    const auto t0 = std::chrono::steady_clock::now() - std::chrono::milliseconds(50);
    const double s = fanorona::seconds_since(t0);
    CHECK(s >= 0.05);
    CHECK(s < 60);
}

TEST_CASE("read_text_file reads every byte and names a missing file", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_read");
    fs::create_directories(dir);
    const std::string bytes = std::string("line\r\n\0binary\xff", 14);
    std::ofstream(dir + "/f", std::ios::binary) << bytes;
    CHECK(read_text_file(dir + "/f") == bytes);
    std::ofstream(dir + "/empty", std::ios::binary).flush();
    CHECK(read_text_file(dir + "/empty").empty());
    CHECK_THROWS_AS(read_text_file(dir + "/none"), FileError);
    CHECK_THROWS_WITH(read_text_file(dir + "/none"),
                      dir + "/none: cannot open for reading: No such file or directory");
}

TEST_CASE("a path with a NUL byte is refused, not read or written as the path before it",
          "[common]") {
    const std::string dir = test_cli::fresh_dir("common_nul");
    fs::create_directories(dir);
    std::ofstream(dir + "/f") << "kept";
    const std::string with_nul = dir + "/f" + std::string(1, '\0') + "x";
    const std::string why = dir + "/f\\0x: a file name cannot hold a NUL byte; refused";
    CHECK_THROWS_WITH(read_text_file(with_nul), why);
    CHECK_THROWS_WITH(write_file_atomically(with_nul, "lost"), why);
    CHECK_THROWS_WITH(check_writable(with_nul), why);
    CHECK(read_text_file(dir + "/f") == "kept");
}

TEST_CASE("write_file_atomically replaces a file whole and leaves no temporary file", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_atomic");
    fs::create_directories(dir);
    const std::string path = dir + "/out.json";
    write_file_atomically(path, "first");
    CHECK(read_text_file(path) == "first");
    write_file_atomically(path, "second, longer");
    CHECK(read_text_file(path) == "second, longer");
    write_file_atomically(path, "");
    CHECK(read_text_file(path).empty());
    CHECK_FALSE(fs::exists(path + ".tmp"));
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);

    // A folder that does not exist: the error names the user's file and the missing folder.
    CHECK_THROWS_WITH(write_file_atomically(dir + "/no/such/f", "x"),
                      dir + "/no/such/f: cannot create: the folder " + dir +
                          "/no/such does not exist");
    // A folder is never replaced: refused, and it stays as it was.
    fs::create_directories(dir + "/taken/inside");
    CHECK_THROWS_WITH(write_file_atomically(dir + "/taken", "x"),
                      dir + "/taken: is a folder, not a file that can be written");
    CHECK_THROWS_WITH(write_file_atomically("", "x"), Catch::Contains("names no file"));
    CHECK(fs::is_directory(dir + "/taken/inside"));
    CHECK_FALSE(fs::exists(dir + "/taken.tmp"));
}

TEST_CASE("a failed atomic write keeps the old content", "[common]") {
    // In a child whose file size limit (RLIMIT_FSIZE) is below the new content's size: the write
    // fails ("File too large"), the old file is unchanged and the temporary file is gone.
    const std::string dir = test_cli::fresh_dir("common_atomic_full");
    fs::create_directories(dir);
    const std::string path = dir + "/state.json";
    write_file_atomically(path, "old content");
    const int status = in_child([&] {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{1000, 1000};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return false;
        try {
            write_file_atomically(path, std::string(5000, 'n'));
        } catch (const FileError& e) {
            const std::string what = e.what();
            return what.rfind(path + ": write failed", 0) == 0 &&
                   what.find("File too large") != std::string::npos;
        }
        return false;
    });
    CHECK(status == 0);
    CHECK(read_text_file(path) == "old content");
    CHECK_FALSE(fs::exists(path + ".tmp"));
}

TEST_CASE("an output that is a device, a FIFO or a link is written through, never replaced",
          "[common]") {
    const std::string dir = test_cli::fresh_dir("common_targets");
    fs::create_directories(dir);
    // /dev/null stays the device (as root, a rename over it would replace the machine's).
    write_file_atomically("/dev/null", "discarded");
    check_writable("/dev/null");
    CHECK(fs::is_character_file("/dev/null"));
    // A full device is an error naming it.
    if (fs::exists("/dev/full"))
        CHECK_THROWS_WITH(write_file_atomically("/dev/full", "x"),
                          Catch::StartsWith("/dev/full: write failed: No space left on device"));
    // A link stays a link; the file it points to gets the content.
    const std::string real = dir + "/real.json", link = dir + "/link.json";
    write_file_atomically(real, "old");
    fs::create_symlink(real, link);
    write_file_atomically(link, "new");
    CHECK(fs::is_symlink(link));
    CHECK(read_text_file(real) == "new");
    CHECK_FALSE(fs::exists(real + ".tmp"));
    fs::create_symlink(dir + "/nothing", dir + "/dangling");
    CHECK_THROWS_WITH(write_file_atomically(dir + "/dangling", "x"),
                      Catch::StartsWith(dir + "/dangling: a symbolic link to nothing"));
    // A FIFO is written through (a reader in a child process drains it).
    const std::string fifo = dir + "/fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const pid_t reader = ::fork();
    if (reader == 0) {
        std::ifstream in(fifo);
        std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ::_exit(all == "through" ? 0 : 1);
    }
    write_file_atomically(fifo, "through");
    int status = -1;
    ::waitpid(reader, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(fs::is_fifo(fifo));
}

TEST_CASE("check_outputs refuses an output that is an input, by identity", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_outputs");
    fs::create_directories(dir + "/run/sub");
    write_file_atomically(dir + "/data.bin", "data");
    write_file_atomically(dir + "/run/sub/games.tsv", "games");
    const std::vector<FileUse> inputs = {{"DATA", dir + "/data.bin"}, {"--selfplay", dir + "/run"}};
    // The same file spelled otherwise, and a file inside an input folder.
    CHECK_THROWS_WITH(check_outputs(inputs, {{"--out", dir + "/./run/../data.bin"}}),
                      "--out " + dir + "/./run/../data.bin: the same file as the input DATA (" +
                          dir + "/data.bin); refused before writing anything");
    CHECK_THROWS_WITH(check_outputs(inputs, {{"--out", dir + "/run/sub/games.tsv"}}),
                      Catch::Contains("the same file as the input --selfplay"));
    fs::create_symlink(dir + "/data.bin", dir + "/alias");
    CHECK_THROWS_AS(check_outputs(inputs, {{"--out", dir + "/alias"}}), FileError);
    // Two outputs that are one file, existing or not; /dev/null may be named twice.
    CHECK_THROWS_WITH(check_outputs({}, {{"--csv-out", dir + "/f"}, {"--json-out", dir + "/./f"}}),
                      Catch::Contains("the same file as the output --csv-out"));
    CHECK_NOTHROW(check_outputs(inputs, {{"--a", "/dev/null"}, {"--b", "/dev/null"}}));
    // A new file in an input folder (the loop's report) is fine.
    CHECK_NOTHROW(check_outputs(inputs, {{"--out", dir + "/run/report.html"}}));
    CHECK(read_text_file(dir + "/data.bin") == "data");
}

TEST_CASE("AppendFile appends, counts its bytes and refuses writes once closed", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_append");
    fs::create_directories(dir);
    const std::string path = dir + "/log";
    {
        AppendFile f(path, false);
        CHECK(f.is_open());
        CHECK(f.path() == path);
        CHECK(f.size() == 0);
        f.append("abc\n");
        f.append("");
        f.append("de\n");
        CHECK(f.size() == 7);
        // Each append reached the file before it returned (no buffer to flush).
        CHECK(read_text_file(path) == "abc\nde\n");
        f.close();
        CHECK_FALSE(f.is_open());
        CHECK_THROWS_WITH(f.append("x"), path + ": write failed: the file is not open");
        f.close(); // closing twice is harmless
    }
    {
        AppendFile f(path, false); // reopened: the size counts what is there
        CHECK(f.size() == 7);
        f.append("f\n");
        CHECK(f.size() == 9);
        AppendFile moved(std::move(f));
        CHECK_FALSE(f.is_open());
        CHECK(moved.is_open());
        CHECK(moved.size() == 9);
        moved.append("g\n");
        AppendFile assigned;
        CHECK_FALSE(assigned.is_open());
        assigned = std::move(moved);
        assigned.append("h\n");
        CHECK(assigned.size() == 13);
    }
    CHECK(read_text_file(path) == "abc\nde\nf\ng\nh\n");
    {
        AppendFile f(path, true); // truncated
        CHECK(f.size() == 0);
    }
    CHECK(read_text_file(path).empty());
}

TEST_CASE("FileLock: one writer per output file, devices are not locked", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_file_lock");
    fs::create_directories(dir);
    const std::string file = dir + "/proof.bin";
    {
        const FileLock lock(file);
        CHECK(read_text_file(FileLock::lock_path(file)) == std::to_string(::getpid()) + "\n");
        CHECK_THROWS_WITH(FileLock(file), file + " is in use by another run (pid " +
                                              std::to_string(::getpid()) + ", see " + file +
                                              ".lock); wait for it to end or choose another file");
        // Through a link: the same file, the same lock.
        write_file_atomically(file, "x");
        fs::create_symlink(file, dir + "/alias");
        CHECK_THROWS_AS(FileLock(dir + "/alias"), FileError);
    }
    const FileLock again(file); // released with its holder
    const FileLock null_device("/dev/null"), twice("/dev/null");
    CHECK_FALSE(fs::exists("/dev/null.lock"));
    CHECK_THROWS_WITH(FileLock(dir + "/none/f"),
                      dir + "/none/f: cannot create: the folder " + dir + "/none does not exist");
}

TEST_CASE("FolderLock: one holder per folder, in this process or another", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_lock") + "/nested/out";
    {
        const FolderLock lock(dir); // creates the folders
        CHECK(fs::is_directory(dir));
        CHECK(read_text_file(FolderLock::lock_path(dir)) == std::to_string(::getpid()) + "\n");
        CHECK_THROWS_WITH(FolderLock(dir),
                          Catch::StartsWith(dir + ": the folder is in use") &&
                              Catch::Contains("pid " + std::to_string(::getpid())));
        // Another process is refused too, and told which process holds the folder.
        const std::string pid = std::to_string(::getpid());
        CHECK(in_child([&] {
                  try {
                      const FolderLock other(dir);
                  } catch (const FileError& e) {
                      return std::string(e.what()).find("(pid " + pid + ",") != std::string::npos;
                  }
                  return false;
              }) == 0);
    }
    // Released with the object: the next run takes it and writes its own PID.
    const int status = in_child([&] {
        const FolderLock again(dir);
        return read_text_file(FolderLock::lock_path(dir)) == std::to_string(::getpid()) + "\n";
    });
    CHECK(status == 0);
    const FolderLock again(dir);
    CHECK(read_text_file(FolderLock::lock_path(dir)) == std::to_string(::getpid()) + "\n");

    // A folder that cannot be created (under a file) is an error naming it.
    const std::string file = test_cli::fresh_dir("common_lock_file");
    std::ofstream(file) << "x";
    CHECK_THROWS_WITH(FolderLock(file + "/out"),
                      Catch::StartsWith(file + "/out: cannot create the output folder"));
}

TEST_CASE("Rng is SplitMix64: reference values, same seed same numbers", "[common]") {
    // SplitMix64's published first outputs for seed 0 and seed 1234567.
    Rng zero(0);
    CHECK(zero.next() == 0xE220A8397B1DCDAFULL);
    CHECK(zero.next() == 0x6E789E6AA1B965F4ULL);
    Rng r(1234567);
    CHECK(r.next() == 6457827717110365317ULL);
    CHECK(r.next() == 3203168211198807973ULL);

    Rng a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t x = a.next();
        CHECK(x == b.next());
        differs = differs || x != c.next();
    }
    CHECK(differs);
}

TEST_CASE("Rng::below is in range and unbiased, and uniform stays below 1", "[common]") {
    Rng r(7);
    for (int i = 0; i < 1000; ++i) CHECK(r.below(1) == 0);
    // 60,000 draws in 6 cells: each cell's count within 5 standard deviations of 10,000.
    std::vector<int> cells(6);
    for (int i = 0; i < 60000; ++i) {
        const std::uint64_t v = r.below(6);
        REQUIRE(v < 6);
        ++cells[v];
    }
    for (int n : cells) CHECK(std::abs(n - 10000) < 5 * 92);
    // A bound above 2^63: every draw below it.
    const std::uint64_t big = (1ULL << 63) + 12345;
    for (int i = 0; i < 1000; ++i) CHECK(r.below(big) < big);
    double lo = 1, hi = 0, sum = 0;
    for (int i = 0; i < 10000; ++i) {
        const double u = r.uniform();
        REQUIRE(u >= 0.0);
        REQUIRE(u < 1.0);
        lo = std::min(lo, u), hi = std::max(hi, u), sum += u;
    }
    CHECK(lo < 0.01);
    CHECK(hi > 0.99);
    CHECK(sum / 10000 == Approx(0.5).margin(0.02));
}

TEST_CASE("Rng::shuffle permutes, and derive gives reproducible independent streams", "[common]") {
    std::vector<int> v(50);
    std::iota(v.begin(), v.end(), 0);
    std::vector<int> w = v;
    Rng(5).shuffle(v);
    Rng(5).shuffle(w);
    CHECK(v == w); // same seed, same order
    CHECK(std::set<int>(v.begin(), v.end()).size() == 50);
    CHECK(std::is_permutation(v.begin(), v.end(), w.begin()));
    std::vector<int> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    CHECK(v != sorted);
    std::vector<int> one{9}, none;
    Rng(5).shuffle(one);
    Rng(5).shuffle(none);
    CHECK(one == std::vector<int>{9});

    CHECK(Rng::derive(1, 2, 3).next() == Rng::derive(1, 2, 3).next());
    std::set<std::uint64_t> firsts;
    for (std::uint64_t seed : {1, 2})
        for (std::uint64_t purpose : {0, 1, 2})
            for (std::uint64_t index : {0, 1, 2, 1000})
                firsts.insert(Rng::derive(seed, purpose, index).next());
    CHECK(firsts.size() == 24);
}

TEST_CASE("split_words and lower", "[common]") {
    using V = std::vector<std::string>;
    CHECK(split_words("  a\tbb\n c \r\v\f d  ") == V{"a", "bb", "c", "d"});
    CHECK(split_words("").empty());
    CHECK(split_words(" \t\n").empty());
    CHECK(split_words("one") == V{"one"});
    CHECK(lower("AbC-XYZ 09 az") == "abc-xyz 09 az");
    CHECK(lower("\xc3\x89T\xc3\x89") == "\xc3\x89t\xc3\x89"); // bytes beyond ASCII unchanged
    CHECK(lower("").empty());
}

TEST_CASE("natural_less orders numbers by value and all else by bytes", "[common]") {
    using V = std::vector<std::string>;
    V names{"c-s10-000", "c-s9-001", "c-s9-000", "c-s100-000", "b",          "c-s10-002",
            "c-s09-000", "a10",      "a2",       "a",          "c-s10-000x", ""};
    std::sort(names.begin(), names.end(), natural_less);
    CHECK(names == V{"", "a", "a2", "a10", "b", "c-s9-000", "c-s09-000", "c-s9-001", "c-s10-000",
                     "c-s10-000x", "c-s10-002", "c-s100-000"});
    // A strict weak order: irreflexive, and of two different names exactly one comes first.
    for (const std::string& x : names) {
        CHECK_FALSE(natural_less(x, x));
        for (const std::string& y : names)
            if (x != y) CHECK(natural_less(x, y) != natural_less(y, x));
    }
    CHECK(natural_less("9", "10"));
    CHECK_FALSE(natural_less("10", "9"));
    CHECK(natural_less("x99999999999999999999998", "x99999999999999999999999")); // no overflow
}

TEST_CASE("format_duration rounds to seconds, minutes and hours", "[common]") {
    CHECK(format_duration(0) == "0s");
    CHECK(format_duration(12.4) == "12s");
    CHECK(format_duration(59.4) == "59s");
    CHECK(format_duration(59.6) == "1m00s");
    CHECK(format_duration(4 * 60 + 35) == "4m35s");
    CHECK(format_duration(3599.4) == "59m59s");
    CHECK(format_duration(3600) == "1h00m");
    CHECK(format_duration(3600 + 2 * 60 + 10) == "1h02m");
    CHECK(format_duration(30 * 3600) == "30h00m");
}

TEST_CASE("a quiet progress line draws nothing but still prints notes", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_progress");
    fs::create_directories(dir);
    const std::string out = captured_stderr(dir + "/err", [] {
        ProgressLine p(10, true);
        p.update(0, "start", true);
        p.update(5, "W 2 D 1 L 2", true);
        p.note("a warning");
        p.update(10, "done", true);
        p.finish();
        CHECK(p.elapsed_seconds() >= 0);
    });
    CHECK(out == "a warning\n");
}

TEST_CASE("without a terminal the progress is plain lines, at most one a second", "[common]") {
    const std::string dir = test_cli::fresh_dir("common_progress_plain");
    fs::create_directories(dir);
    // stderr is a file here: plain lines, no carriage return or escape sequence.
    const std::string out = captured_stderr(dir + "/err", [] {
        ProgressLine p(10, false);
        CHECK(p.plain());
        p.update(0, "start", true);
        p.update(1, "soon after", false); // within the second: held back
        p.update(2, "W 1 D 0 L 1", false);
        p.note("a warning");
        p.finish(); // the last state held back is printed
    });
    CHECK(out.find('\r') == std::string::npos);
    CHECK(out.find('\033') == std::string::npos);
    CHECK(out.rfind("0/10 games  start  ", 0) == 0);
    CHECK(out.find("soon after") == std::string::npos);
    CHECK(out.find("a warning\n2/10 games  W 1 D 0 L 1  ") != std::string::npos);
    CHECK(out.find("ETA") != std::string::npos);
    // An open-ended run (an SPRT): the games so far "up to" the cap, and no time left.
    const std::string open = captured_stderr(dir + "/err2", [] {
        ProgressLine p(200000, false, ProgressMode::Plain, true);
        p.update(3, "LLR 0.1", true);
        p.finish();
    });
    CHECK(open.rfind("3 games (up to 200000)  LLR 0.1  ", 0) == 0);
    CHECK(open.find("ETA") == std::string::npos);
    // A forced terminal redraws one line.
    const std::string term = captured_stderr(dir + "/err3", [] {
        ProgressLine p(3, false, ProgressMode::Terminal);
        p.update(1, "x", true);
        p.finish();
    });
    CHECK(term.rfind("\r\033[K1/3 games  x", 0) == 0);
    CHECK(term.back() == '\n');
}

TEST_CASE("ThreadLimit bounds oneTBB's parallelism while it lives, and the smallest holds",
          "[common]") {
    const std::size_t before = current_parallelism();
    {
        const ThreadLimit none(0);
        CHECK(current_parallelism() == before);
    }
    {
        const ThreadLimit one(1);
        CHECK(current_parallelism() == 1);
        {
            const ThreadLimit three(3);
            CHECK(current_parallelism() == 1); // nested: the smallest holds
        }
        // Work runs on one thread only.
        std::atomic<int> running{0}, most{0};
        tbb::parallel_for(0, 64, [&](int) {
            const int now = ++running;
            int seen = most.load();
            while (now > seen && !most.compare_exchange_weak(seen, now)) {
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            --running;
        });
        CHECK(most.load() == 1);
    }
    CHECK(current_parallelism() == before);
    {
        const ThreadLimit two(2);
        CHECK(current_parallelism() == std::min<std::size_t>(before, 2));
    }
}

TEST_CASE("a bounded read checks the first bytes, then the size, before reading the rest",
          "[common][files]") {
    const std::string dir = test_cli::fresh_dir("common_bounded");
    fs::create_directories(dir);
    const FileLimits net{"network", "fanorona-net ", 1000};
    // A file of another kind is told by its first bytes, whatever its size (a sparse 1 GB file
    // of zeros is refused at once, never read whole).
    const std::string zeros = dir + "/zeros";
    { std::ofstream(zeros, std::ios::binary); }
    fs::resize_file(zeros, std::uintmax_t(1) << 30);
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(read_file_bytes(zeros, net),
                      zeros + ": not a network file (it starts with bytes 00 00 00 00 00 00 00 00 "
                              "00 00 00 00 00 00 00 00, not 'fanorona-net ')");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2 * test_cli::kSlowdown));
    write_file_atomically(dir + "/text", "hello\n");
    CHECK_THROWS_WITH(read_file_bytes(dir + "/text", net),
                      dir + "/text: not a network file (it starts with 'hello\\n', not "
                            "'fanorona-net ')");
    // A wrong magic is a wrong magic; only a start of the magic "ends before" it.
    write_file_atomically(dir + "/short", "fanorona");
    CHECK_THROWS_WITH(read_file_bytes(dir + "/short", net),
                      dir + "/short: ends before a network file's first bytes ('fanorona-net ')");
    write_file_atomically(dir + "/empty", "");
    CHECK_THROWS_WITH(read_file_bytes(dir + "/empty", net),
                      dir + "/empty: empty, not a network file");
    // The right magic, too large: refused by its size before it is read.
    write_file_atomically(dir + "/big", "fanorona-net 1\n" + std::string(2000, 'x'));
    CHECK_THROWS_WITH(read_file_bytes(dir + "/big", net),
                      dir + "/big: 2015 bytes, more than a network file's largest (1000 bytes)");
    // A text format without magic is bounded by its size alone; a byte-order mark is skipped.
    write_file_atomically(dir + "/ok", "\xEF\xBB\xBF"
                                       "fanorona-net 1\nrest");
    CHECK(read_text_file(dir + "/ok", net) == "fanorona-net 1\nrest");
    CHECK_THROWS_WITH(read_text_file(dir + "/big", FileLimits{"weights", "", 100}),
                      Catch::Contains("more than a weights file's largest (100 bytes)"));
    // A device is read up to the largest size; a FIFO whose writer stays silent, for a bounded
    // time.
    CHECK_THROWS_WITH(read_file_bytes("/dev/zero", FileLimits{"weights", "", 100000}),
                      Catch::Contains("/dev/zero: not a regular file, and longer than a weights"));
    const std::string fifo = dir + "/fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const pid_t writer = ::fork();
    if (writer == 0) {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        (void)!::write(fd, "fanorona-net 1\n", 15);
        ::sleep(5); // silent, the FIFO open
        ::_exit(0);
    }
    const auto fifo_start = std::chrono::steady_clock::now();
    FileLimits quick = net;
    quick.max_seconds = 1;
    CHECK_THROWS_WITH(read_file_bytes(fifo, quick),
                      fifo + ": not a regular file, and it did not end within 1 s; refused");
    CHECK(std::chrono::steady_clock::now() - fifo_start < std::chrono::seconds(4));
    ::kill(writer, SIGKILL);
    int status = 0;
    ::waitpid(writer, &status, 0);
}
