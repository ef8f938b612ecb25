#include "TableRatio.h"

#include "check/CellTolerance.h"
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

} // namespace

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

void nameUniformRatio(TableMatch &match, const TableRows &table, const TableRows &reference)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty())
        return;
    const std::optional<double> ratio = uniformRatio(table, reference);
    if (!ratio)
        return;
    const double c = *ratio;
    match.mistakes = {CheckMistakes::kScaled};
    match.notes.prepend(match.diagnosis);
    match.diagnosis = u"scaled: every cell is the reference's times %1 (1 / %2): one constant multiplies one table "
                      "and not the other, as an attention factor (RoPE's attention_scaling, YaRN's mscale) applied "
                      "twice or left out, or a scale of the table's, does; the positions and frequencies are the "
                      "reference's"_s.arg(NumberText::compact(c, 6), NumberText::compact(1.0 / c, 6));
}

} // namespace posenc::TableCheck
