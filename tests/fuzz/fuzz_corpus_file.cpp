// Fuzz target: corpus files (CorpusReader, CorpusPositionReader, scan_corpus). A bad header or a
// foreign block is a one-line CorpusError naming the file; a damaged tail is dropped, not read;
// the games read keep the format's promises (the writer takes them back and writes a corpus that
// reads back the same), and the intact part read alone gives the same games. Each input is read
// twice: as it is, and with every block's checksum made right, so that changed block contents
// reach the decoder instead of stopping at the checksum.

#include "selfplay/formats/binary_bytes.h"
#include "selfplay/formats/corpus_file.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

using namespace fanorona;

// `bytes` with the checksum of each whole block (as its header's sizes say) made right.
std::string with_checksums_fixed(std::string bytes) {
    auto* b = reinterpret_cast<std::uint8_t*>(bytes.data());
    std::size_t at = kCorpusHeaderBytes;
    while (at + kCorpusBlockHeaderBytes <= bytes.size()) {
        const std::uint64_t payload = get_le(b + at + 4, 4);
        if (at + kCorpusBlockHeaderBytes + payload > bytes.size()) break;
        const std::uint32_t crc = crc32_of(b + at + kCorpusBlockHeaderBytes, std::size_t(payload),
                                           crc32_of(b + at, kCorpusBlockHeaderBytes - 4));
        put_le(b + at + kCorpusBlockHeaderBytes - 4, crc, 4);
        at += kCorpusBlockHeaderBytes + std::size_t(payload);
    }
    return bytes;
}

// Every game of the file at `path`, with the reader's intact part, tail problem and rules.
std::vector<CorpusGame> read_games(const std::string& path, std::uint64_t& valid, std::string& tail,
                                   Rules& rules) {
    CorpusReader reader(path);
    rules = reader.rules();
    std::vector<CorpusGame> games;
    CorpusGame g;
    while (reader.next(g)) games.push_back(g);
    valid = reader.valid_bytes();
    tail = reader.tail_problem();
    return games;
}

void check_file(std::string_view file) {
    const std::size_t size = file.size();
    const std::string path = fuzz::write_temp("corpus.fcorpus", file);
    std::vector<CorpusGame> games;
    std::uint64_t valid = 0;
    std::string tail;
    Rules rules;
    try {
        games = read_games(path, valid, tail, rules);
    } catch (const CorpusError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(path), "error without the file name");
        return;
    }
    fuzz::check(valid <= size, "valid part longer than the file");
    fuzz::check((valid == size) == tail.empty(),
                "a dropped tail without a reason, or a reason without a dropped tail");
    // The scan of the block headers finds the same intact part.
    const CorpusScan scan = scan_corpus(path);
    fuzz::check(scan.has_header && scan.valid_bytes == valid && scan.tail_problem == tail,
                "the scan and the reader disagree on the intact part");
    std::uint64_t scanned_games = 0, scanned_positions = 0, positions = 0;
    for (std::size_t k = 0; k < scan.ends.size(); ++k) {
        scanned_games += scan.games[k];
        scanned_positions += scan.positions[k];
    }
    for (const CorpusGame& g : games) positions += g.positions();
    fuzz::check(scanned_games == games.size() && scanned_positions == positions,
                "the block headers count other games or positions than the blocks hold");

    // The intact part alone reads the same.
    const std::string intact =
        fuzz::write_temp("intact.fcorpus", file.substr(0, std::size_t(valid)));
    std::uint64_t valid_again = 0;
    std::string tail_again;
    Rules rules_again;
    fuzz::check(read_games(intact, valid_again, tail_again, rules_again) == games &&
                    tail_again.empty() && valid_again == valid,
                "the intact part read alone differs");

    // What was read is what a writer takes: written again, it reads back the same.
    std::string bytes;
    try {
        CorpusWriter writer(rules, [&](const std::string& b) { bytes += b; });
        for (const CorpusGame& g : games) writer.add(g);
        writer.flush();
    } catch (const std::invalid_argument& e) {
        fuzz::fail(std::string("a game read is refused by the writer: ") + e.what());
    }
    const std::string again = fuzz::write_temp("again.fcorpus", bytes);
    fuzz::check(read_games(again, valid_again, tail_again, rules_again) == games &&
                    rules_again == rules,
                "a corpus written from the games read reads back otherwise");

    // Position by position: as many positions as the games hold.
    CorpusPositionReader reader(path);
    CorpusPosition p;
    std::uint64_t seen = 0;
    while (reader.next(p)) ++seen;
    fuzz::check(seen == positions, "the position reader counts other positions");
}

} // namespace

FUZZ_TARGET(corpus_file) {
    const std::string_view bytes = fuzz::as_text(data, size);
    check_file(bytes);
    const std::string fixed = with_checksums_fixed(std::string(bytes));
    if (fixed != bytes) check_file(fixed);
    return 0;
}
