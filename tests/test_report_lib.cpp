// The report's building blocks (tools/report: html.h, svg_chart.h, svg_board.h) on their own:
// escaping, number formatting, and charts and boards that are well-formed SVG with finite
// coordinates inside their view box, for edge cases too (no data, one point, a flat series, gaps).
// tests/test_report.cpp checks the whole page through `fanorona report`.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/board/movegen.h"
#include "core/board/notation.h"
#include "tests/rules_helpers.h"
#include "tools/report/html.h"
#include "tools/report/svg_board.h"
#include "tools/report/svg_chart.h"

using namespace fanorona;
using namespace fanorona::report;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':';
}

// "" when `svg` is one well-formed element: tags nest and close, attribute values are quoted and
// hold no '<', text holds no raw '<' or '>' and every '&' starts an entity; otherwise what is
// wrong and where.
std::string xml_problem(const std::string& svg) {
    static const std::vector<std::string> entities = {"&amp;", "&lt;",    "&gt;",  "&quot;",
                                                      "&#39;", "&ndash;", "&rarr;"};
    std::vector<std::string> stack;
    std::size_t i = 0, roots = 0;
    const auto at = [&] { return " at " + std::to_string(i) + ": " + svg.substr(i, 60); };
    const auto name = [&] {
        const std::size_t from = i;
        while (i < svg.size() && name_char(svg[i])) ++i;
        return svg.substr(from, i - from);
    };
    while (i < svg.size()) {
        if (svg[i] == '<' && i + 1 < svg.size() && svg[i + 1] == '/') {
            i += 2;
            const std::string n = name();
            if (stack.empty() || stack.back() != n || i >= svg.size() || svg[i] != '>')
                return "unexpected closing tag" + at();
            stack.pop_back();
            ++i;
        } else if (svg[i] == '<') {
            ++i;
            const std::string n = name();
            if (n.empty()) return "bad tag" + at();
            if (stack.empty()) ++roots;
            while (true) {
                const std::size_t space = i;
                while (i < svg.size() && svg[i] == ' ') ++i;
                if (i >= svg.size()) return "unterminated tag";
                if (svg[i] == '>' || svg.compare(i, 2, "/>") == 0) break;
                if (i == space) return "no space before an attribute" + at();
                if (name().empty() || svg.compare(i, 2, "=\"") != 0) return "bad attribute" + at();
                const std::size_t close = svg.find('"', i + 2);
                if (close == std::string::npos) return "unterminated attribute" + at();
                if (svg.find('<', i + 2) < close) return "'<' in an attribute" + at();
                i = close + 1;
            }
            if (svg[i] == '>') {
                stack.push_back(n);
                ++i;
            } else {
                i += 2;
            }
        } else {
            if (stack.empty()) return "text outside the element" + at();
            if (svg[i] == '>') return "raw '>'" + at();
            if (svg[i] == '&' &&
                std::none_of(entities.begin(), entities.end(), [&](const std::string& e) {
                    return svg.compare(i, e.size(), e) == 0;
                }))
                return "bare '&'" + at();
            ++i;
        }
    }
    if (!stack.empty()) return "unclosed <" + stack.back() + ">";
    return roots == 1 ? "" : "not one root element";
}

// Every number in the coordinate attributes of `svg`, and the view box's width and height.
struct Coordinates {
    std::vector<double> xs, ys;
    double width = 0, height = 0;
};

// The value of each attribute `name` in `svg`.
std::vector<std::string> attribute_values(const std::string& svg, const std::string& name) {
    std::vector<std::string> out;
    const std::string key = " " + name + "=\"";
    for (auto p = svg.find(key); p != std::string::npos; p = svg.find(key, p + 1)) {
        const std::size_t from = p + key.size();
        out.push_back(svg.substr(from, svg.find('"', from) - from));
    }
    return out;
}

