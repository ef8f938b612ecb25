// A rotation's lengths and its lost sign (ApplyLengths.h). The references: transformers'
// modeling_llama.py (rotate_half, apply_rotary_pos_emb: q * cos + rotate_half(q) * sin),
// modeling_gptj.py (rotate_every_two: stack((-x[..., 1::2], x[..., ::2])), apply_rotary_pos_emb)
// and modeling_flax_gptj.py's rotate_every_two before transformers#16298, which stacked x[..., 1::2]
// without its minus.
#include "check/rope/ApplyLengths.h"

#include "check/rope/ApplyNotTurned.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::ApplyLengths {

namespace {

// A pair whose angle Y's rounding leaves unknown to more than this (radians: X's pair tiny beside
// its row) tells no length either.
constexpr double kMostUncertainty = 0.01;

// The share of cells, one in this many, that may hold what the reading does not: a cell at a
// rounding's edge.
constexpr std::int64_t kStrayShare = 100;

// The sampled cells of Y against X mixed by [[cos, sin], [sin, cos]] at the reference's angles:
// those within a faithful computation's rounding of it, and of the cells where it and the rotation
// lie further apart than both roundings, those that are it.
struct Mixed
{
    std::int64_t cells = 0, mixed = 0;
    std::int64_t told = 0, toldMixed = 0;
};

Mixed mixedCells(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows, double u,
                 const FrequencySchedule &s, const ApplyPairs::Geometry &g, const std::vector<std::int64_t> &ids)
{
    Mixed m;
    const double a = s.amplitude;
    for (const std::int64_t p : rows) {
        const double position = double(ids.empty() ? p : ids[std::size_t(p)]);
        for (std::int64_t k = 0; k < g.pairs(); ++k) {
            const double angle = position * s.w[std::size_t(k)];
            const double c = a * std::cos(angle), sn = a * std::sin(angle);
            for (const std::int64_t j : {g.tableColumns(k).first, g.tableColumns(k).second}) {
                const auto [partner, sign] = g.rotated(j);
                const double xj = x(p, j), xr = x(p, partner), yj = y(p, j);
                const double turned = xj * c + sign * xr * sn, lost = xj * c + xr * sn;
                const double slack = ApplyPairs::turnedSlack(a, std::fabs(xj) + std::fabs(xr), angle, u, yj);
                const bool isMixed = std::fabs(yj - lost) <= slack;
                ++m.cells;
                m.mixed += isMixed;
                if (std::fabs(turned - lost) > 2.0 * slack) {
                    ++m.told;
                    m.toldMixed += isMixed;
                }
            }
        }
        for (std::int64_t j = g.width; j < x.cols(); ++j) {
            ++m.cells;
            m.mixed += std::fabs(double(y(p, j)) - double(x(p, j))) <= 2.0 * u * std::fabs(double(x(p, j)));
        }
    }
    return m;
}

// The declared reference's pairs: rotate_half's (i, i + r/2) or rotate_every_two's (2i, 2i + 1) of
// its first r columns (modeling_gpt_neox.py's q_rot = q[..., :rotary_dim]), r twice its pairs.
std::optional<ApplyPairs::Geometry> declaredGeometry(const Params &reference, const FrequencySchedule &s,
                                                     std::int64_t cols)
{
    const std::int64_t h = s.pairs();
    if (h == 0 || 2 * h > cols)
        return std::nullopt;
    const RopeLayout layout = reference.rope.layout;
    return ApplyPairs::Geometry {layout, layout, 0, 2 * h};
}

} // namespace

std::optional<ApplyPairs::Reading> declaredReading(const RowMatrixXf &x, const RowMatrixXf &y,
                                                   const std::vector<std::int64_t> &rows,
                                                   const ApplyCheck::Declared &declared)
{
    if (!declared.reference)
        return std::nullopt;
    const FrequencySchedule s = RopeFrequencies::schedule(*declared.reference);
    const auto g = declaredGeometry(*declared.reference, s, x.cols());
    if (!g)
        return std::nullopt;
    return ApplyPairs::readingOf(x, y, rows, *g);
}

