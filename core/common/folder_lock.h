#pragma once
// One writer per output: an flock(2) on DIR/.lock for a folder, on FILE.lock for one file, held
// for the life of the object.

#include <string>

namespace fanorona {

// The lock on DIR/.lock, which holds the PID of its owner. Invariant: while the object lives no
// other FolderLock on DIR exists, in this process or another. The kernel drops the lock when the
// process ends, however it ends (a SIGKILLed run leaves no stale lock to clean up: its file
// stays, free). The lock file is never opened through a symbolic link (one planted there is
// refused) and is removed when the object ends.
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
    std::string path_; // the lock file, removed when the object ends
};

// The lock on FILE.lock beside one output file that a run reads and rewrites (a proof file, a
// frontier CSV, a network and its checkpoint), holding its owner's PID, with FolderLock's
// guarantees. A character device or FIFO (/dev/null) is not locked (nothing can be lost there);
// a symbolic link locks the file it points to. The lock file is removed when the object ends.
class FileLock {
public:
    // Takes the lock at once; a file in use is a FileError naming the file and the holder's PID.
    explicit FileLock(const std::string& file);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    static std::string lock_path(const std::string& file) { return file + ".lock"; }

private:
    int fd_ = -1;
    std::string path_; // the lock file, removed when the object ends
};

} // namespace fanorona
