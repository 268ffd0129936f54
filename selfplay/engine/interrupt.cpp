// The interruption flag and the SIGINT and SIGTERM handlers that set it.

#include "selfplay/engine/interrupt.h"

#include <csignal>

namespace fanorona {

std::atomic<bool>& interrupt_flag() {
    static std::atomic<bool> flag{false};
    return flag;
}

namespace {
extern "C" void on_interrupt(int sig) {
    interrupt_flag().store(true);
    std::signal(sig, SIG_DFL); // a second Ctrl-C ends the program at once
}
} // namespace

void install_interrupt_handlers() {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

} // namespace fanorona