bool nameSignLost(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, double u,
                  const ApplyCheck::Declared &declared)
{
    if (!declared.reference)
        return false;
    const FrequencySchedule s = RopeFrequencies::schedule(*declared.reference);
    const auto g = declaredGeometry(*declared.reference, s, x.cols());
    if (!g)
        return false;
    const std::vector<std::int64_t> rows = ApplyPairs::sampleRows(x.rows());
    const Mixed m = mixedCells(x, y, rows, u, s, *g, declared.ids);
    if (m.told == 0 || kStrayShare * (m.cells - m.mixed) > m.cells || kStrayShare * (m.told - m.toldMixed) > m.told)
        return false;
    const bool half = g->rotation == RopeLayout::Half;
    result.verdict = CheckVerdict::Mistake;
    result.mistakes = {kSignLost};
    result.rotation = result.table = g->rotation;
    result.attentionFactor = s.amplitude;
    result.rotaryStart = 0;
    result.rotaryDim = g->width;
    result.diagnosis
        = u"Y is X mixed pair by pair by [[cos, sin], [sin, cos]] at the declared reference's angles and attention "
          "factor (%1), not turned by them: x cos + %2(x) sin with %2's minus sign lost, in %3 of %4 sampled "
          "cells, and in %5 of the %6 where the rotation differs from it beyond both roundings; no pair turns, and "
          "each changes length, |Y|^2 = A^2 (|X|^2 + 2 sin(2 angle) x_a x_b)"_s
              .arg(half ? u"half pairs i, i + %1"_s.arg(g->pairs()) : u"interleaved pairs 2i, 2i + 1"_s,
                   half ? u"rotate_half"_s : u"rotate_every_two"_s)
              .arg(m.mixed)
              .arg(m.cells)
              .arg(m.toldMixed)
              .arg(m.told);
    return true;
}

void nameNoRotation(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y,
                    const std::vector<std::int64_t> &rows, double u, const ApplyCheck::Declared &declared)
{
    ApplyNotTurned::nameNoRotation(result, x, y, u, declared);
    if (const auto pairs = declaredReading(x, y, rows, declared))
        name(result, x, y, *pairs, u, declared);
}

void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    if (!declared.reference || result.verdict != CheckVerdict::Unknown || !result.mistakes.isEmpty()
        || !(r.factor > 0.0))
        return;
    const std::vector<std::int64_t> rows = ApplyPairs::sampleRows(x.rows());
    const std::int64_t pairs = r.geometry.pairs();
    std::vector<double> angle(static_cast<std::size_t>(pairs)), amplitude(angle.size()), uncertainty(angle.size());
    std::int64_t judged = 0, changed = 0;
    double least = std::numeric_limits<double>::infinity(), most = 0.0;
    for (const std::int64_t p : rows) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), amplitude.data(), uncertainty.data());
        for (std::size_t k = 0; k < angle.size(); ++k) {
            if (!(uncertainty[k] <= kMostUncertainty) || std::isnan(amplitude[k]))
                continue;
            ++judged;
            const double ratio = amplitude[k] / r.factor;
            least = std::min(least, ratio);
            most = std::max(most, ratio);
            changed += std::fabs(ratio - 1.0) > uncertainty[k] + r.factorUncertainty() + 8.0 * u;
        }
    }
    if (judged == 0 || 10 * changed < judged)
        return;
    result.verdict = CheckVerdict::Mistake;
    result.notes.prepend(result.diagnosis);
    result.diagnosis
        = u"Y is no rotation of X: %1 of %2 sampled pairs (%3 pairs) change length beyond Y's rounding, |Y| / |X| from "
          u"%4 to %5 times the median %6, where a "
          "rotation keeps every pair's length times the attention factor at any position; no faithful "
          "computation of the declared reference makes it"_s.arg(changed)
              .arg(judged)
              .arg(r.geometry.rotation == RopeLayout::Half ? u"half"_s : u"interleaved"_s)
              .arg(NumberText::compact(least, 4), NumberText::compact(most, 4), NumberText::compact(r.factor, 6));
}

} // namespace posenc::ApplyLengths
