#pragma once
// One writer per output folder: an flock(2) on DIR/.lock, held for the life of the object.

#include <string>

namespace fanorona {

// The lock on DIR/.lock, which holds the PID of its owner. Invariant: while the object lives no
// other FolderLock on DIR exists, in this process or another. The kernel drops the lock when the
// process ends, however it ends (a SIGKILLed run leaves no stale lock to clean up).
class FolderLock {
public:
    // Creates DIR if needed and takes the lock at once; a folder in use is a FileError naming the
    // folder and the PID that holds it.
    explicit FolderLock(const std::string& dir);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

    static std::string lock_path(const std::string& dir) { return dir + "/.lock"; }

private:
    int fd_ = -1;
};

} // namespace fanorona
