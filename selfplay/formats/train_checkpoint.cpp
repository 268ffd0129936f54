#include "selfplay/formats/train_checkpoint.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <zlib.h>

#include "core/common/files.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

std::string hex(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    return buf;
}

std::uint32_t crc_of(const std::string& bytes, std::size_t n) {
    return std::uint32_t(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), uInt(n)));
}

// Reads the text lines of a checkpoint one by one, with errors naming the file and the field.
class Lines {
public:
    Lines(const std::string& bytes, const std::string& name) : b_(bytes), name_(name) {}
    [[noreturn]] void fail(const std::string& field, const std::string& why) const {
        throw CheckpointError(name_ + ": " + field + ": " + why);
    }
    // The value of the next line, which must start with `key `.
    std::string value(const std::string& key) {
        const std::size_t end = b_.find('\n', at_);
        if (end == std::string::npos) fail(key, "missing (the file is truncated)");
        const std::string line = b_.substr(at_, end - at_);
        if (line.rfind(key + " ", 0) != 0) fail(key, "expected a '" + key + "' line");
        at_ = end + 1;
        return line.substr(key.size() + 1);
    }
    bool next_is(const std::string& key) const {
        return b_.compare(at_, key.size() + 1, key + " ") == 0;
    }
    double number(const std::string& key, const std::string& text) const {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0') fail(key, "'" + text + "' is not a number");
        return v;
    }
    // A whole number from 0 to `max` (an int field's: INT_MAX), else an error naming the key.
    std::uint64_t count(const std::string& key, const std::string& text,
                        std::uint64_t max = ~std::uint64_t(0)) const {
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || text[0] == '-' || text[0] == '+' || errno == ERANGE)
            fail(key, "'" + text + "' is not a count");
        if (v > max) fail(key, "'" + text + "' is above " + std::to_string(max));
        return v;
    }
    int int_count(const std::string& key, const std::string& text) const {
        return int(count(key, text, std::uint64_t(std::numeric_limits<int>::max())));
    }
    std::size_t at() const { return at_; }
    void skip(std::size_t n) { at_ += n; }

private:
    const std::string& b_;
    const std::string& name_;
    std::size_t at_ = 0;
};

const std::string kMagic(kTrainCheckpointMagic);

} // namespace

std::string format_checkpoint(const TrainCheckpoint& c) {
    const std::size_t n = c.params.size();
    if (c.mean.size() != n || c.square.size() != n || c.best.size() != n)
        throw std::invalid_argument("checkpoint: the parameter vectors differ in size");
    if (c.settings.find('\n') != std::string::npos)
        throw std::invalid_argument("checkpoint: settings must be one line");
    std::ostringstream out;
    out << kMagic << "\n";
    out << "settings " << c.settings << "\n";
    out << "step " << c.step << "\n";
    out << "lr " << hex(c.lr) << "\n";
    out << "best_epoch " << c.best_epoch << "\n";
    out << "best_loss " << hex(c.best_loss) << "\n";
    out << "since_best " << c.since_best << "\n";
    for (const CheckpointEpoch& e : c.history)
        out << "epoch " << e.epoch << " " << hex(e.train_loss) << " " << hex(e.validation_loss)
            << " " << hex(e.seconds) << "\n";
    out << "parameters " << n << "\n";
    std::string bytes = out.str();
    for (const auto* v : {&c.params, &c.mean, &c.square, &c.best})
        for (double d : *v) {
            std::uint64_t u;
            std::memcpy(&u, &d, 8);
            for (int i = 0; i < 8; ++i) bytes.push_back(char(std::uint8_t(u >> (8 * i))));
        }
    char sum[32];
    std::snprintf(sum, sizeof sum, "checksum %08" PRIx32 "\n", crc_of(bytes, bytes.size()));
    return bytes + sum;
}

TrainCheckpoint parse_checkpoint(const std::string& bytes, const std::string& name) {
    Lines in(bytes, name);
    if (bytes.compare(0, kMagic.size() + 1, kMagic + "\n") != 0)
        in.fail("header", "not a fanorona-train-checkpoint 1 file");
    in.skip(kMagic.size() + 1);
    TrainCheckpoint c;
    c.settings = in.value("settings");
    c.step = in.count("step", in.value("step"));
    c.lr = in.number("lr", in.value("lr"));
    c.best_epoch = in.int_count("best_epoch", in.value("best_epoch"));
    c.best_loss = in.number("best_loss", in.value("best_loss"));
    c.since_best = in.int_count("since_best", in.value("since_best"));
    while (in.next_is("epoch")) {
        std::istringstream fields(in.value("epoch"));
        std::string e, t, v, s, extra;
        if (!(fields >> e >> t >> v >> s) || (fields >> extra))
            in.fail("epoch", "expected 4 fields");
        c.history.push_back({in.int_count("epoch", e), in.number("epoch", t), in.number("epoch", v),
                             in.number("epoch", s)});
    }
    const std::uint64_t n = in.count("parameters", in.value("parameters"));
    const std::size_t body = in.at();
    if (n > (bytes.size() - body) / 32) in.fail("parameters", "the file is truncated");
    const std::size_t end = body + std::size_t(n) * 32;
    const std::string tail = bytes.substr(end);
    unsigned sum = 0;
    char newline = 0;
    if (std::sscanf(tail.c_str(), "checksum %8x%c", &sum, &newline) != 2 || newline != '\n' ||
        tail.size() != 18)
        in.fail("checksum", "missing or malformed (the file is truncated or has extra bytes)");
    if (sum != crc_of(bytes, end)) in.fail("checksum", "does not match the content");
    std::size_t at = body;
    for (auto* v : {&c.params, &c.mean, &c.square, &c.best}) {
        v->resize(std::size_t(n));
        for (double& d : *v) {
            std::uint64_t u = 0;
            for (int i = 0; i < 8; ++i)
                u |= std::uint64_t(std::uint8_t(bytes[at + std::size_t(i)])) << (8 * i);
            std::memcpy(&d, &u, 8);
            at += 8;
        }
    }
    return c;
}

void write_checkpoint(const std::string& path, const TrainCheckpoint& c) {
    write_file_atomically(path, format_checkpoint(c));
}

TrainCheckpoint read_checkpoint(const std::string& path) {
    std::string bytes;
    try {
        bytes = read_file_bytes(path, kCheckpointFileLimits);
    } catch (const FileError& e) {
        throw CheckpointError(e.what());
    }
    return parse_checkpoint(bytes, path);
}

} // namespace fanorona
