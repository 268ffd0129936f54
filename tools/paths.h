#pragma once
// Declared paths: every option or argument that names a file or folder says so once, with its role
// (declare_path), and one check that main's app runs before any command's callback
// (install_path_checks) refuses an output that is an input, two outputs that are one file, and a
// log that would empty or add to a file that is not an engine log. No command checks these itself.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/common/files.h"

namespace fanorona::cli {

// What an option's path is to its command.
enum class PathRole {
    InputFile,    // a file read (or a built-in name, or a spec such as random:6: no file, no check)
    InputFolder,  // a folder whose files are read
    OutputFile,   // a file written (replaced)
    OutputFolder, // a run folder: the files the command writes inside it are outputs
    Log,          // an engine log, emptied or added to: must be a log of ours when it holds bytes
    Program,      // a program run (an input: never written)
    EngineSpecs,  // --player specs: cmd= is a program, net=/weights=/vela_weights=/params=/tables=
                  // name input files
    NotAPath,     // says "file" or "folder" in its help, but names none (a test checks the others)
};

// The name of a role as tests and messages show it ("input file", ...).
const char* path_role_name(PathRole role);

// Declares that `option` names a path with `role`. For an output folder, `writes` lists the files
// the command writes inside it (relative names: "games.tsv"); for an output file, the suffixes of
// the files written beside it (".ckpt" for OUT.ckpt): no other output may be one of them. For an
// input folder, it lists the files read inside it (none given: the whole folder is read), so an
// output may sit beside them (`report --tournament T --out T/report.html`) but never be one.
// Returns `option`, for chaining. The role lives in the option itself (a named no-op validator).
CLI::Option* declare_path(CLI::Option* option, PathRole role,
                          const std::vector<std::string>& writes = {});

// The role `option` was declared with (none: never declared), and an output folder's files.
std::optional<PathRole> path_role(const CLI::Option* option);
std::vector<std::string> output_folder_files(const CLI::Option* option);

// How messages name `option`: its first long name ("--out"), else its short or positional name
// ("GAMES"), hidden options too.
std::string option_label(const CLI::Option* option);

// The files and folders the options of the subcommand `cmd` (and of its option groups) were
// given: the inputs (programs and spec files included) and the outputs (an output folder's
// written files each one more output), each named by its option ("--out", "GAMES").
// `repeated` holds, for each input option given more than once, its values.
struct DeclaredPaths {
    std::vector<FileUse> inputs, outputs, logs;
    std::vector<std::vector<FileUse>> repeated;
};
DeclaredPaths declared_paths(const CLI::App& cmd);

// Checks the paths given to `cmd`: check_outputs over its inputs and outputs (logs included),
// each log that holds bytes must start as an engine log does, and an input option given one file
// or folder twice (by identity, however spelt) is refused (check_distinct_inputs). Throws
// FileError, one line naming both options.
void check_declared_paths(const CLI::App& cmd);

// Makes `app` run check_declared_paths on the chosen subcommand (and its chosen subcommands)
// after parsing and before any command's callback. main's app (make_app) calls it once.
void install_path_checks(CLI::App& app);

} // namespace fanorona::cli
