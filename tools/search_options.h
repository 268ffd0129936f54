#pragma once
// Options shared by the searching subcommands: weights, hash size and search parameters.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/weights_file.h"
#include "core/search.h"

namespace fanorona::cli {

// --weights, --hash and --param NAME=VALUE as a user typed them.
struct SearchOptions {
    std::string weights = "default";
    std::size_t hash_mb = 16;
    std::vector<std::string> params;

    void add_to(CLI::App& cmd);
    // Configures `s` (weights, hash, parameters); throws std::invalid_argument naming the option.
    void apply(Searcher& s) const;
};

inline void SearchOptions::add_to(CLI::App& cmd) {
    cmd.add_option("--weights", weights, "Weights file ('default': the compiled-in weights)")
        ->capture_default_str();
    cmd.add_option("--hash", hash_mb, "Transposition table size in MB")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    std::string names;
    const SearchParams defaults; // list() views this table: it must outlive the loop
    for (const SearchParam& p : defaults.list())
        names += std::string(names.empty() ? "" : ", ") + p.name;
    cmd.add_option("--param", params,
                   "Set a search parameter, NAME=VALUE (repeatable). Parameters: " + names);
}

inline void SearchOptions::apply(Searcher& s) const {
    s.set_weights(load_weights_file(weights));
    s.set_hash_mb(hash_mb);
    for (const std::string& p : params) {
        const auto eq = p.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--param: expected NAME=VALUE, found '" + p + "'");
        const std::string name = p.substr(0, eq), text = p.substr(eq + 1);
        int value = 0;
        std::size_t used = 0;
        try {
            value = std::stoi(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (text.empty() || used != text.size())
            throw std::invalid_argument("--param " + name + ": '" + text + "' is not an integer");
        try {
            if (!s.params().set(name, value))
                throw std::invalid_argument("--param: unknown search parameter '" + name + "'");
        } catch (const std::out_of_range& e) {
            throw std::invalid_argument("--param: " + std::string(e.what()));
        }
    }
}

} // namespace fanorona::cli
