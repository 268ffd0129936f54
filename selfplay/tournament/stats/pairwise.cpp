#include "selfplay/tournament/stats/pairwise.h"

#include <stdexcept>
#include <utility>

namespace fanorona::stats {

PairwiseResults::PairwiseResults(std::vector<std::string> names) : names_(std::move(names)) {
    const std::size_t n = names_.size();
    wdl_.resize(n * (n - (n > 0)) / 2);
    penta_.resize(wdl_.size());
}

std::size_t PairwiseResults::slot(std::size_t a, std::size_t b) const {
    if (a == b || a >= size() || b >= size())
        throw std::out_of_range("pairwise results: bad player pair " + std::to_string(a) + ", " +
                                std::to_string(b));
    if (a > b) std::swap(a, b);
    // Pairs (0,1), (0,2), ..., (0,n-1), (1,2), ...: row a starts after a rows of decreasing length.
    return a * (2 * size() - a - 1) / 2 + (b - a - 1);
}

void PairwiseResults::add(std::size_t a, std::size_t b, const WDL& from_a) {
    wdl_[slot(a, b)] += a < b ? from_a : from_a.flipped();
}

void PairwiseResults::add(std::size_t a, std::size_t b, const Pentanomial& from_a) {
    penta_[slot(a, b)] += a < b ? from_a : from_a.flipped();
}

void PairwiseResults::add_pair(std::size_t a, std::size_t b, const WDL& pair_from_a) {
    Pentanomial p;
    p.add_pair(pair_from_a);
    add(a, b, p);
    add(a, b, pair_from_a);
}

WDL PairwiseResults::wdl(std::size_t a, std::size_t b) const {
    const WDL& w = wdl_[slot(a, b)];
    return a < b ? w : w.flipped();
}

Pentanomial PairwiseResults::pentanomial(std::size_t a, std::size_t b) const {
    const Pentanomial& p = penta_[slot(a, b)];
    return a < b ? p : p.flipped();
}

WDL PairwiseResults::total(std::size_t a) const {
    WDL t;
    for (std::size_t b = 0; b < size(); ++b)
        if (b != a) t += wdl(a, b);
    return t;
}

PairwiseResults& PairwiseResults::operator+=(const PairwiseResults& other) {
    if (other.names_ != names_)
        throw std::invalid_argument("pairwise results: adding results of different players");
    for (std::size_t i = 0; i < wdl_.size(); ++i) {
        wdl_[i] += other.wdl_[i];
        penta_[i] += other.penta_[i];
    }
    return *this;
}

} // namespace fanorona::stats
