#pragma once
// Memory requests a user sizes with an option (--hash, --graph): checked against the machine
// before allocating, and a failed allocation reported with the option, never as std::bad_alloc.

#include <cstdint>
#include <functional>
#include <string>

namespace fanorona {

// The machine's physical memory in bytes (0 when unknown).
std::uint64_t physical_memory();

// A size for people: "64 GB", "512 MB", "12 KB", "100 bytes" (binary units, rounded).
std::string memory_text(std::uint64_t bytes);

// The error for an allocation of `bytes` that `option` (e.g. "--hash 65536") asked for:
// "--hash 65536: cannot allocate 64 GB (WHY)".
std::string memory_error(const std::string& option, std::uint64_t bytes, const std::string& why);

// Throws std::invalid_argument(memory_error(...)) when `bytes` exceed the physical memory.
void check_memory(const std::string& option, std::uint64_t bytes);

// Runs `allocate` (which sizes something by `option`) after check_memory; a std::bad_alloc it
// throws becomes std::invalid_argument(memory_error(...)).
void allocate_for(const std::string& option, std::uint64_t bytes,
                  const std::function<void()>& allocate);

} // namespace fanorona
