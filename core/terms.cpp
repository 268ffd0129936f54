#include "core/terms.h"

namespace fanorona {

std::string_view term_group_name(TermGroup g) {
    switch (g) {
    case TermGroup::Positional:
        return "positional";
    case TermGroup::Material:
        return "material";
    case TermGroup::PointTable:
        return "point table";
    }
    return "?";
}

std::string_view term_board_name(TermBoard b) {
    switch (b) {
    case TermBoard::Both:
        return "both";
    case TermBoard::Tsivy:
        return "tsivy";
    case TermBoard::Dimy:
        return "dimy";
    }
    return "?";
}

std::string terms_markdown_table() {
    std::string out = "| term | weights | group | board | raw value |\n|---|---|---|---|---|\n";
    for (const TermInfo& t : kTerms) {
        const std::string name(t.name);
        out += "| `" + name + "` | `" + name + "_mg`, `" + name + "_eg` | ";
        out += std::string(term_group_name(t.group)) + " | " +
               std::string(term_board_name(t.board)) + " | " + std::string(t.description) + " |\n";
    }
    return out;
}

} // namespace fanorona
