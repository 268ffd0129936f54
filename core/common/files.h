#pragma once
// Reading and writing whole files, with errors that name the file.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fanorona {

// A file that cannot be read or written (missing, unwritable, disk full); what() names the file.
struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `path` as an error message shows it: a NUL byte (which would end the message) as "\\0".
inline std::string shown_path(const std::string& path) {
    std::string out;
    for (const char c : path) out += c == '\0' ? std::string("\\0") : std::string(1, c);
    return out;
}

// A FileError message without its leading "PATH: ": the reason alone (the whole message when it
// does not start with that path).
inline std::string without_path(const std::string& message, const std::string& path) {
    const std::string prefix = shown_path(path) + ": ";
    return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

// The most read_file_bytes() reads of a file that is not a regular file (a device, a FIFO, a
// /proc file): its end is not known before it is read, and /dev/zero has none.
inline constexpr std::size_t kMaxStreamBytes = std::size_t(256) << 20;

// The whole content of `path`, byte for byte: a regular file is read whole; a folder is refused;
// anything else (a device, a FIFO) is read up to kMaxStreamBytes and refused past that, so every
// read ends. Throws FileError naming the file. Every reader of a whole file reads through it.
std::string read_file_bytes(const std::string& path);

// The whole content of `path` (read_file_bytes), without a leading UTF-8 byte-order mark (which
// some editors write, invisibly, before a text file's first line); throws FileError naming the
// file. Every text reader (weights, parameters, openings, JSON) reads through it.
std::string read_text_file(const std::string& path);

// `text` without a leading UTF-8 byte-order mark (EF BB BF).
inline std::string_view skip_byte_order_mark(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

// Writes `text` to `path`, the one way every command writes an output file:
// - a new path or a regular file is replaced atomically (a temporary file beside it, flushed and
//   checked, renamed over it): readers see the old content or the new, never a part; the
//   temporary file is new, created exclusively with a unique name (FILE.tmp.XXXXXX: never an
//   existing file, never through a symbolic link planted there);
// - a symbolic link stays a link: the file it points to is replaced so (a dangling link is an
//   error);
// - a character device or a FIFO (/dev/null, /dev/stdout) is written through, never replaced;
// - anything else (a folder, a block device, a socket) is refused.
// A write error (a full device) is an error. Throws FileError naming `path`, never the temporary
// file, and leaves no temporary file behind.
void write_file_atomically(const std::string& path, const std::string& text);

// Checks, before a long computation, that write_file_atomically(path, ...) can succeed: the path
// is writable as above and, for a file to be replaced, its temporary file can be made in its
// folder (made and removed here). Throws FileError naming the file and why.
void check_writable(const std::string& path);

// One file or folder a command reads or writes, by the option or argument that names it
// ("--out", "DATA").
struct FileUse {
    std::string what;
    std::string path;
};

// Refuses, before anything is written, an output that is one of the inputs or a file inside an
// input folder (compared by file identity, device and inode, not by spelling; a symbolic link is
// its target), and two outputs that are one file (a character device such as /dev/null may be
// named twice). Outputs that do not exist yet are compared by their absolute, normalised paths.
// A path of PATH_MAX (4096) characters or more is refused as too long (no call could open it).
// Throws FileError "OUTPUT PATH: is also INPUT (PATH)".
void check_outputs(const std::vector<FileUse>& inputs, const std::vector<FileUse>& outputs);

// The longest read_file_bytes(path, limits) waits for a file that is not a regular file (a FIFO
// whose writer is silent) to end.
inline constexpr int kMaxStreamSeconds = 60;

// What a reader knows of its format before it reads a file whole: its name for messages
// ("network"), the bytes every file of it starts with ("" when it has none) and its largest size.
struct FileLimits {
    std::string_view name;
    std::string_view magic;
    std::size_t max_bytes = kMaxStreamBytes;
    int max_seconds = kMaxStreamSeconds; // the longest wait for a FIFO or device to end
};

// The whole content of `path` as read_file_bytes() reads it, bounded by its format: the first
// bytes are read and checked against limits.magic first ("PATH: not a NAME file (it starts with
// ...)"; "PATH: ends before a NAME file's first line" only when the file is a part of the magic),
// then the size against limits.max_bytes ("PATH: N bytes, more than a NAME file's largest, M")
// before the rest is read; a FIFO or a device is read up to max_bytes and refused past it.
// Throws FileError naming the file.
std::string read_file_bytes(const std::string& path, const FileLimits& limits);

// read_file_bytes(path, limits) without a leading UTF-8 byte-order mark (the magic is looked
// for after it).
std::string read_text_file(const std::string& path, const FileLimits& limits);

// Refuses two of `inputs` that are one file or folder by identity (device and inode; a symbolic
// link is its target), however spelt: an input given twice would be read twice. Inputs that do
// not exist are left to the command. Throws FileError "WHAT PATH: given twice (also as PATH)".
void check_distinct_inputs(const std::vector<FileUse>& inputs);

} // namespace fanorona
