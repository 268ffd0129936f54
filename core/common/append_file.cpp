#include "core/common/append_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

namespace fanorona {

AppendFile::AppendFile(const std::string& path, bool truncate) : path_(path) {
    file_ = std::fopen(path.c_str(), truncate ? "wb" : "ab");
    if (!file_) throw FileError(path + ": cannot open for writing: " + std::strerror(errno));
    // Unbuffered: a failed write leaves nothing behind in a buffer for a later flush to write.
    std::setvbuf(file_, nullptr, _IONBF, 0);
    if (std::fseek(file_, 0, SEEK_END) != 0 || std::ftell(file_) < 0) {
        const std::string why = std::strerror(errno);
        std::fclose(file_);
        file_ = nullptr;
        throw FileError(path + ": cannot seek to its end: " + why);
    }
    size_ = std::uint64_t(std::ftell(file_));
}

AppendFile::~AppendFile() {
    if (file_) std::fclose(file_);
}

AppendFile::AppendFile(AppendFile&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)), path_(std::move(other.path_)),
      size_(other.size_) {}

AppendFile& AppendFile::operator=(AppendFile&& other) noexcept {
    if (this != &other) {
        if (file_) std::fclose(file_);
        file_ = std::exchange(other.file_, nullptr);
        path_ = std::move(other.path_);
        size_ = other.size_;
    }
    return *this;
}

void AppendFile::append(const std::string& bytes) {
    if (!file_) throw FileError(path_ + ": write failed: the file is not open");
    errno = 0;
    const std::size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file_);
    size_ += written;
    if (written != bytes.size() || std::fflush(file_) != 0) {
        const std::string why = errno ? std::strerror(errno) : "short write";
        std::clearerr(file_);
        throw FileError(path_ + ": write failed after " + std::to_string(written) + " of " +
                        std::to_string(bytes.size()) + " bytes: " + why);
    }
}

void AppendFile::close() {
    if (!file_) return;
    std::FILE* f = std::exchange(file_, nullptr);
    if (std::fclose(f) != 0) throw FileError(path_ + ": close failed: " + std::strerror(errno));
}

} // namespace fanorona
