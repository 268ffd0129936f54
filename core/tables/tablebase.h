#pragma once
// A folder of endgame tables opened for probing: the EndgameProbe the search, analyze, the
// engine, adjudication and the tuner use. Files are opened at once (headers checked); their
// blocks are read on first use.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/endgame.h"
#include "core/tables/table_file.h"

namespace fanorona::tables {

// Holds every table file of a folder. Invariants: every file's name is the name of the material
// its header holds; max_pieces(v) is the largest N such that every material of v with at most N
// pieces is present; probe() answers only for usable materials: those whose moves lead (directly
// or further on) into materials that are all present.
class Tablebase final : public EndgameProbe {
public:
    // Opens every *.fntb file in `dir`; throws FileError (naming the file) for a bad one (a
    // folder, a corrupt header, another material's file), and std::invalid_argument when the
    // folder holds no tables or tables of different no-capture limits.
    explicit Tablebase(const std::string& dir);

    const std::string& dir() const { return dir_; }
    int max_pieces(Variant v) const override { return max_pieces_[int(v)]; }
    int turn_limit() const override { return turn_limit_; }
    std::optional<TableValue> probe(const Position& pos) const override;
    // Other rules or no-capture limit, no table of the game's board, or a table of the board
    // that cannot be used (a material it leads into is missing).
    std::string unusable_for(const Rules& rules) const override;

    // The open file of a material, or nullptr.
    const TableFile* file(Variant v, int mover, int other) const;
    // Every open file, in build order per variant.
    std::vector<const TableFile*> files() const;
    // The path a material's file has (or would have) in the folder.
    std::string path_of(Variant v, int mover, int other) const;
    // Why the table of a present material cannot be used, naming the missing material it leads
    // into ("" when it can be used, or is not present).
    std::string gap(Variant v, int mover, int other) const;
    // The first gap of a board's tables ("" when there is none).
    std::string gap(Variant v) const;
    // True when the folder holds a table of board v.
    bool holds(Variant v) const;
    // The boards the folder holds tables of, as "tsivy (5x9)", joined with ", ".
    std::string boards() const;

private:
    std::string dir_;
    std::unique_ptr<TableFile> files_[kVariantCount][17][17];
    // Set for usable materials only (probe() answers where it is set).
    std::unique_ptr<MaterialIndex> index_[kVariantCount][17][17];
    // For a present material that cannot be used: the missing material it leads into.
    std::pair<int, int> missing_[kVariantCount][17][17] = {};
    int max_pieces_[kVariantCount] = {};
    int turn_limit_ = kTableTurnLimit;
};

// "tsivy (5x9)", "dimy (5x5)", "3x5": a board as messages name it.
std::string board_label(Variant v);

// Opens a tables folder once per process and shares it (engines in many workers probe the same
// tables). Throws like the constructor.
std::shared_ptr<const Tablebase> open_tables(const std::string& dir);

} // namespace fanorona::tables
