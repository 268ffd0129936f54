#pragma once
// ThreadSanitizer and oneTBB. Debian's libtbb is not built with -fsanitize=thread, so TSan does
// not see how it hands the tasks of a parallel algorithm to worker threads and waits for them: the
// caller's data a task reads, and the results the caller reads afterwards, would be reported as
// races. A ForkJoin states to TSan exactly the orderings oneTBB guarantees, and no others:
//   - everything the caller did before the algorithm happens before each task body starts;
//   - each task body's end happens before the algorithm returns to the caller;
//   - a reduction body object's construction and work happen before it is split or joined.
// Bodies are not ordered among themselves, so races between concurrent bodies are still reported.
// Without TSan every member is empty and inlined away.

#if defined(__SANITIZE_THREAD__)
#define FANORONA_TSAN_ANNOTATE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FANORONA_TSAN_ANNOTATE 1
#endif
#endif

#ifdef FANORONA_TSAN_ANNOTATE
#include <sanitizer/tsan_interface.h>
#endif

#include <utility>

namespace fanorona {

// One run of a parallel algorithm: construct it just before, wrap the bodies with body() (or call
// enter/leave in a reduction body), and call joined() once the algorithm returned.
class ForkJoin {
public:
    ForkJoin() { release(&fork_); }
    ForkJoin(const ForkJoin&) = delete;
    ForkJoin& operator=(const ForkJoin&) = delete;

    // A task body starts (working on `object`, a reduction body, when given) / ends.
    void enter(const void* object = nullptr) const {
        acquire(&fork_);
        if (object) acquire(object);
    }
    void leave(const void* object = nullptr) const {
        if (object) release(object);
        release(&join_);
    }
    // The algorithm returned: every body's work is visible to the caller.
    void joined() const { acquire(&join_); }
    // A reduction body object: its state so far is published (release) / is about to be read by
    // a split or a join (acquire). Only the address is used, nothing is read.
    static void release(const void* object) {
#ifdef FANORONA_TSAN_ANNOTATE
        __tsan_release(const_cast<void*>(object));
#else
        (void)object;
#endif
    }
    static void acquire(const void* object) {
#ifdef FANORONA_TSAN_ANNOTATE
        __tsan_acquire(const_cast<void*>(object));
#else
        (void)object;
#endif
    }

    // `f` as a task body: enter, f(args...), leave (also when f throws).
    template <class F> auto body(F f) const {
        return [this, f](auto&&... args) -> decltype(auto) {
            enter();
            const Leave done{this};
            return f(std::forward<decltype(args)>(args)...);
        };
    }
    // `f` as the combining function of a reduction: it also sees the finished bodies' results.
    template <class F> auto combine(F f) const {
        return [this, f](auto&&... args) -> decltype(auto) {
            enter();
            joined();
            const Leave done{this};
            return f(std::forward<decltype(args)>(args)...);
        };
    }

private:
    struct Leave {
        const ForkJoin* fj;
        ~Leave() { fj->leave(); }
    };
    char fork_ = 0, join_ = 0; // their addresses are the two synchronisation points
};

} // namespace fanorona
