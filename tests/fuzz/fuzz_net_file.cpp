// Fuzz target: network files (selfplay/formats/net_file.h's parse_net_file: the header, the
// architecture, the parameters, the checksum and network_problem()). Each input is read twice: as
// it is, and with its checksum line made right (so that mutations reach the parameters behind the
// checksum). A rejected file is a one-line std::runtime_error naming the file; an accepted network
// has no network_problem(), evaluates its board's start position within +-kMaxNetEval, and writes
// back (format_net_file) to bytes that read as the same network.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "core/board/position.h"
#include "core/common/hash.h"
#include "core/nnue/network.h"
#include "selfplay/formats/net_file.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

using namespace fanorona;

const std::string kName = "fuzz.net";

void check_file(const std::string& bytes) {
    NetFile file;
    try {
        file = parse_net_file(bytes, kName);
    } catch (const std::runtime_error& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(kName), "error without the file name");
        return;
    }
    const nnue::Network& net = file.net;
    fuzz::check(nnue::network_problem(net).empty(), "a network with a problem was accepted");
    const int eval = nnue::evaluate(net, Position::start(net.arch.variant));
    fuzz::check(std::abs(eval) <= nnue::kMaxNetEval,
                "an accepted network evaluates the start beyond kMaxNetEval: " +
                    std::to_string(eval));
    fuzz::check(parse_net_file(format_net_file(file), "again").net == net, "network round trip");
}

} // namespace

FUZZ_TARGET(net_file) {
    const std::string input(fuzz::as_text(data, size));
    check_file(input);
    // The same content with a right checksum line (FNV-1a 64 of every byte before it).
    const std::size_t at = input.rfind("\nchecksum ");
    const std::string body = input.substr(0, at);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, fnv1a64(body));
    check_file(body + "\nchecksum " + hex + "\n");
    return 0;
}
