#include "tools/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tools/report/html.h"

namespace fanorona::report {

std::vector<double> nice_ticks(double lo, double hi, int target) {
    if (!(hi > lo)) return {lo};
    const double raw = (hi - lo) / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

namespace {

std::string tick_label(double v, double step) {
    const int decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    return num(v, std::min(decimals, 6));
}

// A line chart's plot area in pixels and the ranges of its axes: where a value is drawn.
struct ChartFrame {
    static constexpr double left = 64, right = 16, top = 30, bottom = 44;
    double pw = 0, ph = 0; // the plot area's width and height
    double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
    double ymin = xmin, ymax = -xmin;

    explicit ChartFrame(const Chart& c) : pw(c.width - left - right), ph(c.height - top - bottom) {}
    void take_y(double y) {
        if (std::isfinite(y)) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
    double X(double x) const { return left + (x - xmin) / (xmax - xmin) * pw; }
    double Y(double y) const { return top + (ymax - y) / (ymax - ymin) * ph; }
};

// Step 1 of chart_svg: the ranges of the series' finite points (x infinite when there is none).
void take_series_ranges(const Chart& c, ChartFrame& f) {
    for (const Series& s : c.series)
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            if (!std::isfinite(s.x[i]) || i >= s.y.size() || !std::isfinite(s.y[i])) continue;
            f.xmin = std::min(f.xmin, s.x[i]);
            f.xmax = std::max(f.xmax, s.x[i]);
            f.take_y(s.y[i]);
            if (i < s.low.size()) f.take_y(s.low[i]);
            if (i < s.high.size()) f.take_y(s.high[i]);
        }
}

// Step 2 of chart_svg: the reference lines in the y range, the ranges never empty, a margin
// above and below.
void pad_ranges(const Chart& c, ChartFrame& f) {
    for (const RefLine& l : c.lines) f.take_y(l.y);
    if (f.xmax == f.xmin) f.xmax = f.xmin + 1;
    if (f.ymax == f.ymin) f.ymin -= 1, f.ymax += 1;
    const double pad = (f.ymax - f.ymin) * 0.05;
    f.ymin -= pad;
    f.ymax += pad;
}

// Step 3 of chart_svg: grid and ticks, the frame and the axis labels.
void draw_axes(const Chart& c, const ChartFrame& f, std::string& out) {
    const double left = f.left, top = f.top, pw = f.pw, ph = f.ph;
    auto xt = nice_ticks(f.xmin, f.xmax);
    if (c.integer_x)
        xt.erase(std::remove_if(xt.begin(), xt.end(), [](double t) { return t != std::round(t); }),
                 xt.end());
    const auto yt = nice_ticks(f.ymin, f.ymax, 5);
    const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1,
                 ystep = yt.size() > 1 ? yt[1] - yt[0] : 1;
    for (double t : yt) {
        out += fmt("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", left,
                   left + pw, f.Y(t), f.Y(t));
        out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6,
                   f.Y(t) + 4) +
               tick_label(t, ystep) + "</text>";
    }
    for (double t : xt) {
        out += fmt("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", f.X(t),
                   f.X(t), top, top + ph);
        out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", f.X(t),
                   top + ph + 16) +
               tick_label(t, xstep) + "</text>";
    }
    out += fmt("<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", left,
               top, pw, ph);
    out += fmt("<text class=\"axis-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
               left + pw / 2, c.height - 6) +
           esc(c.x_label) + "</text>";
    out += fmt("<text class=\"axis-label\" transform=\"translate(14 %.1f) rotate(-90)\" "
               "text-anchor=\"middle\">",
               top + ph / 2) +
           esc(c.y_label) + "</text>";
}

// Step 4 of chart_svg: the bands (a series' low to high), then the reference lines.
void draw_bands_and_lines(const Chart& c, const ChartFrame& f, std::string& out) {
    for (const Series& s : c.series) {
        if (s.low.size() != s.x.size() || s.high.size() != s.x.size()) continue;
        std::string upper, lower;
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            if (!std::isfinite(s.low[i]) || !std::isfinite(s.high[i])) continue;
            upper += fmt("%.1f,%.1f ", f.X(s.x[i]), f.Y(s.high[i]));
            lower = fmt("%.1f,%.1f ", f.X(s.x[i]), f.Y(s.low[i])) + lower;
        }
        if (!upper.empty())
            out += "<polygon class=\"band\" fill=\"" + esc(s.color) + "\" points=\"" + upper +
                   lower + "\"/>";
    }
    for (const RefLine& l : c.lines) {
        out += fmt("<line class=\"ref\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                   "y2=\"%.1f\"/>",
                   esc(l.color).c_str(), f.left, f.left + f.pw, f.Y(l.y), f.Y(l.y));
        out += fmt("<text class=\"ref-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
                   "fill=\"%s\">",
                   f.left + f.pw - 4, f.Y(l.y) - 4, esc(l.color).c_str()) +
               esc(l.name) + "</text>";
    }
}

