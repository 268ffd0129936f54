// The repository's shape is the design card's, and the folder include graph of the sources
// (nested folders too, each its own node) reads as the data flow: each folder includes only
// folders of lower layers or its own, so no two folders include each other, directly or around a
// circle.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(FANORONA_TEST_DATA).parent_path().parent_path();

// The top-level folders that hold the program's sources (tests/, data/ and docs/ aside).
const std::set<std::string> kSourceTops = {"core", "selfplay", "tuner", "tools"};

// Each source folder's layer: a folder may include folders of a lower layer (or its own folder).
// A nested folder is a node of its own: core/nnue sits above core/board and below core, which
// includes it.
const std::map<std::string, int> kLayers = {
    {"core/common", 0},
    {"core/board", 1},
    {"selfplay/tournament/stats", 1},
    {"core/nnue", 2},
    {"core", 3},
    {"core/solver", 4},
    {"core/tables", 4},
    {"selfplay/formats", 5},
    {"selfplay/engine", 6},
    {"selfplay/openings", 6},
    {"selfplay/games", 7},
    {"selfplay/tournament", 8},
    {"selfplay/rescore", 8},
    {"selfplay", 9},
    {"selfplay/mpi", 10},
    {"tuner", 10},
    {"tuner/texel", 11},
    {"tuner/spsa", 11},
    {"tuner/net", 12},
    {"tools/report", 13},
    {"tools/timeuse", 13},
    {"tools/solve", 13},
    {"tools/loop", 14},
    {"tools", 15},
    {"tools/bench", 16},
};

// Every folder below the source tops (the tops included), relative to the repository.
std::set<std::string> source_folders() {
    std::set<std::string> folders;
    for (const std::string& top : kSourceTops) {
        REQUIRE(fs::is_directory(kRoot / top));
        folders.insert(top);
        for (const auto& entry : fs::recursive_directory_iterator(kRoot / top))
            if (entry.is_directory())
                folders.insert(fs::relative(entry.path(), kRoot).generic_string());
    }
    return folders;
}

// Folder (relative to the repository) -> the other folders its sources include.
std::map<std::string, std::set<std::string>> include_graph() {
    std::map<std::string, std::set<std::string>> graph;
    const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
    for (const std::string& folder : source_folders()) {
        for (const auto& entry : fs::directory_iterator(kRoot / folder)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".in"))
                continue;
            std::ifstream in(entry.path());
            std::string line;
            std::smatch m;
            while (std::getline(in, line))
                if (std::regex_search(line, m, include)) {
                    const std::string target = fs::path(m[1].str()).parent_path().string();
                    if (!target.empty() && target != folder) graph[folder].insert(target);
                }
        }
    }
    return graph;
}

} // namespace

TEST_CASE("the top level is the design card's", "[layers]") {
    // The card: CMakeLists.txt, core, selfplay, tuner, tools, data, tests, README.md; plus docs/,
    // the Makefile, CHANGELOG.md, CI's folder and dotfiles (.clang-format, .gitignore).
    const std::set<std::string> card = {"CMakeLists.txt", "core",     "selfplay",    "tuner",
                                        "tools",          "data",     "tests",       "README.md",
                                        "docs",           "Makefile", "CHANGELOG.md"};
    std::set<std::string> top;
    for (const auto& entry : fs::directory_iterator(kRoot)) {
        const std::string name = entry.path().filename().string();
        if (name.front() == '.') continue; // .ci, .git, .clang-format, ...
        top.insert(name);
    }
    // Build folders and run outputs are not part of the repository's shape.
    for (const char* generated : {"build", "build-asan", "build-tsan", "runs"})
        top.erase(generated);
    CHECK(top == card);
    CHECK(fs::is_regular_file(kRoot / ".ci" / "run"));
}

TEST_CASE("every source folder has a layer and includes only lower layers", "[layers]") {
    // A new folder must be given its place in the data flow here.
    for (const std::string& f : source_folders()) {
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

TEST_CASE("the folder include graph has no cycle", "[layers]") {
    // Independent of the layer numbers: a depth-first search over the folders finds no folder
    // that reaches itself.
    const auto graph = include_graph();
    std::map<std::string, int> state; // 0 unseen, 1 on the path, 2 done
    std::vector<std::string> path;
    std::function<bool(const std::string&)> cyclic = [&](const std::string& f) {
        if (state[f] == 1) return true;
        if (state[f] == 2) return false;
        state[f] = 1;
        path.push_back(f);
        if (const auto it = graph.find(f); it != graph.end())
            for (const std::string& to : it->second)
                if (cyclic(to)) return true;
        path.pop_back();
        state[f] = 2;
        return false;
    };
    for (const auto& [folder, targets] : graph) {
        const bool found = cyclic(folder);
        std::string around;
        for (const std::string& f : path) around += f + " -> ";
        INFO("cycle: " << around);
        CHECK_FALSE(found);
        if (found) break;
    }
}

TEST_CASE("the include graph has the edges of the data flow", "[layers]") {
    const auto graph = include_graph();
    // A few edges that must exist for the layering above to mean anything (the scan finds them).
    CHECK(graph.at("selfplay/games").count("selfplay/engine") == 1);
    CHECK(graph.at("selfplay/tournament").count("selfplay/games") == 1);
    CHECK(graph.at("selfplay/tournament").count("selfplay/tournament/stats") == 1);
    CHECK(graph.at("selfplay").count("selfplay/games") == 1);
    CHECK(graph.at("selfplay/engine").count("selfplay/formats") == 1);
    CHECK(graph.at("selfplay/mpi").count("selfplay/games") == 1);
    CHECK(graph.at("selfplay/formats").count("core") == 1);
    CHECK(graph.at("core").count("core/nnue") == 1);
    CHECK(graph.at("core/nnue").count("core/board") == 1);
    CHECK(graph.at("tuner").count("selfplay/formats") == 1);
    CHECK(graph.at("tuner/texel").count("tuner") == 1);
    CHECK(graph.at("tuner/net").count("tuner") == 1);
    CHECK(graph.at("tuner/spsa").count("selfplay/tournament") == 1);
    // The board and the small helpers depend on nothing else of ours.
    CHECK(graph.count("core/common") == 0);
    CHECK(graph.count("core/board") == 0);
}
