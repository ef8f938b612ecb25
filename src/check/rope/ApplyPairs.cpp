// posenc check --apply's reading of pairs (docs/ARCHITECTURE.md, Checking a rotation). The
// references are HF's modeling_llama.py (rotate_half: cat(-x2, x1) of the halves;
// apply_rotary_pos_emb: q * cos + rotate_half(q) * sin, cos and sin cat(freqs, freqs) times
// attention_scaling), modeling_gpt_neox.py's apply_rotary_pos_emb (q_rot, q_pass = q[...,
// :rotary_dim], q[..., rotary_dim:], the pass part concatenated unchanged) and GPT-J's
// modeling_gptj.py (rotate_every_two: stack(-x[..., 1::2], x[..., ::2]) flattened, cos and sin
// repeat_interleave(2)).
#include "check/rope/ApplyPairs.h"

#include "check/CellTolerance.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>
#include <optional>

namespace posenc::ApplyPairs {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

double median(std::vector<double> v)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

double rowScale(const RowMatrixXf &x, std::int64_t p, const Geometry &g)
{
    return double(x.row(p).segment(g.col0, g.width).cwiseAbs().maxCoeff());
}

// Pair k's amplitude and angle at row p, and the equations' condition (|M|^2 / |det M|, the
// factor by which they magnify Y's rounding): nothing where they do not tell them.
struct Solved
{
    double amplitude = 0.0;
    double angle = 0.0;
    double condition = 1.0;
};

std::optional<Solved> solvePair(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const Geometry &g,
                                std::int64_t k, double scale)
{
    const auto [a, b] = g.tableColumns(k);
    const auto [ra, sa] = g.rotated(a);
    const auto [rb, sb] = g.rotated(b);
    const std::int64_t c = g.col0;
    // [x_a, sa x_ra; x_b, sb x_rb] (u, v) = (y_a, y_b)
    const double m00 = x(p, c + a), m01 = sa * x(p, c + ra), m10 = x(p, c + b), m11 = sb * x(p, c + rb);
    const double det = m00 * m11 - m01 * m10;
    if (!(std::fabs(det) > 1e-10 * scale * scale))
        return std::nullopt;
    const double u = (double(y(p, c + a)) * m11 - m01 * double(y(p, c + b))) / det;
    const double v = (m00 * double(y(p, c + b)) - double(y(p, c + a)) * m10) / det;
    return Solved {std::hypot(u, v), std::atan2(v, u),
                   (m00 * m00 + m01 * m01 + m10 * m10 + m11 * m11) / std::fabs(det)};
}

// float32 angles round id * w to 2^-24 of it, and inv_freq itself to 2^-24: twice that, twice.
double angleError(double uncertainty, double u, std::int64_t id, double w)
{
    return std::max(uncertainty, 64.0 * u) + 0x1p-22 * double(id) * w;
}

} // namespace

Reading readingOf(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows, const Geometry &g)
{
    Reading r;
    r.geometry = g;
    std::vector<double> amplitudes;
    amplitudes.reserve(rows.size() * std::size_t(g.pairs()));
    for (const std::int64_t p : rows) {
        const double scale = rowScale(x, p, g);
        for (std::int64_t k = 0; k < g.pairs(); ++k) {
            if (const auto solved = solvePair(x, y, p, g, k, scale))
                amplitudes.push_back(solved->amplitude);
        }
    }
    // Too few pairs told: no reading.
    if (amplitudes.size() * 2 < rows.size() * std::size_t(g.pairs()))
        return r;
    r.factor = median(amplitudes);
    r.count = std::int64_t(amplitudes.size());
    for (double &a : amplitudes)
        a = std::fabs(a - r.factor);
    r.spread = r.factor > 0.0 ? median(amplitudes) / r.factor : std::numeric_limits<double>::infinity();
    return r;
}

double Reading::factorUncertainty() const
{
    if (count <= 0)
        return std::numeric_limits<double>::infinity();
    return std::max(1e-6, 5.0 * 1.86 * spread / std::sqrt(double(count)));
}

std::pair<std::int64_t, std::int64_t> Geometry::tableColumns(std::int64_t k) const
{
    return table == RopeLayout::Half ? std::pair {k, k + width / 2} : std::pair {2 * k, 2 * k + 1};
}

std::pair<std::int64_t, double> Geometry::rotated(std::int64_t j) const
{
    // rotate_half(x)_j = -x_{j+h} (j < h), x_{j-h}; rotate_every_two(x)_{2i} = -x_{2i+1}, _{2i+1} = x_{2i}.
    const std::int64_t h = width / 2;
    if (rotation == RopeLayout::Half)
        return j < h ? std::pair {j + h, -1.0} : std::pair {j - h, 1.0};
    return j % 2 == 0 ? std::pair {j + 1, -1.0} : std::pair {j - 1, 1.0};
}