Coordinates coordinates(const std::string& svg) {
    Coordinates c;
    const auto box = attribute_values(svg, "viewBox");
    REQUIRE(box.size() == 1);
    std::istringstream in(box[0]);
    double x0 = -1, y0 = -1;
    in >> x0 >> y0 >> c.width >> c.height;
    REQUIRE((x0 == 0 && y0 == 0 && c.width > 0 && c.height > 0));
    for (const char* n : {"x", "x1", "x2", "cx", "width"})
        for (const std::string& v : attribute_values(svg, n)) c.xs.push_back(std::stod(v));
    for (const char* n : {"y", "y1", "y2", "cy", "height"})
        for (const std::string& v : attribute_values(svg, n)) c.ys.push_back(std::stod(v));
    for (const std::string& v : attribute_values(svg, "points")) {
        std::istringstream pts(v);
        for (std::string pair; pts >> pair;) {
            const std::size_t comma = pair.find(',');
            REQUIRE(comma != std::string::npos);
            c.xs.push_back(std::stod(pair.substr(0, comma)));
            c.ys.push_back(std::stod(pair.substr(comma + 1)));
        }
    }
    return c;
}

// The chart is well-formed, its numbers are finite and inside its view box.
void check_drawing(const std::string& svg) {
    INFO(svg);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.find("nan") == std::string::npos);
    CHECK(svg.find("inf") == std::string::npos);
    const Coordinates c = coordinates(svg);
    for (double x : c.xs) {
        CHECK(std::isfinite(x));
        CHECK(x >= 0);
        CHECK(x <= c.width);
    }
    for (double y : c.ys) {
        CHECK(std::isfinite(y));
        CHECK(y >= 0);
        CHECK(y <= c.height);
    }
}

Series series(std::vector<double> x, std::vector<double> y) {
    return Series{"s", "#123456", std::move(x), std::move(y), {}, {}};
}

} // namespace

TEST_CASE("esc makes text safe for element content and attributes", "[report][reportlib]") {
    CHECK(esc("") == "");
    CHECK(esc("plain text 123") == "plain text 123");
    CHECK(esc("<script>alert('x') & \"y\"</script>") ==
          "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
    CHECK(esc("&amp;") == "&amp;amp;"); // escaped again: the text is shown as written
    CHECK(esc("caf\xc3\xa9 \xe2\x86\x92") == "caf\xc3\xa9 \xe2\x86\x92"); // UTF-8 unchanged
    CHECK(esc(std::string("a\0b", 3)) == std::string("a\0b", 3));
    CHECK(missing_note("no <file> & none") ==
          "<p class=\"missing\">no &lt;file&gt; &amp; none</p>\n");
}

TEST_CASE("num, signed_num and percent: no negative zero, a dash for what is not finite",
          "[report][reportlib]") {
    CHECK(num(3.14159) == "3.1");
    CHECK(num(3.14159, 3) == "3.142");
    CHECK(num(2.5, 0) == "2"); // printf's rounding (to even)
    CHECK(num(-0.04) == "0.0");
    CHECK(num(-0.0, 0) == "0");
    CHECK(num(-0.4, 0) == "0");
    CHECK(num(-0.06) == "-0.1");
    CHECK(num(kNaN) == "&ndash;");
    CHECK(num(kInf) == "&ndash;");
    CHECK(num(-kInf) == "&ndash;");
    CHECK(signed_num(12.34) == "+12.3");
    CHECK(signed_num(-1) == "-1.0");
    CHECK(signed_num(0) == "0.0");
    CHECK(signed_num(-0.01) == "0.0");
    CHECK(signed_num(0.04, 2) == "+0.04");
    CHECK(signed_num(kNaN) == "&ndash;");
    CHECK(report::percent(0.5) == "50.0%");
    CHECK(report::percent(1.0 / 3, 2) == "33.33%");
    CHECK(report::percent(0) == "0.0%");
    CHECK(report::percent(kNaN) == "&ndash;");
}

TEST_CASE("fmt and tag", "[report][reportlib]") {
    CHECK(fmt("%d-%s", 7, "x") == "7-x");
    CHECK(fmt("%s", "") == "");
    const std::string long_text(5000, 'a');
    CHECK(fmt("<%s>", long_text.c_str()) == "<" + long_text + ">"); // no fixed buffer
    CHECK(tag("td", "", "1") == "<td>1</td>");
    CHECK(tag("td", "class=\"num\"", "") == "<td class=\"num\"></td>");
}

TEST_CASE("nice_ticks: round steps that cover the range", "[report][reportlib]") {
    CHECK(nice_ticks(0, 10) == std::vector<double>{0, 2, 4, 6, 8, 10});
    const std::vector<double> tenths = nice_ticks(0, 1, 5);
    REQUIRE(tenths.size() == 6);
    for (std::size_t i = 0; i < tenths.size(); ++i) CHECK(tenths[i] == Approx(0.2 * double(i)));
    CHECK(nice_ticks(3, 3) == std::vector<double>{3});
    CHECK(nice_ticks(5, 1) == std::vector<double>{5}); // an empty range
    CHECK(nice_ticks(kNaN, 1).size() == 1);
    for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{
             {-7.3, 12.9}, {0.001, 0.0047}, {-250, -3}, {1e6, 3.7e6}, {-1, 1}}) {
        const std::vector<double> t = nice_ticks(lo, hi);
        INFO(lo << " .. " << hi);
        REQUIRE(t.size() >= 2);
        CHECK(t.size() <= 13);
        CHECK(t.front() >= lo - 1e-12);
        CHECK(t.back() <= hi + 1e-12);
        const double step = t[1] - t[0];
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        CHECK((std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
               std::abs(mantissa - 5) < 1e-9));
        CHECK(t.front() - step < lo); // nothing left out at either end
        CHECK(t.back() + step > hi);
        for (double v : t) CHECK((v == 0.0 || std::abs(v) > step * 1e-6)); // zero is exactly 0
    }
}

