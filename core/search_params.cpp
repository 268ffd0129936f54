#include "core/search_params.h"

#include <stdexcept>
#include <string>

#include "core/timeman.h"

namespace fanorona {

namespace {

// The defaults, in the order of enum Param.
// clang-format off
constexpr std::array<SearchParam, kParamCount> kDefaults = {{
    {"AspWindow", 30, 1, 1000},
    {"AspMinDepth", 4, 1, 64},
    {"SingleReplyExt", 1, 0, 1},
    {"QsMaxDepth", 12, 0, 64},
    {"QsMaxMoves", 512, 1, 512},
    {"QsCutMargin", 50, -1, 10000},
    {"LmrMinDepth", 3, 1, 64},
    {"LmrMinMoves", 3, 1, 256},
    {"LmrBase", 50, 0, 400},
    {"LmrDiv", 250, 50, 1000},
    {"LmrCaptures", 0, 0, 1},
    {"NmpMinDepth", 64, 1, 64},
    {"NmpReduction", 3, 1, 8},
    {"NmpMinPieces", 4, 1, 22},
    {"RfpMaxDepth", 0, 0, 16},
    {"RfpMargin", 100, 0, 1000},
    {"FutMaxDepth", 0, 0, 16},
    {"FutMargin", 100, 0, 1000},
    {"LmpMaxDepth", 0, 0, 16},
    {"LmpBase", 4, 0, 256},
    {"Contempt", 0, -1000, 1000},
    {"MoveOverheadMs", TimeMargins::kEngineOverheadMs, 0, 10000},
    {"IirMinDepth", 64, 2, 64},
    {"LmrHistoryDiv", 0, 0, 65536},
    {"CounterMoves", 0, 0, 1},
    {"RfpCaptures", 0, 0, 1},
    {"QsLowMargin", -1, -1, 10000},
    {"HistPruneDepth", 0, 0, 16},
    {"HistPruneMargin", 4000, 0, 65536},
    {"UnsafePenalty", 0, 0, 65536},
    {"CorrHistory", 0, 0, 2},
    {"SeMinDepth", 64, 4, 64},
    {"SeMargin", 16, 0, 1000},
    {"TmMaxPercent", 100, 100, 1000},
    {"TmStablePercent", 100, 10, 100},
    {"TmChangePercent", 100, 100, 1000},
}};
// clang-format on

bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
    return true;
}

} // namespace

SearchParams::SearchParams() : table_(kDefaults) {}

const SearchParam* SearchParams::find(std::string_view name) const {
    for (const SearchParam& p : table_)
        if (iequal(p.name, name)) return &p;
    return nullptr;
}

void SearchParams::set(Param id, int value) {
    SearchParam& p = table_[int(id)];
    if (value < p.min || value > p.max)
        throw std::out_of_range("search parameter " + std::string(p.name) + ": value " +
                                std::to_string(value) + " is outside [" + std::to_string(p.min) +
                                ", " + std::to_string(p.max) + "]");
    p.value = value;
}

bool SearchParams::set(std::string_view name, int value) {
    const SearchParam* p = find(name);
    if (!p) return false;
    set(Param(p - table_.data()), value);
    return true;
}

int SearchParams::get(std::string_view name) const {
    const SearchParam* p = find(name);
    if (!p) throw std::out_of_range("unknown search parameter '" + std::string(name) + "'");
    return p->value;
}

bool operator==(const SearchParams& a, const SearchParams& b) {
    for (int i = 0; i < kParamCount; ++i)
        if (a.table_[i].value != b.table_[i].value) return false;
    return true;
}

} // namespace fanorona
