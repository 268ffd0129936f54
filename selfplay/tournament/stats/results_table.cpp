#include "selfplay/tournament/stats/results_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/common/text.h"
#include "selfplay/tournament/stats/stats_json.h"

namespace fanorona::stats {

namespace {

// "+12.3" / "-4.0", or "-" when the value does not exist.
std::string signed_value(double x, int decimals) {
    if (std::isnan(x)) return "-";
    if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
    return format("%+.*f", decimals, x);
}

std::string value(double x, int decimals) {
    if (std::isnan(x)) return "-";
    if (std::isinf(x)) return "inf";
    return format("%.*f", decimals, x);
}

} // namespace

RatingOptions rating_options(const std::vector<std::string>& names,
                             std::optional<double> prior_draws, const std::string& anchor) {
    RatingOptions o;
    if (prior_draws && !(*prior_draws >= 0 && std::isfinite(*prior_draws)))
        throw std::invalid_argument("--prior-draws " + format("%g", *prior_draws) +
                                    ": expected a number of draws, 0 or more");
    o.prior_draws = prior_draws;
    if (anchor.empty()) return o;
    auto find = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == name) return i;
        return std::nullopt;
    };
    std::string name = anchor;
    if (!find(anchor)) // NAME=ELO (a name may itself hold '=': the whole text is tried first)
        if (const auto eq = anchor.rfind('='); eq != std::string::npos) {
            name = anchor.substr(0, eq);
            const std::string value = anchor.substr(eq + 1);
            std::size_t used = 0;
            double elo = NAN;
            try {
                elo = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (value.empty() || used != value.size() || !std::isfinite(elo))
                throw std::invalid_argument("--anchor " + anchor +
                                            ": expected NAME or NAME=ELO "
                                            "with ELO a number");
            o.anchor_elo = elo;
        }
    o.anchor = find(name);
    if (!o.anchor) {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        throw std::invalid_argument("--anchor " + anchor + ": no player called " + name + " (" +
                                    list + ")");
    }
    return o;
}

ResultsTable make_results_table(const PairwiseResults& results, const RatingOptions& options) {
    ResultsTable t;
    t.names = results.names();
    t.options = options;
    try {
        t.ratings = fit_ratings(results, options);
    } catch (const std::invalid_argument& e) {
        t.ratings_error = e.what();
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
        PlayerRow row;
        row.player = i;
        row.name = results.names()[i];
        row.total = results.total(i);
        if (row.total.games() > 0) row.score = row.total.points() / double(row.total.games());
        if (t.ratings) {
            row.elo = t.ratings->elo[i];
            row.error95 = t.ratings->error95[i];
        }
        t.rows.push_back(row);
    }
    // Best first; ties keep the input order.
    std::sort(t.rows.begin(), t.rows.end(), [&](const PlayerRow& x, const PlayerRow& y) {
        const auto key = [&](const PlayerRow& r) {
            return t.ratings ? r.elo : std::isnan(r.score) ? -1.0 : r.score;
        };
        if (key(x) != key(y)) return key(x) > key(y);
        return x.player < y.player;
    });
    for (std::size_t a = 0; a < results.size(); ++a)
        for (std::size_t b = a + 1; b < results.size(); ++b) {
            PairingRow p;
            p.a = a;
            p.b = b;
            p.wdl = results.wdl(a, b);
            p.penta = results.pentanomial(a, b);
            if (p.wdl.games() == 0 && p.penta.pairs() == 0) continue;
            p.estimate = p.penta.pairs() > 0 ? estimate_elo(p.penta) : estimate_elo(p.wdl);
            t.pairings.push_back(p);
        }
    return t;
}

