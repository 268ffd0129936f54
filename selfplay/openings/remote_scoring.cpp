#include "selfplay/openings/remote_scoring.h"

namespace fanorona {

namespace {
RemoteScorer& installed_scorer() {
    static RemoteScorer scorer;
    return scorer;
}
} // namespace

void install_remote_scorer(RemoteScorer scorer) {
    installed_scorer() = std::move(scorer);
}

const RemoteScorer& remote_scorer() {
    return installed_scorer();
}

} // namespace fanorona
