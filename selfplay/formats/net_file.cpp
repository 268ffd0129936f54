#include "selfplay/formats/net_file.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <set>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include "core/board/position.h"
#include "core/board/rules.h"
#include "core/builtins.h"
#include "core/common/files.h"
#include "core/common/hash.h"
#include "core/common/text.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

constexpr std::string_view kNetMagic = "fanorona-net 1";

// The checksum written now (core/common/hash.h: the published FNV-1a 64).
std::uint64_t net_fnv1a(std::string_view bytes) {
    return fnv1a64(bytes);
}

std::string net_hex64(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    return buf;
}

std::string net_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// One header line's value: printable() keeps it on one line.
std::string net_one_line(const std::string& s) {
    return printable(s);
}

template <class T> void net_put_le(std::string& out, T v) {
    using U = std::make_unsigned_t<T>;
    const U u = U(v);
    for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(char((u >> (8 * i)) & 0xFF));
}

template <class T> T net_get_le(const unsigned char* p) {
    using U = std::make_unsigned_t<T>;
    U u = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) u = U(u | U(U(p[i]) << (8 * i)));
    return T(u);
}

// The parameters as the file stores them: w1, b1, w2, b2, w3, b3, little-endian.
void net_put_parameters(std::string& out, const nnue::Network& n) {
    for (const auto v : n.w1) net_put_le(out, v);
    for (const auto v : n.b1) net_put_le(out, v);
    for (const auto v : n.w2) net_put_le(out, v);
    for (const auto v : n.b2) net_put_le(out, v);
    for (const auto v : n.w3) net_put_le(out, v);
    for (const auto v : n.b3) net_put_le(out, v);
}

std::size_t net_parameter_bytes(const nnue::Network& n) {
    return 2 * (n.w1.size() + n.b1.size() + n.w2.size() + n.w3.size()) +
           4 * (n.b2.size() + n.b3.size());
}

[[noreturn]] void net_fail(const std::string& name, const std::string& field,
                           const std::string& why) {
    throw std::runtime_error(name + ": net file field '" + field + "': " + why);
}

std::int64_t net_parse_int(const std::string& name, const std::string& field,
                           const std::string& v) {
    try {
        std::size_t used = 0;
        const long long x = std::stoll(v, &used);
        if (used == v.size()) return x;
    } catch (const std::exception&) {
    }
    net_fail(name, field, "'" + printable(v) + "' is not an integer");
}

double net_parse_double(const std::string& name, const std::string& field, const std::string& v) {
    try {
        std::size_t used = 0;
        const double x = std::stod(v, &used);
        if (used == v.size() && std::isfinite(x)) return x;
    } catch (const std::exception&) {
    }
    net_fail(name, field, "'" + printable(v) + "' is not a number");
}

// The bytes of a network file at `path` (FileError when they cannot be read).
std::string read_net_bytes(const std::string& path) {
    // A FIFO's open would wait for a writer, and its reads for its data: refused without
    // blocking (opened with O_NONBLOCK, then looked at). Devices are read bounded (files.h).
    if (const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); fd >= 0) {
        struct stat st {};
        const bool fifo = ::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
        ::close(fd);
        if (fifo)
            throw FileError(shown_path(path) +
                            ": not a regular file (a FIFO: a network is not read from one)");
    }
    try {
        return read_text_file(path, kNetFileLimits);
    } catch (const FileError& e) {
        throw FileError(std::string(e.what()) + " (the network file)");
    }
}

// The built-in network `b`, parsed once per process (thread-safe static initialisation), then
// shared by every caller.
std::shared_ptr<const NetFile> builtin_net(const BuiltinFile& b) {
    static const std::map<std::string_view, std::shared_ptr<const NetFile>> builtins = [] {
        std::map<std::string_view, std::shared_ptr<const NetFile>> m;
        for (const BuiltinFile& f : builtin_files())
            if (f.kind == "net")
                m[f.name] = std::make_shared<const NetFile>(
                    parse_net_file(std::string(f.text), "built-in network " + std::string(f.name)));
        return m;
    }();
    return builtins.at(b.name);
}

// A file's bytes being read from the front: `pos`, the next byte; `name` names it in errors.
struct NetCursor {
    const std::string& bytes;
    const std::string& name;
    std::size_t pos = 0;

    // The next line (without its line break); a missing one fails on the field `expecting`.
    std::string next_line(const char* expecting) {
        const std::size_t end = bytes.find('\n', pos);
        if (end == std::string::npos) net_fail(name, expecting, "the file ends before it");
        std::string line = bytes.substr(pos, end - pos);
        pos = end + 1;
        return line;
    }
};

