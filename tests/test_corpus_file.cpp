// Corpus files: games round-trip turn by turn (capture chains, Vela and other rules and boards,
// scores absent and extreme), torn tails are dropped and corrupted blocks detected, bad headers
// and foreign blocks are one-line errors, conversions from games files and positions logs keep
// every position, self-play writes one that a --resume neither shortens nor repeats, and it stays
// under 4 bytes a position.

#include <catch2/catch.hpp>

#include <climits>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <zlib.h>
#include <zstd.h>

#include "core/common/folder_lock.h"
#include "core/common/rng.h"
#include "selfplay/formats/corpus_convert.h"
#include "selfplay/formats/formats.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using namespace test_cli;
namespace fs = std::filesystem;

namespace {

std::string temp_path(const std::string& name) {
    return fresh_dir(name);
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A game of random legal turns under `rules` from `start`, with scores of every kind.
CorpusGame random_game(const Rules& rules, const Position& start, std::uint64_t index,
                       std::uint64_t seed, int max_turns = 120) {
    Rng rng(seed);
    CorpusGame g;
    g.index = index;
    g.ruleset = rules.ruleset;
    g.start = start;
    Position pos = start;
    MoveList list;
    static const int extremes[] = {INT_MIN, INT_MAX, 0, -1, 1, 32767, -32768, 100000};
    for (int t = 0; t < max_turns; ++t) {
        generate_moves(pos, rules, list);
        if (list.empty()) break;
        const Move m = list[int(rng.below(std::uint64_t(list.size())))];
        g.moves.push_back(m);
        const std::uint64_t kind = rng.below(4);
        g.scores.push_back(kind == 0   ? std::nullopt
                           : kind == 1 ? std::optional<int>(extremes[rng.below(8)])
                                       : std::optional<int>(int(rng.below(2001)) - 1000));
        pos.make_move(m);
    }
    g.opening_turns = int(std::min<std::size_t>(g.moves.size(), 4));
    g.result = seed % 3 == 0   ? GameResult::WhiteWins
               : seed % 3 == 1 ? GameResult::Draw
                               : GameResult::BlackWins;
    const char* reasons[] = {"capture-all",         "no-moves",    "repetition", "adjudication", "",
                             "a reason of its own", "series-over", "timeout"};
    g.reason = reasons[seed % 8];
    if (seed % 5 == 0) g.end_score = int(seed % 2 ? INT_MIN : 77);
    return g;
}

// Whether a turn of `g` is a capture chain (two steps or more).
bool has_chain(const CorpusGame& g, const Rules& rules) {
    Position pos = g.start;
    for (const Move& m : g.moves) {
        if (m.is_capture() && find_path(pos, rules, m).length >= 2) return true;
        pos.make_move(m);
    }
    return false;
}

// The bytes a writer makes of `games`, in blocks of `block_bytes`.
std::string encode(const Rules& rules, const std::vector<CorpusGame>& games,
                   std::size_t block_bytes = kCorpusBlockBytes) {
    std::string bytes;
    CorpusWriter w(
        rules, [&](const std::string& b) { bytes += b; }, false, block_bytes);
    for (const CorpusGame& g : games) w.add(g);
    w.flush();
    REQUIRE(w.bytes_written() == bytes.size());
    return bytes;
}

std::vector<CorpusGame> read_all(const std::string& path, std::string* tail = nullptr,
                                 std::uint64_t* valid = nullptr) {
    CorpusReader r(path);
    std::vector<CorpusGame> games;
    CorpusGame g;
    while (r.next(g)) games.push_back(g);
    if (tail) *tail = r.tail_problem();
    if (valid) *valid = r.valid_bytes();
    return games;
}

// Tsivy games, some under Vela rules, some from a position of their own, in small blocks.
std::vector<CorpusGame> mixed_games(int n) {
    std::vector<CorpusGame> games;
    Rules rules;
    for (int i = 0; i < n; ++i) {
        Rules r = rules;
        if (i % 3 == 2) r.ruleset = RuleSet::Vela;
        Position start = Position::start(Variant::Tsivy);
        if (i % 4 == 3) {
            const CorpusGame opening = random_game(r, start, 0, 999 + std::uint64_t(i), 6);
            for (const Move& m : opening.moves) start.make_move(m);
        }
        games.push_back(random_game(r, start, 100 + std::uint64_t(i), std::uint64_t(i)));
    }
    return games;
}

// The first `size` bytes of a corpus block at `offset` of `bytes`, rebuilt around `raw`
// (uncompressed content) with a right checksum: a block no writer of ours made.
std::string forged_block(const std::string& raw, std::uint32_t games, std::uint32_t positions,
                         std::uint64_t first) {
    std::string payload(ZSTD_compressBound(raw.size()), '\0');
    payload.resize(ZSTD_compress(payload.data(), payload.size(), raw.data(), raw.size(), 3));
    std::string h(kCorpusBlockHeaderBytes, '\0');
    auto put = [&](int at, std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) h[std::size_t(at + i)] = char(std::uint8_t(v >> (8 * i)));
    };
    put(0, 0x4B4C4243, 4);
    put(4, payload.size(), 4);
    put(8, raw.size(), 4);
    put(12, games, 4);
    put(16, positions, 4);
    put(20, first, 8);
    uLong c = crc32(0L, reinterpret_cast<const Bytef*>(h.data()), kCorpusBlockHeaderBytes - 4);
    c = crc32(c, reinterpret_cast<const Bytef*>(payload.data()), uInt(payload.size()));
    put(28, c, 4);
    return h + payload;
}

// The games of a games file as corpus games.
std::vector<CorpusGame> games_of(const std::string& games_tsv) {
    const GamesFile f = read_games_file(games_tsv);
    std::vector<CorpusGame> out;
    for (const GameRecord& r : f.games) out.push_back(corpus_game(r, f.header.rules(), games_tsv));
    return out;
}

} // namespace

