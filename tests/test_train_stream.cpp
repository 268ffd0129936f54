// The network trainer's data stream (tuner/position_stream.h, tuner/shuffle_buffer.h) and the
// left-right mirror it can add (core/board/symmetry.h): the shuffle buffer lets every item out
// exactly once in an order of its seed, holding at most its capacity; a stream pass yields the
// logs' filtered games in order, the same every pass, up to the size a log had when the stream
// was made; the validation split by game depends on the game alone; the mirror is an involution
// that keeps the legal turns, perft and search scores; and `train` is the same at 1 and 2
// threads with a buffer smaller than the data, sees every position and its mirror with --mirror,
// and validates on the same games whatever the buffer, mirroring and threads.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "core/board/movegen.h"
#include "core/board/perft.h"
#include "core/board/symmetry.h"
#include "core/search.h"
#include "selfplay/formats/corpus_file.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"
#include "tuner/position_stream.h"
#include "tuner/shuffle_buffer.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("train_stream", name);
}

Rules tsivy() {
    return Rules{Variant::Tsivy};
}

// A positions log of `games` labelled random-playout games (tuner/texel/synthetic.h).
std::string labelled_log(const std::string& name, int games, std::uint64_t seed) {
    const std::string path = temp_path(name);
    write_position_log(path, {Variant::Tsivy, RuleSet::Standard},
                       labelled_playout_games(tsivy(), games, seed));
    return path;
}

// Every item of `n` put through a buffer of `capacity` (seed `seed`), in the order they came out;
// the largest number of items the buffer held.
std::vector<int> shuffled(int n, std::size_t capacity, std::uint64_t seed, std::size_t& held) {
    ShuffleBuffer<int> buffer(capacity, Rng(seed));
    std::vector<int> out;
    held = 0;
    for (int i = 0; i < n; ++i) {
        buffer.push(i, [&](int x) { out.push_back(x); });
        held = std::max(held, buffer.size());
    }
    buffer.drain([&](int x) { out.push_back(x); });
    CHECK(buffer.size() == 0);
    return out;
}

// Positions of a few random playouts of `rules`, every 7th.
std::vector<Position> playout_positions(const Rules& rules, int games) {
    std::vector<Position> out;
    for (int g = 0; g < games; ++g) {
        const auto records = random_playout_game(rules, std::uint32_t(g), 5, 80);
        for (std::size_t i = 0; i < records.size(); i += 7)
            out.push_back(records[i].position(rules.variant));
    }
    return out;
}

// The value of column `column` (0-based) of the line of NET.csv for `epoch`.
double csv_value(const std::string& net, int epoch, int column) {
    std::ifstream csv(net + ".csv");
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
        std::stringstream s(line);
        std::vector<std::string> cells;
        for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
        if (std::stoi(cells.at(0)) == epoch) return std::stod(cells.at(std::size_t(column)));
    }
    FAIL("no epoch " << epoch << " in " << net << ".csv");
    return 0;
}

// `fanorona corpus convert LOG --out PATH`: the corpus of a positions log.
void convert_to_corpus(const std::string& log, const std::string& path) {
    const test_cli::Run r = test_cli::run_cli("corpus convert " + log + " --out " + path);
    INFO(r.output);
    REQUIRE(r.status == 0);
}

// Every record a stream yields.
std::vector<PositionRecord> stream_records(const PositionStream& stream) {
    std::vector<PositionRecord> out;
    stream.for_each_game(
        [&](const StreamGame& g) { out.insert(out.end(), g.records.begin(), g.records.end()); });
    return out;
}

// The line of `output` that starts with `prefix`.
std::string line_of(const std::string& output, const std::string& prefix) {
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

} // namespace

TEST_CASE("a shuffle buffer lets every item out once, holding at most its capacity", "[stream]") {
    for (const std::size_t capacity :
         {std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(1000), std::size_t(5000)}) {
        INFO("capacity " << capacity);
        std::size_t held = 0;
        const std::vector<int> out = shuffled(1000, capacity, 3, held);
        CHECK(held == std::min<std::size_t>(capacity, 1000));
        std::vector<int> sorted = out;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> all(1000);
        for (int i = 0; i < 1000; ++i) all[std::size_t(i)] = i;
        CHECK(sorted == all);                // each exactly once
        if (capacity > 1) CHECK(out != all); // and shuffled
        std::size_t again_held = 0;
        CHECK(shuffled(1000, capacity, 3, again_held) == out); // a function of the seed
        if (capacity > 1) CHECK(shuffled(1000, capacity, 4, again_held) != out);
    }
    // A stream no longer than the buffer is shuffled whole: the order does not depend on the
    // capacity.
    std::size_t held = 0;
    CHECK(shuffled(1000, 1000, 9, held) == shuffled(1000, 123456, 9, held));
    // A buffer of 100 holds items back, never lets one out ahead of its time: item i comes out
    // at place i - 99 or later.
    const std::vector<int> windowed = shuffled(1000, 100, 3, held);
    int ahead = 0;
    for (std::size_t at = 0; at < windowed.size(); ++at) ahead += windowed[at] > int(at) + 99;
    CHECK(ahead == 0);
}

