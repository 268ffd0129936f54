// One writer per output: the lock files (core/common/folder_lock.h).

#include "core/common/folder_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/common/files.h"

namespace fanorona {

namespace {

// The PID written in the lock file by its owner, or "unknown".
std::string holder(int fd) {
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, std::size_t(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos ? "unknown"
                                                                                   : pid;
}

// Takes the flock on `path` (created if need be, never through a symbolic link: one planted there
// is refused, and nothing is written through it) and writes this process's PID in it; returns
// the descriptor. In use: FileError "`what`: in use by another run (pid N, see PATH); `advice`".
// A lock file its owner removed (at its end) between our open and our flock is opened again.
int take_lock(const std::string& path, const std::string& what, const std::string& advice) {
    for (int attempt = 0;; ++attempt) {
        const int fd =
            ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
        if (fd < 0 && errno == ELOOP)
            throw FileError(path + ": is a symbolic link; a lock file never is, refused");
        if (fd < 0) throw FileError(path + ": cannot open the lock file: " + std::strerror(errno));
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            throw FileError(path + ": not a regular file; a lock file always is, refused");
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            const std::string pid = holder(fd);
            ::close(fd);
            if (err == EWOULDBLOCK)
                throw FileError(what + " is in use by another run (pid " + pid + ", see " + path +
                                "); " + advice);
            throw FileError(path + ": cannot lock: " + std::strerror(err));
        }
        struct stat now {};
        if (::lstat(path.c_str(), &now) != 0 || now.st_dev != st.st_dev ||
            now.st_ino != st.st_ino) {
            ::close(fd); // removed or replaced since we opened it: take the one there now
            if (attempt < 100) continue;
            throw FileError(path + ": the lock file keeps changing; refused");
        }
        // The PID over the old one, then the length: a reader never sees an empty file.
        const std::string pid = std::to_string(::getpid()) + "\n";
        if (::pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size()) ||
            ::ftruncate(fd, off_t(pid.size())) != 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            throw FileError(path + ": cannot write the lock file: " + why);
        }
        return fd;
    }
}

// Removes the lock file (while still holding it: a run that opened it since takes the new one,
// see take_lock) and lets the lock go.
void release_lock(int fd, const std::string& path) {
    if (fd < 0) return;
    ::unlink(path.c_str());
    ::close(fd);
}

} // namespace

FolderLock::FolderLock(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw FileError(dir + ": cannot create the output folder: " + ec.message());
    path_ = lock_path(dir);
    fd_ = take_lock(path_, dir + ": the folder", "wait for it to end or choose another folder");
}

FolderLock::~FolderLock() {
    release_lock(fd_, path_);
}

FileLock::FileLock(const std::string& file) {
    struct stat st {};
    std::string target = file;
    if (::stat(file.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return; // a device or FIFO: nothing to lock
        std::error_code ec;
        const auto canonical = std::filesystem::canonical(file, ec); // a link's target
        if (!ec) target = canonical.string();
    }
    const auto parent = std::filesystem::path(target).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
        throw FileError(file + ": cannot create: the folder " + parent.string() +
                        " does not exist");
    path_ = lock_path(target);
    fd_ = take_lock(path_, file, "wait for it to end or choose another file");
}

FileLock::~FileLock() {
    release_lock(fd_, path_);
}

} // namespace fanorona