void read_net_magic(NetCursor& in) {
    const std::string magic = in.next_line("magic");
    if (magic.rfind("fanorona-net ", 0) != 0)
        net_fail(in.name, "magic", "not a network file (the first line is not 'fanorona-net 1')");
    if (magic != kNetMagic)
        net_fail(in.name, "version",
                 "version '" + printable(magic.substr(13)) +
                     "' is not supported (this program reads 1)");
}

// The header's fields by key (each at most once; data_file lines apart) and the size of the
// parameters that follow it.
struct NetHeader {
    std::map<std::string, std::string> fields;
    std::size_t param_bytes = 0;
    const std::string& name;

    bool has(const std::string& key) const { return fields.count(key) > 0; }
    // A field that must be there.
    const std::string& operator[](const std::string& key) const {
        const auto it = fields.find(key);
        if (it == fields.end()) net_fail(name, key, "missing");
        return it->second;
    }
};

// The header lines up to and including `parameters <bytes>`; data_file lines go to `data_files`.
NetHeader read_net_header(NetCursor& in, std::vector<std::string>& data_files) {
    NetHeader header{{}, 0, in.name};
    while (true) {
        const std::string line = in.next_line("parameters");
        const std::size_t space = line.find(' ');
        const std::string key = line.substr(0, space);
        const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
        if (key == "parameters") {
            const std::int64_t n = net_parse_int(in.name, key, value);
            if (n < 0) net_fail(in.name, key, "negative size");
            header.param_bytes = std::size_t(n);
            return header;
        }
        static const std::set<std::string> kKeys = {
            "variant",        "features",  "activation", "inputs", "hidden",     "layer2",
            "layer2_weights", "buckets",   "qa",         "qb",     "scale",      "architecture",
            "data_file",      "positions", "games",      "epochs", "train_loss", "validation_loss",
            "seed",           "command",   "created"};
        if (!kKeys.count(key)) net_fail(in.name, printable(key), "unknown header field");
        if (key == "data_file") {
            data_files.push_back(value);
            continue;
        }
        if (!header.fields.emplace(key, value).second) net_fail(in.name, key, "given twice");
    }
}

// The optional fields of the second layer: layer2 and layer2_weights.
void parse_net_layer2(const NetHeader& h, const std::string& name, nnue::Architecture& a) {
    if (h.has("layer2")) {
        const std::int64_t l2 = net_parse_int(name, "layer2", h["layer2"]);
        if (l2 < 1 || l2 > nnue::kMaxLayer2)
            net_fail(name, "layer2",
                     h["layer2"] + " not in [1, " + std::to_string(nnue::kMaxLayer2) +
                         "] (no second layer: leave the field out)");
        a.layer2 = int(l2);
    }
    if (h.has("layer2_weights")) {
        if (h["layer2_weights"] != "int8")
            net_fail(name, "layer2_weights",
                     "'" + printable(h["layer2_weights"]) +
                         "' is not int8 (16-bit weights: leave the field out)");
        a.layer2_int8 = true;
    }
}

// The architecture of the header's fields: one the program can run, whose input count and hash
// match the header's.
nnue::Architecture parse_net_architecture(const NetHeader& h, const std::string& name) {
    nnue::Architecture a;
    const auto variant = parse_variant(h["variant"]);
    if (!variant) net_fail(name, "variant", "unknown variant '" + printable(h["variant"]) + "'");
    a.variant = *variant;
    const auto features = nnue::parse_feature_set(h["features"]);
    if (!features)
        net_fail(name, "features", "unknown feature set '" + printable(h["features"]) + "'");
    a.features = *features;
    if (h.has("activation")) {
        const auto activation = nnue::parse_activation(h["activation"]);
        if (!activation)
            net_fail(name, "activation",
                     "unknown activation '" + printable(h["activation"]) + "' (crelu or screlu)");
        a.activation = *activation;
    }
    a.hidden = int(net_parse_int(name, "hidden", h["hidden"]));
    parse_net_layer2(h, name, a);
    a.buckets = int(net_parse_int(name, "buckets", h["buckets"]));
    a.qa = int(net_parse_int(name, "qa", h["qa"]));
    a.qb = int(net_parse_int(name, "qb", h["qb"]));
    a.scale = int(net_parse_int(name, "scale", h["scale"]));
    if (const std::string p = nnue::architecture_problem(a); !p.empty())
        net_fail(name, "architecture", p);
    if (net_parse_int(name, "inputs", h["inputs"]) != nnue::input_count(a))
        net_fail(name, "inputs",
                 h["inputs"] + " does not match the variant and feature set (" +
                     std::to_string(nnue::input_count(a)) + ")");
    if (h["architecture"] != net_hex64(nnue::architecture_hash(a)))
        net_fail(name, "architecture",
                 "hash " + printable(h["architecture"]) + " does not match the header's fields (" +
                     net_hex64(nnue::architecture_hash(a)) + ")");
    return a;
}

