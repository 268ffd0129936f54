// fuzz::fail and the temporary folder, for both builds of the fuzz targets.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tests/fuzz/fuzz_target.h"

namespace fuzz {

void fail(const std::string& why) {
#ifdef FANORONA_LIBFUZZER
    std::fprintf(stderr, "fuzz target: %s\n", why.c_str());
    std::abort();
#else
    throw Failure(why);
#endif
}

namespace {

// Removes the folder when the process ends normally.
struct TempDir {
    std::string path;
    TempDir() {
        const auto dir = std::filesystem::temp_directory_path() /
                         ("fanorona_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        path = dir.string();
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

} // namespace

const std::string& temp_dir() {
    static const TempDir dir;
    return dir.path;
}

std::string write_temp(const std::string& name, std::string_view bytes) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out.flush()) fail("cannot write " + path);
    return path;
}

} // namespace fuzz
