#pragma once
// The seam (core/common/seam.h) through which a batch's games reach other machines: the program
// installs a link at start-up (cluster::install, from main()); without one, as in the tests and in
// every process that is not rank 0 of an MPI job, every game is played here. Nothing in selfplay/
// knows MPI.

#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/common/seam.h"
#include "selfplay/games/batch_runner.h"

namespace fanorona {

class ScheduledGames;

// What the driver may ask of the machines beyond this process. Either function may be empty.
struct RemoteLink {
    // The other ranks as players of a batch, or nullptr when there are none.
    std::function<std::unique_ptr<RemotePlayers>(ScheduledGames&)> players;
    // What was sent and received so far, for a run's summary; null when there are no other ranks.
    std::function<nlohmann::json()> traffic;
};

// The installed link (Seam<RemoteLink>::install); empty until then.
inline const RemoteLink& remote_link() {
    return Seam<RemoteLink>::get();
}

} // namespace fanorona
