#pragma once
// Reading and writing whole files, with errors that name the file.

#include <stdexcept>
#include <string>

namespace fanorona {

// A file that cannot be read or written (missing, unwritable, disk full); what() names the file.
struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The whole content of `path`; throws FileError naming the file.
std::string read_text_file(const std::string& path);

// Writes `text` to `path` atomically (a temporary file, flushed and checked, renamed over it):
// readers see the old content or the new, never a part. Throws FileError naming the file.
void write_file_atomically(const std::string& path, const std::string& text);

} // namespace fanorona