// Step 5 of chart_svg: the series on top (a break at each point that is not finite), then the
// legend.
void draw_series_and_legend(const Chart& c, const ChartFrame& f, std::string& out) {
    for (const Series& s : c.series) {
        std::string pts;
        auto flush = [&] {
            if (!pts.empty())
                out += "<polyline class=\"series\" stroke=\"" + esc(s.color) + "\" points=\"" +
                       pts + "\"/>";
            pts.clear();
        };
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
                flush();
                continue;
            }
            pts += fmt("%.1f,%.1f ", f.X(s.x[i]), f.Y(s.y[i]));
            if (s.markers)
                out += fmt("<circle class=\"marker\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
                           "r=\"3.5\"/>",
                           esc(s.color).c_str(), f.X(s.x[i]), f.Y(s.y[i]));
        }
        flush();
    }
    double lx = f.left + 8;
    for (const Series& s : c.series) {
        out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"4\" fill=\"%s\"/>", lx,
                   f.top + 8, esc(s.color).c_str());
        out += fmt("<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", lx + 16, f.top + 13) +
               esc(s.name) + "</text>";
        lx += 28 + 7.0 * double(s.name.size());
    }
}

} // namespace

std::string chart_svg(const Chart& c) {
    ChartFrame f(c);
    take_series_ranges(c, f);
    std::string out =
        fmt("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" role=\"img\"",
            c.width, c.height, c.width, c.height);
    if (!c.id.empty()) out += " id=\"" + esc(c.id) + "\"";
    out += " aria-label=\"" + esc(c.title) + "\"><title>" + esc(c.title) + "</title>";
    out +=
        fmt("<text class=\"chart-title\" x=\"%.1f\" y=\"18\">", f.left) + esc(c.title) + "</text>";
    if (!std::isfinite(f.xmin)) {
        out += fmt("<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no "
                   "data</text>",
                   f.left + f.pw / 2, f.top + f.ph / 2);
        return out + "</svg>";
    }
    pad_ranges(c, f);
    draw_axes(c, f, out);
    draw_bands_and_lines(c, f, out);
    draw_series_and_legend(c, f, out);
    return out + "</svg>";
}

} // namespace fanorona::report

namespace fanorona::report {

std::string bar_chart_svg(const std::string& id, const std::string& title,
                          const std::string& x_label, const std::vector<std::string>& labels,
                          const std::vector<double>& values, const std::string& color) {
    const int width = 640, height = 240;
    const double left = 56, right = 12, top = 30, bottom = 44;
    const double pw = width - left - right, ph = height - top - bottom;
    double vmax = 0;
    for (double v : values) vmax = std::max(vmax, v);
    std::string out = fmt("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                          "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"",
                          width, height, width, height);
    if (!id.empty()) out += " id=\"" + esc(id) + "\"";
    out += " aria-label=\"" + esc(title) + "\"><title>" + esc(title) + "</title>";
    out += fmt("<text class=\"chart-title\" x=\"%.1f\" y=\"18\">", left) + esc(title) + "</text>";
    auto ticks = nice_ticks(0, vmax > 0 ? vmax : 1, 4);
    if (ticks.size() > 1 && ticks.back() < vmax)
        ticks.push_back(2 * ticks.back() - ticks[ticks.size() - 2]);
    const double top_value = std::max(ticks.back(), vmax > 0 ? vmax : 1.0);
    const auto Y = [&](double v) { return top + ph - v / top_value * ph; };
    for (double t : ticks) {
        out += fmt("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", left,
                   left + pw, Y(t), Y(t));
        out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                   left - 6, Y(t) + 4, num(t, 0).c_str());
    }
    const std::size_t n = values.size();
    const double slot = n ? pw / double(n) : pw;
    const std::size_t label_every = std::max<std::size_t>(1, n / 12);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = left + slot * double(i);
        out += fmt("<rect class=\"bar\" fill=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                   "height=\"%.1f\"><title>%s: %s</title></rect>",
                   esc(color).c_str(), x + slot * 0.1, Y(values[i]), slot * 0.8,
                   top + ph - Y(values[i]), esc(i < labels.size() ? labels[i] : "").c_str(),
                   num(values[i], 0).c_str());
        if (i % label_every == 0 && i < labels.size())
            out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                       x + slot / 2, top + ph + 16) +
                   esc(labels[i]) + "</text>";
    }
    out += fmt("<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", left,
               top, pw, ph);
    out += fmt("<text class=\"axis-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
               left + pw / 2, height - 6) +
           esc(x_label) + "</text>";
    return out + "</svg>";
}

} // namespace fanorona::report

