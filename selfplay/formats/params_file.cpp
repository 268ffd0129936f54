#include "selfplay/formats/params_file.h"
#include "core/common/text.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/builtins.h"
#include "core/common/files.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

std::vector<ParamsLine> parse_params_text(std::string_view text, const std::string& source) {
    std::istringstream in{std::string(text)};
    std::vector<ParamsLine> out;
    std::string line;
    int number = 0;
    bool header = false;
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument(source + ":" + std::to_string(number) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string s; words >> s;) w.push_back(s);
        if (w.empty() || w[0][0] == '#') continue;
        if (!header) {
            const std::string want =
                std::string(kParamsMagic) + " " + std::to_string(kParamsFormatVersion);
            if (w.size() != 2 || w[0] != kParamsMagic ||
                w[1] != std::to_string(kParamsFormatVersion))
                fail("header: expected '" + want + "', found '" + line + "'");
            header = true;
            continue;
        }
        if (w.size() != 2) fail("expected NAME VALUE, found '" + line + "'");
        for (const ParamsLine& p : out)
            if (lower(p.name) == lower(w[0]))
                fail(w[0] + ": given twice (first on line " + std::to_string(p.line) + ")");
        out.push_back({w[0], w[1], number});
    }
    if (!header) {
        number = std::max(number, 1);
        fail("header: expected '" + std::string(kParamsMagic) + " " +
             std::to_string(kParamsFormatVersion) + "', found an empty file");
    }
    return out;
}

std::vector<ParamsLine> read_params_file(const std::string& path) {
    if (const BuiltinFile* b = find_builtin("params", path)) {
        if (b->text.empty()) return {}; // the core's own values
        return parse_params_text(b->text, std::string(b->name) + " (built-in parameters)");
    }
    std::string text;
    try {
        text = read_text_file(path, kParamsFileLimits);
    } catch (const FileError& e) {
        const std::string why = e.what(); // as load_weights_file
        throw std::invalid_argument(shown_path(path) + ": cannot open the parameters file" +
                                    (why.find("cannot open for reading") == std::string::npos
                                         ? " (" + without_path(why, path) + ")"
                                         : ""));
    }
    return parse_params_text(text, path);
}

std::string format_params(const std::vector<std::pair<std::string, int>>& values,
                          const std::vector<std::string>& comment_lines) {
    std::string out = std::string(kParamsMagic) + " " + std::to_string(kParamsFormatVersion) + "\n";
    for (const std::string& c : comment_lines) out += "# " + c + "\n";
    for (const auto& [name, value] : values) out += name + " " + std::to_string(value) + "\n";
    return out;
}

} // namespace fanorona
