// The tables cache of `fanorona solve` (see tables_cache.h).

#include "tools/solve/tables_cache.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "core/board/rules.h"
#include "core/common/folder_lock.h"
#include "core/tables/builder.h"

namespace fanorona::cli {

std::string default_tables_cache() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/fanorona/tables";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/fanorona/tables";
    throw std::invalid_argument(
        "--tables-cache: no default (neither XDG_CACHE_HOME nor HOME is set); give a folder");
}

std::uint64_t table_positions(Variant v, int pieces) {
    const auto choose = [](int n, int k) {
        std::uint64_t c = 1;
        for (int i = 1; i <= k; ++i) c = c * std::uint64_t(n - k + i) / std::uint64_t(i);
        return c;
    };
    const int points = geometry(v).points;
    std::uint64_t total = 0;
    for (const auto& [a, b] : tables::materials_up_to(v, pieces))
        total += choose(points, a) * choose(points - a, b);
    return total;
}

int auto_table_pieces(Variant v, int pieces) {
    if (v == Variant::Telo || geometry(v).points > 25) return 0;
    int n = 0;
    while (n + 1 < pieces && n + 1 <= 32 && table_positions(v, n + 1) <= kAutoTablePositions) ++n;
    return n >= 2 ? n : 0;
}

SolveRecipe solve_recipe(Variant v, int pieces) {
    const int points = geometry(v).points;
    if (v == Variant::Telo || points <= 25 || points > 35)
        return {"search", auto_table_pieces(v, pieces), 64};
    int n = 0;
    while (n + 1 < pieces && table_positions(v, n + 1) <= kRecipeTablePositions) ++n;
    return {"pns", n >= 2 ? n : 0, 1024};
}

std::shared_ptr<const tables::Tablebase>
cached_tables(const std::string& cache, Variant v, int pieces, double& built_seconds,
              const std::function<void(const std::string&)>& progress) {
    built_seconds = 0;
    const std::string dir = cache + "/" + std::string(variant_name(v));
    const auto usable = [&]() -> std::shared_ptr<const tables::Tablebase> {
        if (!std::filesystem::is_directory(dir)) return nullptr;
        bool any = false;
        for (const auto& f : std::filesystem::directory_iterator(dir))
            any = any || f.path().extension() == ".fntb";
        if (!any) return nullptr;
        auto tb = std::make_shared<const tables::Tablebase>(dir);
        return tb->max_pieces(v) >= pieces && tb->gap(v).empty() ? tb : nullptr;
    };
    if (auto tb = usable()) return tb;
    std::filesystem::create_directories(dir);
    {
        const FolderLock lock(dir); // another solve building the same tables: refused, named
        const auto start = std::chrono::steady_clock::now();
        tables::build_tables({v, pieces, dir, kTableTurnLimit}, progress);
        built_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return std::make_shared<const tables::Tablebase>(dir);
}

} // namespace fanorona::cli
