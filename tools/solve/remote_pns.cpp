#include "tools/solve/remote_pns.h"

#include <utility>

namespace fanorona::cli {

namespace {

RemotePnsSolver& installed_solver() {
    static RemotePnsSolver solver;
    return solver;
}

} // namespace

void install_remote_pns_solver(RemotePnsSolver solver) {
    installed_solver() = std::move(solver);
}

const RemotePnsSolver& remote_pns_solver() {
    return installed_solver();
}

} // namespace fanorona::cli