// The provenance fields present in the header (the data files are read with the header).
void parse_net_provenance(const NetHeader& h, const std::string& name, NetProvenance& pv) {
    if (h.has("positions")) pv.positions = net_parse_int(name, "positions", h["positions"]);
    if (h.has("games")) pv.games = net_parse_int(name, "games", h["games"]);
    if (h.has("epochs")) pv.epochs = net_parse_int(name, "epochs", h["epochs"]);
    if (h.has("train_loss")) pv.train_loss = net_parse_double(name, "train_loss", h["train_loss"]);
    if (h.has("validation_loss"))
        pv.validation_loss = net_parse_double(name, "validation_loss", h["validation_loss"]);
    if (h.has("seed")) {
        const std::string& s = h["seed"];
        try {
            std::size_t used = 0;
            pv.seed = std::stoull(s, &used);
            if (used != s.size() || s.empty() || s[0] == '-') throw std::invalid_argument(s);
        } catch (const std::exception&) {
            net_fail(name, "seed", "'" + printable(s) + "' is not an unsigned integer");
        }
    }
    if (h.has("command")) pv.command = h["command"];
    if (h.has("created")) pv.created = h["created"];
}

// The network of architecture `a` from the `param_bytes` bytes at the cursor (the size the
// architecture gives, else an error); the cursor moves past them.
nnue::Network read_net_parameters(NetCursor& in, const nnue::Architecture& a,
                                  std::size_t param_bytes) {
    nnue::Network n = nnue::make_network(a);
    if (param_bytes != net_parameter_bytes(n))
        net_fail(in.name, "parameters",
                 std::to_string(param_bytes) + " bytes, the architecture has " +
                     std::to_string(net_parameter_bytes(n)));
    if (in.bytes.size() - in.pos < param_bytes)
        net_fail(in.name, "parameters", "the file is truncated");
    const auto* p = reinterpret_cast<const unsigned char*>(in.bytes.data() + in.pos);
    for (auto& v : n.w1) v = net_get_le<std::int16_t>(p), p += 2;
    for (auto& v : n.b1) v = net_get_le<std::int16_t>(p), p += 2;
    std::vector<std::int16_t> w2(n.w2.size());
    for (auto& v : w2) v = net_get_le<std::int16_t>(p), p += 2;
    n.w2 = nnue::Layer2Weights(std::move(w2), a.layer2_int8);
    for (auto& v : n.b2) v = net_get_le<std::int32_t>(p), p += 4;
    for (auto& v : n.w3) v = net_get_le<std::int16_t>(p), p += 2;
    for (auto& v : n.b3) v = net_get_le<std::int32_t>(p), p += 4;
    in.pos += param_bytes;
    return n;
}

// The last line, `checksum <16 hex digits>`, checked against every byte before its line break:
// the checksum, and whether it was made with the short basis of older files.
std::pair<std::uint64_t, bool> read_net_checksum(NetCursor& in) {
    const std::string& name = in.name;
    const std::size_t summed = in.pos;
    if (in.bytes.compare(in.pos, 1, "\n") != 0)
        net_fail(name, "checksum", "missing after the parameters");
    ++in.pos;
    const std::string line = in.next_line("checksum");
    if (line.rfind("checksum ", 0) != 0) net_fail(name, "checksum", "missing after the parameters");
    if (in.pos != in.bytes.size()) net_fail(name, "checksum", "bytes follow the checksum line");
    // The published FNV-1a 64, or the short basis of files written before it (still read).
    const std::string_view summed_bytes = std::string_view(in.bytes).substr(0, summed);
    const std::uint64_t sum = net_fnv1a(summed_bytes);
    if (line.substr(9) == net_hex64(sum)) return {sum, false};
    const std::uint64_t old_sum = fnv1a64(summed_bytes, kFnv1a64ShortBasis);
    if (line.substr(9) == net_hex64(old_sum)) return {old_sum, true};
    net_fail(name, "checksum",
             printable(line.substr(9)) + " does not match the content (" + net_hex64(sum) +
                 "): the file is damaged");
}

} // namespace

