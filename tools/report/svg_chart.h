#pragma once
// Line charts as inline SVG: axes with round-number ticks, one polyline per series, optional
// shaded bands (an interval around a series) and horizontal reference lines.

#include <string>
#include <vector>

namespace fanorona::report {

// One line of a chart. Points are (x, y); non-finite y values break the line.
struct Series {
    std::string name;
    std::string color;
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> low; // optional: a shaded band from low to high (same length as x)
    std::vector<double> high;
    bool markers = false; // a dot on every point (a series of one point is only its dot)
};

// A horizontal line across the chart, e.g. an SPRT bound.
struct RefLine {
    std::string name;
    std::string color;
    double y = 0;
};

// Everything a chart shows. `id` becomes the <svg>'s id.
struct Chart {
    std::string id;
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<Series> series;
    std::vector<RefLine> lines;
    int width = 640;
    int height = 280;
    bool integer_x = false; // x ticks at whole numbers only (iterations, epochs)
};

// Ticks at round numbers (1, 2 or 5 times a power of ten) covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int target = 6);

// The chart as <svg class="chart">; a chart with no finite point says so in its middle.
std::string chart_svg(const Chart& chart);

} // namespace fanorona::report

namespace fanorona::report {

// A bar chart of counts: one bar per label, as <svg class="chart">.
std::string bar_chart_svg(const std::string& id, const std::string& title,
                          const std::string& x_label, const std::vector<std::string>& labels,
                          const std::vector<double>& values, const std::string& color = "#4a7ab8");

} // namespace fanorona::report

namespace fanorona::report {

// One estimate with its interval (e.g. a match's Elo), drawn as a dot with an error bar; `note`
// becomes its tooltip after the numbers.
struct IntervalPoint {
    std::string label;
    double value = 0;
    double low = 0;
    double high = 0;
    std::string color = "#2f6db8";
    std::string note;
};

// Estimates side by side, one per label along the x axis, with a dashed line at `reference`, as
// <svg class="chart">. Non-finite values are left out (their label stays).
std::string interval_chart_svg(const std::string& id, const std::string& title,
                               const std::string& y_label, const std::vector<IntervalPoint>& points,
                               double reference = 0);

} // namespace fanorona::report