std::string render_text(const ResultsTable& t) {
    std::size_t width = 6;
    for (const auto& n : t.names) width = std::max(width, n.size());
    const int w = int(width);
    // "Rating": the fitted rating on the Elo scale; "Elo (pair)" below: a pairing's own match Elo.
    std::string s = format("%4s  %-*s %9s %8s %7s %7s %7s\n", "Rank", w, "Player", "Rating",
                           "+-95%", "Games", "Score", "Draws");
    int rank = 0;
    for (const PlayerRow& r : t.rows) {
        const double draws =
            r.total.games() ? double(r.total.draws) / double(r.total.games()) : NAN;
        s += format("%4d  %-*s %9s %8s %7llu %7s %7s\n", ++rank, w, r.name.c_str(),
                    signed_value(r.elo, 1).c_str(), value(r.error95, 1).c_str(),
                    static_cast<unsigned long long>(r.total.games()), percent(r.score).c_str(),
                    percent(draws).c_str());
    }
    if (t.ratings) {
        const std::string base = t.options.anchor ? t.names[*t.options.anchor] + " fixed at " +
                                                        format("%g", t.options.anchor_elo)
                                                  : std::string("mean 0");
        s += format("Ratings (%s) on the Elo scale, %s: a difference of two ratings is their "
                    "expected Elo; 95%% intervals from %s variance",
                    std::string(rating_model_name(t.ratings->model)).c_str(), base.c_str(),
                    std::string(error_model_name(t.ratings->errors)).c_str());
        if (t.ratings->model == RatingModel::Davidson)
            s += format(", draw parameter nu %.3f", t.ratings->draw_nu);
        if (t.ratings->prior_draws > 0)
            s += format(", %g prior draws per pairing", t.ratings->prior_draws);
        if (!t.ratings->default_prior_reason.empty())
            s += " (by default: " + t.ratings->default_prior_reason + "; --prior-draws 0 for none)";
        s += ".\n";
    } else {
        s += "No ratings: " + t.ratings_error + ".\n";
    }
    if (t.pairings.empty()) return s;
    s += "\nPairings (first player's view; statistics from game pairs when there are any):\n";
    for (const PairingRow& p : t.pairings) {
        const EloEstimate& e = p.estimate;
        s += format("  %s vs %s: %llu games, W %llu D %llu L %llu, score %s, Elo (pair) %s +- "
                    "%s, nElo %s +- %s, LOS %s",
                    t.names[p.a].c_str(), t.names[p.b].c_str(),
                    static_cast<unsigned long long>(p.wdl.games()),
                    static_cast<unsigned long long>(p.wdl.wins),
                    static_cast<unsigned long long>(p.wdl.draws),
                    static_cast<unsigned long long>(p.wdl.losses), percent(e.score).c_str(),
                    signed_value(e.elo, 1).c_str(), value(e.elo_error95, 1).c_str(),
                    signed_value(e.nelo, 1).c_str(), value(e.nelo_error95, 1).c_str(),
                    percent(e.los).c_str());
        if (p.penta.pairs() > 0) s += ", pentanomial [" + to_string(p.penta) + "]";
        s += "\n";
    }
    return s;
}

nlohmann::json render_json(const ResultsTable& t) {
    nlohmann::json j;
    j["model"] = t.ratings ? nlohmann::json(std::string(rating_model_name(t.ratings->model)))
                           : nlohmann::json(nullptr);
    j["errors"] = std::string(error_model_name(t.options.errors));
    j["anchor"] = t.options.anchor ? nlohmann::json(t.names[*t.options.anchor]) : nullptr;
    j["anchor_elo"] = t.options.anchor ? nlohmann::json(t.options.anchor_elo) : nullptr;
    // The prior draws of the fit (given, or the default one when needed), and why the default.
    j["prior_draws"] = t.ratings ? t.ratings->prior_draws : t.options.prior_draws.value_or(0);
    if (t.ratings && !t.ratings->default_prior_reason.empty())
        j["default_prior_reason"] = t.ratings->default_prior_reason;
    if (t.ratings) {
        j["draw_nu"] = t.ratings->draw_nu;
        j["log_likelihood"] = t.ratings->log_likelihood;
    } else {
        j["ratings_error"] = t.ratings_error;
    }
    j["players"] = nlohmann::json::array();
    int rank = 0;
    for (const PlayerRow& r : t.rows)
        j["players"].push_back({{"rank", ++rank},
                                {"name", r.name},
                                {"elo", json_number(r.elo)},
                                {"error95", json_number(r.error95)},
                                {"games", r.total.games()},
                                {"wdl", to_json(r.total)},
                                {"score", json_number(r.score)}});
    j["pairings"] = nlohmann::json::array();
    for (const PairingRow& p : t.pairings) {
        nlohmann::json row = {{"a", t.names[p.a]},
                              {"b", t.names[p.b]},
                              {"wdl", to_json(p.wdl)},
                              {"pentanomial", to_json(p.penta)},
                              {"stats", to_json(p.estimate)}};
        if (t.ratings) row["rating_difference_error95"] = t.ratings->difference_error95(p.a, p.b);
        j["pairings"].push_back(row);
    }
    return j;
}

} // namespace fanorona::stats
