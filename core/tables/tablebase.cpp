#include "core/tables/tablebase.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "core/common/files.h"
#include "core/tables/builder.h"

namespace fanorona::tables {

std::string board_label(Variant v) {
    const std::string name(variant_name(v));
    const Geometry& g = geometry(v);
    const std::string size = std::to_string(g.height) + "x" + std::to_string(g.width);
    return name == size ? name : name + " (" + size + ")";
}

Tablebase::Tablebase(const std::string& dir) : dir_(dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw FileError(dir + ": no such tables folder");
    std::vector<std::string> paths;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".fntb") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const std::string& p = paths[i];
        auto f = std::make_unique<TableFile>(p);
        f->check_file_name();
        const TableHeader& h = f->header();
        if (i == 0) turn_limit_ = h.turn_limit;
        if (h.turn_limit != turn_limit_)
            throw std::invalid_argument(p + ": built for a no-capture limit of " +
                                        std::to_string(h.turn_limit) + " turns, " + paths[0] +
                                        " for " + std::to_string(turn_limit_));
        if (h.mover > 16 || h.other > 16)
            throw FileError(p + ": a table of more than 16 pieces a side (" +
                            material_name(h.mover, h.other) + "), which this program does not use");
        files_[int(h.variant)][h.mover][h.other] = std::move(f);
    }
    if (paths.empty()) throw std::invalid_argument(dir + ": no table files (*.fntb) in the folder");
    for (int v = 0; v < kVariantCount; ++v) {
        // A material is usable when every material its moves lead into, and theirs in turn, is
        // present: a search from it over successor_materials that meets no missing one.
        for (int a = 1; a <= 16; ++a)
            for (int b = 1; b <= 16; ++b) {
                if (!files_[v][a][b]) continue;
                bool seen[17][17] = {};
                std::vector<std::pair<int, int>> todo{{a, b}};
                seen[a][b] = true;
                while (!todo.empty() && missing_[v][a][b].first == 0) {
                    const auto [m, o] = todo.back();
                    todo.pop_back();
                    for (const auto& [sm, so] : successor_materials(m, o)) {
                        if (seen[sm][so]) continue;
                        seen[sm][so] = true;
                        if (!files_[v][sm][so]) {
                            missing_[v][a][b] = {sm, so};
                            break;
                        }
                        todo.emplace_back(sm, so);
                    }
                }
                if (missing_[v][a][b].first == 0)
                    index_[v][a][b] =
                        std::make_unique<MaterialIndex>(index_of(files_[v][a][b]->header()));
            }
        for (int n = 2; n <= std::min(16, geometry(Variant(v)).points); ++n) {
            bool all = true;
            for (auto [a, b] : materials_up_to(Variant(v), n))
                if (!files_[v][a][b]) all = false;
            if (!all) break;
            max_pieces_[v] = n;
        }
    }
}

std::optional<TableValue> Tablebase::probe(const Position& pos) const {
    const int a = popcount(pos.player()), b = popcount(pos.opponent());
    if (a < 1 || b < 1 || a > 16 || b > 16) return std::nullopt;
    const int v = int(pos.variant());
    const MaterialIndex* mi = index_[v][a][b].get();
    if (!mi) return std::nullopt;
    return files_[v][a][b]->value(mi->index(pos.player(), pos.opponent()));
}

std::string Tablebase::unusable_for(const Rules& rules) const {
    std::string why = EndgameProbe::unusable_for(rules);
    if (!why.empty()) return why;
    if (!holds(rules.variant))
        return dir_ + " holds tables of " + boards() + ", the game is on " +
               board_label(rules.variant);
    return gap(rules.variant);
}

const TableFile* Tablebase::file(Variant v, int mover, int other) const {
    if (mover < 0 || other < 0 || mover > 16 || other > 16) return nullptr;
    return files_[int(v)][mover][other].get();
}

std::vector<const TableFile*> Tablebase::files() const {
    std::vector<const TableFile*> out;
    for (int v = 0; v < kVariantCount; ++v)
        for (auto [a, b] : materials_up_to(Variant(v), 16))
            if (files_[v][a][b]) out.push_back(files_[v][a][b].get());
    return out;
}

std::string Tablebase::path_of(Variant v, int mover, int other) const {
    return (std::filesystem::path(dir_) / table_file_name(v, mover, other)).string();
}

std::string Tablebase::gap(Variant v, int mover, int other) const {
    if (!file(v, mover, other)) return "";
    const auto [m, o] = missing_[int(v)][mover][other];
    if (m == 0) return "";
    return path_of(v, mover, other) + " cannot be used: " + material_label(v, mover, other) +
           " leads into " + material_label(v, m, o) + ", whose table " + path_of(v, m, o) +
           " is missing";
}

std::string Tablebase::gap(Variant v) const {
    for (auto [a, b] : materials_up_to(v, 16))
        if (std::string why = gap(v, a, b); !why.empty()) return why;
    return "";
}

bool Tablebase::holds(Variant v) const {
    for (auto [a, b] : materials_up_to(v, 16))
        if (file(v, a, b)) return true;
    return false;
}

std::string Tablebase::boards() const {
    std::string out;
    for (int v = 0; v < kVariantCount; ++v)
        if (holds(Variant(v))) out += (out.empty() ? "" : ", ") + board_label(Variant(v));
    return out;
}

std::shared_ptr<const Tablebase> open_tables(const std::string& dir) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const Tablebase>> open;
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(dir, ec).string();
    if (ec || key.empty()) key = dir;
    const std::lock_guard lock(mutex);
    if (auto shared = open[key].lock()) return shared;
    auto made = std::make_shared<const Tablebase>(dir);
    open[key] = made;
    return made;
}

} // namespace fanorona::tables
