#pragma once
// Seams: how a higher layer plugs in work that a lower layer may hand off but must not know. The
// MPI cluster (selfplay/mpi/cluster.cpp) plays a batch's games on other ranks
// (selfplay/games/remote_link.h), scores openings on them (selfplay/openings/remote_scoring.h) and
// solves df-pn first moves on them (tools/solve/remote_pns.h); the code that asks knows only the
// hook's value type, a struct of std::functions declared beside it.
//
// Seam<T> holds one value of T for the whole program (one per hook type). What stays true:
//   - it is installed at most once, at start-up, before any thread that reads it starts (the
//     program's main(), on rank 0 of an MPI job), so reading it needs no lock;
//   - until then it holds T{} (every function empty), and so it stays in the tests, which do not
//     go through main(): the caller then does all the work itself, as it does when the installed
//     functions report no other ranks (a run of one process, a build without MPI).
// Each hook names its seam in its own header with a one-line accessor, e.g.
//   inline const RemoteLink& remote_link() { return Seam<RemoteLink>::get(); }

#include <utility>

namespace fanorona {

// The one installed value of type T (see above); T is default-constructible and movable.
template <class T> class Seam {
public:
    // Installs `value` (once, before any thread that reads it starts).
    static void install(T value) { slot() = std::move(value); }
    // The installed value, or T{} when none is.
    static const T& get() { return slot(); }

private:
    static T& slot() {
        static T value{};
        return value;
    }
};

} // namespace fanorona
