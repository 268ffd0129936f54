#include "selfplay/remote_link.h"

#include <utility>

namespace fanorona {

namespace {
RemoteLink& installed_link() {
    static RemoteLink link;
    return link;
}
} // namespace

void install_remote_link(RemoteLink link) {
    installed_link() = std::move(link);
}

const RemoteLink& remote_link() {
    return installed_link();
}

} // namespace fanorona
