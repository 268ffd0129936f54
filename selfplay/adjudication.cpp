#include "selfplay/adjudication.h"

#include <stdexcept>

#include "core/tables/tablebase.h"

namespace fanorona {

void open_adjudication_tables(AdjudicationConfig& config, const std::string& dir) {
    if (dir.empty()) {
        config.tables.reset();
        config.tables_dir.clear();
        return;
    }
    try {
        config.tables = tables::open_tables(dir);
    } catch (const std::exception& e) {
        throw std::invalid_argument(e.what());
    }
    config.tables_dir = dir;
}

} // namespace fanorona
