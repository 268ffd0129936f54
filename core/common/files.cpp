#include "core/common/files.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fanorona {

namespace {

// Refuses a path with a NUL byte (the system would read it only up to the NUL: another file).
void refuse_nul_byte(const std::string& path) {
    if (path.find('\0') != std::string::npos)
        throw FileError(shown_path(path) + ": a file name cannot hold a NUL byte; refused");
}

} // namespace

std::string read_file_bytes(const std::string& path) {
    refuse_nul_byte(path);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw FileError(path + ": cannot open for reading: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw FileError(path + ": is a folder, not a file");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw FileError(path + ": cannot open for reading: " + std::strerror(errno));
    const bool regular = S_ISREG(st.st_mode);
    std::string bytes;
    if (regular) bytes.reserve(std::size_t(st.st_size));
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            throw FileError(path + ": read failed: " + why);
        }
        if (n == 0) break;
        bytes.append(buffer, std::size_t(n));
        if (!regular && bytes.size() > kMaxStreamBytes) {
            ::close(fd);
            throw FileError(path + ": not a regular file, and longer than " +
                            std::to_string(kMaxStreamBytes >> 20) + " MB; refused");
        }
    }
    ::close(fd);
    return bytes;
}

std::string read_text_file(const std::string& path) {
    std::string text = read_file_bytes(path);
    if (skip_byte_order_mark(text).size() != text.size()) text.erase(0, 3);
    return text;
}

namespace {

namespace fs = std::filesystem;

// How an output path is written.
enum class Target { Replace, WriteThrough };

// Where writing `path` leads: the regular file to replace (a link's target, or the new path) or
// the device or FIFO to write through. Throws FileError naming `path` for what is refused.
std::pair<std::string, Target> destination(const std::string& path) {
    if (path.empty()) throw FileError("(an empty path): names no file to write");
    refuse_nul_byte(path);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) throw FileError(path + ": " + std::strerror(errno));
        const fs::path parent = fs::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty() && !fs::is_directory(parent, ec))
            throw FileError(path + ": cannot create: the folder " + parent.string() +
                            " does not exist");
        return {path, Target::Replace};
    }
    if (S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0)
        throw FileError(path + ": a symbolic link to nothing (" + std::strerror(errno) + ")");
    if (S_ISDIR(st.st_mode))
        throw FileError(path + ": is a folder, not a file that can be written");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {path, Target::WriteThrough};
    if (!S_ISREG(st.st_mode))
        throw FileError(path + ": not a regular file, a character device or a FIFO; refused");
    std::error_code ec;
    const fs::path target = fs::canonical(path, ec); // the file a link points to
    return {ec ? path : target.string(), Target::Replace};
}

// Writes all of `text` to the open descriptor; false (errno set) on an error.
bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        text.remove_prefix(std::size_t(n));
    }
    return true;
}

void write_through(const std::string& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw FileError(path + ": cannot open for writing: " + std::strerror(errno));
    const bool ok = write_all(fd, text);
    const std::string why = ok ? "" : std::strerror(errno);
    if (::close(fd) != 0 && ok) throw FileError(path + ": write failed: " + std::strerror(errno));
    if (!ok) throw FileError(path + ": write failed: " + why);
}

// Creates a new temporary file beside `file`, FILE.tmp.XXXXXX with a unique ending, exclusively
// (O_CREAT | O_EXCL: never an existing file, never through a symbolic link planted there),
// readable as an output is (0644); returns its descriptor and sets `tmp` to its name. Throws
// FileError naming `path`.
int create_temporary(const std::string& path, const std::string& file, std::string& tmp) {
    std::string name = file + ".tmp.XXXXXX";
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) throw FileError(path + ": cannot create: " + std::strerror(errno));
    ::fchmod(fd, 0644);
    tmp = name;
    return fd;
}

void replace_atomically(const std::string& path, const std::string& file, const std::string& text) {
    std::string tmp;
    const int fd = create_temporary(path, file, tmp);
    bool ok = write_all(fd, text);
    std::string why = ok ? "" : std::strerror(errno);
    if (::close(fd) != 0 && ok) {
        ok = false;
        why = std::strerror(errno);
    }
    if (!ok) {
        std::remove(tmp.c_str());
        throw FileError(path + ": write failed: " + why);
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        std::remove(tmp.c_str()); // nothing left behind
        throw FileError(path + ": cannot replace: " + ec.message());
    }
}

