// Declared paths (tools/paths.h): the role of each path option, kept in the option as a named
// no-op validator, and the one check of a command's paths before it runs.

#include "tools/paths.h"

#include <array>
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/formats.h"

namespace fanorona::cli {

namespace {

constexpr std::string_view kPrefix = "fanorona-path:";

// The roles by their names in the validator's name, in the enum's order.
constexpr std::array<const char*, 8> kRoleNames = {"input file",    "input folder", "output file",
                                                   "output folder", "log",          "program",
                                                   "engine specs",  "not a path"};

// The declaration an option carries: the validator's name "fanorona-path:ROLE" then, for an
// output folder, "|FILE" for each file written inside it.
std::optional<std::string> declaration(const CLI::Option* option) {
    auto* o = const_cast<CLI::Option*>(option); // CLI11 2.1 has no const get_validator
    for (int i = 0;; ++i) {
        const CLI::Validator* v = nullptr;
        try {
            v = o->get_validator(i);
        } catch (const CLI::OptionNotFound&) {
            return std::nullopt;
        }
        const std::string name = v->get_name();
        if (name.compare(0, kPrefix.size(), kPrefix) == 0) return name.substr(kPrefix.size());
    }
}

// Every option of `app` and of its option groups (unnamed subcommands).
void collect_options(const CLI::App& app, std::vector<const CLI::Option*>& out) {
    for (const CLI::Option* o : app.get_options()) out.push_back(o);
    for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name().empty()) collect_options(*sub, out);
}

// The values `o` was given (an output's default too: it is written all the same).
std::vector<std::string> given_values(const CLI::Option* o, PathRole role) {
    if (o->count() > 0) return o->results();
    const bool output = role == PathRole::OutputFile || role == PathRole::OutputFolder;
    if (output && !o->get_default_str().empty()) return {o->get_default_str()};
    return {};
}

void add_paths(const CLI::App& cmd, DeclaredPaths& paths) {
    std::vector<const CLI::Option*> options;
    collect_options(cmd, options);
    for (const CLI::Option* o : options) {
        const std::optional<PathRole> role = path_role(o);
        if (!role || *role == PathRole::NotAPath) continue;
        const std::string label = option_label(o);
        const std::vector<std::string> values = given_values(o, *role);
        if ((*role == PathRole::InputFile || *role == PathRole::InputFolder) && values.size() > 1) {
            std::vector<FileUse> uses;
            for (const std::string& value : values)
                if (!value.empty()) uses.push_back({label, value});
            paths.repeated.push_back(uses);
        }
        for (const std::string& value : values) {
            if (value.empty()) continue;
            switch (*role) {
            case PathRole::InputFile:
                paths.inputs.push_back({label, value});
                break;
            case PathRole::InputFolder: // the files read inside it, when declared; else all
                if (output_folder_files(o).empty()) paths.inputs.push_back({label, value});
                for (const std::string& file : output_folder_files(o))
                    paths.inputs.push_back({label + " (its " + file + ")", value + "/" + file});
                break;
            case PathRole::Program: // the program of "PROGRAM ARGS..."
                paths.inputs.push_back({label, value.substr(0, value.find(' '))});
                break;
            case PathRole::OutputFile: // and the files written beside it (OUT.ckpt)
                paths.outputs.push_back({label, value});
                for (const std::string& suffix : output_folder_files(o))
                    paths.outputs.push_back({label + " (its " + suffix + ")", value + suffix});
                break;
            case PathRole::OutputFolder:
                paths.outputs.push_back({label, value});
                for (const std::string& file : output_folder_files(o))
                    paths.outputs.push_back({label + " (its " + file + ")", value + "/" + file});
                break;
            case PathRole::Log:
                paths.logs.push_back({label, value});
                break;
            case PathRole::EngineSpecs: {
                SpecSettings settings;
                try {
                    settings = split_settings(value);
                } catch (const std::exception&) {
                    continue; // the command names what is wrong with it
                }
                for (const auto& [key, file] : settings)
                    if (key == "cmd" || key == "net" || key == "weights" || key == "vela_weights" ||
                        key == "params" || key == "tables")
                        paths.inputs.push_back({label + " " + key + "=", file});
                break;
            }
            case PathRole::NotAPath:
                break;
            }
        }
    }
    for (const CLI::App* sub : cmd.get_subcommands()) // the chosen ones
        if (!sub->get_name().empty()) add_paths(*sub, paths);
}

// Refuses a log that is not a file an engine log can be: a FIFO (opening it would wait for a
// reader, and it cannot be added to), and a file holding bytes that are not an engine log (the
// log would empty it, or add its lines to it).
void check_log(const FileUse& log) {
    struct stat st {};
    if (::stat(log.path.c_str(), &st) != 0) return; // a new file
    if (S_ISFIFO(st.st_mode))
        throw FileError(log.what + " " + log.path +
                        ": a FIFO; an engine log is a regular file (or /dev/null); refused");
    if (S_ISDIR(st.st_mode)) throw FileError(log.what + " " + log.path + ": is a folder");
    if (!S_ISREG(st.st_mode) || st.st_size == 0) return; // /dev/null, an empty file
    const std::string magic = "# " + std::string(kEngineLogFormat);
    std::string start(magic.size(), '\0');
    const int fd = ::open(log.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return; // the log's own opening names what is wrong
    const ssize_t n = ::read(fd, start.data(), start.size());
    ::close(fd);
    if (n != ssize_t(start.size()) || start != magic)
        throw FileError(log.what + " " + log.path +
                        ": holds data that is not an engine log (it starts without '" + magic +
                        "'); refused: the log would empty it or add to it");
}

} // namespace

// How an option is named in messages: its first long name (--out), or a positional's (GAMES).
// (CLI11's get_name names no hidden option: one is named from its names here.)
std::string option_label(const CLI::Option* o) {
    if (!o->get_lnames().empty()) return "--" + o->get_lnames().front();
    if (!o->get_snames().empty()) return "-" + o->get_snames().front();
    return o->get_single_name(); // a positional argument, by its name as its usage line shows it
}

const char* path_role_name(PathRole role) {
    return kRoleNames[std::size_t(role)];
}

CLI::Option* declare_path(CLI::Option* option, PathRole role,
                          const std::vector<std::string>& writes) {
    std::string name = std::string(kPrefix) + path_role_name(role);
    for (const std::string& file : writes) name += "|" + file;
    return option->check(CLI::Validator([](std::string&) { return std::string(); }, "", name));
}

std::optional<PathRole> path_role(const CLI::Option* option) {
    const std::optional<std::string> d = declaration(option);
    if (!d) return std::nullopt;
    const std::string role = d->substr(0, d->find('|'));
    for (std::size_t i = 0; i < kRoleNames.size(); ++i)
        if (role == kRoleNames[i]) return PathRole(i);
    return std::nullopt;
}

std::vector<std::string> output_folder_files(const CLI::Option* option) {
    std::vector<std::string> files;
    const std::optional<std::string> d = declaration(option);
    if (!d) return files;
    for (std::size_t at = d->find('|'); at != std::string::npos;) {
        const std::size_t next = d->find('|', at + 1);
        files.push_back(d->substr(at + 1, next == std::string::npos ? next : next - at - 1));
        at = next;
    }
    return files;
}

DeclaredPaths declared_paths(const CLI::App& cmd) {
    DeclaredPaths paths;
    add_paths(cmd, paths);
    return paths;
}

void check_declared_paths(const CLI::App& cmd) {
    const DeclaredPaths paths = declared_paths(cmd);
    std::vector<FileUse> outputs = paths.outputs;
    outputs.insert(outputs.end(), paths.logs.begin(), paths.logs.end());
    check_outputs(paths.inputs, outputs);
    for (const FileUse& log : paths.logs) check_log(log);
    for (const std::vector<FileUse>& uses : paths.repeated) check_distinct_inputs(uses);
}

void install_path_checks(CLI::App& app) {
    // The root's parse-complete callback runs after every option is parsed and before the chosen
    // subcommands' callbacks (CLI11's App::run_callback).
    app.parse_complete_callback([&app] { check_declared_paths(app); });
}

} // namespace fanorona::cli