TEST_CASE("corpus games round-trip: capture chains, Vela, other rules and boards, any scores",
          "[corpus]") {
    struct Case {
        Variant variant;
        RuleSet ruleset;
    };
    const std::vector<Case> cases = {
        {Variant::Tsivy, RuleSet::Standard},    {Variant::Tsivy, RuleSet::FirstTurn},
        {Variant::Tsivy, RuleSet::Vela},        {Variant::Dimy, RuleSet::Standard},
        {Variant::Telo, RuleSet::Standard},     {*parse_variant("7x9"), RuleSet::Standard},
        {*parse_variant("3x21"), RuleSet::Vela}};
    for (const Case& c : cases) {
        Rules rules;
        rules.variant = c.variant;
        rules.ruleset = c.ruleset;
        INFO(variant_name(c.variant) << " " << ruleset_name(c.ruleset));
        std::vector<CorpusGame> games;
        bool chains = false;
        for (int i = 0; i < 40; ++i) {
            games.push_back(
                random_game(rules, Position::start(c.variant), 3 * std::uint64_t(i), i + 1));
            chains = chains || has_chain(games.back(), rules);
        }
        if (!is_telo(c.variant) && c.ruleset == RuleSet::Standard) CHECK(chains);
        games.push_back(CorpusGame{}); // no turns at all (a skipped Vela place)
        games.back().start = Position::start(c.variant);
        games.back().reason = "series-over";
        const std::string path = temp_path("corpus_roundtrip.fcorpus");
        write_bytes(path, encode(rules, games, 600)); // small blocks: many of them
        CorpusReader reader(path);
        CHECK(reader.rules() == rules);
        std::vector<CorpusGame> back;
        CorpusGame g;
        while (reader.next(g)) back.push_back(g);
        CHECK(reader.tail_problem().empty());
        CHECK(reader.blocks() > 3);
        CHECK(back == games);

        // Position by position: each is the game's position before its turn, with its score.
        CorpusPositionReader positions(path);
        std::vector<CorpusPosition> expected;
        for (const CorpusGame& x : games)
            for_each_position(x, [&](const CorpusPosition& p) { expected.push_back(p); });
        CorpusPosition p;
        std::size_t n = 0;
        while (positions.next(p)) {
            REQUIRE(n < expected.size());
            CHECK(p.position == expected[n].position);
            CHECK(p.move == expected[n].move);
            CHECK(p.score == expected[n].score);
            CHECK(p.result == expected[n].result);
            CHECK(p.game == expected[n].game);
            CHECK(p.ply == expected[n].ply);
            ++n;
        }
        CHECK(n == expected.size());
    }
}

TEST_CASE("Vela games in a series corpus and games from a position of their own round-trip",
          "[corpus]") {
    const std::vector<CorpusGame> games = mixed_games(30);
    const std::string path = temp_path("corpus_mixed.fcorpus");
    write_bytes(path, encode(Rules{}, games, 1000));
    CHECK(read_all(path) == games);
    CHECK(scan_corpus(path).ends.size() > 2);
}

