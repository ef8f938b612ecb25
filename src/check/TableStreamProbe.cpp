// The stream's probe of a float32-angle match for exact values (TableStreamProbe.h).
#include "TableStreamProbe.h"

#include "check/CellTolerance.h"

#include <algorithm>
#include <cmath>

namespace posenc::TableCheck {

namespace {

// A cell float32 angles move: its float32-angle allowance this many times its exact tolerance. The
// angle's rounding moves such a cell by an eighth of the allowance or so, so a table of float32
// angles holds the exact value in about 1 % of them at most.
constexpr double kMovedByAllowance = 800.0;
// Of a PairReference: a cell whose angle's rounding unit (ulp(p w) >= 2^-24 p w) times its slope
// is this many times its exact tolerance, which keeps the exact value with a chance of 1 % at most
// (a cell near a crest, slope ~0, is not moved at all: 8-column tables at L 4096 hold many).
constexpr double kMovedBySlope = 200.0;

} // namespace

ExactValuesProbe::ExactValuesProbe(const CellTolerance &tolerance, std::int64_t cols)
    : m_tolerance(tolerance)
{
    if (cols <= 0 || std::int64_t(tolerance.angleRounding.size()) < cols)
        return;
    m_rounding.assign(tolerance.angleRounding.begin(), tolerance.angleRounding.begin() + cols);
    for (std::int64_t c = 0; c < cols; ++c) {
        const auto column = std::size_t(c);
        m_tested.push_back(column < tolerance.exactAngle.size() && tolerance.exactAngle[column] ? 0.0 : 1.0);
    }
}

ExactProbe ExactValuesProbe::count(const TableReference::Tile &t, const float *rows, std::int64_t row0,
                                   std::int64_t cols, const TableReference &reference) const
{
    const CellTolerance &tolerance = m_tolerance;
    ExactProbe out;
    for (std::int64_t r = 0; r < t.rows; ++r) {
        if (!reference.compared(t.row0 + r))
            continue;
        const double position = std::fabs(double(reference.position(t.row0 + r)));
        const float *cells = rows + (t.row0 + r - row0) * cols + t.col0;
        const float *exact = t.values + r * t.stride;
        if (!m_rounding.empty()) {
            // A row at a time, vectorised: the same counts as the cells one by one below.
            probeExactValues(cells, exact, t.cols, m_rounding.data() + t.col0, m_tested.data() + t.col0, position,
                             tolerance.relative, tolerance.absolute, tolerance.amplitude, kMovedBySlope, out);
            continue;
        }
        for (std::int64_t c = 0; c < t.cols; ++c) {
            const double limit = tolerance.relative * std::fabs(double(exact[c])) + tolerance.absolute;
            const auto column = std::size_t(t.col0 + c); // at frequency 1 exact in float32 angles too
            if (column < tolerance.exactAngle.size() && tolerance.exactAngle[column])
                continue;
            if (column < tolerance.angleRounding.size()) {
                const double v = double(exact[c]) / tolerance.amplitude;
                const double slope = std::sqrt(std::max(0.0, 1.0 - v * v));
                if (tolerance.angleRounding[column] * position * slope < kMovedBySlope * limit)
                    continue;
            } else if (tolerance.perPosition[column] * position <= kMovedByAllowance * limit) {
                continue;
            }
            ++out.moved;
            if (std::fabs(double(cells[c]) - double(exact[c])) <= limit)
                ++out.exact;
        }
    }
    return out;
}

} // namespace posenc::TableCheck