TEST_CASE("a position stream yields the logs' filtered games in order, the same every pass",
          "[stream]") {
    const std::string a = labelled_log("stream_a.bin", 12, 1);
    const std::string b = labelled_log("stream_b.bin", 8, 2);
    DataFilter filter;
    filter.skip_captures = true;
    const Dataset data = load_dataset({a, b}, filter);
    const PositionStream stream({a, b}, filter);
    CHECK(stream.rules() == data.rules);

    std::vector<PositionRecord> records;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> games;
    const StreamPass pass = stream.for_each_game([&](const StreamGame& g) {
        REQUIRE(!g.records.empty());
        games.push_back({g.file, g.index});
        records.insert(records.end(), g.records.begin(), g.records.end());
    });
    CHECK(records == data.records);
    REQUIRE(games.size() == data.games.size());
    for (std::size_t i = 0; i < games.size(); ++i) {
        CHECK(games[i].first == data.games[i].file);
        CHECK(games[i].second == data.games[i].game_index);
    }
    CHECK(pass.positions == data.records.size());
    CHECK(pass.games == data.games.size());
    CHECK(pass.read == data.read);
    CHECK(pass.skipped_captures == data.skipped_captures);
    CHECK(pass.skipped_captures > 0);

    std::vector<PositionRecord> again;
    stream.for_each_game([&](const StreamGame& g) {
        again.insert(again.end(), g.records.begin(), g.records.end());
    });
    CHECK(again == records);

    // --max-positions: the first games up to that many positions, the last one cut.
    const PositionStream cut({a, b}, filter, 100);
    std::vector<PositionRecord> first;
    const StreamPass cut_pass = cut.for_each_game([&](const StreamGame& g) {
        first.insert(first.end(), g.records.begin(), g.records.end());
    });
    CHECK(cut_pass.positions == 100);
    CHECK(first == std::vector<PositionRecord>(records.begin(), records.begin() + 100));

    // A log that grows after the stream was made (a running self-play's) adds nothing to it.
    const std::string growing = temp_path("growing.bin");
    const auto played = labelled_playout_games(tsivy(), 6, 3);
    write_position_log(growing, {Variant::Tsivy, RuleSet::Standard}, {played[0], played[1]});
    const PositionStream early({growing}, DataFilter{});
    {
        std::ofstream out(growing, std::ios::binary | std::ios::app);
        out << encode_chunk(played[2]);
    }
    std::uint64_t seen = 0;
    early.for_each_game([&](const StreamGame& g) { seen += g.records.size(); });
    CHECK(seen == played[0].size() + played[1].size());
    seen = 0;
    PositionStream({growing}, DataFilter{}).for_each_game([&](const StreamGame& g) {
        seen += g.records.size();
    });
    CHECK(seen == played[0].size() + played[1].size() + played[2].size());

    // Bad input names the file.
    CHECK_THROWS_WITH(PositionStream({a, a}, filter), Catch::Contains("given twice"));
    CHECK_THROWS_WITH(PositionStream({temp_path("none.bin")}, filter), Catch::Contains("none.bin"));
}

// Every game of a pass as (file, index, records), and the pass's counts.
struct PassSeen {
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::vector<PositionRecord>>> games;
    StreamPass pass;
};
PassSeen seen_pass(const PositionStream& stream) {
    PassSeen seen;
    seen.pass = stream.for_each_game([&](const StreamGame& g) {
        seen.games.emplace_back(g.file, g.index,
                                std::vector<PositionRecord>(g.records.begin(), g.records.end()));
    });
    return seen;
}

