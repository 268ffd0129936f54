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

// Takes the flock on `path` (created if need be) and writes this process's PID in it; returns
// the descriptor. In use: FileError "`what`: in use by another run (pid N, see PATH); `advice`".
int take_lock(const std::string& path, const std::string& what, const std::string& advice) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw FileError(path + ": cannot open the lock file: " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const std::string pid = holder(fd);
        ::close(fd);
        if (err == EWOULDBLOCK)
            throw FileError(what + " is in use by another run (pid " + pid + ", see " + path +
                            "); " + advice);
        throw FileError(path + ": cannot lock: " + std::strerror(err));
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

} // namespace

FolderLock::FolderLock(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw FileError(dir + ": cannot create the output folder: " + ec.message());
    fd_ = take_lock(lock_path(dir), dir + ": the folder",
                    "wait for it to end or choose another --out");
}

FolderLock::~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
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
    fd_ = take_lock(lock_path(target), file, "wait for it to end or choose another file");
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);
}

} // namespace fanorona
