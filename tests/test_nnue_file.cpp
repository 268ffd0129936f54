// Tests of network files (selfplay/formats/net_file.h): the round trip, and one clear line for each
// way a file can be wrong.

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "cli_helpers.h"
#include "selfplay/formats/net_file.h"

using namespace fanorona;

namespace {

NetFile sample_file() {
    nnue::Architecture a;
    a.hidden = 32;
    a.buckets = 4;
    NetFile f;
    f.net = nnue::quantise(nnue::random_float_network(a, 42));
    f.provenance.data_files = {"data/a.log", "data/b.log"};
    f.provenance.positions = 123456;
    f.provenance.games = 789;
    f.provenance.epochs = 12;
    f.provenance.train_loss = 0.0123;
    f.provenance.validation_loss = 0.0456;
    f.provenance.seed = 99;
    f.provenance.command = "fanorona train --data data/a.log";
    f.provenance.created = "2026-12-03T17:00:00Z";
    return f;
}

std::string error_of(const std::string& bytes) {
    try {
        parse_net_file(bytes, "n.net");
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

// `bytes` with the header line starting `key ` replaced by `line`, and the checksum fixed.
std::string with_line(std::string bytes, const std::string& key, const std::string& line) {
    const auto at = bytes.find("\n" + key + " ");
    REQUIRE(at != std::string::npos);
    const auto end = bytes.find('\n', at + 1);
    bytes.replace(at + 1, end - at - 1, line);
    return bytes;
}

} // namespace

TEST_CASE("net file: write then read gives the same network and provenance", "[nnue][formats]") {
    const NetFile f = sample_file();
    const std::string dir = test_cli::fresh_dir("net_file_round_trip");
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/x.net";
    write_net_file(path, f);
    const NetFile r = read_net_file(path);
    CHECK(r.net == f.net);
    CHECK(r.provenance == f.provenance);
    CHECK(r.checksum != 0);
    CHECK(!std::filesystem::exists(path + ".tmp"));
    const std::string bytes = format_net_file(f);
    CHECK(bytes.rfind("fanorona-net 1\nvariant tsivy\nfeatures points\ninputs 90\nhidden 32\n",
                      0) == 0);
    // A points+lines network: the feature set is in the header and the architecture hash.
    NetFile lines = f;
    lines.net.arch.features = nnue::FeatureSet::PointsLines;
    lines.net = nnue::quantise(nnue::random_float_network(lines.net.arch, 5));
    write_net_file(path, lines);
    const NetFile lr = read_net_file(path);
    CHECK(lr.net == lines.net);
    CHECK(format_net_file(lines).find("\nfeatures points+lines\ninputs 2274\n") !=
          std::string::npos);
    // An SCReLU network: its activation is a header line and part of the architecture hash; a
    // CReLU network's header does not name it (the files before SCReLU read as they were).
    CHECK(bytes.find("activation") == std::string::npos);
    NetFile squared = f;
    squared.net.arch.activation = nnue::Activation::SCReLU;
    squared.net = nnue::quantise(nnue::random_float_network(squared.net.arch, 6));
    write_net_file(path, squared);
    CHECK(read_net_file(path).net == squared.net);
    CHECK(format_net_file(squared).find("\nfeatures points\nactivation screlu\ninputs 90\n") !=
          std::string::npos);
    // A second layer: a header line after hidden, part of the hash, its w3 and b3 after b2.
    CHECK(bytes.find("layer2") == std::string::npos);
    NetFile deep = f;
    deep.net.arch.layer2 = 8;
    deep.net = nnue::quantise(nnue::random_float_network(deep.net.arch, 7));
    write_net_file(path, deep);
    const NetFile dr = read_net_file(path);
    CHECK(dr.net == deep.net);
    CHECK(dr.net.w3.size() == 8 * std::size_t(deep.net.arch.buckets));
    CHECK(format_net_file(deep).find("\nhidden 32\nlayer2 8\nbuckets") != std::string::npos);
    std::string no_layer = format_net_file(deep);
    no_layer.replace(no_layer.find("layer2 8"), 8, "layer2 0");
    try {
        parse_net_file(no_layer, "d.net");
        FAIL("layer2 0 was read");
    } catch (const std::runtime_error& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("d.net: net file field 'layer2'"));
    }
    // Unknown numbers stay unknown.
    NetFile bare;
    bare.net = nnue::make_network(nnue::Architecture{});
    const NetFile back = parse_net_file(format_net_file(bare), "b.net");
    CHECK(back.provenance.positions == -1);
    CHECK(back.provenance.train_loss == -1);
    CHECK(!back.provenance.created.empty()); // the writer stamps the time
}

TEST_CASE("net file: every damage is refused with one line naming the file and the field",
          "[nnue][formats]") {
    const std::string good = format_net_file(sample_file());
    REQUIRE(error_of(good) == "no error");
    const auto refused = [&](const std::string& bytes, const std::string& field) {
        const std::string e = error_of(bytes);
        INFO(e);
        CHECK(e.rfind("n.net: net file field '" + field + "'", 0) == 0);
        CHECK(e.find('\n') == std::string::npos);
    };
    refused("PK\x03\x04 a zip file\n", "magic");
    refused("fanorona-net 2\n" + good.substr(15), "version");
    refused("", "magic");
    // A header field changed: the architecture hash no longer matches (before the checksum).
    refused(with_line(good, "buckets", "buckets 8"), "architecture");
    refused(with_line(good, "hidden", "hidden 30"), "architecture");
    refused(with_line(good, "hidden", "hidden x"), "hidden");
    refused(with_line(good, "variant", "variant 4x4"), "variant");
    refused(with_line(good, "features", "features lines"), "features");
    refused(with_line(good, "inputs", "activation relu\ninputs 90"), "activation");
    // Naming an activation changes the architecture: the hash no longer matches.
    refused(with_line(good, "inputs", "activation screlu\ninputs 90"), "architecture");
    refused(with_line(good, "inputs", "inputs 91"), "inputs");
    refused(with_line(good, "qa", "qa 256"), "architecture");
    refused(with_line(good, "seed", "seed -1"), "seed");
    refused(with_line(good, "positions", "positions 1e3"), "positions");
    refused(with_line(good, "games", "colour 3"), "colour");
    refused(with_line(good, "games", "seed 4"), "seed"); // twice
    refused(with_line(good, "parameters", "parameters 100"), "parameters");
    // The parameters: cut short, one byte changed, the checksum missing or followed by more.
    const auto params = good.find("\nparameters ");
    const auto body = good.find('\n', params + 1) + 1;
    refused(good.substr(0, body + 10), "parameters");
    std::string flipped = good;
    flipped[body + 5] = char(flipped[body + 5] ^ 1);
    refused(flipped, "checksum");
    const auto sum_at = good.rfind("checksum ");
    refused(good.substr(0, sum_at), "checksum");
    refused(good + "x", "checksum");
    std::string wrong_sum = good;
    wrong_sum[sum_at + 9] = wrong_sum[sum_at + 9] == '0' ? '1' : '0';
    refused(wrong_sum, "checksum");
    // An SCReLU file whose output weight lies beyond the kernel's +-127 (the checksum right).
    {
        NetFile wide = sample_file();
        wide.net.w2.set(0, 500);
        std::string b = format_net_file(wide);
        nnue::Architecture squared = wide.net.arch;
        squared.activation = nnue::Activation::SCReLU;
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016llx",
                      static_cast<unsigned long long>(nnue::architecture_hash(squared)));
        b = with_line(b, "architecture", std::string("architecture ") + hash);
        b = with_line(b, "inputs", "activation screlu\ninputs 90");
        const auto end = b.rfind("\nchecksum ");
        std::uint64_t sum = 1469598103934665603ULL; // FNV-1a 64, as the format says
        for (std::size_t i = 0; i < end; ++i) {
            sum ^= std::uint8_t(b[i]);
            sum *= 1099511628211ULL;
        }
        std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(sum));
        b = b.substr(0, end) + "\nchecksum " + hash + "\n";
        INFO(error_of(b));
        refused(b, "parameters");
        CHECK_THAT(error_of(b), Catch::Contains("outside +-127"));
    }
    // A missing file names the file.
    try {
        read_net_file("/nonexistent/dir/n.net");
        FAIL("no error");
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("/nonexistent/dir/n.net") != std::string::npos);
    }
}
