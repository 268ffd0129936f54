#pragma once
// Reading and writing whole files, with errors that name the file.

#include <stdexcept>
#include <string>
#include <string_view>

namespace fanorona {

// A file that cannot be read or written (missing, unwritable, disk full); what() names the file.
struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The whole content of `path`, without a leading UTF-8 byte-order mark (which some editors
// write, invisibly, before a text file's first line); throws FileError naming the file. Every
// text reader (weights, parameters, openings, JSON) reads through it.
std::string read_text_file(const std::string& path);

// `text` without a leading UTF-8 byte-order mark (EF BB BF).
inline std::string_view skip_byte_order_mark(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

// Writes `text` to `path` atomically (a temporary file, flushed and checked, renamed over it):
// readers see the old content or the new, never a part. Throws FileError naming the file.
void write_file_atomically(const std::string& path, const std::string& text);

// Checks, before a long computation, that write_file_atomically(path, ...) can succeed: `path` is
// not a folder and its temporary file can be made in its folder (made and removed here). Throws
// FileError naming the file and why.
void check_writable(const std::string& path);

} // namespace fanorona
