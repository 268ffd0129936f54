#include "core/endgame.h"

#include <algorithm>

namespace fanorona {

TableClass negate(TableClass c) {
    switch (c) {
    case TableClass::Win:
        return TableClass::Loss;
    case TableClass::Loss:
        return TableClass::Win;
    case TableClass::CursedWin:
        return TableClass::BlessedLoss;
    case TableClass::BlessedLoss:
        return TableClass::CursedWin;
    case TableClass::Draw:
        break;
    }
    return TableClass::Draw;
}

TableValue value_of_move(bool is_capture, bool captures_all, const TableValue& after, int limit) {
    if (captures_all) return {TableClass::Win, 1};
    TableValue v{negate(after.cls), is_capture ? 1 : after.distance + 1};
    if (v.cls == TableClass::Draw) v.distance = 0;
    if (v.distance > limit) {
        if (v.cls == TableClass::Win) v.cls = TableClass::CursedWin;
        if (v.cls == TableClass::Loss) v.cls = TableClass::BlessedLoss;
    }
    return v;
}

long table_rank(const TableValue& v) {
    constexpr long kBand = 1L << 24;
    switch (v.cls) {
    case TableClass::Win:
        return 4 * kBand - v.distance;
    case TableClass::CursedWin:
        return 2 * kBand - v.distance;
    case TableClass::BlessedLoss:
        return -2 * kBand + v.distance;
    case TableClass::Loss:
        return -4 * kBand + v.distance;
    case TableClass::Draw:
        break;
    }
    return 0;
}

bool tables_apply(const Rules& rules, int limit) {
    return rules.ruleset == RuleSet::Standard &&
           (rules.no_capture_limit == 0 || rules.no_capture_limit == limit);
}

int table_outcome(const TableValue& v, const Rules& rules, int turns_since_capture) {
    if (rules.no_capture_limit == 0) {
        if (v.cls == TableClass::Win || v.cls == TableClass::CursedWin) return 1;
        if (v.cls == TableClass::Loss || v.cls == TableClass::BlessedLoss) return -1;
        return 0;
    }
    const int left = rules.no_capture_limit - turns_since_capture;
    if (v.cls == TableClass::Win && v.distance <= left) return 1;
    if (v.cls == TableClass::Loss && v.distance <= left) return -1;
    return 0;
}

std::string EndgameProbe::unusable_for(const Rules& rules) const {
    if (serve(rules)) return "";
    return "endgame tables serve the standard rules (with their no-capture limit, or none) only";
}

std::optional<TableValue> table_value_of_move(const EndgameProbe& tables, const Position& pos,
                                              const Move& m) {
    Position next = pos;
    next.make_move(m);
    const bool all = next.player() == 0;
    TableValue after;
    if (!all) {
        const auto v = tables.probe(next);
        if (!v) return std::nullopt;
        after = *v;
    }
    return value_of_move(m.is_capture(), all, after, tables.turn_limit());
}

std::optional<std::vector<TableMove>> rank_table_moves(const EndgameProbe& tables,
                                                       const Position& pos) {
    const Rules rules{pos.variant()};
    MoveList list;
    generate_moves(pos, rules, list);
    std::vector<TableMove> out;
    out.reserve(std::size_t(list.size()));
    for (const Move& m : list) {
        const auto value = table_value_of_move(tables, pos, m);
        if (!value) return std::nullopt;
        out.push_back({m, *value});
    }
    std::stable_sort(out.begin(), out.end(), [](const TableMove& a, const TableMove& b) {
        return table_rank(a.value) > table_rank(b.value);
    });
    return out;
}

} // namespace fanorona
