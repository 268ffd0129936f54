#pragma once
// Network files ("fanorona-net 1", docs/formats.md): the one reader and the one writer.
//
// The file: text header lines `key value` (the first is `fanorona-net 1`; then variant,
// features, inputs, hidden, buckets, qa, qb, scale, architecture (the hash, 16 hex digits), the
// provenance keys, and `parameters <bytes>`), then the integer network's parameters as
// little-endian binary (w1, b1, w2 int16; b2 int32; with a second layer w3 int16, b3 int32; in
// network.h's layouts), then a line break and a last line
// `checksum <16 hex digits>`: the 64-bit FNV-1a hash of the header and the parameters (every byte
// before that line break).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/nnue/network.h"

namespace fanorona {

// Where a network came from (free text, each one line; numbers -1 / NaN when unknown).
struct NetProvenance {
    std::vector<std::string> data_files;
    std::int64_t positions = -1;
    std::int64_t games = -1;
    std::int64_t epochs = -1;
    double train_loss = -1;      // -1: unknown
    double validation_loss = -1; // -1: unknown
    std::uint64_t seed = 0;
    std::string command; // the command line that made it
    std::string created; // UTC time, ISO 8601 (set by write_net_file when empty)
    friend bool operator==(const NetProvenance&, const NetProvenance&) = default;
};

// A network file's content: the integer network (the engine's shape; a trainer's float model is
// quantised into it, core/nnue/network.h) and where it came from.
struct NetFile {
    nnue::Network net;
    NetProvenance provenance;
    std::uint64_t checksum = 0; // as read (write_net_file computes it)
    // The checksum was made with FNV-1a's short offset basis of older files (core/common/hash.h).
    bool short_basis_checksum = false;
};

// Reads `path`, or the built-in network of that name (core/builtins.h: tsivy;
// "default": the default network), looked up before a file; throws std::runtime_error (FileError
// for an unreadable file) with one line naming the file and the field: wrong magic or version, a
// missing or malformed header line, an architecture the program cannot run, an architecture hash
// that does not match the header's fields, a parameter size that does not match, a truncated file,
// a wrong checksum.
NetFile read_net_file(const std::string& path);

// The network of `path` as read_net_file reads it (an empty path: the default network), shared:
// a built-in network is parsed once per process and every caller shares it.
std::shared_ptr<const NetFile> load_net_file(const std::string& path);

// Writes `file` to `path` atomically (checks the network first: std::invalid_argument).
void write_net_file(const std::string& path, const NetFile& file);

// 16 hex digits naming a network's parameters and architecture (FNV-1a 64 of the architecture
// hash and the parameters as the file stores them; not of the provenance, so the same network
// written twice has one fingerprint).
std::string net_fingerprint(const nnue::Network& net);

// The file's bytes (what write_net_file writes) and their parse; `name` names the source in errors.
std::string format_net_file(const NetFile& file);
NetFile parse_net_file(const std::string& bytes, const std::string& name);

} // namespace fanorona