// A file's identity: device and inode (a link's target's).
using FileId = std::pair<dev_t, ino_t>;
std::optional<FileId> identity(const std::string& path) {
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
}

bool is_character_device(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

} // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
    const auto [file, how] = destination(path);
    if (how == Target::WriteThrough) return write_through(path, text);
    replace_atomically(path, file, text);
}

void check_writable(const std::string& path) {
    const auto [file, how] = destination(path);
    if (how == Target::WriteThrough) {
        if (::access(path.c_str(), W_OK) != 0)
            throw FileError(path + ": cannot be written: " + std::strerror(errno));
        return;
    }
    std::string tmp;
    int fd = -1;
    try {
        fd = create_temporary(path, file, tmp);
    } catch (const FileError&) {
        throw FileError(path + ": cannot be written: " + std::strerror(errno));
    }
    ::close(fd);
    std::remove(tmp.c_str());
}

namespace {

// Refuses a path longer than the system takes (PATH_MAX, 4096 on Linux): no call could open it,
// and two such paths cannot be told apart by identity.
void check_length(const FileUse& use) {
    if (use.path.size() < std::size_t(PATH_MAX)) return;
    throw FileError(use.what + " " + use.path.substr(0, 60) + "...: too long (" +
                    std::to_string(use.path.size()) + " characters, over " +
                    std::to_string(PATH_MAX) + ")");
}

// Whether two paths that name no file yet are one path: absolute, normalised, their existing
// folders' links followed (lexically when that fails).
bool same_new_path(const std::string& a, const std::string& b) {
    std::error_code e1, e2;
    const fs::path ca = fs::weakly_canonical(fs::absolute(a), e1);
    const fs::path cb = fs::weakly_canonical(fs::absolute(b), e2);
    if (!e1 && !e2) return ca == cb;
    return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
}

} // namespace

void check_outputs(const std::vector<FileUse>& inputs, const std::vector<FileUse>& outputs) {
    for (const FileUse& use : inputs) check_length(use);
    for (const FileUse& use : outputs) check_length(use);
    // Every regular file each input is or holds (an input folder's files, recursively).
    std::map<FileId, const FileUse*> read;
    for (const FileUse& in : inputs) {
        if (in.path.empty()) continue;
        if (const auto id = identity(in.path)) read.emplace(*id, &in);
        std::error_code ec;
        if (!fs::is_directory(in.path, ec)) continue;
        for (fs::recursive_directory_iterator it(in.path, ec), end; !ec && it != end;
             it.increment(ec))
            if (it->is_regular_file(ec))
                if (const auto id = identity(it->path().string())) read.emplace(*id, &in);
    }
    const auto refuse = [](const FileUse& out, const FileUse& other, const char* as) {
        throw FileError(out.what + " " + out.path + ": the same file as " + as + other.what + " (" +
                        other.path + "); refused before writing anything");
    };
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const FileUse& out = outputs[i];
        if (out.path.empty()) continue;
        const auto id = identity(out.path);
        if (id && !is_character_device(out.path))
            if (const auto hit = read.find(*id); hit != read.end())
                refuse(out, *hit->second, "the input ");
        for (std::size_t j = 0; j < i; ++j) {
            const FileUse& other = outputs[j];
            if (other.path.empty()) continue;
            const auto other_id = identity(other.path);
            const bool same = id && other_id
                                  ? *id == *other_id && !is_character_device(out.path)
                                  : !id && !other_id && same_new_path(out.path, other.path);
            if (same) refuse(out, other, "the output ");
        }
    }
}