TEST_CASE("a chart without finite data says so and stays well-formed", "[report][reportlib]") {
    Chart empty;
    empty.id = "c1";
    empty.title = "Loss <by> epoch & more";
    check_drawing(chart_svg(empty));
    CHECK(chart_svg(empty).find(">no data</text>") != std::string::npos);
    CHECK(chart_svg(empty).find("<title>Loss &lt;by&gt; epoch &amp; more</title>") !=
          std::string::npos);
    CHECK(chart_svg(empty).find("id=\"c1\"") != std::string::npos);

    Chart empties = empty;
    empties.series = {series({}, {}), series({1, 2}, {kNaN, kInf})};
    empties.lines = {RefLine{"bound", "#f00", 2.9}};
    CHECK(chart_svg(empties).find(">no data</text>") != std::string::npos);
    check_drawing(chart_svg(empties));
    CHECK(count(chart_svg(empties), "<polyline") == 0);
}

TEST_CASE("charts of one point, a flat series and a series with gaps", "[report][reportlib]") {
    Chart one;
    one.title = "one";
    one.series = {series({5}, {0.25})};
    const std::string a = chart_svg(one);
    check_drawing(a);
    CHECK(count(a, "<polyline class=\"series\"") == 1);
    CHECK(a.find("no data") == std::string::npos);

    Chart flat;
    flat.series = {series({0, 1, 2, 3}, {7, 7, 7, 7})};
    check_drawing(chart_svg(flat));

    // A NaN breaks the line in two; points without a y value are left out.
    Chart gaps;
    gaps.x_label = "games";
    gaps.y_label = "Elo";
    gaps.series = {series({0, 1, 2, 3, 4, 5}, {1, 2, kNaN, 4, 5})};
    const std::string g = chart_svg(gaps);
    check_drawing(g);
    CHECK(count(g, "<polyline class=\"series\"") == 2);

    // Huge and tiny values, negative x.
    Chart wide;
    wide.series = {series({-1e9, 0, 1e9}, {1e-12, -3e-12, 2e-12})};
    check_drawing(chart_svg(wide));
}

