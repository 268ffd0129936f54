#include "core/common/folder_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
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

} // namespace

FolderLock::FolderLock(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw FileError(dir + ": cannot create the output folder: " + ec.message());
    const std::string path = lock_path(dir);
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw FileError(path + ": cannot open the lock file: " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const std::string pid = holder(fd_);
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
            throw FileError(dir + ": the folder is in use by another run (pid " + pid + ", see " +
                            path + "); wait for it to end or choose another --out");
        throw FileError(path + ": cannot lock: " + std::strerror(err));
    }
    // The PID over the old one, then the length: a reader never sees an empty file.
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size()) ||
        ::ftruncate(fd_, off_t(pid.size())) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd_);
        fd_ = -1;
        throw FileError(path + ": cannot write the lock file: " + why);
    }
}

FolderLock::~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
}

} // namespace fanorona