std::string format_net_file(const NetFile& file) {
    const nnue::Network& n = file.net;
    if (const std::string p = nnue::network_problem(n); !p.empty())
        throw std::invalid_argument("cannot write the network: " + p);
    const nnue::Architecture& a = n.arch;
    const NetProvenance& pv = file.provenance;
    std::string out;
    out += std::string(kNetMagic) + "\n";
    out += "variant " + std::string(variant_name(a.variant)) + "\n";
    out += "features " + std::string(nnue::feature_set_name(a.features)) + "\n";
    // CReLU, the first activation, is not named (the files before SCReLU stay as they were).
    if (a.activation != nnue::Activation::CReLU)
        out += "activation " + std::string(nnue::activation_name(a.activation)) + "\n";
    out += "inputs " + std::to_string(nnue::input_count(a)) + "\n";
    out += "hidden " + std::to_string(a.hidden) + "\n";
    // No second layer is not named either (the files before it stay as they were).
    if (a.layer2 > 0) out += "layer2 " + std::to_string(a.layer2) + "\n";
    // Nor are 16-bit second-layer weights (stored as int16 either way).
    if (a.layer2_int8) out += "layer2_weights int8\n";
    out += "buckets " + std::to_string(a.buckets) + "\n";
    out += "qa " + std::to_string(a.qa) + "\n";
    out += "qb " + std::to_string(a.qb) + "\n";
    out += "scale " + std::to_string(a.scale) + "\n";
    out += "architecture " + net_hex64(nnue::architecture_hash(a)) + "\n";
    for (const std::string& f : pv.data_files) out += "data_file " + net_one_line(f) + "\n";
    out += "positions " + std::to_string(pv.positions) + "\n";
    out += "games " + std::to_string(pv.games) + "\n";
    out += "epochs " + std::to_string(pv.epochs) + "\n";
    out += "train_loss " + net_number(pv.train_loss) + "\n";
    out += "validation_loss " + net_number(pv.validation_loss) + "\n";
    out += "seed " + std::to_string(pv.seed) + "\n";
    out += "command " + net_one_line(pv.command) + "\n";
    out += "created " + net_one_line(pv.created.empty() ? creation_time() : pv.created) + "\n";
    out += "parameters " + std::to_string(net_parameter_bytes(n)) + "\n";
    net_put_parameters(out, n);
    out += "\nchecksum " + net_hex64(net_fnv1a(out)) + "\n";
    return out;
}

std::string net_fingerprint(const nnue::Network& n) {
    std::string bytes;
    bytes.reserve(8 + net_parameter_bytes(n));
    net_put_le(bytes, nnue::architecture_hash(n.arch));
    net_put_parameters(bytes, n);
    return net_hex64(fnv1a64(bytes, kFnv1a64ShortBasis)); // recorded: the basis stays
}

NetFile parse_net_file(const std::string& bytes, const std::string& name) {
    NetCursor in{bytes, name};
    // Step 1. The magic line and the header's fields, up to `parameters <bytes>`.
    read_net_magic(in);
    NetFile file;
    NetHeader header = read_net_header(in, file.provenance.data_files);
    // Step 2. The architecture, checked against the header's own hash.
    file.net.arch = parse_net_architecture(header, name);
    // Step 3. Where the network came from.
    parse_net_provenance(header, name, file.provenance);
    // Step 4. The parameters, then the checksum of everything before them and of them.
    file.net = read_net_parameters(in, file.net.arch, header.param_bytes);
    const auto [checksum, short_basis] = read_net_checksum(in);
    file.checksum = checksum;
    file.short_basis_checksum = short_basis;
    // Step 5. A network the engine can run.
    if (const std::string p = nnue::network_problem(file.net); !p.empty())
        net_fail(name, "parameters", p);
    return file;
}

NetFile read_net_file(const std::string& path) {
    if (const BuiltinFile* b = find_builtin("net", path)) return *builtin_net(*b);
    return parse_net_file(read_net_bytes(path), path);
}

std::shared_ptr<const NetFile> load_net_file(const std::string& path) {
    if (const BuiltinFile* b = find_builtin("net", path.empty() ? "default" : path))
        return builtin_net(*b);
    return std::make_shared<const NetFile>(parse_net_file(read_net_bytes(path), path));
}

void write_net_file(const std::string& path, const NetFile& file) {
    write_file_atomically(path, format_net_file(file));
}

} // namespace fanorona