TEST_CASE("a held position stream replays its first pass and one too large for its memory reads "
          "the files",
          "[stream]") {
    const std::string a = labelled_log("held_a.bin", 12, 1);
    const std::string b = labelled_log("held_b.bin", 8, 2);
    DataFilter filter;
    filter.skip_captures = true;
    const PassSeen read = seen_pass(PositionStream({a, b}, filter, 150));
    REQUIRE(read.pass.positions == 150);

    PositionStream held({a, b}, filter, 150);
    CHECK(held.held_bytes() == 0);
    REQUIRE(held.hold(std::uint64_t(1) << 20));
    CHECK(held.held_bytes() >= 150 * sizeof(PositionRecord));
    for (int pass = 0; pass < 2; ++pass) {
        const PassSeen replayed = seen_pass(held);
        CHECK(replayed.games == read.games);
        CHECK(replayed.pass.positions == read.pass.positions);
        CHECK(replayed.pass.games == read.pass.games);
        CHECK(replayed.pass.read == read.pass.read);
        CHECK(replayed.pass.skipped_captures == read.pass.skipped_captures);
    }
    // Held, it no longer reads the files: removed, they are still replayed.
    const std::string c = labelled_log("held_c.bin", 5, 3);
    PositionStream removed({c}, DataFilter{});
    REQUIRE(removed.hold(std::uint64_t(1) << 20));
    const PassSeen before = seen_pass(removed);
    std::filesystem::remove(c);
    CHECK(seen_pass(removed).games == before.games);

    // Too little memory for its records: nothing is held and passes read the files.
    PositionStream small({a, b}, filter, 150);
    CHECK_FALSE(small.hold(100 * sizeof(PositionRecord)));
    CHECK(small.held_bytes() == 0);
    CHECK(seen_pass(small).games == read.games);
}

TEST_CASE("the validation split holds out a game by its file's content, index and seed alone",
          "[stream]") {
    // A file's identity is its first record's: a copy elsewhere has the same, another log not.
    const std::string a = labelled_log("split_a.bin", 3, 1);
    const std::string b = labelled_log("split_b.bin", 3, 2);
    std::filesystem::create_directories(temp_path("elsewhere"));
    const std::string copy = temp_path("elsewhere/split_a.bin");
    std::filesystem::copy_file(a, copy, std::filesystem::copy_options::overwrite_existing);
    const auto ids = PositionStream({b, copy, a}, DataFilter{}).identities();
    CHECK(ids[1] == ids[2]);
    CHECK(ids[0] != ids[1]);

    const std::vector<std::uint64_t> one = {ids[2]};
    const GameSplit s1(one, 0.2, 7), s2(ids, 0.2, 7), other_seed(one, 0.2, 8);
    int held = 0, moved = 0, same_index = 0;
    for (std::uint64_t g = 0; g < 2000; ++g) {
        // The same file among other inputs, or a copy of it: the same side.
        CHECK(s1.validation(0, g) == s2.validation(1, g));
        CHECK(s1.validation(0, g) == s2.validation(2, g));
        held += s1.validation(0, g);
        moved += s1.validation(0, g) != other_seed.validation(0, g);
        same_index += s2.validation(0, g) == s2.validation(1, g);
    }
    CHECK(held > 300); // about 20 %
    CHECK(held < 500);
    CHECK(moved > 300);       // another seed, another split
    CHECK(same_index < 1900); // game g of another log: its own side
    CHECK_FALSE(GameSplit(one, 0, 7).validation(0, 0));
    CHECK_THROWS_WITH(GameSplit(one, 1, 7), Catch::Contains("outside [0, 1)"));

    // A side left without a game gets one: the lowest hash is held out, or the highest kept.
    GameSplit few(one, 0.01, 1);
    int validation = 0;
    for (std::uint64_t g = 0; g < 3; ++g) {
        few.see(0, g, 10 + g);
        validation += few.validation(0, g);
    }
    REQUIRE(validation == 0);
    few.settle();
    CHECK(few.validation_games == 1);
    CHECK(few.train_games == 2);
    CHECK(few.validation_positions + few.train_positions == 33);
    int now = 0;
    for (std::uint64_t g = 0; g < 3; ++g) now += few.validation(0, g);
    CHECK(now == 1);
    GameSplit many(one, 0.99, 1);
    for (std::uint64_t g = 0; g < 3; ++g) many.see(0, g, 10);
    many.settle();
    CHECK(many.train_games >= 1);
    CHECK(many.validation_games >= 1);
    GameSplit lone(one, 0.1, 1);
    lone.see(0, 0, 10);
    CHECK_THROWS_WITH(lone.settle(), Catch::Contains("at least 2 games"));
}

