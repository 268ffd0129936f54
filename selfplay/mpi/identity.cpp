#include "selfplay/mpi/identity.h"

#include <stdexcept>

#include <cstdio>

#include "core/bench.h"
#include "core/common/hash.h"
#include "core/tables/tablebase.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/games/driver.h"

namespace fanorona {

namespace {

// FNV-1a 64 (core/common/hash.h) over 64-bit values, as 16 hex digits.
class Fnv {
public:
    void add(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) h_ = (h_ ^ std::uint8_t(v >> (8 * i))) * kFnv1a64Prime;
    }
    std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
        return buf;
    }

private:
    std::uint64_t h_ = kFnv1a64Basis;
};

std::string params_fingerprint(const SearchParams& params) {
    Fnv h;
    for (const SearchParam& p : params.list()) h.add(std::uint64_t(std::int64_t(p.value)));
    return h.hex();
}

} // namespace

std::uint64_t bench_signature() {
    const EngineSpec defaults; // what `fanorona bench` searches with, with no options
    Searcher searcher(defaults.hash_mb);
    defaults.configure(searcher);
    return run_bench(searcher, kBenchDepth);
}

std::string tables_fingerprint(const EndgameProbe& probe) {
    const auto* folder = dynamic_cast<const tables::Tablebase*>(&probe);
    if (!folder) return "-";
    Fnv h;
    for (const tables::TableFile* f : folder->files()) {
        const tables::TableHeader& head = f->header();
        h.add(std::uint64_t(head.variant));
        h.add(std::uint64_t(head.mover));
        h.add(std::uint64_t(head.other));
        h.add(f->file_size());
        h.add(f->stored_checksum());
    }
    return h.hex();
}

void add_fingerprints(Fingerprints& out, const EngineSpec& s) {
    if (s.kind != EngineSpec::Kind::Engine) return;
    const std::string player = "player " + s.name + "'s ";
    out.emplace_back(player + "weights " + s.weights_name, weights_fingerprint(s.weights));
    if (s.vela_weights)
        out.emplace_back(player + "Vela weights " + s.vela_weights_name,
                         weights_fingerprint(*s.vela_weights));
    out.emplace_back(player + "search parameters " + s.params_name,
                     params_fingerprint(s.search_params()));
    if (s.net) out.emplace_back(player + "net " + s.net_path, net_fingerprint(*s.net));
    if (s.tables)
        out.emplace_back(player + "tables " + s.tables_dir, tables_fingerprint(*s.tables));
}

Fingerprints run_fingerprints(const RunConfig& c) {
    Fingerprints out;
    for (const EngineSpec& p : c.players) add_fingerprints(out, p);
    if (c.adjudication.tables)
        out.emplace_back("--adjudicate-tables " + c.adjudication.tables_dir,
                         tables_fingerprint(*c.adjudication.tables));
    return out;
}

void check_job_fingerprints(const nlohmann::json& job, const Fingerprints& mine) {
    if (!job.is_object() || !job.contains("fingerprints"))
        throw std::runtime_error("a job without rank 0's fingerprints (of the files it reads)");
    const std::string why =
        fingerprint_difference(mine, job.at("fingerprints").get<Fingerprints>());
    if (!why.empty()) throw std::runtime_error(why);
}

std::string fingerprint_difference(const Fingerprints& mine, const Fingerprints& rank0s) {
    for (std::size_t k = 0; k < mine.size() || k < rank0s.size(); ++k) {
        if (k >= mine.size()) return rank0s[k].first + ": read by rank 0, not here";
        if (k >= rank0s.size()) return mine[k].first + ": read here, not by rank 0";
        const auto& [what, value] = mine[k];
        if (what != rank0s[k].first) return what + ": rank 0 read " + rank0s[k].first + " instead";
        if (value != rank0s[k].second)
            return what + " fingerprint " + value + " differs from rank 0's " + rank0s[k].second;
    }
    return "";
}

} // namespace fanorona