Precision precisionOf(const RowMatrixXf &y, ValueFormat stored)
{
    // Coarser: float32 (half a unit 2^-24), float16 (2^-11), bfloat16 (2^-8).
    const ValueFormat values = representableFormat(y.data(), y.size());
    if (halfUnit(values) > halfUnit(stored))
        return {values, true};
    return {stored, false};
}

double unitRoundoff(const RowMatrixXf &y)
{
    return halfUnit(precisionOf(y, ValueFormat::Float32).format);
}

std::vector<std::int64_t> sampleRows(std::int64_t rows, std::int64_t most)
{
    std::vector<std::int64_t> out;
    const std::int64_t first = std::min<std::int64_t>(rows, 64);
    for (std::int64_t p = 0; p < first; ++p)
        out.push_back(p);
    const std::int64_t spread = std::min<std::int64_t>(rows - first, most - first);
    for (std::int64_t i = 0; i < spread; ++i)
        out.push_back(first + (rows - 1 - first) * i / std::max<std::int64_t>(spread - 1, 1));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<bool> passColumns(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                              double u)
{
    std::vector<bool> pass(static_cast<std::size_t>(x.cols()), true);
    for (std::int64_t j = 0; j < x.cols(); ++j) {
        for (const std::int64_t p : rows) {
            if (std::fabs(double(y(p, j)) - double(x(p, j))) > 2.0 * u * std::fabs(double(x(p, j)))) {
                pass[std::size_t(j)] = false;
                break;
            }
        }
    }
    return pass;
}

Reading bestReading(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                    std::int64_t col0, std::int64_t width)
{
    std::optional<Reading> best;
    for (const RopeLayout table : {RopeLayout::Half, RopeLayout::Interleaved}) {
        for (const RopeLayout rotation :
             {table, table == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half}) {
            Reading r = readingOf(x, y, rows, Geometry {table, rotation, col0, width});
            if (!best || r.spread < 0.5 * best->spread)
                best = std::move(r);
        }
    }
    // A table of other pairs than the rotation's shows only where the two columns of a turned pair
    // take two different angles. Where the table of the rotation's own pairs reads as well (every
    // pair at one frequency: LeetCUDA#289's theta^0), the data show no swap: the agreeing reading.
    if (best->geometry.table != best->geometry.rotation) {
        const RopeLayout rotation = best->geometry.rotation;
        Reading agreeing = readingOf(x, y, rows, Geometry {rotation, rotation, col0, width});
        if (agreeing.spread <= std::max(4.0 * best->spread, 1e-6))
            return agreeing;
    }
    return *best;
}

void rowAngles(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const Geometry &g, double u, double *angle,
               double *amplitude, double *uncertainty)
{
    const double scale = rowScale(x, p, g);
    for (std::int64_t k = 0; k < g.pairs(); ++k) {
        const auto solved = solvePair(x, y, p, g, k, scale);
        const auto [a, b] = g.tableColumns(k);
        const double norm = std::hypot(double(x(p, g.col0 + a)), double(x(p, g.col0 + b)));
        angle[k] = solved ? solved->angle : std::numeric_limits<double>::quiet_NaN();
        if (amplitude)
            amplitude[k] = solved ? solved->amplitude : std::numeric_limits<double>::quiet_NaN();
        // Y's rounding moves the solved angle by a few units of it, relative to the pair's length;
        // where the table's pairs are not the rotation's, by as much as the equations' condition.
        uncertainty[k] = solved ? 8.0 * u * scale / std::max(norm, 1e-30) : std::numeric_limits<double>::infinity();
        if (solved && g.table != g.rotation)
            uncertainty[k] = std::max(uncertainty[k], 8.0 * u * solved->condition);
    }
}

AxisPairs AxisPairs::of(const std::vector<double> &w, const std::vector<bool> &take)
{
    AxisPairs axis;
    for (std::size_t k = 0; k < w.size(); ++k) {
        if (take[k] && w[k] > 0.0)
            axis.pairs.push_back(std::int64_t(k));
    }
    std::stable_sort(axis.pairs.begin(), axis.pairs.end(),
                     [&](std::int64_t a, std::int64_t b) { return w[std::size_t(a)] < w[std::size_t(b)]; });
    for (const std::int64_t k : axis.pairs)
        axis.w.push_back(w[std::size_t(k)]);
    return axis;
}

bool explains(const AxisPairs &axis, const double *angle, const double *uncertainty, double u, std::int64_t id)
{
    bool any = false;
    for (std::size_t i = 0; i < axis.pairs.size(); ++i) {
        const std::int64_t k = axis.pairs[i];
        if (std::isnan(angle[k]) || !std::isfinite(uncertainty[k]))
            continue;
        const double off = std::remainder(angle[k] - double(id) * axis.w[i], kTwoPi);
        if (std::fabs(off) > angleError(uncertainty[k], u, id, axis.w[i]))
            return false;
        any = true;
    }
    return any;
}

std::int64_t readId(const AxisPairs &axis, const double *angle, const double *uncertainty, double u,
                    const std::vector<std::int64_t> &hints, std::int64_t maxId)
{
    for (const std::int64_t hint : hints) {
        if (hint >= 0 && hint <= maxId && explains(axis, angle, uncertainty, u, hint))
            return hint;
    }
    std::size_t s = 0;
    while (s < axis.pairs.size() && !(std::isfinite(angle[axis.pairs[s]]) && std::isfinite(uncertainty[axis.pairs[s]])))
        ++s;
    if (s == axis.pairs.size())
        return -1;
    const double ws = axis.w[s];
    // Position 0's angles are 0, a rounding either side of it.
    const double first = angle[axis.pairs[s]] < -1e-3 ? angle[axis.pairs[s]] + kTwoPi : angle[axis.pairs[s]];
    const auto turns = std::int64_t(std::min(double(maxId) * ws / kTwoPi + 1.0, 1e7));
    for (std::int64_t n = 0; n <= turns; ++n) {
        double position = (first + kTwoPi * double(n)) / ws;
        if (position > double(maxId) + 0.5)
            break;
        double spread = angleError(uncertainty[axis.pairs[s]], u, std::llround(position), ws) / ws;
        for (std::size_t i = s + 1; i < axis.pairs.size(); ++i) {
            const std::int64_t k = axis.pairs[i];
            const double w = axis.w[i];
            if (!std::isfinite(angle[k]) || !std::isfinite(uncertainty[k]) || spread * w > 1.0)
                continue; // too fast to add its turns without ambiguity
            const double turned = angle[k] + kTwoPi * std::round((position * w - angle[k]) / kTwoPi);
            position = turned / w;
            spread = angleError(uncertainty[k], u, std::llround(position), w) / w;
        }
        if (!(spread < 0.5))
            continue;
        const std::int64_t id = std::llround(position);
        if (id >= 0 && id <= maxId && explains(axis, angle, uncertainty, u, id))
            return id;
    }
    return -1;
}

double turnedSlack(double factor, double reach, double angle, double u, double yj)
{
    return factor * reach * (0x1p-21 * (1.0 + std::fabs(angle)) + 4.0 * u) + 2.0 * u * std::fabs(yj);
}

RowCompare compareRow(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const Geometry &g, double factor,
                      const double *angle, double u)
{
    RowCompare out;
    const auto note = [&](double error, std::int64_t column, double tolerance) {
        if (error > out.maxError || out.column < 0) {
            out.maxError = error;
            out.column = column;
        }
        out.deviates = out.deviates || !(error <= tolerance);
    };
    for (std::int64_t k = 0; k < g.pairs(); ++k) {
        if (std::isnan(angle[k])) {
            out.deviates = true;
            continue;
        }
        const double c = factor * std::cos(angle[k]), s = factor * std::sin(angle[k]);
        for (const std::int64_t j : {g.tableColumns(k).first, g.tableColumns(k).second}) {
            const auto [partner, sign] = g.rotated(j);
            const double xj = x(p, g.col0 + j), xr = x(p, g.col0 + partner), yj = y(p, g.col0 + j);
            const double want = xj * c + sign * xr * s;
            const double reach = std::fabs(xj) + std::fabs(xr);
            note(std::fabs(yj - want), g.col0 + j, turnedSlack(factor, reach, angle[k], u, yj));
        }
    }
    for (std::int64_t j = 0; j < x.cols(); ++j) {
        if (j < g.col0 || j >= g.col0 + g.width) {
            const double xj = x(p, j);
            note(std::fabs(double(y(p, j)) - xj), j, 2.0 * u * std::fabs(xj));
        }
    }
    return out;
}

} // namespace posenc::ApplyPairs

