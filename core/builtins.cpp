#include "core/builtins.h"

#include <stdexcept>

namespace fanorona {

std::string default_builtin(std::string_view kind) {
    for (const BuiltinDefault& d : builtin_defaults())
        if (d.kind == kind) return std::string(d.name);
    throw std::logic_error("no default built-in " + std::string(kind));
}

const BuiltinFile* find_builtin(std::string_view kind, std::string_view name) {
    const std::string wanted = name == "default" ? default_builtin(kind) : std::string(name);
    for (const BuiltinFile& f : builtin_files())
        if (f.kind == kind && f.name == wanted) return &f;
    return nullptr;
}

std::string builtin_display_name(std::string_view kind, const std::string& path) {
    if (const BuiltinFile* b = find_builtin(kind, path.empty() ? "default" : path))
        return std::string(b->name);
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string builtin_names(std::string_view kind) {
    const std::string dflt = default_builtin(kind);
    std::string names;
    for (const BuiltinFile& f : builtin_files())
        if (f.kind == kind)
            names += (names.empty() ? "" : ", ") + std::string(f.name) +
                     (f.name == dflt ? " (the default)" : "");
    return names;
}

} // namespace fanorona
