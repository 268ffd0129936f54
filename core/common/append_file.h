#pragma once
// A file written only by appending whole records, every write checked.

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/common/files.h"

namespace fanorona {

// An open file that grows by append(). Invariant: every byte handed to append() has reached the
// operating system when it returns, or it threw a FileError naming the file and the reason
// (disk full, file too large, unwritable); a short write is an error, never ignored.
class AppendFile {
public:
    AppendFile() = default;
    // Opens `path` for appending (creating it); with `truncate`, empties it first.
    AppendFile(const std::string& path, bool truncate);
    ~AppendFile();
    AppendFile(AppendFile&& other) noexcept;
    AppendFile& operator=(AppendFile&& other) noexcept;
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;

    bool is_open() const { return file_ != nullptr; }
    const std::string& path() const { return path_; }
    std::uint64_t size() const { return size_; } // bytes in the file

    void append(const std::string& bytes); // writes and flushes; throws FileError
    void close();                          // checked; throws FileError

private:
    std::FILE* file_ = nullptr;
    std::string path_;
    std::uint64_t size_ = 0;
};

} // namespace fanorona
