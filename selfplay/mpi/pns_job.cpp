#include "selfplay/mpi/pns_job.h"
#include "selfplay/formats/json_text.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "selfplay/mpi/bytes.h"
#include "selfplay/mpi/identity.h"

namespace fanorona {

namespace {

void put_bound(std::string& out, const ProvenBound& b) {
    put_bytes<std::uint64_t>(out, b.key);
    put_bytes<std::int8_t>(out, std::int8_t(b.lo));
    put_bytes<std::int8_t>(out, std::int8_t(b.hi));
}

ProvenBound take_bound(const std::string& in, std::size_t& at) {
    ProvenBound b;
    b.key = take_bytes<std::uint64_t>(in, at, "pns message");
    b.lo = take_bytes<std::int8_t>(in, at, "pns message");
    b.hi = take_bytes<std::int8_t>(in, at, "pns message");
    if (b.lo < -1 || b.hi > 1 || b.lo > b.hi)
        throw std::runtime_error("pns message: a bound out of range");
    return b;
}

} // namespace

Fingerprints pns_fingerprints(const PnsUnitJob& job) {
    return {{"--tables " + job.tables_dir,
             job.settings.tables ? tables_fingerprint(*job.settings.tables) : std::string("-")}};
}

std::string encode_pns_job(const PnsUnitJob& job, std::uint64_t number) {
    nlohmann::json units = nlohmann::json::array();
    for (const Position& p : job.units) units.push_back(p.to_string());
    const Variant v = job.units.empty() ? Variant::Tsivy : job.units.front().variant();
    const nlohmann::json j = {{"kind", "pns"},
                              {"job", number},
                              {"variant", variant_name(v)},
                              {"units", units},
                              {"hash", job.settings.hash_mb},
                              {"pn2", job.settings.pn2},
                              {"graph", job.settings.graph},
                              {"tables", job.tables_dir},
                              {"fingerprints", pns_fingerprints(job)},
                              {"threads", job.threads}};
    std::string out = to_json_text(j);
    out.push_back('\0'); // JSON text never holds a raw zero byte
    const std::vector<ProvenBound> none;
    const auto& initial = job.settings.initial ? *job.settings.initial : none;
    put_bytes<std::uint64_t>(out, initial.size());
    for (const ProvenBound& b : initial) put_bound(out, b);
    return out;
}

PnsUnitJob decode_pns_job(const std::string& bytes, std::uint64_t& number,
                          std::vector<ProvenBound>& initial) {
    const std::size_t nul = bytes.find('\0');
    if (nul == std::string::npos) throw std::runtime_error("pns job: no bounds");
    const nlohmann::json j = nlohmann::json::parse(bytes.substr(0, nul));
    number = j.at("job").get<std::uint64_t>();
    const auto variant = parse_variant(j.at("variant").get<std::string>());
    if (!variant) throw std::runtime_error("pns job: unknown variant");
    PnsUnitJob job;
    for (const auto& u : j.at("units"))
        job.units.push_back(Position::from_string(u.get<std::string>(), *variant));
    job.settings.hash_mb = j.at("hash").get<std::size_t>();
    job.settings.pn2 = j.at("pn2").get<bool>();
    job.settings.graph = j.at("graph").get<long long>();
    job.tables_dir = j.at("tables").get<std::string>();
    job.threads = j.at("threads").get<int>();
    std::size_t at = nul + 1;
    const auto count = take_bytes<std::uint64_t>(bytes, at, "pns message");
    if (count > (bytes.size() - at) / 10) throw std::runtime_error("pns job: truncated bounds");
    initial.clear();
    initial.reserve(count);
    for (std::uint64_t k = 0; k < count; ++k) initial.push_back(take_bound(bytes, at));
    job.settings.initial = &initial;
    return job;
}

void append_pns_result(std::string& out, std::uint64_t unit, const PnsUnitResult& r) {
    put_bytes<std::uint64_t>(out, unit);
    put_bytes<std::int8_t>(out, std::int8_t(r.value.lo));
    put_bytes<std::int8_t>(out, std::int8_t(r.value.hi));
    put_bytes<std::uint64_t>(out, r.nodes);
    put_bytes<std::uint64_t>(out, r.table_hits);
    put_bytes<double>(out, r.seconds);
    put_bytes<std::uint8_t>(out, std::uint8_t(r.memory_full));
    put_bytes<std::uint64_t>(out, r.peak_tree);
    put_bytes<std::uint64_t>(out, r.proven.size());
    for (const ProvenBound& b : r.proven) put_bound(out, b);
}

std::vector<std::pair<std::uint64_t, PnsUnitResult>> decode_pns_results(const std::string& in) {
    std::vector<std::pair<std::uint64_t, PnsUnitResult>> out;
    std::size_t at = 0;
    while (at < in.size()) {
        const auto unit = take_bytes<std::uint64_t>(in, at, "pns message");
        PnsUnitResult r;
        r.value.lo = take_bytes<std::int8_t>(in, at, "pns message");
        r.value.hi = take_bytes<std::int8_t>(in, at, "pns message");
        r.nodes = take_bytes<std::uint64_t>(in, at, "pns message");
        r.table_hits = take_bytes<std::uint64_t>(in, at, "pns message");
        r.seconds = take_bytes<double>(in, at, "pns message");
        r.memory_full = take_bytes<std::uint8_t>(in, at, "pns message") != 0;
        r.peak_tree = take_bytes<std::uint64_t>(in, at, "pns message");
        const auto count = take_bytes<std::uint64_t>(in, at, "pns message");
        if (count > (in.size() - at) / 10) throw std::runtime_error("pns message: truncated");
        r.proven.reserve(count);
        for (std::uint64_t k = 0; k < count; ++k) r.proven.push_back(take_bound(in, at));
        out.emplace_back(unit, std::move(r));
    }
    return out;
}

} // namespace fanorona