TEST_CASE("a corpus writer refuses a game that breaks the format's promises, adding nothing",
          "[corpus]") {
    std::string bytes;
    CorpusWriter w(Rules{}, [&](const std::string& b) { bytes += b; });
    CorpusGame good = random_game(Rules{}, Position::start(Variant::Tsivy), 5, 2, 30);
    SECTION("an illegal turn") {
        CorpusGame bad = good;
        bad.moves[3] = bad.moves[2];
        CHECK_THROWS_WITH(w.add(bad), Catch::Contains("game 5: turn 4: not a legal turn"));
    }
    SECTION("scores that do not match the turns") {
        CorpusGame bad = good;
        bad.scores.pop_back();
        CHECK_THROWS_WITH(w.add(bad), Catch::Contains("game 5: scores:"));
    }
    SECTION("a game still going") {
        CorpusGame bad = good;
        bad.result = GameResult::Ongoing;
        CHECK_THROWS_WITH(w.add(bad), Catch::Contains("game 5: result:"));
    }
    SECTION("a start of another board") {
        CorpusGame bad = good;
        bad.start = Position::start(Variant::Dimy);
        bad.moves.clear();
        bad.scores.clear();
        bad.opening_turns = 0;
        CHECK_THROWS_WITH(w.add(bad), Catch::Contains("game 5: start: a position of dimy"));
    }
    CHECK(w.games() == 0);
    w.add(good);
    w.flush();
    const std::string path = temp_path("corpus_refused.fcorpus");
    write_bytes(path, bytes);
    CHECK(read_all(path) == std::vector<CorpusGame>{good});
}

TEST_CASE("a corpus's torn tail is dropped, never misread", "[corpus]") {
    const std::vector<CorpusGame> games = mixed_games(24);
    const std::string bytes = encode(Rules{}, games, 800);
    const std::string path = temp_path("corpus_torn.fcorpus");
    write_bytes(path, bytes);
    const CorpusScan scan = scan_corpus(path);
    REQUIRE(scan.ends.size() >= 3);
    REQUIRE(scan.ends.back() == bytes.size());
    // Cut inside the last two blocks (at every byte of their headers, every 7th of the rest): the
    // games of the whole blocks before the cut are read, the rest is dropped with a reason.
    for (std::size_t cut = scan.ends[scan.ends.size() - 3]; cut < bytes.size();) {
        write_bytes(path, bytes.substr(0, cut));
        std::string tail;
        std::uint64_t valid = 0;
        const std::vector<CorpusGame> back = read_all(path, &tail, &valid);
        std::size_t blocks = 0, games_in = 0;
        while (blocks < scan.ends.size() && scan.ends[blocks] <= cut)
            games_in += scan.games[blocks++];
        INFO("cut at byte " << cut);
        REQUIRE(back.size() == games_in);
        CHECK(std::equal(back.begin(), back.end(), games.begin()));
        CHECK(valid == scan.ends[blocks - 1]);
        CHECK(tail.empty() == (cut == valid));
        if (cut != valid) CHECK_THAT(tail, Catch::Contains("at byte " + std::to_string(valid)));
        cut += cut - valid < std::size_t(kCorpusBlockHeaderBytes) + 2 ? 1 : 7;
    }
}

TEST_CASE("a corrupted corpus block is detected by its checksum", "[corpus]") {
    const std::vector<CorpusGame> games = mixed_games(24);
    const std::string bytes = encode(Rules{}, games, 800);
    const std::string path = temp_path("corpus_flipped.fcorpus");
    write_bytes(path, bytes);
    const CorpusScan scan = scan_corpus(path);
    REQUIRE(scan.ends.size() >= 3);
    for (const std::size_t at : {scan.ends[0] + 5, scan.ends[0] + 40, scan.ends[1] - 1}) {
        std::string bad = bytes;
        bad[at] = char(bad[at] ^ 0x10);
        write_bytes(path, bad);
        std::string tail;
        std::uint64_t valid = 0;
        const std::vector<CorpusGame> back = read_all(path, &tail, &valid);
        INFO("byte " << at << " flipped");
        CHECK(back.size() == scan.games[0]);
        CHECK(valid == scan.ends[0]);
        CHECK_THAT(tail, Catch::Contains("at byte " + std::to_string(scan.ends[0])));
        const CorpusScan s = scan_corpus(path);
        CHECK(s.ends.size() == 1);
        CHECK(s.tail_problem == tail);
    }
}

