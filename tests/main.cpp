#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// Under the sanitizers, an allocation that cannot be had returns null (std::bad_alloc) as in a
// plain build instead of ending the program: the tests of out-of-memory paths rely on it.
extern "C" const char* __asan_default_options() {
    return "allocator_may_return_null=1";
}
extern "C" const char* __tsan_default_options() {
    return "allocator_may_return_null=1";
}
