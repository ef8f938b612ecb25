#include "TableRatio.h"

#include "check/CellTolerance.h"
#include "check/rope/RopeRowPositions.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

// Rows read at once: at most 256, and about 2^20 cells of each table (a few MB whatever the width).
std::int64_t ratioChunk(std::int64_t cols)
{
    return std::clamp<std::int64_t>((std::int64_t(1) << 20) / std::max<std::int64_t>(cols, 1), 1, 256);
}

// Each chunk of rows of both tables, handed to `each(t, r, count)`; false where a row cannot be read.
template<typename Each> bool forEachChunk(const TableRows &table, const TableRows &reference, Each &&each)
{
    const std::int64_t cols = table.cols();
    const std::int64_t chunk = ratioChunk(cols);
    std::vector<float> t(std::size_t(chunk * cols)), r(t.size());
    QString error;
    for (std::int64_t row0 = 0; row0 < table.rows(); row0 += chunk) {
        const std::int64_t count = std::min(chunk, table.rows() - row0);
        if (!table.read(row0, count, t.data(), error) || !reference.read(row0, count, r.data(), error))
            return false;
        each(t.data(), r.data(), count * cols);
    }
    return true;
}

// Whether row r of the chunk at row0 is linear in its position: cell (r, j) within `tolerance(v)` of
// (p0 + r) w_j, w = row 1 - row 0 and row 0 = p0 w (RoPE's angles p inv_freq, a position times a
// per-column rate); or linear in the distance i - j: cell (i, j) = (i - j) g(1) below the diagonal,
// (j - i) g(-1) above, 0 on it (ALiBi's bias -m |i - j|, a distance times a slope).
struct LinearTest
{
    std::vector<float> first, second; // rows 0 and 1 of the reference
    double p0 = 0.0;
    bool inPosition = true, inDistance = true;
};

double cellSlack(double value, double largest, double u)
{
    return 8.0 * u * (std::fabs(value) + largest) + 1e-30;
}

} // namespace

Linearity linearity(const TableRows &reference, bool vector)
{
    const std::int64_t rows = reference.rows(), cols = reference.cols();
    if (vector)
        return Linearity::Rates;
    if (rows < 3 || cols < 2)
        return Linearity::None;
    LinearTest t;
    t.first.resize(std::size_t(2 * cols));
    QString error;
    if (!reference.read(0, 2, t.first.data(), error))
        return Linearity::None;
    t.second.assign(t.first.begin() + cols, t.first.end());
    t.first.resize(std::size_t(cols));
    // p0 by least squares over the columns: row 0 = p0 (row 1 - row 0).
    double dot = 0.0, norm = 0.0;
    for (std::int64_t j = 0; j < cols; ++j) {
        const double w = double(t.second[std::size_t(j)]) - double(t.first[std::size_t(j)]);
        dot += double(t.first[std::size_t(j)]) * w;
        norm += w * w;
    }
    if (!(norm > 0.0))
        return Linearity::None;
    t.p0 = dot / norm;
    const double u = halfUnit(storedFormat(reference.storedType())) + reference.textRounding();
    const double below = double(t.second[0]); // g(1) = cell (1, 0)
    const double above = double(t.first[1]); // g(-1) = cell (0, 1)
    const std::int64_t chunk = ratioChunk(cols);
    std::vector<float> buffer(std::size_t(chunk * cols));
    for (std::int64_t row0 = 0; row0 < rows && (t.inPosition || t.inDistance); row0 += chunk) {
        const std::int64_t count = std::min(chunk, rows - row0);
        if (!reference.read(row0, count, buffer.data(), error))
            return Linearity::None;
        for (std::int64_t r = 0; r < count; ++r) {
            const std::int64_t i = row0 + r;
            double largest = 0.0;
            for (std::int64_t j = 0; j < cols; ++j)
                largest = std::max(largest, std::fabs(double(buffer[std::size_t(r * cols + j)])));
            for (std::int64_t j = 0; j < cols; ++j) {
                const double v = double(buffer[std::size_t(r * cols + j)]);
                if (!std::isfinite(v))
                    return Linearity::None;
                const double w = double(t.second[std::size_t(j)]) - double(t.first[std::size_t(j)]);
                const double inPosition = (t.p0 + double(i)) * w;
                const double inDistance
                    = i > j ? double(i - j) * below : i < j ? double(j - i) * above : 0.0;
                t.inPosition = t.inPosition && std::fabs(v - inPosition) <= cellSlack(v, largest, u);
                t.inDistance = t.inDistance && std::fabs(v - inDistance) <= cellSlack(v, largest, u);
            }
        }
    }
    return t.inPosition ? Linearity::InPosition : t.inDistance ? Linearity::InDistance : Linearity::None;
}

bool scaledBesideAnother(const TableMatch &match)
{
    return match.mistakes.size() > 1 && match.mistakes.contains(CheckMistakes::kScaled);
}

