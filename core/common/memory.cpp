#include "core/common/memory.h"

#include <cstdio>
#include <new>
#include <stdexcept>
#include <unistd.h>

namespace fanorona {

std::uint64_t physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? std::uint64_t(pages) * std::uint64_t(size) : 0;
}

std::string memory_text(std::uint64_t bytes) {
    static const char* const kUnits[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 6) value /= 1024, ++unit;
    char text[32];
    if (unit == 0 || value >= 10 || value == double(std::uint64_t(value)))
        std::snprintf(text, sizeof text, "%.0f %s", value, kUnits[unit]);
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::string memory_error(const std::string& option, std::uint64_t bytes, const std::string& why) {
    return option + ": cannot allocate " + memory_text(bytes) + " (" + why + ")";
}

void check_memory(const std::string& option, std::uint64_t bytes) {
    const std::uint64_t machine = physical_memory();
    if (machine && bytes > machine)
        throw std::invalid_argument(
            memory_error(option, bytes, "this machine has " + memory_text(machine) + " of memory"));
}

void allocate_for(const std::string& option, std::uint64_t bytes,
                  const std::function<void()>& allocate) {
    check_memory(option, bytes);
    try {
        allocate();
    } catch (const std::bad_alloc&) {
        throw std::invalid_argument(
            memory_error(option, bytes, "out of memory, or over a limit such as ulimit -v"));
    }
}

} // namespace fanorona
