#pragma once
// The proven bounds of a proof-number solve (`solve --method pns`, `frontier`), shared by its
// searchers and kept in a proof file (selfplay/formats/proof_file.h): read first, written
// atomically at intervals and at the end.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/common/files.h"
#include "core/solver/pns.h"
#include "selfplay/formats/proof_file.h"

namespace fanorona::cli {

// The proven bounds of a solve (the proof file's and every searcher's), behind a mutex, and
// their snapshots into the proof file.
class ProofStore {
public:
    ProofStore(std::string path, Variant v, double interval)
        : path_(std::move(path)), variant_(v), interval_(interval),
          last_(std::chrono::steady_clock::now()) {
        if (path_.empty() || !std::filesystem::exists(path_)) return;
        const ProofFile f = read_proof_file(path_);
        if (f.variant != v)
            throw FileError(path_ + ": a proof file of another board (variant " +
                            std::to_string(int(f.variant)) + ")");
        initial_ = f.bounds;
        for (const ProvenBound& b : f.bounds) bounds_[b.key] = {b.lo, b.hi};
    }

    const std::vector<ProvenBound>& initial() const { return initial_; }

    void add(Key key, int lo, int hi) {
        std::lock_guard lock(mutex_);
        add_locked(key, lo, hi);
    }
    // Takes every proven bound of `s`, and writes the file when the interval has passed.
    void merge(const ProofSearch& s) {
        std::lock_guard lock(mutex_);
        s.for_each_proven([this](Key k, int lo, int hi) { add_locked(k, lo, hi); });
        if (!path_.empty() &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >=
                interval_)
            write_locked();
    }
    // Takes proven bounds (a unit's), and writes the file when the interval has passed.
    void merge(const std::vector<ProvenBound>& bounds) {
        std::lock_guard lock(mutex_);
        for (const ProvenBound& b : bounds) add_locked(b.key, b.lo, b.hi);
        if (!path_.empty() &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >=
                interval_)
            write_locked();
    }
    std::size_t write() {
        std::lock_guard lock(mutex_);
        if (!path_.empty()) write_locked();
        return bounds_.size();
    }

private:
    void add_locked(Key key, int lo, int hi) {
        auto [it, fresh] = bounds_.try_emplace(key, std::int8_t(lo), std::int8_t(hi));
        if (fresh) return;
        it->second.first = std::int8_t(std::max<int>(it->second.first, lo));
        it->second.second = std::int8_t(std::min<int>(it->second.second, hi));
    }
    void write_locked() {
        ProofFile f;
        f.variant = variant_;
        f.bounds.reserve(bounds_.size());
        for (const auto& [k, b] : bounds_)
            if (b.first <= b.second) f.bounds.push_back({k, b.first, b.second});
        write_proof_file(path_, std::move(f));
        last_ = std::chrono::steady_clock::now();
    }

    std::string path_;
    Variant variant_;
    double interval_;
    std::chrono::steady_clock::time_point last_;
    std::vector<ProvenBound> initial_;
    std::unordered_map<Key, std::pair<std::int8_t, std::int8_t>> bounds_;
    std::mutex mutex_;
};

} // namespace fanorona::cli
