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
#include <optional>

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
                 const FrequencySchedule &s, const ApplyPairs::Geometry &g, const std::vector<std::int64_t> &positions)
{
    Mixed m;
    const double a = s.amplitude;
    for (const std::int64_t p : rows) {
        const double position = double(positions.empty() ? p : positions[std::size_t(p)]);
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

// Row p's angle at each pair where Y is X mixed by [[cos, sin], [sin, cos]] (the pair's two
// equations y_a = x_a c + x_b s, y_b = x_b c + x_a s solved for c and s), and its uncertainty from
// Y's rounding `u`; an angle the equations do not tell (|x_a| near |x_b|) uncertain without bound.
void mixedAngles(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const ApplyPairs::Geometry &g, double u,
                 std::vector<double> &angle, std::vector<double> &uncertainty)
{
    const double scale = double(x.row(p).segment(g.col0, g.width).cwiseAbs().maxCoeff());
    for (std::int64_t k = 0; k < g.pairs(); ++k) {
        const auto [a, b] = g.tableColumns(k);
        const double xa = x(p, g.col0 + a), xb = x(p, g.col0 + b), ya = y(p, g.col0 + a), yb = y(p, g.col0 + b);
        const double det = xa * xa - xb * xb;
        angle[std::size_t(k)] = std::numeric_limits<double>::quiet_NaN();
        uncertainty[std::size_t(k)] = std::numeric_limits<double>::infinity();
        if (!(std::fabs(det) > 1e-6 * scale * scale))
            continue;
        const double c = (ya * xa - xb * yb) / det, s = (xa * yb - xb * ya) / det;
        const double condition = 2.0 * (xa * xa + xb * xb) / std::fabs(det);
        const double norm = std::hypot(xa, xb);
        const double within = 8.0 * u * std::max(condition, scale / std::max(norm, 1e-30));
        if (within > kMostUncertainty * 10.0)
            continue;
        angle[std::size_t(k)] = std::atan2(s, c);
        uncertainty[std::size_t(k)] = within;
    }
}

// Each sampled row's position under the lost sign, read from its mixed angles with the reference's
// frequencies (ApplyPairs::readId, its --position-ids or its index tried first), the others -1: rows
// after a cache's tokens (positions 100..) mixed so, whether or not --position-ids declares them.
// Empty where a sampled row reads at no position.
std::vector<std::int64_t> mixedPositions(const RowMatrixXf &x, const RowMatrixXf &y,
                                         const std::vector<std::int64_t> &rows, double u, const FrequencySchedule &s,
                                         const ApplyPairs::Geometry &g, const std::vector<std::int64_t> &ids)
{
    const ApplyPairs::AxisPairs axis = ApplyPairs::AxisPairs::of(s.w, std::vector<bool>(s.w.size(), true));
    std::int64_t maxId
        = std::min<std::int64_t>(std::max<std::int64_t>(std::int64_t(1) << 20, 4 * x.rows()), std::int64_t(1) << 26);
    if (!ids.empty())
        maxId = std::max(maxId, 2 * *std::max_element(ids.begin(), ids.end()) + 1);
    std::vector<std::int64_t> positions(static_cast<std::size_t>(x.rows()), -1);
    std::vector<double> angle(static_cast<std::size_t>(g.pairs())), uncertainty(angle.size());
    std::int64_t previous = -1, before = -1;
    for (const std::int64_t p : rows) {
        mixedAngles(x, y, p, g, u, angle, uncertainty);
        const std::int64_t meant = ids.empty() ? p : ids[std::size_t(p)];
        const std::vector<std::int64_t> hints {meant, previous < 0 ? -1 : previous + (p - before)};
        const std::int64_t at = ApplyPairs::readId(axis, angle.data(), uncertainty.data(), u, hints, maxId);
        if (at < 0)
            return {};
        positions[std::size_t(p)] = at;
        previous = at;
        before = p;
    }
    return positions;
}

// "; its rows at their --position-ids + 100 (rows 0..63 at 100..163)": where the positions the lost
// sign's rows read at are not those meant, what they are; empty where every row is at its own.
QString positionsWords(const std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &rows,
                       const std::vector<std::int64_t> &ids, std::optional<std::int64_t> &offset)
{
    bool constant = true, own = true;
    for (const std::int64_t p : rows) {
        const std::int64_t k = positions[std::size_t(p)] - (ids.empty() ? p : ids[std::size_t(p)]);
        own = own && k == 0;
        constant = constant && (!offset || *offset == k);
        offset = offset.value_or(k);
    }
    if (own)
        return {};
    if (!constant) {
        offset.reset();
        return u"; its rows read (under the lost sign, row by row) at positions other than %1, out of order"_s.arg(
            ids.empty() ? u"their indices"_s : u"their --position-ids"_s);
    }
    return u"; every row r at %1 %2 %3 (the lost sign's angles read row by row)"_s.arg(
        ids.empty() ? u"position r"_s : u"its --position-ids"_s, *offset < 0 ? u"-"_s : u"+"_s,
        QString::number(std::abs(*offset)));
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
    const auto holds = [&](const Mixed &m) {
        return m.told > 0 && kStrayShare * (m.cells - m.mixed) <= m.cells
            && kStrayShare * (m.told - m.toldMixed) <= m.told;
    };
    // At the rows' own positions (their --position-ids, else their indices); else at those each row's
    // mixed angles read (a chunk after a cache, its positions from 100, declared or not).
    Mixed m = mixedCells(x, y, rows, u, s, *g, declared.ids);
    QString where;
    std::optional<std::int64_t> offset;
    if (!holds(m)) {
        const std::vector<std::int64_t> read = mixedPositions(x, y, rows, u, s, *g, declared.ids);
        if (read.empty())
            return false;
        m = mixedCells(x, y, rows, u, s, *g, read);
        if (!holds(m))
            return false;
        where = positionsWords(read, rows, declared.ids, offset);
    }
    const bool half = g->rotation == RopeLayout::Half;
    result.verdict = CheckVerdict::Mistake;
    result.mistakes = {kSignLost};
    // Against --position-ids, rows at other positions are that mistake too; undeclared, an offset is
    // rows after a cache as well as a sequence off by it (ApplyIds), said only.
    if (!declared.ids.empty() && !where.isEmpty())
        result.mistakes.append(offset ? CheckMistakes::kPositionOffset : ApplyCheck::kPositionsOutOfOrder);
    result.positionOffset = offset;
    result.rotation = result.table = g->rotation;
    result.attentionFactor = s.amplitude;
    result.rotaryStart = 0;
    result.rotaryDim = g->width;
    result.diagnosis
        = u"Y is X mixed pair by pair by [[cos, sin], [sin, cos]] at the declared reference's angles and attention "
          "factor (%1), not turned by them: x cos + %2(x) sin with %2's minus sign lost, in %3 of %4 sampled "
          "cells, and in %5 of the %6 where the rotation differs from it beyond both roundings; no pair turns, and "
          "each changes length, |Y|^2 = A^2 (|X|^2 + 2 sin(2 angle) x_a x_b)%7"_s
              .arg(half ? u"half pairs i, i + %1"_s.arg(g->pairs()) : u"interleaved pairs 2i, 2i + 1"_s,
                   half ? u"rotate_half"_s : u"rotate_every_two"_s)
              .arg(m.mixed)
              .arg(m.cells)
              .arg(m.toldMixed)
              .arg(m.told)
              .arg(where);
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
