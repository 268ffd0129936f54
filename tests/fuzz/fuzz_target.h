#pragma once
// One fuzz target is one function of a byte string, written once and compiled two ways:
//  - with FANORONA_LIBFUZZER (the libFuzzer build of `make fuzz`) it is LLVMFuzzerTestOneInput;
//  - in the unit tests it is registered by name, and tests/test_fuzz_corpus.cpp feeds it every
//    file of tests/fuzz/corpus/NAME/ (seeds, and every input that once found a bug).
// A target returns normally for accepted and for rejected input; a broken promise (an exception of
// an undocumented type, a multi-line error, a failed round trip) goes through fuzz::fail, which
// aborts under libFuzzer (a crash it saves) and throws fuzz::Failure in the unit tests.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz {

using Entry = int (*)(const std::uint8_t* data, std::size_t size);

// A registered target: its name (the corpus folder) and its function.
struct Target {
    const char* name;
    Entry entry;
};

inline std::vector<Target>& targets() {
    static std::vector<Target> all;
    return all;
}

inline bool add_target(const char* name, Entry entry) {
    targets().push_back({name, entry});
    return true;
}

// A broken promise found by a target (unit-test build).
struct Failure : std::logic_error {
    using std::logic_error::logic_error;
};

[[noreturn]] void fail(const std::string& why);

inline void check(bool ok, const std::string& why) {
    if (!ok) fail(why);
}

// An error message must be one line (the CLI prints it as `fanorona: <message>`).
inline void check_one_line(const std::exception& e) {
    const std::string_view what = e.what();
    check(!what.empty() && what.find('\n') == std::string_view::npos,
          "error message empty or not one line: '" + std::string(what) + "'");
}

// A private temporary folder of this process (created on first use) for targets whose parser
// reads files; targets write nowhere else.
const std::string& temp_dir();
// Writes `bytes` to temp_dir()/name and returns the path.
std::string write_temp(const std::string& name, std::string_view bytes);

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

} // namespace fuzz

#define FANORONA_FUZZ_CAT2(a, b) a##b
#define FANORONA_FUZZ_CAT(a, b) FANORONA_FUZZ_CAT2(a, b)

#ifdef FANORONA_LIBFUZZER
#define FUZZ_TARGET(NAME)                                                                          \
    static int FANORONA_FUZZ_CAT(fuzz_, NAME)(const std::uint8_t*, std::size_t);                   \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {            \
        return FANORONA_FUZZ_CAT(fuzz_, NAME)(data, size);                                         \
    }                                                                                              \
    static int FANORONA_FUZZ_CAT(fuzz_, NAME)(const std::uint8_t* data, std::size_t size)
#else
#define FUZZ_TARGET(NAME)                                                                          \
    static int FANORONA_FUZZ_CAT(fuzz_, NAME)(const std::uint8_t*, std::size_t);                   \
    [[maybe_unused]] static const bool FANORONA_FUZZ_CAT(registered_, NAME) =                      \
        fuzz::add_target(#NAME, FANORONA_FUZZ_CAT(fuzz_, NAME));                                   \
    static int FANORONA_FUZZ_CAT(fuzz_, NAME)(const std::uint8_t* data, std::size_t size)
#endif