namespace fanorona::report {

std::string interval_chart_svg(const std::string& id, const std::string& title,
                               const std::string& y_label, const std::vector<IntervalPoint>& points,
                               double reference) {
    const int width = 640, height = 280;
    const double left = 64, right = 16, top = 30, bottom = 44;
    const double pw = width - left - right, ph = height - top - bottom;
    double ymin = reference, ymax = reference;
    for (const IntervalPoint& p : points)
        for (double v : {p.value, p.low, p.high})
            if (std::isfinite(p.value) && std::isfinite(v))
                ymin = std::min(ymin, v), ymax = std::max(ymax, v);
    if (ymax == ymin) ymin -= 1, ymax += 1;
    const double pad = (ymax - ymin) * 0.08;
    ymin -= pad;
    ymax += pad;
    const auto Y = [&](double y) { return top + (ymax - y) / (ymax - ymin) * ph; };
    std::string out = fmt("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                          "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"",
                          width, height, width, height);
    if (!id.empty()) out += " id=\"" + esc(id) + "\"";
    out += " aria-label=\"" + esc(title) + "\"><title>" + esc(title) + "</title>";
    out += fmt("<text class=\"chart-title\" x=\"%.1f\" y=\"18\">", left) + esc(title) + "</text>";
    const auto ticks = nice_ticks(ymin, ymax, 5);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
    for (double t : ticks) {
        out += fmt("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", left,
                   left + pw, Y(t), Y(t));
        out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6,
                   Y(t) + 4) +
               tick_label(t, step) + "</text>";
    }
    out += fmt("<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", left,
               top, pw, ph);
    out += fmt("<line class=\"ref\" stroke=\"#888888\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
               "y2=\"%.1f\"/>",
               left, left + pw, Y(reference), Y(reference));
    out += fmt("<text class=\"axis-label\" transform=\"translate(14 %.1f) rotate(-90)\" "
               "text-anchor=\"middle\">",
               top + ph / 2) +
           esc(y_label) + "</text>";
    const double slot = points.empty() ? pw : pw / double(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const IntervalPoint& p = points[i];
        const double x = left + slot * (double(i) + 0.5);
        out += fmt("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
                   top + ph + 16) +
               esc(p.label) + "</text>";
        if (!std::isfinite(p.value)) continue;
        const std::string color = esc(p.color);
        out += "<g class=\"estimate\"><title>" + esc(p.label) + ": " + signed_num(p.value) + " [" +
               signed_num(p.low) + ", " + signed_num(p.high) + "]" +
               (p.note.empty() ? "" : " " + esc(p.note)) + "</title>";
        if (std::isfinite(p.low) && std::isfinite(p.high))
            out += fmt("<path class=\"error-bar\" stroke=\"%s\" d=\"M%.1f %.1fV%.1fM%.1f "
                       "%.1fH%.1fM%.1f %.1fH%.1f\"/>",
                       color.c_str(), x, Y(p.low), Y(p.high), x - 7, Y(p.low), x + 7, x - 7,
                       Y(p.high), x + 7);
        out += fmt("<circle class=\"marker\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/>",
                   color.c_str(), x, Y(p.value));
        out += fmt("<text class=\"value-label\" x=\"%.1f\" y=\"%.1f\">", x + 10, Y(p.value) + 4) +
               signed_num(p.value) + "</text></g>";
    }
    return out + "</svg>";
}

} // namespace fanorona::report
