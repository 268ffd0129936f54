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

namespace tsan {
// TSan's own synchronisation points: a release at an address happens before every later acquire
// at that address. Only the address is used, nothing is read or written. No-ops without TSan.
inline void release(const void* object) {
#ifdef FANORONA_TSAN_ANNOTATE
    __tsan_release(const_cast<void*>(object));
#else
    (void)object;
#endif
}
inline void acquire(const void* object) {
#ifdef FANORONA_TSAN_ANNOTATE
    __tsan_acquire(const_cast<void*>(object));
#else
    (void)object;
#endif
}
} // namespace tsan

// The first (empty) base of an object that oneTBB hands between threads: a body copied into a
// task, split, joined and destroyed on different threads, whose memory libtbb then recycles for
// the next task. Each construction, use and destruction at one address is ordered after the
// previous ones at that address, which is what libtbb guarantees and TSan cannot see:
//   - construction starts with an acquire (after whatever used this memory before) and a copy
//     also acquires its source; the derived constructor ends with end_use();
//   - every use is framed by begin_use() and end_use();
//   - the derived destructor starts with begin_use(); destruction ends with a release.
// Two uses of one object that overlap in time are not ordered, so a real race is still reported.
class TaskMemory {
protected:
    TaskMemory() { tsan::acquire(this); }
    TaskMemory(const TaskMemory& from) {
        tsan::acquire(&from);
        tsan::acquire(this);
    }
    TaskMemory& operator=(const TaskMemory&) = delete;
    ~TaskMemory() { tsan::release(this); }
    void begin_use() const { tsan::acquire(this); }
    void end_use() const { tsan::release(this); }
};

// One run of a parallel algorithm: construct it just before, wrap the bodies with body() (or, in a
// reduction body deriving from TaskMemory, call enter/leave), and call joined() once the
// algorithm returned.
class ForkJoin {
public:
    ForkJoin() { release(&fork_); }
    ForkJoin(const ForkJoin&) = delete;
    ForkJoin& operator=(const ForkJoin&) = delete;

    // A task body starts / ends (a body object's own memory is ordered by TaskMemory).
    void enter() const { acquire(&fork_); }
    void leave() const { release(&join_); }
    // The algorithm returned: every body's work is visible to the caller.
    void joined() const { acquire(&join_); }
    static void release(const void* object) { tsan::release(object); }
    static void acquire(const void* object) { tsan::acquire(object); }

    // A task body calling f: the orderings above, for the body object as well (TaskMemory).
    template <class F> class Body : TaskMemory {
    public:
        Body(const ForkJoin& fj, F f) : fj_(&fj), f_(std::move(f)) { end_use(); }
        Body(const Body& from) : TaskMemory(from), fj_(from.fj_), f_(from.f_) { end_use(); }
        ~Body() { begin_use(); }

        template <class... Args> decltype(auto) operator()(Args&&... args) const {
            begin_use();
            fj_->enter();
            const Done done{this};
            return f_(std::forward<Args>(args)...);
        }

    private:
        struct Done {
            const Body* body;
            ~Done() {
                body->fj_->leave();
                body->end_use();
            }
        };
        const ForkJoin* fj_;
        F f_;
    };

    // `f` as a task body: enter, f(args...), leave (also when f throws).
    template <class F> Body<F> body(F f) const { return Body<F>(*this, std::move(f)); }
    // `f` as the combining function of a reduction: it also sees the finished bodies' results.
    template <class F> auto combine(F f) const {
        return body([this, f](auto&&... args) -> decltype(auto) {
            joined();
            return f(std::forward<decltype(args)>(args)...);
        });
    }

private:
    char fork_ = 0, join_ = 0; // their addresses are the two synchronisation points
};

} // namespace fanorona