TEST_CASE("the left-right mirror is an involution of every board that keeps the ranks",
          "[stream]") {
    for (int v = 0; v < kVariantCount; ++v) {
        const Variant variant = Variant(v);
        const Geometry& g = geometry(variant);
        INFO(variant_name(variant));
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x)
                CHECK(mirror_files(bit(g.square(x, y)), variant) ==
                      bit(g.square(g.width - 1 - x, y)));
        Rng rng(std::uint64_t(v) + 1);
        for (int i = 0; i < 50; ++i) {
            const Bitboard bb = rng.next() & g.board;
            CHECK(mirror_files(mirror_files(bb, variant), variant) == bb);
            CHECK(popcount(mirror_files(bb, variant)) == popcount(bb));
            CHECK((mirror_files(bb, variant) & ~g.board) == 0);
        }
    }
}

TEST_CASE("a mirrored position has as many legal turns, the same perft and search score",
          "[stream]") {
    for (const Variant variant : {Variant::Tsivy, Variant::Dimy, *parse_variant("3x7")}) {
        const Rules rules{variant};
        INFO(variant_name(variant));
        for (Position pos : playout_positions(rules, 3)) {
            INFO(pos.to_string());
            Position mirrored = mirror_files(pos);
            CHECK(mirror_files(mirrored) == pos);
            CHECK(mirrored.side_to_move() == pos.side_to_move());
            CHECK(mirrored.turns_since_capture() == pos.turns_since_capture());
            CHECK(position_problem(mirrored).empty());
            MoveList a, b;
            generate_moves(pos, rules, a);
            generate_moves(mirrored, rules, b);
            CHECK(a.size() == b.size());
            CHECK(perft(pos, rules, 3) == perft(mirrored, rules, 3));
        }
    }
    // The engine's search at a fixed depth values a position and its mirror alike.
    const Rules rules = tsivy();
    const std::vector<Position> positions = playout_positions(rules, 1);
    for (std::size_t i = 0; i < positions.size() && i < 5; ++i) {
        INFO(positions[i].to_string());
        SearchLimits limits;
        limits.depth = 4;
        Searcher one(1), other(1);
        const int score = one.search(Game(rules, positions[i]), limits).score;
        CHECK(other.search(Game(rules, mirror_files(positions[i])), limits).score == score);
    }
}

