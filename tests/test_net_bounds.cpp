// A network whose integer inference could overflow (its int16 accumulators, a second layer's int32
// sums) or whose evaluations could reach the search's decisive scores is refused when read, with
// one line naming the file and the field (network_problem(), network.h). The forged files are
// `net random` files with some parameters changed and the checksum made anew.

#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "core/common/files.h"
#include "core/nnue/network.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

// FNV-1a 64 with the published basis, written out here rather than taken from the program.
std::string published_fnv1a64(const std::string& bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (const unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, h);
    return hex;
}

template <class T> void put_le(std::string& out, const std::vector<T>& values) {
    for (const T v : values) {
        const auto u = std::make_unsigned_t<T>(v);
        for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(char((u >> (8 * i)) & 0xFF));
    }
}

// The file `written` with its parameters replaced by `net`'s (the header kept) and its checksum
// made anew: what a damaged or hand-made file with a valid checksum looks like.
std::string forged(const std::string& written, const nnue::Network& net) {
    const std::size_t header = written.find("\nparameters ");
    REQUIRE(header != std::string::npos);
    std::string body = written.substr(0, written.find('\n', header + 1) + 1);
    put_le(body, net.w1);
    put_le(body, net.b1);
    put_le(body, net.w2.values());
    put_le(body, net.b2);
    put_le(body, net.w3);
    put_le(body, net.b3);
    return body + "\nchecksum " + published_fnv1a64(body) + "\n";
}

// The error of reading `bytes` as the file `path` ("" when it reads).
std::string read_error(const std::string& path, const std::string& bytes) {
    write_file_atomically(path, bytes);
    try {
        read_net_file(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

// A random network written by `net random ARGS` into `dir`, its bytes and its parse.
struct Written {
    std::string bytes;
    nnue::Network net;
};
Written random_net(const std::string& dir, const std::string& args) {
    const std::string path = dir + "/random.net";
    REQUIRE(test_cli::run_cli("net random --seed 3 " + args + " --out " + path).status == 0);
    return {test_cli::slurp(path), read_net_file(path).net};
}

} // namespace

TEST_CASE("networks whose integer inference could overflow are refused", "[net][formats]") {
    const std::string dir = test_cli::fresh_dir("net_bounds");
    std::filesystem::create_directories(dir);
    const std::string bad = dir + "/forged.net";

    SECTION("the first layer's int16 accumulators") {
        const Written w = random_net(dir, "--hidden 16");
        nnue::Network n = w.net;
        for (auto& x : n.w1) x = 32767;
        const std::string e = read_error(bad, forged(w.bytes, n));
        CHECK_THAT(e, Catch::StartsWith(bad + ": net file field 'parameters': the first layer can "
                                              "overflow its int16 accumulator (hidden unit 0: "));
        CHECK(e.find('\n') == std::string::npos);
        // The most negative weights as well; and one unit alone is named.
        n = w.net;
        for (std::size_t f = 0; f < n.w1.size(); f += 16) n.w1[f + 5] = -32768;
        CHECK_THAT(read_error(bad, forged(w.bytes, n)),
                   Catch::Contains("(hidden unit 5: ") && Catch::Contains(" < -32768)"));
        // At the bound exactly: 44 inputs of 744 and a bias of 31 make 32767, which fits.
        n = w.net;
        for (auto& x : n.w1) x = 744;
        for (auto& x : n.b1) x = 31;
        CHECK(nnue::network_problem(n).empty());
        n.b1[3] = 32;
        CHECK_THAT(nnue::network_problem(n), Catch::Contains("(hidden unit 3: 32768 > 32767)"));
    }

    SECTION("the output's evaluation") {
        const Written w = random_net(dir, "--hidden 16");
        nnue::Network n = w.net;
        for (std::size_t k = 0; k < n.w2.size(); ++k) n.w2.set(k, 32767);
        CHECK_THAT(read_error(bad, forged(w.bytes, n)),
                   Catch::StartsWith(bad + ": net file field 'parameters': the output can exceed "
                                           "the evaluations the search allows (bucket 0: ") &&
                       Catch::EndsWith(" > 29171)"));
        n = w.net;
        n.b2[2] = std::numeric_limits<std::int32_t>::min();
        CHECK_THAT(read_error(bad, forged(w.bytes, n)), Catch::Contains("(bucket 2: -"));
    }

    SECTION("screlu's output") {
        const Written w = random_net(dir, "--hidden 32 --activation screlu");
        nnue::Network n = w.net;
        for (std::size_t k = 0; k < n.w2.size(); ++k)
            n.w2.set(k, 127); // within the kernel's +-127, but 64 of them at QA^2 / QA
        CHECK_THAT(read_error(bad, forged(w.bytes, n)), Catch::Contains("the output can exceed"));
    }

    SECTION("a second layer's int32 sums and its output") {
        const Written w = random_net(dir, "--hidden 16 --layer2 8");
        nnue::Network n = w.net;
        for (auto& x : n.b2) x = std::numeric_limits<std::int32_t>::max();
        CHECK_THAT(read_error(bad, forged(w.bytes, n)),
                   Catch::Contains("'parameters': the second layer can overflow its int32 sum "
                                   "(unit 0: ") &&
                       Catch::EndsWith(" > 2147483647)"));
        n = w.net;
        for (auto& x : n.b2) x = std::numeric_limits<std::int32_t>::min();
        CHECK_THAT(read_error(bad, forged(w.bytes, n)), Catch::EndsWith(" < -2147483648)"));
        n = w.net;
        for (auto& x : n.b3) x = std::numeric_limits<std::int32_t>::max();
        CHECK_THAT(read_error(bad, forged(w.bytes, n)),
                   Catch::Contains("the output can exceed the evaluations the search allows "
                                   "(bucket 0: "));
        n = w.net;
        for (auto& x : n.w3) x = 32767;
        CHECK_THAT(read_error(bad, forged(w.bytes, n)), Catch::Contains("the output can exceed"));
    }

    SECTION("net info names the file and the field in one line, and exits 1") {
        const Written w = random_net(dir, "--hidden 16");
        nnue::Network n = w.net;
        for (auto& x : n.w1) x = 32767;
        write_file_atomically(bad, forged(w.bytes, n));
        const auto r = test_cli::run_cli("net info " + bad);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains(bad + ": net file field 'parameters': the first "
                                                   "layer can overflow"));
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    }

    SECTION("real and random networks are accepted") {
        CHECK(nnue::network_problem(load_net_file("")->net).empty());
        for (const char* args :
             {"--hidden 16", "--hidden 128", "--hidden 512 --buckets 64", "--activation screlu",
              "--features points+lines", "--layer2 16", "--layer2 64 --hidden 512",
              "--variant 3x3 --hidden 16", "--variant telo --hidden 16"}) {
            INFO(args);
            CHECK(nnue::network_problem(random_net(dir, args).net).empty());
        }
        for (const auto& e :
             std::filesystem::directory_iterator(FANORONA_TEST_DATA "/../../data/nets")) {
            INFO(e.path());
            CHECK(nnue::network_problem(read_net_file(e.path().string()).net).empty());
        }
    }
}
