#pragma once
// The byte messages between ranks: values appended and read back as they lie in memory (every
// rank runs the same build on the same kind of machine).

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

namespace fanorona {

template <class T> void put_bytes(std::string& out, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

// Reads a T at `at` and moves past it; throws "MESSAGE: truncated" when `in` ends first.
template <class T> T take_bytes(const std::string& in, std::size_t& at, const char* message) {
    if (at + sizeof(T) > in.size()) throw std::runtime_error(std::string(message) + ": truncated");
    T v;
    std::memcpy(&v, in.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
}

} // namespace fanorona
