#include "selfplay/formats/weights_file.h"

#include "core/builtins.h"
#include "core/common/files.h"
#include "core/weights.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

Weights load_weights_file(const std::string& path) {
    if (const BuiltinFile* b = find_builtin("weights", path.empty() ? "default" : path))
        return parse_weights(std::string(b->text), std::string(b->name) + " (built-in weights)");
    std::string text;
    try {
        text = read_text_file(path, kWeightsFileLimits);
    } catch (const FileError& e) {
        // A missing file keeps the short message; any other reason (a folder, a device read
        // past its cap) is told.
        const std::string why = e.what();
        throw FileError(shown_path(path) + ": cannot open the weights file" +
                        (why.find("cannot open for reading") == std::string::npos
                             ? " (" + without_path(why, path) + ")"
                             : ""));
    }
    return parse_weights(text, path);
}

void save_weights_file(const std::string& path, const Weights& w,
                       const std::vector<std::string>& comment_lines) {
    write_file_atomically(path, format_weights(w, comment_lines));
}

std::string weights_display_name(const std::string& path) {
    return builtin_display_name("weights", path);
}

} // namespace fanorona
