#include "core/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fanorona {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileError(path + ": cannot open for reading");
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw FileError(path + ": read failed");
    std::string text = buffer.str();
    if (skip_byte_order_mark(text).size() != text.size()) text.erase(0, 3);
    return text;
}

void write_file_atomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw FileError(tmp + ": cannot create: " + std::strerror(errno));
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
    std::string why = ok ? "" : std::strerror(errno);
    if (std::fclose(f) != 0 && ok) {
        ok = false;
        why = std::strerror(errno);
    }
    if (!ok) {
        std::remove(tmp.c_str());
        throw FileError(tmp + ": write failed: " + why);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str()); // nothing left behind
        throw FileError(path + ": cannot replace: " + ec.message());
    }
}

void check_writable(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw FileError(path + ": is a folder, not a file that can be written");
    const std::string tmp = path + ".tmp";
    const bool existed = std::filesystem::exists(tmp, ec);
    std::FILE* f = std::fopen(tmp.c_str(), "ab");
    if (!f) throw FileError(path + ": cannot be written: " + std::strerror(errno));
    std::fclose(f);
    if (!existed) std::remove(tmp.c_str());
}

} // namespace fanorona
