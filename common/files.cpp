#include "common/files.h"

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
    return buffer.str();
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
        std::remove(tmp.c_str()); // the old file stays as it was, and nothing else is left
        throw FileError(path + ": cannot replace: " + ec.message());
    }
}

} // namespace fanorona
