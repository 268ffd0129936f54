// The step-size and lambda schedules of `fanorona train` (tuner/net/lr_schedule.h).

#include "tuner/net/lr_schedule.h"

#include <charconv>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <system_error>

namespace fanorona {

namespace {

const char* const kShapes = "exp, step:EVERY:GAMMA (e.g. step:10:0.5) or cosine";

[[noreturn]] void bad_schedule(const std::string& text, const std::string& why) {
    throw std::invalid_argument("--lr-schedule: '" + text + "' " + why + " (expected " + kShapes +
                                ")");
}

// The whole of `s` as a number of type T, or false.
template <class T> bool parse_whole(const std::string& s, T& out) {
    const char* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end && !s.empty();
}

} // namespace

std::string round_trip_number(double x) {
    char buf[64];
    const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, x);
    return ec == std::errc() ? std::string(buf, p) : std::string("nan");
}

double LrSchedule::epoch_lr(int epoch) const {
    switch (shape) {
    case Shape::Exp: {
        // Multiplied epoch by epoch (not pow): the step sizes the trainer used before schedules,
        // to the last bit, so networks trained then rebuild byte for byte.
        double x = lr;
        for (int e = 1; e < epoch; ++e) x *= decay;
        return x;
    }
    case Shape::Step:
        return lr * std::pow(gamma, double((epoch - 1) / every));
    case Shape::Cosine:
        return lr_min + (lr - lr_min) *
                            (1 + std::cos(std::numbers::pi * double(epoch - 1) / double(epochs))) /
                            2;
    }
    return lr;
}

double LrSchedule::warmup_factor(std::uint64_t step) const {
    return step < warmup ? double(step) / double(warmup) : 1.0;
}

double LrSchedule::at(int epoch, std::uint64_t step) const {
    return epoch_lr(epoch) * warmup_factor(step);
}

std::string LrSchedule::to_text() const {
    switch (shape) {
    case Shape::Exp:
        return "exp";
    case Shape::Step:
        return "step:" + std::to_string(every) + ":" + round_trip_number(gamma);
    case Shape::Cosine:
        return "cosine";
    }
    return "exp";
}

LrSchedule LrSchedule::parse(const std::string& text) {
    LrSchedule s;
    if (text == "exp") return s;
    if (text == "cosine") {
        s.shape = Shape::Cosine;
        return s;
    }
    if (text.rfind("step:", 0) != 0) bad_schedule(text, "is not a schedule");
    const std::string rest = text.substr(5);
    const std::size_t colon = rest.find(':');
    if (colon == std::string::npos) bad_schedule(text, "lacks GAMMA");
    s.shape = Shape::Step;
    if (!parse_whole(rest.substr(0, colon), s.every) || s.every < 1)
        bad_schedule(text, "has EVERY '" + rest.substr(0, colon) + "', not a positive integer");
    const std::string gamma = rest.substr(colon + 1);
    if (!parse_whole(gamma, s.gamma) || !std::isfinite(s.gamma) || !(s.gamma > 0) ||
        !(s.gamma <= 1))
        bad_schedule(text, "has GAMMA '" + gamma + "', not a number in (0, 1]");
    return s;
}

void LrSchedule::check() const {
    if (!std::isfinite(lr) || !(lr > 0))
        throw std::invalid_argument("--lr must be a positive finite number");
    if (!std::isfinite(decay) || !(decay >= 0 && decay <= 1))
        throw std::invalid_argument("--lr-decay must be in [0, 1]");
    if (!std::isfinite(lr_min) || !(lr_min >= 0 && lr_min <= lr))
        throw std::invalid_argument("--lr-min must be in [0, --lr]");
    if (shape == Shape::Step && (every < 1 || !std::isfinite(gamma) || !(gamma > 0 && gamma <= 1)))
        throw std::invalid_argument("--lr-schedule: step:EVERY:GAMMA needs EVERY >= 1 and GAMMA "
                                    "in (0, 1]");
    if (epochs < 1) throw std::invalid_argument("--epochs must be at least 1");
}

double lambda_at(double start, double end, int epoch, int epochs) {
    if (epochs <= 1 || start == end) return start;
    return start + (end - start) * double(epoch - 1) / double(epochs - 1);
}

} // namespace fanorona