std::optional<double> uniformRatio(const TableRows &table, const TableRows &reference)
{
    if (table.rows() != reference.rows() || table.cols() != reference.cols() || table.rows() == 0
        || table.cols() == 0)
        return std::nullopt;
    double largest = 0.0;
    if (!forEachChunk(table, reference, [&](const float *, const float *r, std::int64_t n) {
            for (std::int64_t k = 0; k < n; ++k)
                largest = std::max(largest, double(std::fabs(r[k])));
        }))
        return std::nullopt;
    if (!(largest > 0.0) || !std::isfinite(largest))
        return std::nullopt;
    // The ratios of the larger cells, at most about 2^16 of them, evenly over the table.
    const std::int64_t cells = table.rows() * table.cols();
    const std::int64_t stride = std::max<std::int64_t>(1, cells / 65536);
    std::vector<double> ratios;
    std::int64_t at = 0;
    forEachChunk(table, reference, [&](const float *t, const float *r, std::int64_t n) {
        for (std::int64_t k = 0; k < n; ++k, ++at) {
            if (at % stride == 0 && std::fabs(double(r[k])) >= 0.25 * largest)
                ratios.push_back(double(t[k]) / double(r[k]));
        }
    });
    if (ratios.size() < 8)
        return std::nullopt;
    const auto middle = ratios.begin() + std::ptrdiff_t(ratios.size() / 2);
    std::nth_element(ratios.begin(), middle, ratios.end());
    const double c = *middle;
    // Half a unit in the last place of each table's format (float64 and text are read as float32).
    const double ut = halfUnit(storedFormat(table.storedType())), ur = halfUnit(storedFormat(reference.storedType()));
    const double u = std::max(ut, ur);
    if (!(c > 0.0) || !std::isfinite(c) || std::fabs(c - 1.0) <= 16.0 * u)
        return std::nullopt;
    // Every cell within its own rounding, the reference's times c, and c's (a few units): the ratio
    // of two roundings each; a cell near 0 within a few units of the largest (an angle's rounding).
    const double text = table.textRounding() + c * reference.textRounding();
    bool uniform = true;
    forEachChunk(table, reference, [&](const float *t, const float *r, std::int64_t n) {
        for (std::int64_t k = 0; k < n && uniform; ++k) {
            const double scaled = c * double(r[k]);
            const double tolerance = 2.0 * (ut * std::fabs(double(t[k])) + ur * std::fabs(scaled))
                + 4.0 * u * std::fabs(scaled) + text + 4.0 * u * largest * c;
            uniform = std::fabs(double(t[k]) - scaled) <= tolerance;
        }
    });
    if (!uniform)
        return std::nullopt;
    return c;
}

void nameUniformRatio(TableMatch &match, const TableRows &table, const TableRows &reference, bool vector)
{
    if (match.verdict != CheckVerdict::Mistake)
        return;
    // `scaled` beside a name of the parameter that made the ratio: that name says more, and stands
    // alone.
    if (scaledBesideAnother(match)) {
        match.mistakes.removeAll(CheckMistakes::kScaled);
        return;
    }
    if (!match.mistakes.isEmpty())
        return;
    const std::optional<double> ratio = uniformRatio(table, reference);
    if (!ratio)
        return;
    const double c = *ratio;
    match.notes.prepend(match.diagnosis);
    const QString times = NumberText::compact(c, 6), inverse = NumberText::compact(1.0 / c, 6);
    const Linearity linear = linearity(reference, vector);
    if (linear == Linearity::None) {
        match.mistakes = {CheckMistakes::kScaled};
        match.diagnosis = u"scaled: every cell is the reference's times %1 (1 / %2): one constant multiplies one "
                          "table and not the other, as an attention factor (RoPE's attention_scaling, YaRN's mscale) "
                          "applied twice or left out, or a scale of the table's, does; the positions and frequencies "
                          "are the reference's"_s.arg(times, inverse);
        return;
    }
    // A table linear in the position (or the distance, or a vector of rates per unit of it): c times
    // it is the positions times c or the rates times c, which no table tells apart; on RoPE's
    // angles both are its linear scaling with factor 1 / c (transformers modeling_rope_utils.py,
    // _compute_linear_scaling_rope_parameters: inv_freq / factor).
    match.mistakes = {RopeRowPositions::kPositionsScaled};
    const QString what = linear == Linearity::Rates ? u"the vector's values (rates per unit of position: RoPE's "
                                                      "inv_freq, ALiBi's slopes)"_s
        : linear == Linearity::InDistance           ? u"the reference, linear in the distance i - j (a slope "
                                                      "times the distance, as ALiBi's bias is)"_s
                                                    : u"the reference, linear in the position (each column the "
                                                      "position times a rate, as RoPE's angles p inv_freq are)"_s;
    const QString scaled = linear == Linearity::InDistance ? u"the distances times %1 (1 / %2 of the reference's), "
                                                             "or the slopes times %1"_s.arg(times, inverse)
                                                           : u"the positions times %1 (1 / %2 of the reference's), "
                                                             "or the frequencies times %1"_s.arg(times, inverse);
    const QString rope = linear == Linearity::InDistance
        ? QString()
        : u"; RoPE's linear scaling with factor %1 (position_ids / %1, or inv_freq / %1: transformers "
          "modeling_rope_utils.py, _compute_linear_scaling_rope_parameters) gives it, where the reference's factor "
          "is 1"_s.arg(inverse);
    match.diagnosis = u"positions-scaled: every cell is the reference's times %1, and %2: the table is %3, which "
                      "the table alone cannot tell apart%4"_s.arg(times, what, scaled, rope);
}

} // namespace posenc::TableCheck
