// Every file that a user reads about is in the repository: the paths that the README, docs/*.md
// and every command's --help name (under the repository's own folders, or a bare NAME.md) exist,
// so nothing a user reads points outside the repository.

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/cli_helpers.h"

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(FANORONA_TEST_DATA).parent_path().parent_path();

// The subcommands listed in a --help text's "Subcommands:" section.
std::vector<std::string> subcommands(const std::string& help) {
    std::vector<std::string> names;
    const auto at = help.find("Subcommands:");
    if (at == std::string::npos) return names;
    const std::regex line(R"(\n  ([a-z][a-z0-9-]*)\s)");
    for (std::sregex_iterator it(help.begin() + long(at), help.end(), line), end; it != end; ++it)
        names.push_back((*it)[1].str());
    return names;
}

// Every help text of the program: the top level's, each subcommand's and theirs (depth-first).
void collect_helps(const std::string& command,
                   std::vector<std::pair<std::string, std::string>>& out) {
    const test_cli::Run r = test_cli::run_cli(command + " --help");
    REQUIRE(r.status == 0);
    out.emplace_back(command.empty() ? "fanorona --help" : command + " --help", r.output);
    for (const std::string& sub : subcommands(r.output))
        collect_helps(command.empty() ? sub : command + " " + sub, out);
}

// The repository files a text names: paths that start with one of the repository's folders, and
// bare NAME.md names. Placeholders (FILE, NAME, *, <...>) and run outputs are not files.
std::set<std::string> named_files(const std::string& text) {
    std::set<std::string> names;
    const std::regex path(
        R"((^|[^A-Za-z0-9_./-])((?:core|selfplay|tuner|tools|data|tests|docs|\.ci)/[A-Za-z0-9_./-]*[A-Za-z0-9_])|(^|[^A-Za-z0-9_./-])([A-Za-z0-9_-]+\.md)\b)");
    for (std::sregex_iterator it(text.begin(), text.end(), path), end; it != end; ++it) {
        const std::string name = (*it)[2].matched ? (*it)[2].str() : (*it)[4].str();
        // A placeholder component (tests/fuzz/corpus/NAME) names no file.
        if (!std::regex_search(name, std::regex("(^|/)[A-Z][A-Z0-9_]+(/|$)"))) names.insert(name);
    }
    return names;
}

bool in_repository(const std::string& name) {
    if (fs::exists(kRoot / name)) return true;
    // A bare NAME.md is the top level's or docs/'s.
    return name.find('/') == std::string::npos && fs::exists(kRoot / "docs" / name);
}

std::vector<std::pair<std::string, std::string>> texts_users_read() {
    std::vector<std::pair<std::string, std::string>> texts;
    texts.emplace_back("README.md", test_cli::slurp((kRoot / "README.md").string()));
    for (const auto& entry : fs::directory_iterator(kRoot / "docs"))
        if (entry.path().extension() == ".md")
            texts.emplace_back("docs/" + entry.path().filename().string(),
                               test_cli::slurp(entry.path().string()));
    collect_helps("", texts);
    return texts;
}

} // namespace

TEST_CASE("named_files finds repository paths and bare .md names only", "[docpaths]") {
    const auto names = named_files("see docs/rules.md, RULES.md and core/board/rules.h; runs/sp "
                                   "and OUT/games.tsv are outputs; (tools/bench/net.sh), "
                                   "tests/fuzz/corpus/NAME/");
    CHECK(names == std::set<std::string>{"docs/rules.md", "RULES.md", "core/board/rules.h",
                                         "tools/bench/net.sh"});
    CHECK_FALSE(in_repository("RULES.md")); // the shared folder's, not ours
    CHECK(in_repository("rules.md"));
}

TEST_CASE("the README, the docs and every --help name only files in the repository", "[docpaths]") {
    const auto texts = texts_users_read();
    CHECK(texts.size() > 30); // the README, the docs and the help of every command
    for (const auto& [where, text] : texts)
        for (const std::string& name : named_files(text)) {
            INFO(where << " names " << name);
            CHECK(in_repository(name));
        }
}
