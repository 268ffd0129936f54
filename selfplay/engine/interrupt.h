#pragma once
// The program's interruption by a signal (Ctrl-C, kill): a flag the handlers of SIGINT and
// SIGTERM set, which every wait on an engine process (selfplay/engine/process.h) and the game
// runners watch, and the exception a wait ends with when it is set.

#include <atomic>
#include <stdexcept>

namespace fanorona {

// Set from a signal handler (Ctrl-C, kill): no new game starts, a wait on an engine ends at once
// (Interrupted) and the game in flight is not written.
std::atomic<bool>& interrupt_flag();
// SIGINT and SIGTERM set interrupt_flag(); a second one ends the program at once (its engines
// die with it: they are started with PR_SET_PDEATHSIG).
void install_interrupt_handlers();

// Thrown by a wait on an engine that interrupt_flag() ended: the game in flight is abandoned (not
// a forfeit), the engine was sent `quit` and reaped.
struct Interrupted : std::runtime_error {
    Interrupted() : std::runtime_error("interrupted") {}
};

} // namespace fanorona