namespace posenc::ApplyPairs {

std::optional<QString> shapeProblem(const RowMatrixXf &x, const RowMatrixXf &y)
{
    if (x.rows() == y.rows() && x.cols() == y.cols())
        return std::nullopt;
    return QStringLiteral("X is %1 x %2 and Y %3 x %4: the same rows and columns are a query or key before and after "
                          "RoPE")
        .arg(x.rows())
        .arg(x.cols())
        .arg(y.rows())
        .arg(y.cols());
}

std::optional<QString> finiteProblem(const RowMatrixXf &x, const RowMatrixXf &y)
{
    if (x.allFinite() && y.allFinite())
        return std::nullopt;
    return QStringLiteral("X or Y holds a value that is not finite");
}

bool turnsPairs(const Reading &r, double u)
{
    return r.spread < std::max(1e-3, 64.0 * u);
}

QString notTurned(const QString &what)
{
    return QStringLiteral("Y is not X turned pair by pair: no pairing of %1, half (rotate_half) or interleaved "
                          "(rotate_every_two), keeps each pair's length times one factor")
        .arg(what);
}

void CellTally::add(std::int64_t p, const RowCompare &row)
{
    deviatingRows += row.deviates;
    if (row.maxError > maxAbsError) {
        maxAbsError = row.maxError;
        worstRow = p;
        worstColumn = row.column;
        worstDeviates = row.deviates;
    }
}

void CellTally::merge(const CellTally &other)
{
    deviatingRows += other.deviatingRows;
    if (other.maxAbsError > maxAbsError
        || (other.maxAbsError == maxAbsError && other.worstRow >= 0 && (worstRow < 0 || other.worstRow < worstRow))) {
        maxAbsError = other.maxAbsError;
        worstRow = other.worstRow;
        worstColumn = other.worstColumn;
        worstDeviates = other.worstDeviates;
    }
}

CellTally tallyTiles(std::int64_t rows, std::int64_t tileRows, int threads,
                     const std::function<void(std::int64_t, std::int64_t, CellTally &)> &tile)
{
    const std::int64_t tiles = (rows + tileRows - 1) / tileRows;
    std::mutex merge;
    CellTally total;
    forEachTile(tiles, threads, nullptr, [&](std::int64_t t) {
        CellTally mine;
        tile(t * tileRows, std::min(rows, (t + 1) * tileRows), mine);
        const std::lock_guard lock(merge);
        total.merge(mine);
    });
    return total;
}

QString layoutWords(RopeLayout layout)
{
    return layout == RopeLayout::Half ? QStringLiteral("half (rotate_half: pairs i, i + d/2)")
                                      : QStringLiteral("interleaved (rotate_every_two: pairs 2i, 2i + 1)");
}

void layoutMistakes(Outcome &outcome, std::optional<RopeLayout> declared, QStringList &lines)
{
    if (outcome.table != outcome.rotation) {
        outcome.mistakes.append(kLayoutSwapped);
        lines.append(QStringLiteral("the layout is swapped between the table and the apply: the cos/sin table is "
                                    "built for %1 pairs, but the rotation turns %2 pairs, so each pair's two columns "
                                    "turn by two different angles")
                         .arg(layoutWords(outcome.table), layoutWords(outcome.rotation)));
    } else if (declared && *declared != outcome.rotation) {
        outcome.mistakes.append(kLayout);
        lines.append(QStringLiteral("the rotation turns %1 pairs, not the %2 pairs declared")
                         .arg(layoutWords(outcome.rotation), layoutWords(*declared)));
    }
}

bool concludeMistakes(Outcome &outcome, QStringList lines, const QString &where)
{
    // Rows deviate with no cell compared where none's position was read: no place to name.
    if (outcome.deviatingRows > 0 && outcome.mistakes.isEmpty() && outcome.worstRow < 0)
        lines.append(QStringLiteral("%1 rows deviate from X turned at %2: no row's position could be read, so no cell "
                                    "was compared")
                         .arg(outcome.deviatingRows)
                         .arg(where));
    else if (outcome.deviatingRows > 0 && outcome.mistakes.isEmpty())
        // The largest error of the rows compared may be a row within its rounding, the rows that deviate
        // read at no position and so not compared: said so, not as a deviation.
        lines.append(QStringLiteral("%1 rows deviate from X turned at %2; the largest error %3 at row %4, column %5%6")
                         .arg(outcome.deviatingRows)
                         .arg(where)
                         .arg(outcome.maxAbsError)
                         .arg(outcome.worstRow)
                         .arg(outcome.worstColumn)
                         .arg(outcome.worstDeviates ? QString() : QStringLiteral(", within that row's rounding")));
    if (outcome.mistakes.isEmpty() && outcome.deviatingRows == 0)
        return false;
    // Nothing named and no cell compared: no deviation seen, so no mistake to promise (unknown).
    const bool seen = !outcome.mistakes.isEmpty() || outcome.worstRow >= 0;
    outcome.verdict = seen ? CheckVerdict::Mistake : CheckVerdict::Unknown;
    outcome.diagnosis = lines.join(QStringLiteral("; "));
    return true;
}

} // namespace posenc::ApplyPairs
