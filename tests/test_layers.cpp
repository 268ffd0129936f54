// The folder include graph of the sources (nested folders too) reads as the data flow: each
// folder includes only folders of lower layers or its own, so no two folders include each other,
// directly or around a circle.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(FANORONA_TEST_DATA).parent_path().parent_path();

// Each source folder's layer: a folder may include folders of a lower layer (or its own folder).
// Nested folders of tools/ sit below tools/ itself, which holds the commands.
const std::map<std::string, int> kLayers = {
    {"common", 0},        {"core", 1},        {"core/nnue", 1},  {"tables", 2},
    {"stats", 2},         {"records", 3},     {"engine", 4},     {"openings", 5},
    {"match", 6},         {"cluster", 7},     {"tuner", 7},      {"tools/report", 8},
    {"tools/timeuse", 8}, {"tools/solve", 8}, {"tools/loop", 9}, {"tools", 10},
    {"tools/bench", 11},
};

// The folder a nested folder is part of (core/nnue is core: they include each other freely);
// other folders are their own.
std::string part_of(const std::string& folder) {
    return folder == "core/nnue" ? "core" : folder;
}

// Folder (relative to the repository) -> the folders its sources include.
std::map<std::string, std::set<std::string>> include_graph() {
    std::map<std::string, std::set<std::string>> graph;
    const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
    for (const auto& [folder, layer] : kLayers) {
        for (const auto& entry : fs::directory_iterator(kRoot / folder)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
            std::ifstream in(entry.path());
            std::string line;
            std::smatch m;
            while (std::getline(in, line))
                if (std::regex_search(line, m, include)) {
                    const std::string target = fs::path(m[1].str()).parent_path().string();
                    if (!target.empty() && part_of(target) != part_of(folder))
                        graph[folder].insert(target);
                }
        }
    }
    return graph;
}

} // namespace

TEST_CASE("every source folder has a layer and includes only lower layers", "[layers]") {
    // A new folder must be given its place in the data flow here.
    std::set<std::string> folders;
    for (const std::string top : {"common", "core", "tables", "stats", "records", "engine",
                                  "openings", "match", "cluster", "tuner", "tools"}) {
        REQUIRE(fs::is_directory(kRoot / top));
        folders.insert(top);
        for (const auto& entry : fs::recursive_directory_iterator(kRoot / top))
            if (entry.is_directory())
                folders.insert(fs::relative(entry.path(), kRoot).generic_string());
    }
    for (const std::string& f : folders) {
        INFO("folder " << f);
        CHECK(kLayers.count(f) == 1);
    }
    for (const auto& [from, targets] : include_graph())
        for (const std::string& to : targets) {
            INFO(from << " includes " << to);
            REQUIRE(kLayers.count(to) == 1);
            CHECK(kLayers.at(to) < kLayers.at(from));
        }
}

TEST_CASE("the include graph has the edges of the data flow", "[layers]") {
    const auto graph = include_graph();
    // A few edges that must exist for the layering above to mean anything (the scan finds them).
    CHECK(graph.at("match").count("engine") == 1);
    CHECK(graph.at("engine").count("records") == 1);
    CHECK(graph.at("cluster").count("match") == 1);
    CHECK(graph.at("records").count("core") == 1);
    // common depends on nothing of ours.
    CHECK(graph.count("common") == 0);
}