TEST_CASE("a bad corpus header, or a block no writer of ours made, is an error naming the file",
          "[corpus]") {
    const std::string good = encode(Rules{}, mixed_games(3));
    const std::string path = temp_path("corpus_bad.fcorpus");
    const auto error_of = [&](const std::string& bytes) {
        write_bytes(path, bytes);
        try {
            read_all(path);
        } catch (const CorpusError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    std::string bytes = good;
    bytes[0] = 'X';
    CHECK(error_of(bytes) == path + ": header: wrong magic, not a fanorona corpus file");
    bytes = good;
    bytes[8] = 9;
    CHECK_THAT(error_of(bytes), Catch::StartsWith(path + ": header: format version 9"));
    bytes = good;
    bytes[10] = char(200);
    CHECK(error_of(bytes) == path + ": header: unknown variant code 200");
    bytes = good;
    bytes[11] = 7;
    CHECK(error_of(bytes) == path + ": header: unknown rules code 7");
    CHECK(error_of(good.substr(0, 10)) == path + ": too short for a corpus file header");

    // A checksummed block whose turn index is past the legal turns.
    const std::string header = good.substr(0, kCorpusHeaderBytes);
    // games section: index delta 0, flags (draw), reason 1, 1 turn, 0 opening turns
    const std::string games_part = std::string("\x00\x01\x01\x01\x00", 5);
    const std::string turns_part = "\x7F";                // index 127
    const std::string scores_part = std::string(1, '\0'); // no score
    std::string raw(8, '\0');
    raw[0] = char(games_part.size());
    raw[4] = char(turns_part.size());
    raw += games_part + turns_part + scores_part;
    const std::string message = error_of(header + forged_block(raw, 1, 1, 0));
    CHECK_THAT(message, Catch::StartsWith(path + ": block at byte 16: game 1 of the file: turn 1: "
                                                 "turn index 127 of "));
    CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("converting a games file and a positions log keeps every position, score and result",
          "[corpus]") {
    const std::string dir = fresh_dir("corpus_convert");
    REQUIRE(run_cli("selfplay --games 8 --depth 2 --openings random:2 --epsilon 0.3 "
                    "--explore-turns 6 --seed 5 --corpus --quiet --out " +
                    dir)
                .status == 0);
    const std::string tsv = dir + "/games.tsv", bin = dir + "/positions.bin";
    const GamesFile file = read_games_file(tsv);
    REQUIRE(file.games.size() == 8);

    SECTION("from games.tsv: every turn, the mover's score, the result") {
        const std::string out = dir + "/from_games.fcorpus";
        const Run r = run_cli("corpus convert " + tsv + " --out " + out);
        REQUIRE(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("8 games"));
        const std::vector<CorpusGame> games = read_all(out);
        REQUIRE(games.size() == 8);
        for (std::size_t k = 0; k < games.size(); ++k) {
            const GameRecord& rec = file.games[k];
            const Game replayed = replay_game(rec, file.header.rules(), tsv);
            CHECK(games[k].index == rec.index);
            CHECK(games[k].start == replayed.start());
            CHECK(games[k].moves == replayed.moves());
            CHECK(games[k].result == rec.result);
            CHECK(games[k].reason == rec.reason);
            CHECK(games[k].opening_turns == rec.opening_turns);
            Position pos = replayed.start();
            for (std::size_t i = 0; i < rec.moves.size(); ++i) {
                const std::optional<int> white = rec.scores.empty() ? std::nullopt : rec.scores[i];
                const std::optional<int> mover = white && pos.side_to_move() == Color::Black
                                                     ? std::optional<int>(-*white)
                                                     : white;
                CHECK(games[k].scores[i] == mover);
                pos.make_move(replayed.moves()[i]);
            }
        }
        // The same games as the run's own corpus.
        CHECK(read_all(dir + "/corpus.fcorpus") == games);
    }
    SECTION("from positions.bin: each record once, in order, chained where one turn apart") {
        const std::string out = dir + "/from_positions.fcorpus";
        const Run r = run_cli("corpus convert " + bin + " --out " + out);
        REQUIRE(r.status == 0);
        const PositionLog log = read_position_log(bin);
        REQUIRE(log.records.size() > 100);
        CorpusPositionReader reader(out);
        CorpusPosition p;
        std::size_t n = 0, turns = 0;
        while (reader.next(p)) {
            REQUIRE(n < log.records.size());
            const PositionRecord& want = log.records[n];
            INFO("record " << n);
            CHECK(p.position.pieces(Color::White) == want.white);
            CHECK(p.position.pieces(Color::Black) == want.black);
            CHECK(p.position.side_to_move() == want.side_to_move);
            CHECK(p.position.turn() == want.turn);
            CHECK(std::min(p.position.turns_since_capture(), 255) == want.turns_since_capture);
            CHECK(p.score == std::optional<int>(want.score));
            CHECK(p.result == want.result);
            CHECK(p.game == want.game_index);
            turns += p.move.has_value();
            ++n;
        }
        CHECK(n == log.records.size());
        CHECK(turns > n / 2); // most records are chained by their turn
    }
    SECTION("a corpus of both, and an input of other rules refused") {
        const std::string out = dir + "/both.fcorpus";
        REQUIRE(run_cli("corpus convert " + tsv + " " + bin + " --out " + out).status == 0);
        const Run info = run_cli("corpus info --json " + out);
        REQUIRE(info.status == 0);
        const auto j = nlohmann::json::parse(info.output);
        CHECK(j["games"].get<int>() >= 16);
        const std::string dimy = fresh_dir("corpus_convert_dimy");
        REQUIRE(
            run_cli("selfplay --variant dimy --games 2 --depth 1 --quiet --out " + dimy).status ==
            0);
        const Run mixed = run_cli("corpus convert " + tsv + " " + dimy + "/games.tsv --out " + dir +
                                  "/mixed.fcorpus");
        CHECK(mixed.status == 1);
        CHECK_THAT(mixed.output, Catch::Contains(dimy + "/games.tsv: header: dimy, standard, but " +
                                                 tsv + " is tsivy, standard"));
        CHECK(!fs::exists(dir + "/mixed.fcorpus"));
    }
    SECTION("chunks by game index: --from-game and --to-game split a run without a gap") {
        const std::string a = dir + "/chunk0.fcorpus", b = dir + "/chunk1.fcorpus";
        REQUIRE(run_cli("corpus convert " + tsv + " --to-game 3 --out " + a).status == 0);
        REQUIRE(run_cli("corpus convert " + tsv + " --from-game 3 --out " + b).status == 0);
        std::vector<CorpusGame> joined = read_all(a);
        CHECK(joined.size() == 3);
        for (const CorpusGame& g : read_all(b)) joined.push_back(g);
        CHECK(joined == read_all(dir + "/corpus.fcorpus"));
        // The positions log's chains are chosen by the same index.
        const std::string c = dir + "/chunk1_positions.fcorpus";
        REQUIRE(run_cli("corpus convert " + bin + " --from-game 3 --to-game 5 --out " + c).status ==
                0);
        const std::vector<CorpusGame> chains = read_all(c);
        CHECK(!chains.empty());
        for (const CorpusGame& g : chains) CHECK((g.index >= 3 && g.index < 5));
        const Run bad = run_cli("corpus convert " + tsv + " --from-game 4 --to-game 4 --out " +
                                dir + "/empty.fcorpus");
        CHECK(bad.status == 1);
        CHECK_THAT(bad.output, Catch::Contains("--to-game 4: not above --from-game 4"));
        CHECK(!fs::exists(dir + "/empty.fcorpus"));
    }
    SECTION("dump prints a corpus's positions like a positions log's") {
        const Run text = run_cli("dump --limit 3 " + dir + "/corpus.fcorpus");
        REQUIRE(text.status == 0);
        CHECK_THAT(text.output, Catch::StartsWith("game 0 turn 1 score - result "));
        const Run csv = run_cli("dump --csv " + dir + "/corpus.fcorpus");
        REQUIRE(csv.status == 0);
        CHECK_THAT(csv.output,
                   Catch::StartsWith(
                       "game,turn,side,score,result,turns_since_capture,rules,move,position\n"));
        std::size_t turns = 0;
        for (const GameRecord& g : file.games) turns += g.moves.size();
        CHECK(std::size_t(std::count(csv.output.begin(), csv.output.end(), '\n')) == turns + 1);
    }
}

TEST_CASE("corpus next-chunk cuts a run into numbered chunks without a gap or a repeat",
          "[corpus]") {
    const std::string dir = fresh_dir("corpus_next_chunk");
    REQUIRE(run_cli("selfplay --games 6 --depth 1 --openings random:2 --seed 9 --corpus --quiet "
                    "--out " +
                    dir + "/run")
                .status == 0);
    const std::string chunks = dir + "/chunks";
    fs::create_directories(chunks);
    const std::string cmd = "corpus next-chunk " + dir + "/run --into " + chunks + " --name t ";
    const Run first = run_cli(cmd + "--min-games 1 --max-games 4");
    REQUIRE(first.status == 0);
    CHECK_THAT(first.output, Catch::Contains("t-000.fcorpus: 4 games"));
    CHECK_THAT(first.output, Catch::Contains("games 0 to 3;"));
    const Run too_few = run_cli(cmd + "--min-games 3 --max-games 4");
    REQUIRE(too_few.status == 0);
    CHECK_THAT(too_few.output,
               Catch::Contains("2 games from game 4 on, fewer than --min-games 3: no chunk"));
    CHECK(!fs::exists(chunks + "/t-001.fcorpus"));
    const Run capped = run_cli(cmd + "--min-games 1 --max-bytes 100");
    CHECK(capped.status == 1);
    CHECK_THAT(capped.output, Catch::Contains("past --max-bytes 100"));
    CHECK(!fs::exists(chunks + "/t-001.fcorpus"));
    REQUIRE(run_cli(cmd + "--min-games 1").status == 0);
    const Run none = run_cli(cmd + "--min-games 1");
    REQUIRE(none.status == 0);
    CHECK_THAT(none.output, Catch::Contains("0 games from game 6 on"));
    CHECK(!fs::exists(chunks + "/t-002.fcorpus"));
    std::vector<CorpusGame> joined = read_all(chunks + "/t-000.fcorpus");
    for (const CorpusGame& g : read_all(chunks + "/t-001.fcorpus")) joined.push_back(g);
    CHECK(joined == read_all(dir + "/run/corpus.fcorpus"));
    const Run bad_name =
        run_cli("corpus next-chunk " + dir + "/run --into " + chunks + " --name a/b");
    CHECK(bad_name.status == 1);
    CHECK_THAT(bad_name.output, Catch::Contains("--name 'a/b': a file name prefix"));
}

TEST_CASE("selfplay --corpus: a resume neither loses nor repeats a game", "[corpus]") {
    const std::string settings = " --depth 2 --openings random:3 --seed 9 --corpus --quiet";
    const std::string ref = fresh_dir("corpus_ref");
    REQUIRE(run_cli("selfplay --games 10" + settings + " --out " + ref).status == 0);
    const std::vector<CorpusGame> want = games_of(ref + "/games.tsv");
    REQUIRE(want.size() == 10);
    CHECK(read_all(ref + "/corpus.fcorpus") == want);
    const auto settings_json = nlohmann::json::parse(slurp(ref + "/settings.json"));
    CHECK(settings_json["corpus"] == true);

    // A run of 6 games, damaged as a crash could leave it, then resumed to 10.
    const auto partial = [&](const std::string& name) {
        const std::string dir = fresh_dir(name);
        REQUIRE(run_cli("selfplay --games 6" + settings + " --out " + dir).status == 0);
        return dir;
    };
    const auto resume_and_check = [&](const std::string& dir) {
        const Run r = run_cli("selfplay --games 10" + settings + " --resume --out " + dir);
        REQUIRE(r.status == 0);
        CHECK(slurp_run_file(dir + "/games.tsv") == slurp_run_file(ref + "/games.tsv"));
        std::string tail;
        CHECK(read_all(dir + "/corpus.fcorpus", &tail) == want);
        CHECK(tail.empty());
        return r.output;
    };
    SECTION("killed before its last block was written") {
        const std::string dir = partial("corpus_no_block");
        const std::string c = slurp(dir + "/corpus.fcorpus");
        write_bytes(dir + "/corpus.fcorpus", c.substr(0, kCorpusHeaderBytes));
        resume_and_check(dir);
    }
    SECTION("a torn block") {
        const std::string dir = partial("corpus_torn_block");
        const std::string c = slurp(dir + "/corpus.fcorpus");
        write_bytes(dir + "/corpus.fcorpus", c.substr(0, c.size() - 7));
        const std::string out = resume_and_check(dir);
        CHECK_THAT(out, Catch::Contains("corpus.fcorpus: cut "));
    }
    SECTION("a block holding a game whose games.tsv line was lost") {
        const std::string dir = partial("corpus_extra_game");
        std::string tsv = slurp(dir + "/games.tsv");
        tsv.erase(tsv.rfind('\n', tsv.size() - 2) + 1);
        write_bytes(dir + "/games.tsv", tsv);
        const std::string out = resume_and_check(dir);
        CHECK_THAT(out, Catch::Contains("blocks holding games not in games.tsv"));
    }
    SECTION("the corpus missing") {
        const std::string dir = partial("corpus_missing");
        fs::remove(dir + "/corpus.fcorpus");
        const std::string out = resume_and_check(dir);
        CHECK_THAT(out, Catch::Contains("corpus.fcorpus: missing; written again from"));
    }
    SECTION("killed at random moments") {
        const std::string dir = fresh_dir("corpus_killed");
        const KillRun k =
            run_with_kills("selfplay --games 10" + settings + " --out " + dir, 11, 3, 50, 400);
        REQUIRE(k.last.status == 0);
        CHECK(read_all(dir + "/corpus.fcorpus") == want);
    }
    SECTION("a resume without --corpus is refused, naming the option") {
        const std::string dir = partial("corpus_option_dropped");
        const Run r = run_cli("selfplay --games 10 --depth 2 --openings random:3 --seed 9 "
                              "--quiet --resume --out " +
                              dir);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("--corpus was true, now absent"));
    }
    SECTION("merged shards hold one corpus of every game") {
        const std::string a = fresh_dir("corpus_shard0"), b = fresh_dir("corpus_shard1");
        REQUIRE(run_cli("selfplay --games 10 --shard 0/2" + settings + " --out " + a).status == 0);
        REQUIRE(run_cli("selfplay --games 10 --shard 1/2" + settings + " --out " + b).status == 0);
        const std::string merged = fresh_dir("corpus_merged");
        REQUIRE(run_cli("merge " + a + " " + b + " --out " + merged).status == 0);
        CHECK(read_all(merged + "/corpus.fcorpus") == want);
    }
}

TEST_CASE("a Vela series run's corpus holds its Vela games under Vela rules, and skipped places",
          "[corpus]") {
    const std::string dir = fresh_dir("corpus_series");
    REQUIRE(run_cli("selfplay --series vela --games 8 --depth 1 --openings random:2 --seed 5 "
                    "--corpus --quiet --out " +
                    dir)
                .status == 0);
    const GamesFile file = read_games_file(dir + "/games.tsv");
    const std::vector<CorpusGame> games = read_all(dir + "/corpus.fcorpus");
    REQUIRE(games.size() == file.games.size());
    CHECK(games == games_of(dir + "/games.tsv"));
    int vela = 0;
    for (std::size_t k = 0; k < games.size(); ++k) {
        CHECK((games[k].ruleset == RuleSet::Vela) == (file.games[k].kind == GameKind::Vela));
        CHECK(games[k].moves.empty() == (file.games[k].kind == GameKind::Skipped));
        vela += games[k].ruleset == RuleSet::Vela;
    }
    CHECK(vela > 0);
}

TEST_CASE("a self-play corpus takes under 4 bytes a position", "[corpus]") {
    const std::string dir = fresh_dir("corpus_size");
    REQUIRE(run_cli("selfplay --games 40 --nodes 300 --openings random:4 --seed 3 --corpus "
                    "--no-positions --quiet --out " +
                    dir)
                .status == 0);
    const Run info = run_cli("corpus info --json " + dir + "/corpus.fcorpus");
    REQUIRE(info.status == 0);
    const auto j = nlohmann::json::parse(info.output);
    INFO(info.output);
    CHECK(j["games"] == 40);
    CHECK(j["positions"].get<std::uint64_t>() > 1000);
    CHECK(j["bytes"].get<std::uint64_t>() == fs::file_size(dir + "/corpus.fcorpus"));
    CHECK(j["bytes_per_position"].get<double>() < 4.0);
}

TEST_CASE("corpus info counts a folder of corpus files with a line each and their total",
          "[corpus]") {
    const std::string dir = fresh_dir("corpus_info_folder");
    REQUIRE(run_cli("selfplay --games 6 --depth 1 --openings random:2 --seed 4 --corpus "
                    "--no-positions --quiet --out " +
                    dir + "/run")
                .status == 0);
    const std::string chunks = dir + "/chunks";
    fs::create_directories(chunks + "/sub.fcorpus"); // a folder named like a chunk: not read
    REQUIRE(run_cli("corpus convert " + dir + "/run/games.tsv --to-game 2 --out " + chunks +
                    "/run-s10-000.fcorpus")
                .status == 0);
    REQUIRE(run_cli("corpus convert " + dir + "/run/games.tsv --from-game 2 --out " + chunks +
                    "/run-s9-000.fcorpus")
                .status == 0);
    std::ofstream(chunks + "/notes.txt") << "not a corpus\n";

    const Run whole = run_cli("corpus info --json " + dir + "/run/corpus.fcorpus");
    const Run folder = run_cli("corpus info --json " + chunks);
    REQUIRE(whole.status == 0);
    REQUIRE(folder.status == 0);
    const auto w = nlohmann::json::parse(whole.output);
    const auto f = nlohmann::json::parse(folder.output);
    INFO(folder.output);
    REQUIRE(f["files"].size() == 2);
    CHECK(f["files"][0]["file"] == (fs::path(chunks) / "run-s9-000.fcorpus").string());
    // (natural order: s9 before s10, where names sorted by text put s10 first)
    CHECK(f["files"][0]["games"] == 4);
    CHECK(f["files"][1]["games"] == 2);
    CHECK(f["total"]["files"] == 2);
    for (const char* key : {"games", "turns", "positions", "scored_positions"})
        CHECK(f["total"][key] == w[key]);
    CHECK(f["total"]["bytes"] == f["files"][0]["bytes"].get<std::uint64_t>() +
                                     f["files"][1]["bytes"].get<std::uint64_t>());

    const Run text = run_cli("corpus info " + chunks + " " + dir + "/run/corpus.fcorpus");
    REQUIRE(text.status == 0);
    CHECK_THAT(text.output, Catch::Contains("run-s10-000.fcorpus"));
    CHECK_THAT(text.output,
               Catch::Matches("(.|\n)*\ntotal +" + std::to_string(2 * w["games"].get<int>()) +
                              " +" + std::to_string(2 * w["positions"].get<int>()) + " (.|\n)*"));

    const std::string empty = dir + "/empty";
    fs::create_directories(empty);
    const Run none = run_cli("corpus info " + empty);
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Catch::Contains(empty + ": no corpus files (*.fcorpus) in the folder"));
}

TEST_CASE("corpus next-chunk locks its folder and refuses what is no chunk of the run",
          "[corpus]") {
    const std::string dir = fresh_dir("corpus_chunk_checks");
    REQUIRE(run_cli("selfplay --games 4 --depth 1 --openings random:2 --seed 9 --quiet --out " +
                    dir + "/run")
                .status == 0);
    const std::string chunks = dir + "/chunks";
    fs::create_directories(chunks);
    const std::string cmd = "corpus next-chunk " + dir + "/run --into " + chunks + " --name t ";
    // --min-games above --max-games could never write a chunk.
    const Run above = run_cli(cmd + "--min-games 5 --max-games 4");
    CHECK(above.status == 1);
    CHECK_THAT(above.output, Catch::Contains("--min-games 5: above --max-games 4"));
    {
        // A second writer of the folder is refused, naming the holder.
        const FolderLock held(chunks);
        const Run locked = run_cli(cmd + "--min-games 1");
        CHECK(locked.status == 1);
        CHECK_THAT(locked.output, Catch::Contains(chunks + ": the folder"));
        CHECK(!fs::exists(chunks + "/t-000.fcorpus"));
    }
    // A folder or a dangling link named *.fcorpus is refused by name, not as a raw error.
    fs::create_directories(chunks + "/odd.fcorpus");
    const Run folder = run_cli(cmd + "--min-games 1");
    CHECK(folder.status == 1);
    CHECK_THAT(folder.output,
               Catch::Contains(chunks + "/odd.fcorpus: a folder, not a corpus chunk"));
    fs::remove(chunks + "/odd.fcorpus");
    fs::create_symlink(dir + "/nowhere", chunks + "/t-000.fcorpus");
    const Run dangling = run_cli(cmd + "--min-games 1");
    CHECK(dangling.status == 1);
    CHECK_THAT(dangling.output,
               Catch::Contains(chunks + "/t-000.fcorpus: a link to no file, not a corpus chunk"));
    fs::remove(chunks + "/t-000.fcorpus");
    // A chunk of another board under the name would make the run's games look taken.
    REQUIRE(run_cli("selfplay --games 3 --depth 1 --variant dimy --openings random:2 --quiet "
                    "--corpus --out " +
                    dir + "/other")
                .status == 0);
    fs::copy_file(dir + "/other/corpus.fcorpus", chunks + "/t-000.fcorpus");
    const Run other = run_cli(cmd + "--min-games 1");
    CHECK(other.status == 1);
    CHECK_THAT(other.output, Catch::Contains(chunks + "/t-000.fcorpus: header: "));
    CHECK_THAT(other.output, Catch::Contains("the chunks of one --name hold one run's games"));
    CHECK(!fs::exists(chunks + "/t-001.fcorpus"));
}

TEST_CASE("a corpus refuses a repetition count below 2 and a game index that wraps", "[corpus]") {
    const std::string good = encode(Rules{}, mixed_games(3));
    const std::string path = temp_path("corpus_counts.fcorpus");
    for (const char count : {0, 1}) {
        std::string bytes = good;
        bytes[12] = count;
        bytes[13] = 0;
        write_bytes(path, bytes);
        CHECK_THROWS_WITH(read_all(path), path + ": header: repetition count " +
                                              std::to_string(int(count)) + " (at least 2)");
    }
    Rules none;
    none.repetition_count = 0;
    CHECK_THROWS_WITH(encode_corpus_header(none), Catch::Contains("between 2 and 65535"));
    // A block whose first game is 0 and whose game says index -1 (zigzag 1).
    const std::string header = good.substr(0, kCorpusHeaderBytes);
    const std::string games_part = std::string("\x01\x01\x01\x00\x00", 5);
    std::string raw(8, '\0');
    raw[0] = char(games_part.size());
    raw += games_part + std::string(1, '\0');
    write_bytes(path, header + forged_block(raw, 1, 0, 0));
    CHECK_THROWS_WITH(read_all(path), Catch::Contains("index: -1 from 0 wraps around"));
}
