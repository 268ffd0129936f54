#pragma once
// A shuffle buffer: a stream of items comes out in a random order using memory for `capacity`
// items, however long the stream. Until it is full the buffer only takes items in; then each
// item put in first takes a uniformly random one out (and takes its place); at the end of the
// stream drain() takes the rest out in random order. Every item put in comes out exactly once.
// A stream no longer than the capacity comes out in a uniformly random order (a Fisher-Yates
// shuffle drawn as it drains, the same whatever the capacity); a longer one is mixed over a
// window of about `capacity` items. The order is a function of the items' order and the Rng's
// seed alone.

#include <cstddef>
#include <vector>

#include "core/common/rng.h"

namespace fanorona {

// The items held (at most `capacity`, storage reserved up to the expected count) and the
// generator that picks the next one out.
template <class T> class ShuffleBuffer {
public:
    // `expected`: how many items the stream holds, when known (the storage reserved is at most
    // that and the capacity; 0: grown as needed).
    ShuffleBuffer(std::size_t capacity, Rng rng, std::size_t expected = 0)
        : capacity_(capacity < 1 ? 1 : capacity), rng_(rng) {
        items_.reserve(expected < capacity_ ? expected : capacity_);
    }

    std::size_t size() const { return items_.size(); }
    std::size_t capacity() const { return capacity_; }

    // Puts `x` in; when the buffer is full, first passes a random item to emit(const T&).
    template <class Emit> void push(const T& x, Emit&& emit) {
        if (items_.size() < capacity_) {
            items_.push_back(x);
            return;
        }
        T& slot = items_[std::size_t(rng_.below(items_.size()))];
        emit(static_cast<const T&>(slot));
        slot = x;
    }

    // Passes every item left to emit(const T&), in random order; the buffer is then empty.
    template <class Emit> void drain(Emit&& emit) {
        while (!items_.empty()) {
            T& slot = items_[std::size_t(rng_.below(items_.size()))];
            emit(static_cast<const T&>(slot));
            slot = items_.back();
            items_.pop_back();
        }
    }

private:
    std::size_t capacity_;
    Rng rng_;
    std::vector<T> items_;
};

} // namespace fanorona