TEST_CASE("train with a buffer smaller than the data: the same bytes at 1 and 2 threads, the "
          "same validation games, and every position and its mirror seen",
          "[stream][train][cli]") {
    using namespace test_cli;
    const std::string log = labelled_log("train.bin", 40, 11);
    const std::string common = "SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " train " + log +
                               " --hidden 16 --buckets 2 --batch 256 --lr 0.01 --patience 0 "
                               "--epochs 2 --k 0.004";
    const std::string a = temp_path("s1.net"), b = temp_path("s2.net"), c = temp_path("s3.net");
    const Run one = run_shell(common + " --shuffle-buffer 300 --mirror --threads 1 --out " + a);
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Run two = run_shell(common + " --shuffle-buffer 300 --mirror --threads 2 --out " + b);
    REQUIRE(two.status == 0);
    CHECK(test_cli::slurp(a) == test_cli::slurp(b));
    CHECK_THAT(read_net_file(a).provenance.command,
               Catch::Contains("--shuffle-buffer 300 --mirror"));
    CHECK_THAT(one.output, Catch::Contains("and their mirrors"));
    // A resume needs the same buffer and mirroring (they decide the network).
    for (const char* other : {" --shuffle-buffer 300", " --shuffle-buffer 301 --mirror"}) {
        const Run resumed = run_shell(common + other + " --resume --threads 1 --out " + a);
        CHECK(resumed.status != 0);
        CHECK_THAT(resumed.output, Catch::Contains(a + ".ckpt: settings:"));
    }

    // Another buffer, no mirror, another thread count: the same validation games and loss at
    // the start (the split does not depend on them).
    const Run plain = run_shell(common + " --threads 2 --out " + c);
    REQUIRE(plain.status == 0);
    CHECK(test_cli::slurp(c) != test_cli::slurp(a));
    auto validating = [](const std::string& output) {
        const std::string line = line_of(output, "training on ");
        return line.substr(std::min(line.size(), line.find("validating")));
    };
    CHECK_THAT(validating(one.output), Catch::StartsWith("validating on "));
    CHECK(validating(one.output) == validating(plain.output));
    CHECK(csv_value(a, 0, 2) == csv_value(c, 0, 2));

    // Data no larger than the buffer is shuffled whole: any such buffer gives the same network
    // (the provenance's command says which buffer).
    const std::string d = temp_path("s4.net");
    REQUIRE(run_shell(common + " --shuffle-buffer 100000 --threads 2 --out " + d).status == 0);
    CHECK(read_net_file(d).net == read_net_file(c).net);
    // A copy of the log elsewhere trains to the same network: the split follows the content.
    std::filesystem::create_directories(temp_path("moved"));
    const std::string moved = temp_path("moved/train.bin"), e = temp_path("s5.net");
    std::filesystem::copy_file(log, moved, std::filesystem::copy_options::overwrite_existing);
    const std::string moved_args =
        common.substr(0, common.find(log)) + moved + common.substr(common.find(log) + log.size());
    REQUIRE(run_shell(moved_args + " --threads 2 --out " + e).status == 0);
    CHECK(read_net_file(e).net == read_net_file(c).net);

    // --mirror trains on every position and its mirror: its start loss over the training rows is
    // that of a log holding each game's positions and their mirrors (no validation split).
    const std::string doubled = temp_path("doubled.bin");
    auto games = labelled_playout_games(tsivy(), 40, 11);
    for (auto& game : games) {
        const std::size_t n = game.size();
        for (std::size_t i = 0; i < n; ++i) {
            PositionRecord m = game[i];
            m.white = mirror_files(m.white, Variant::Tsivy);
            m.black = mirror_files(m.black, Variant::Tsivy);
            game.push_back(m);
        }
    }
    write_position_log(doubled, {Variant::Tsivy, RuleSet::Standard}, games);
    const std::string m1 = temp_path("m1.net"), m2 = temp_path("m2.net");
    const std::string once = FANORONA_BINARY " train " + log +
                             " --hidden 16 --buckets 2 --epochs 1 --k 0.004 --valid-fraction 0 "
                             "--quiet --mirror --out " +
                             m1;
    const std::string twice = FANORONA_BINARY " train " + doubled +
                              " --hidden 16 --buckets 2 --epochs 1 --k 0.004 --valid-fraction 0 "
                              "--quiet --out " +
                              m2;
    REQUIRE(run_shell(once).status == 0);
    REQUIRE(run_shell(twice).status == 0);
    CHECK(csv_value(m1, 0, 1) == Approx(csv_value(m2, 0, 1)).epsilon(1e-9));
    const std::string m3 = temp_path("m3.net");
    REQUIRE(run_shell(FANORONA_BINARY " train " + log +
                      " --hidden 16 --buckets 2 --epochs 1 --k 0.004 --valid-fraction 0 --quiet "
                      "--out " +
                      m3)
                .status == 0);
    CHECK(csv_value(m3, 0, 1) != Approx(csv_value(m1, 0, 1)).epsilon(1e-9));
}

TEST_CASE("a corpus file streams the positions of its log, and a folder its corpus files by name",
          "[stream]") {
    const std::string log = labelled_log("corpus_src.bin", 10, 4);
    const std::string other = labelled_log("corpus_other.bin", 5, 5);
    const std::string dir = test_cli::fresh_dir("stream_corpora");
    std::filesystem::create_directories(dir);
    convert_to_corpus(log, dir + "/b.fcorpus");
    convert_to_corpus(other, dir + "/a.fcorpus");
    std::ofstream(dir + "/notes.txt") << "not a corpus\n";

    // The corpus of a log yields its records (without the depth, which a corpus does not keep),
    // and has the log's identity.
    const PositionStream from_log({log}, DataFilter{});
    const PositionStream from_corpus({dir + "/b.fcorpus"}, DataFilter{});
    std::vector<PositionRecord> expected = stream_records(from_log);
    for (PositionRecord& r : expected) {
        r.depth = 0;
        r.ruleset = RuleSet::Standard;
    }
    CHECK(stream_records(from_corpus) == expected);
    CHECK(from_corpus.identities() == from_log.identities());
    // (The log's games are cut into chains in the corpus, one game again in the stream.)
    CHECK(from_corpus.for_each_game([](const StreamGame&) {}).games == 10);
    CHECK(from_corpus.rules() == from_log.rules());

    // A folder: its corpus files sorted by name, nothing else.
    const PositionStream folder({dir}, DataFilter{});
    CHECK(folder.files() == std::vector<std::string>{dir + "/a.fcorpus", dir + "/b.fcorpus"});
    CHECK(stream_records(folder).size() ==
          stream_records(PositionStream({other}, DataFilter{})).size() + expected.size());
    // ... given with a file of it: that file twice.
    CHECK_THROWS_WITH(PositionStream({dir, dir + "/a.fcorpus"}, DataFilter{}),
                      Catch::Contains("given twice"));
    const std::string empty = test_cli::fresh_dir("stream_no_corpora");
    std::filesystem::create_directories(empty);
    CHECK_THROWS_WITH(PositionStream({empty}, DataFilter{}),
                      Catch::Contains(empty + ": no corpus files (*.fcorpus)"));

    // A self-play corpus: the positions with a score are used, the others (the opening's random
    // turns) counted apart.
    const std::string run = test_cli::fresh_dir("stream_selfplay");
    REQUIRE(test_cli::run_cli("selfplay --games 4 --depth 1 --openings random:4 --corpus --quiet "
                              "--out " +
                              run)
                .status == 0);
    std::uint64_t scored = 0, unscored = 0;
    CorpusPositionReader reader(run + "/corpus.fcorpus");
    for (CorpusPosition p; reader.next(p);) ++(p.score ? scored : unscored);
    REQUIRE(unscored > 0);
    DataFilter keep_all;
    keep_all.skip_decisive = false;
    const StreamPass pass =
        PositionStream({run + "/corpus.fcorpus"}, keep_all).for_each_game([](const StreamGame&) {});
    CHECK(pass.read == scored);
    CHECK(pass.positions == scored);
    CHECK(pass.unscored == unscored);
}