TEST_CASE("bands, reference lines and legends", "[report][reportlib]") {
    Chart c;
    c.id = "elo\"chart";
    c.title = "Elo";
    Series s = series({0, 10, 20}, {0, 15, 22});
    s.name = "A & <B>";
    s.color = "#4a7ab8";
    s.low = {-10, 5, kNaN};
    s.high = {10, 25, kNaN};
    Series other = series({0, 10, 20}, {3, 4, 5});
    other.low = {1}; // not the length of x: no band
    other.high = {9};
    c.series = {s, other};
    c.lines = {RefLine{"H1 <accepted>", "#2a2", 2.94}, RefLine{"H0", "#a22", -2.94}};
    const std::string svg = chart_svg(c);
    check_drawing(svg);
    CHECK(count(svg, "<polygon class=\"band\"") == 1);
    CHECK(count(svg, "<line class=\"ref\"") == 2);
    CHECK(svg.find(">H1 &lt;accepted&gt;</text>") != std::string::npos);
    CHECK(svg.find(">A &amp; &lt;B&gt;</text>") != std::string::npos);
    CHECK(svg.find("id=\"elo&quot;chart\"") != std::string::npos);
    // A reference line outside the data widens the range to show it.
    Chart far = c;
    far.lines = {RefLine{"far", "#000", 1000}};
    check_drawing(chart_svg(far));
}

TEST_CASE("bar charts: empty, zero and more values than labels", "[report][reportlib]") {
    const std::string none = bar_chart_svg("b0", "none", "x", {}, {});
    check_drawing(none);
    CHECK(count(none, "class=\"bar\"") == 0);

    const std::string zero = bar_chart_svg("b1", "zero", "x", {"a"}, {0});
    check_drawing(zero);
    CHECK(count(zero, "class=\"bar\"") == 1);

    const std::string more = bar_chart_svg("b2", "t", "length <plies>", {"1", "<2>"}, {3, 9, 4});
    check_drawing(more);
    CHECK(count(more, "class=\"bar\"") == 3);
    CHECK(more.find("<title>&lt;2&gt;: 9</title>") != std::string::npos);
    CHECK(more.find(">length &lt;plies&gt;</text>") != std::string::npos);

    std::vector<double> many(200);
    std::vector<std::string> labels(200);
    for (std::size_t i = 0; i < many.size(); ++i) {
        many[i] = double(i % 17) * 1000.5;
        labels[i] = std::to_string(i);
    }
    const std::string big = bar_chart_svg("b3", "many", "x", labels, many, "#000");
    check_drawing(big);
    CHECK(count(big, "class=\"bar\"") == 200);
    CHECK(count(big, "text-anchor=\"middle\">") < 30); // labels thinned out
}

TEST_CASE("board diagrams: every piece, the move's path and its captures", "[report][reportlib]") {
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const Position start = Position::start(v);
        const std::string svg = board_svg(start);
        check_drawing(svg);
        CHECK(count(svg, "class=\"piece white\"") ==
              std::size_t(popcount(start.pieces(Color::White))));
        CHECK(count(svg, "class=\"piece black\"") ==
              std::size_t(popcount(start.pieces(Color::Black))));
        CHECK(svg.find("data-position=\"" + esc(start.to_string()) + "\"") != std::string::npos);
        CHECK(svg.find("class=\"move\"") == std::string::npos);
        CHECK(svg.find("class=\"captured\"") == std::string::npos);
    }
    // A capture by approach: the path from d3 to e3, the captured pieces crossed out.
    const Position start = Position::start(Variant::Tsivy);
    const Rules rules = test::rules_for(RuleSet::Standard);
    const Move m = parse_move(start, rules, "d3e3A");
    REQUIRE(m.captured != 0);
    Position after = start;
    (void)after.make_move(m);
    const BoardMarks marks = move_marks(start, rules, m);
    CHECK(marks.path.size() == 2);
    CHECK(marks.path.front() == m.from);
    CHECK(marks.path.back() == m.to);
    CHECK(marks.captured == m.captured);
    CHECK(marks.captured_color == Color::Black);
    const std::string svg = board_svg(after, marks, "after <d3e3A>");
    check_drawing(svg);
    CHECK(count(svg, "<g class=\"captured\">") == std::size_t(popcount(m.captured)));
    CHECK(count(svg, "class=\"arrow\"") == 1);
    CHECK(svg.find("<title>after &lt;d3e3A&gt;</title>") != std::string::npos);
    // Smaller and larger spacings stay inside their view box.
    check_drawing(board_svg(after, marks, "", 12));
    check_drawing(board_svg(after, marks, "", 80));
}
