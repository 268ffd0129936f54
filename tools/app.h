#pragma once
// The `fanorona` app: every subcommand, the checks main applies over all of them (whole unsigned
// numbers, declared paths), built once by the program and by the tests alike.

#include <memory>

#include <CLI/CLI.hpp>

namespace fanorona::cli {

// The app with every subcommand declared, unsigned options checked (refuse_wrapped_unsigned) and
// the declared paths checked before any command runs (install_path_checks).
std::unique_ptr<CLI::App> make_app();

} // namespace fanorona::cli