TEST_CASE("train on a corpus trains as on its positions log, a folder of corpora trains",
          "[stream][train][cli]") {
    using namespace test_cli;
    const std::string log = labelled_log("corpus_train.bin", 30, 6);
    const std::string dir = fresh_dir("stream_train_corpora");
    std::filesystem::create_directories(dir);
    convert_to_corpus(log, dir + "/run.fcorpus");
    const std::string args = " --hidden 16 --buckets 2 --batch 256 --epochs 2 --k 0.004 --quiet "
                             "--threads 2 --out ";
    const std::string a = temp_path("from_log.net"), b = temp_path("from_corpus.net"),
                      c = temp_path("from_folder.net");
    REQUIRE(run_cli("train " + log + args + a).status == 0);
    const Run corpus = run_cli("train " + dir + "/run.fcorpus" + args + b);
    INFO(corpus.output);
    REQUIRE(corpus.status == 0);
    CHECK(read_net_file(a).net == read_net_file(b).net);
    CHECK(read_net_file(a).provenance.games == read_net_file(b).provenance.games);
    const Run folder = run_cli("train " + dir + args + c);
    INFO(folder.output);
    REQUIRE(folder.status == 0);
    const NetFile from_folder = read_net_file(c);
    CHECK(from_folder.net == read_net_file(b).net);
    // The command and the provenance name the folder's files, not the folder: a chunk added to
    // it later leaves the recorded command rebuilding the same network.
    CHECK(from_folder.provenance.data_files == std::vector<std::string>{dir + "/run.fcorpus"});
    CHECK_THAT(from_folder.provenance.command,
               Catch::StartsWith("fanorona train " + dir + "/run.fcorpus --"));
    convert_to_corpus(labelled_log("corpus_train_more.bin", 10, 7), dir + "/zz.fcorpus");
    const std::string again = temp_path("from_folder_again.net");
    const Run rebuilt =
        run_shell(FANORONA_BINARY " " +
                  from_folder.provenance.command.substr(std::string("fanorona ").size()) +
                  " --quiet --out " + again);
    INFO(rebuilt.output);
    REQUIRE(rebuilt.status == 0);
    CHECK(read_net_file(again).net == from_folder.net);
    const Run grown = run_cli("train " + dir + args + temp_path("from_grown_folder.net"));
    REQUIRE(grown.status == 0);
    CHECK(read_net_file(temp_path("from_grown_folder.net")).provenance.data_files ==
          std::vector<std::string>{dir + "/run.fcorpus", dir + "/zz.fcorpus"});
    // A log and a corpus of other boards are refused together, naming both.
    const std::string dimy = temp_path("dimy.bin");
    write_position_log(dimy, {Variant::Dimy, RuleSet::Standard},
                       {random_playout_game(Rules{Variant::Dimy}, 0, 1, 20)});
    const Run mixed = run_cli("train " + dir + " " + dimy + args + temp_path("mixed.net"));
    CHECK(mixed.status != 0);
    CHECK_THAT(mixed.output,
               Catch::Contains(dimy + ": header:") && Catch::Contains(dir + "/run.fcorpus"));
}
