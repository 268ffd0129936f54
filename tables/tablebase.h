#pragma once
// A folder of endgame tables opened for probing: the EndgameProbe the search, analyze, the
// engine, adjudication and the tuner use. Files are opened at once (headers checked); their
// blocks are read on first use.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/endgame.h"
#include "tables/table_file.h"

namespace fanorona::tables {

// Holds every table file of a folder. Invariant: max_pieces(v) is the largest N such that every
// material of v with at most N pieces is present.
class Tablebase final : public EndgameProbe {
public:
    // Opens every *.fntb file in `dir`; throws FileError (naming the file) for a bad one, and
    // std::invalid_argument when the folder holds no tables or tables of different no-capture
    // limits.
    explicit Tablebase(const std::string& dir);

    const std::string& dir() const { return dir_; }
    int max_pieces(Variant v) const override { return max_pieces_[int(v)]; }
    int turn_limit() const override { return turn_limit_; }
    std::optional<TableValue> probe(const Position& pos) const override;

    // The open file of a material, or nullptr.
    const TableFile* file(Variant v, int mover, int other) const;
    // Every open file, in build order per variant.
    std::vector<const TableFile*> files() const;

private:
    std::string dir_;
    std::unique_ptr<TableFile> files_[kVariantCount][17][17];
    std::unique_ptr<MaterialIndex> index_[kVariantCount][17][17];
    int max_pieces_[kVariantCount] = {};
    int turn_limit_ = kTableTurnLimit;
};

// Opens a tables folder once per process and shares it (engines in many workers probe the same
// tables). Throws like the constructor.
std::shared_ptr<const Tablebase> open_tables(const std::string& dir);

} // namespace fanorona::tables
