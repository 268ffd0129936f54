#include "tables/tablebase.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "common/files.h"
#include "tables/builder.h"

namespace fanorona::tables {

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
        const TableHeader& h = f->header();
        if (i == 0) turn_limit_ = h.turn_limit;
        if (h.turn_limit != turn_limit_)
            throw std::invalid_argument(p + ": built for a no-capture limit of " +
                                        std::to_string(h.turn_limit) + " turns, " + paths[0] +
                                        " for " + std::to_string(turn_limit_));
        if (h.mover > 16 || h.other > 16) continue;
        const int v = int(h.variant);
        index_[v][h.mover][h.other] = std::make_unique<MaterialIndex>(h.variant, h.mover, h.other);
        files_[v][h.mover][h.other] = std::move(f);
    }
    if (paths.empty()) throw std::invalid_argument(dir + ": no table files (*.fntb) in the folder");
    for (int v = 0; v < kVariantCount; ++v)
        for (int n = 2; n <= std::min(16, geometry(Variant(v)).points); ++n) {
            bool all = true;
            for (auto [a, b] : materials_up_to(Variant(v), n))
                if (!files_[v][a][b]) all = false;
            if (!all) break;
            max_pieces_[v] = n;
        }
}

std::optional<TableValue> Tablebase::probe(const Position& pos) const {
    const int a = popcount(pos.player()), b = popcount(pos.opponent());
    if (a < 1 || b < 1 || a > 16 || b > 16) return std::nullopt;
    const int v = int(pos.variant());
    const TableFile* f = files_[v][a][b].get();
    if (!f) return std::nullopt;
    return f->value(index_[v][a][b]->index(pos.player(), pos.opponent()));
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
