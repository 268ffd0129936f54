#pragma once
// --relabel-tables DIR and --table-positions keep|skip|relabel of the commands that read positions
// logs (tune, train): the endgame tables that relabel, skip or keep the logged positions they hold.

#include <stdexcept>
#include <string>

#include "core/tables/tablebase.h"
#include "tuner/dataset.h"

namespace fanorona::cli {

// Opens `relabel_tables` (when given) into `filter` with what to do with `table_positions`; throws
// std::invalid_argument naming the option.
inline void apply_table_options(const std::string& relabel_tables,
                                const std::string& table_positions, DataFilter& filter) {
    if (table_positions != "keep" && relabel_tables.empty())
        throw std::invalid_argument("--table-positions " + table_positions +
                                    " needs --relabel-tables DIR");
    if (relabel_tables.empty()) return;
    try {
        filter.tables = tables::open_tables(relabel_tables);
        filter.tables_dir = relabel_tables;
    } catch (const std::exception& e) {
        throw std::invalid_argument("--relabel-tables: " + std::string(e.what()));
    }
    filter.table_positions = table_positions == "skip"      ? DataFilter::TablePositions::Skip
                             : table_positions == "relabel" ? DataFilter::TablePositions::Relabel
                                                            : DataFilter::TablePositions::Keep;
}

} // namespace fanorona::cli