namespace {

// The first bytes of a file as a message shows them: printable ASCII as it is, others as hex.
std::string shown_start(const std::string& bytes) {
    std::string out;
    const std::size_t n = std::min<std::size_t>(bytes.size(), 16);
    bool printable = true;
    for (std::size_t i = 0; i < n; ++i)
        printable = printable && ((bytes[i] >= 0x20 && bytes[i] < 0x7F) || bytes[i] == '\n');
    if (printable) {
        for (std::size_t i = 0; i < n; ++i)
            out += bytes[i] == '\n' ? std::string("\\n") : std::string(1, bytes[i]);
        return "'" + out + "'";
    }
    static const char* const kHex = "0123456789abcdef";
    for (std::size_t i = 0; i < n; ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        out += std::string(out.empty() ? "" : " ") + kHex[b >> 4] + kHex[b & 15];
    }
    return "bytes " + out;
}

} // namespace

std::string read_file_bytes(const std::string& path, const FileLimits& limits) {
    refuse_nul_byte(path);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw FileError(path + ": cannot open for reading: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw FileError(path + ": is a folder, not a file");
    const std::string name(limits.name);
    const bool regular = S_ISREG(st.st_mode);
    // A regular file's size is checked once its first bytes are the format's (a file of another
    // kind is told as such, whatever its size), before the rest is read.
    std::string bytes;
    const auto check_size = [&] {
        if (!regular) return;
        if (std::uint64_t(st.st_size) > limits.max_bytes)
            throw FileError(path + ": " + std::to_string(st.st_size) + " bytes, more than a " +
                            name + " file's largest (" + std::to_string(limits.max_bytes) +
                            " bytes)");
        bytes.reserve(std::size_t(st.st_size));
    };
    if (limits.magic.empty()) check_size();
    // Non-blocking: a FIFO without a writer does not block the open, and its reads wait in
    // poll() with a deadline that no writer can extend.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw FileError(path + ": cannot open for reading: " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(limits.max_seconds);
    // The magic is checked as soon as enough bytes are in (after a byte-order mark for text).
    bool magic_checked = limits.magic.empty();
    const auto check_magic = [&](bool at_end) {
        std::string_view text(bytes);
        if (skip_byte_order_mark(text).size() != text.size()) text.remove_prefix(3);
        if (text.size() < limits.magic.size() && !at_end) return;
        magic_checked = true;
        if (text.substr(0, limits.magic.size()) == limits.magic) return check_size();
        if (text.empty()) throw FileError(path + ": empty, not a " + name + " file");
        if (text.size() < limits.magic.size() && limits.magic.substr(0, text.size()) == text)
            throw FileError(path + ": ends before a " + name + " file's first bytes ('" +
                            std::string(limits.magic) + "')");
        throw FileError(path + ": not a " + name + " file (it starts with " +
                        shown_start(std::string(text)) + ", not '" + std::string(limits.magic) +
                        "')");
    };
    char buffer[1 << 16];
    for (;;) {
        if (!regular) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            pollfd p{fd, POLLIN, 0};
            const int ready = left.count() > 0 ? ::poll(&p, 1, int(left.count())) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0)
                throw FileError(path + ": not a regular file, and it did not end within " +
                                std::to_string(limits.max_seconds) + " s; refused");
        }
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) throw FileError(path + ": read failed: " + std::strerror(errno));
        if (n == 0) break;
        bytes.append(buffer, std::size_t(n));
        if (!magic_checked) check_magic(false);
        if (bytes.size() > limits.max_bytes)
            throw FileError(path + ": " + (regular ? "" : "not a regular file, and ") +
                            "longer than a " + name + " file's largest (" +
                            std::to_string(limits.max_bytes) + " bytes); refused");
    }
    if (!magic_checked) check_magic(true);
    return bytes;
}

std::string read_text_file(const std::string& path, const FileLimits& limits) {
    std::string text = read_file_bytes(path, limits);
    if (skip_byte_order_mark(text).size() != text.size()) text.erase(0, 3);
    return text;
}

void check_distinct_inputs(const std::vector<FileUse>& inputs) {
    for (const FileUse& use : inputs) check_length(use);
    std::map<FileId, const FileUse*> seen;
    for (const FileUse& in : inputs)
        if (const auto id = identity(in.path))
            if (const auto [at, added] = seen.emplace(*id, &in); !added)
                throw FileError(in.what + " " + in.path + ": given twice (also as " +
                                at->second->path + "); each input is read once, refused");
}

} // namespace fanorona
