// The fuzz targets of tests/fuzz, compiled without libFuzzer, fed every file of their corpus
// (tests/fuzz/corpus/NAME/: small valid and invalid seeds, and each input that once found a bug).
// This keeps the targets compiling and their promises true in every `make test`.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/fuzz/fuzz_target.h"

namespace fs = std::filesystem;

TEST_CASE("every fuzz target keeps its promises on every file of its corpus", "[fuzz]") {
    const fs::path corpus = FANORONA_FUZZ_CORPUS;
    REQUIRE(fuzz::targets().size() >= 10);
    for (const fuzz::Target& t : fuzz::targets()) {
        const fs::path dir = corpus / t.name;
        INFO("target " << t.name);
        REQUIRE(fs::is_directory(dir));
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        CHECK(files.size() >= 3);
        for (const fs::path& f : files) {
            std::ifstream in(f, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            INFO("input " << f.string());
            CHECK_NOTHROW(
                t.entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
        }
    }
}

TEST_CASE("every corpus folder belongs to a fuzz target", "[fuzz]") {
    for (const auto& e : fs::directory_iterator(FANORONA_FUZZ_CORPUS)) {
        const std::string name = e.path().filename().string();
        INFO("corpus folder " << name);
        CHECK(std::any_of(fuzz::targets().begin(), fuzz::targets().end(),
                          [&](const fuzz::Target& t) { return name == t.name; }));
    }
}
