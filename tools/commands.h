#pragma once
// Each subcommand of the `fanorona` program registers itself on the app with one function.

#include <CLI/CLI.hpp>

namespace fanorona::cli {

void add_perft_command(CLI::App& app);

} // namespace fanorona::cli
