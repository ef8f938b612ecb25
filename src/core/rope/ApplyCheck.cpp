// posenc check --apply (docs/ARCHITECTURE.md, Checking a rotation). The references are HF's
// modeling_llama.py (rotate_half: cat(-x2, x1) of the halves; apply_rotary_pos_emb: q * cos +
// rotate_half(q) * sin, cos and sin cat(freqs, freqs) times attention_scaling) and GPT-J's
// modeling_gptj.py (rotate_every_two: stack(-x[..., 1::2], x[..., ::2]) flattened, cos and sin
// repeat_interleave(2)).
#include "core/rope/ApplyCheck.h"

#include "core/check/CellTolerance.h"
#include "core/check/TableCheck.h"
#include "core/check/TableRows.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::ApplyCheck {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The column whose value rotate_half or rotate_every_two puts at column j, and its sign:
// rotate_half(x)_j = -x_{j+h} (j < h), x_{j-h}; rotate_every_two(x)_{2i} = -x_{2i+1}, _{2i+1} = x_{2i}.
std::pair<std::int64_t, double> rotated(std::int64_t j, std::int64_t d, RopeLayout rotation)
{
    const std::int64_t h = d / 2;
    if (rotation == RopeLayout::Half)
        return j < h ? std::pair {j + h, -1.0} : std::pair {j - h, 1.0};
    return j % 2 == 0 ? std::pair {j + 1, -1.0} : std::pair {j - 1, 1.0};
}

// The two columns whose cos and sin hold pair k's angle in a table of `layout`: HF's
// cat(freqs, freqs) puts it at k and k + h, GPT-J's repeat_interleave at 2k and 2k + 1.
std::pair<std::int64_t, std::int64_t> tableColumns(std::int64_t k, std::int64_t d, RopeLayout layout)
{
    return layout == RopeLayout::Half ? std::pair {k, k + d / 2} : std::pair {2 * k, 2 * k + 1};
}

// One reading: the table's pairing and the rotation's. Each pair k's two columns give two linear
// equations y_j = u x_j + v s_j x_{j'} in u = A cos(angle), v = A sin(angle).
struct Reading
{
    RopeLayout table = RopeLayout::Half;
    RopeLayout rotation = RopeLayout::Half;
    Eigen::MatrixXd angle; // rows x pairs; NaN where the equations do not tell it
    Eigen::MatrixXd amplitude;
    double factor = std::numeric_limits<double>::quiet_NaN(); // the median amplitude
    double spread = std::numeric_limits<double>::infinity(); // median |A - factor| / factor
};

double median(std::vector<double> v)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

Reading solve(const RowMatrixXf &x, const RowMatrixXf &y, RopeLayout table, RopeLayout rotation)
{
    const std::int64_t rows = x.rows(), d = x.cols(), pairs = d / 2;
    Reading r;
    r.table = table;
    r.rotation = rotation;
    r.angle = Eigen::MatrixXd::Constant(rows, pairs, std::numeric_limits<double>::quiet_NaN());
    r.amplitude = r.angle;
    std::vector<double> amplitudes;
    for (std::int64_t p = 0; p < rows; ++p) {
        const double scale = double(x.row(p).cwiseAbs().maxCoeff());
        for (std::int64_t k = 0; k < pairs; ++k) {
            const auto [a, b] = tableColumns(k, d, table);
            const auto [ra, sa] = rotated(a, d, rotation);
            const auto [rb, sb] = rotated(b, d, rotation);
            // [x_a, sa x_ra; x_b, sb x_rb] (u, v) = (y_a, y_b)
            const double m00 = x(p, a), m01 = sa * x(p, ra), m10 = x(p, b), m11 = sb * x(p, rb);
            const double det = m00 * m11 - m01 * m10;
            if (!(std::fabs(det) > 1e-10 * scale * scale))
                continue;
            const double u = (double(y(p, a)) * m11 - m01 * double(y(p, b))) / det;
            const double v = (m00 * double(y(p, b)) - double(y(p, a)) * m10) / det;
            r.angle(p, k) = std::atan2(v, u);
            r.amplitude(p, k) = std::hypot(u, v);
            amplitudes.push_back(r.amplitude(p, k));
        }
    }
    // Too few pairs told: no reading.
    if (amplitudes.size() * 2 < std::size_t(rows * pairs))
        return r;
    r.factor = median(amplitudes);
    for (double &a : amplitudes)
        a = std::fabs(a - r.factor);
    r.spread = r.factor > 0.0 ? median(amplitudes) / r.factor : std::numeric_limits<double>::infinity();
    return r;
}

// The reading whose amplitude is the same at every pair of every row; of two as good, the one
// whose table and rotation agree (they are one reading where d = 2).
Reading bestReading(const RowMatrixXf &x, const RowMatrixXf &y)
{
    std::optional<Reading> best;
    for (const RopeLayout table : {RopeLayout::Half, RopeLayout::Interleaved}) {
        for (const RopeLayout rotation :
             {table, table == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half}) {
            Reading r = solve(x, y, table, rotation);
            if (!best || r.spread < 0.5 * best->spread)
                best = std::move(r);
        }
    }
    return *best;
}

// Machine epsilon's half of the values' format: float32's, or float16's or bfloat16's where Y
// holds only such values (a model run in half precision).
double unitRoundoff(const RowMatrixXf &y)
{
    switch (representableFormat(y.data(), y.size())) {
    case ValueFormat::BFloat16:
        return 0x1p-8;
    case ValueFormat::Float16:
        return 0x1p-11;
    case ValueFormat::Float32:
        break;
    }
    return 0x1p-24;
}

// An angle the equations do not tell (X's pair 0, a padding row): halfway between the nearest
// rows' before and after it, as consecutive positions turn, for the identification alone.
double filledAngle(const Eigen::MatrixXd &angle, std::int64_t p, std::int64_t k)
{
    std::int64_t before = p - 1, after = p + 1;
    while (before >= 0 && std::isnan(angle(before, k)))
        --before;
    while (after < angle.rows() && std::isnan(angle(after, k)))
        ++after;
    if (before < 0 && after >= angle.rows())
        return 0.0;
    if (before < 0 || after >= angle.rows())
        return before < 0 ? angle(after, k) : angle(before, k);
    const double step = std::remainder(angle(after, k) - angle(before, k), kTwoPi) / double(after - before);
    return angle(before, k) + step * double(p - before);
}

// The angles as a RoPE cos table in HF's layout (A cos(angle), cat over the halves), each cell
// allowed its angle's uncertainty: the check's own identification then reads rope_type and
// parameters from it.
MatrixRows anglesTable(const Reading &r, const RowMatrixXf &x, double u)
{
    const std::int64_t rows = r.angle.rows(), pairs = r.angle.cols(), d = 2 * pairs;
    auto values = std::make_shared<RowMatrixXf>(rows, d);
    std::vector<std::int8_t> rounding(std::size_t(rows * d), MatrixRows::kNoCellRounding);
    for (std::int64_t p = 0; p < rows; ++p) {
        const double scale = double(x.row(p).cwiseAbs().maxCoeff());
        for (std::int64_t k = 0; k < pairs; ++k) {
            const double angle = std::isnan(r.angle(p, k)) ? filledAngle(r.angle, p, k) : r.angle(p, k);
            const auto [a, b] = tableColumns(k, d, r.table);
            const double norm = std::hypot(double(x(p, a)), double(x(p, b)));
            // A cell whose angle is unknown, or known to worse than float32's rounding.
            const double uncertainty
                = std::isnan(r.angle(p, k)) ? 1.0 : 8.0 * u * scale / std::max(norm, 1e-30) * r.factor;
            const auto value = float(r.factor * std::cos(angle));
            (*values)(p, k) = value;
            (*values)(p, k + pairs) = value;
            if (uncertainty > 0x1p-22) {
                const auto e = std::int8_t(std::clamp(std::ceil(std::log10(2.0 * uncertainty)), -30.0, 1.0));
                rounding[std::size_t(p * d + k)] = e;
                rounding[std::size_t(p * d + k + pairs)] = e;
            }
        }
    }
    return MatrixRows(std::move(values), StoredType::Float32, u"the angles of --apply"_s, 0.0, std::move(rounding));
}

// Each row's position from its angles: the slowest pair's angle over its frequency first (below a
// turn for any position the table's type reaches), then each faster pair's whole turns added.
std::vector<std::int64_t> positionsOf(const Reading &r, const FrequencySchedule &schedule, double u)
{
    const std::int64_t rows = r.angle.rows(), pairs = std::min<std::int64_t>(r.angle.cols(), schedule.pairs());
    std::vector<std::int64_t> order(static_cast<std::size_t>(pairs));
    for (std::int64_t k = 0; k < pairs; ++k)
        order[std::size_t(k)] = k;
    std::sort(order.begin(), order.end(),
              [&](std::int64_t a, std::int64_t b) { return schedule.w[std::size_t(a)] < schedule.w[std::size_t(b)]; });
    std::vector<std::int64_t> positions(static_cast<std::size_t>(rows), -1);
    for (std::int64_t p = 0; p < rows; ++p) {
        double position = std::numeric_limits<double>::quiet_NaN(), uncertainty = 0.0;
        for (const std::int64_t k : order) {
            const double w = schedule.w[std::size_t(k)], angle = r.angle(p, k);
            if (std::isnan(angle) || !(w > 0.0))
                continue;
            // float32 angles round pos * w; the solve adds a few units of the values' rounding.
            const double error = 64.0 * u + 0x1p-22 * (std::isnan(position) ? 0.0 : position * w);
            // Position 0's angles are 0, a rounding either side of it.
            double turned = angle < -1e-3 ? angle + kTwoPi : angle;
            if (!std::isnan(position)) {
                if (uncertainty * w > 1.0)
                    continue; // too fast to add its turns without ambiguity
                turned += kTwoPi * std::round((position * w - turned) / kTwoPi);
            }
            position = turned / w;
            uncertainty = error / w;
        }
        if (!std::isnan(position) && uncertainty < 0.25 && position < 9e15)
            positions[std::size_t(p)] = std::llround(position);
    }
    return positions;
}

std::vector<PositionRun> runsOf(const std::vector<std::int64_t> &positions)
{
    std::vector<PositionRun> runs;
    for (std::size_t p = 0; p < positions.size(); ++p) {
        const std::int64_t at = positions[p];
        if (!runs.empty()) {
            PositionRun &last = runs.back();
            const bool follows = at < 0 ? last.position < 0 : last.position >= 0 && at == last.position + last.count;
            if (follows) {
                ++last.count;
                continue;
            }
        }
        runs.push_back({std::int64_t(p), at, 1});
    }
    return runs;
}

// Y against X turned at each row's position with the frequencies found, at float32's rounding of
// HF's computation: the angle pos * inv_freq in float32, then q * cos + rotate_half(q) * sin.
void compare(Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const FrequencySchedule &schedule,
             const std::vector<std::int64_t> &positions, double u)
{
    const std::int64_t rows = x.rows(), d = x.cols(), pairs = std::min<std::int64_t>(d / 2, schedule.pairs());
    for (std::int64_t p = 0; p < rows; ++p) {
        const std::int64_t at = positions[std::size_t(p)];
        bool deviates = at < 0;
        for (std::int64_t k = 0; k < pairs && at >= 0; ++k) {
            const double angle = double(at) * schedule.w[std::size_t(k)];
            const double c = result.attentionFactor * std::cos(angle), s = result.attentionFactor * std::sin(angle);
            for (const std::int64_t j :
                 {tableColumns(k, d, result.table).first, tableColumns(k, d, result.table).second}) {
                const auto [partner, sign] = rotated(j, d, result.rotation);
                const double want = double(x(p, j)) * c + sign * double(x(p, partner)) * s;
                const double error = std::fabs(double(y(p, j)) - want);
                const double reach = std::fabs(double(x(p, j))) + std::fabs(double(x(p, partner)));
                const double tolerance = result.attentionFactor * reach * (0x1p-21 * (1.0 + angle) + 4.0 * u)
                    + 2.0 * u * std::fabs(double(y(p, j)));
                if (error > result.maxAbsError) {
                    result.maxAbsError = error;
                    result.worstRow = p;
                    result.worstColumn = j;
                }
                deviates = deviates || error > tolerance;
            }
        }
        result.deviatingRows += deviates;
    }
}

// The verdict: the pairing, the positions and the cells; correct only where the frequencies are
// a published form's (or a variant of none) and every row is at its own index.
void conclude(Result &result, const Declared &declared, const std::vector<std::int64_t> &positions)
{
    const auto word = [](RopeLayout l) {
        return l == RopeLayout::Half ? u"half (rotate_half: pairs i, i + d/2)"_s
                                     : u"interleaved (rotate_every_two: pairs 2i, 2i + 1)"_s;
    };
    QStringList lines;
    if (result.table != result.rotation) {
        result.mistakes.append(kLayoutSwapped);
        lines.append(u"the layout is swapped between the table and the apply: the cos/sin table is built for %1 "
                     "pairs, but the rotation turns %2 pairs, so each pair's two columns turn by two different "
                     "angles"_s.arg(word(result.table), word(result.rotation)));
    } else if (declared.layout && *declared.layout != result.rotation) {
        result.mistakes.append(u"rope-layout"_s);
        lines.append(u"the rotation turns %1 pairs, not the %2 pairs declared"_s.arg(word(result.rotation),
                                                                                     word(*declared.layout)));
    }
    const std::int64_t first = positions.front();
    const bool constant = first >= 0 && result.positions.size() == 1;
    if (constant)
        result.positionOffset = first;
    if (constant && first != 0) {
        result.mistakes.append(CheckMistakes::kPositionOffset);
        lines.append(u"every row r is at position r + %1: the positions are off by %1 (HF's position_ids start at "
                     "0)"_s.arg(first));
    } else if (!constant) {
        result.mistakes.append(kPositionsOutOfOrder);
        QStringList runs;
        for (std::size_t i = 0; i < result.positions.size() && i < 6; ++i) {
            const PositionRun &run = result.positions[i];
            runs.append(run.position < 0 ? u"rows %1..%2 unread"_s.arg(run.row).arg(run.row + run.count - 1)
                                         : u"rows %1..%2 at %3..%4"_s.arg(run.row)
                                               .arg(run.row + run.count - 1)
                                               .arg(run.position)
                                               .arg(run.position + run.count - 1));
        }
        lines.append(u"the rows' positions are not one run from 0: %1%2"_s.arg(
            runs.join(u", "_s), result.positions.size() > 6 ? u", …"_s : QString()));
    }
    if (result.deviatingRows > 0 && result.mistakes.isEmpty())
        lines.append(u"%1 rows deviate from X turned at their positions; the largest error %2 at row %3, column %4"_s
                         .arg(result.deviatingRows)
                         .arg(result.maxAbsError)
                         .arg(result.worstRow)
                         .arg(result.worstColumn));
    if (!result.mistakes.isEmpty() || result.deviatingRows > 0) {
        result.verdict = CheckVerdict::Mistake;
        result.diagnosis = lines.join(u"; "_s);
        return;
    }
    result.verdict = result.correctAgainst.isEmpty() ? CheckVerdict::Variant : CheckVerdict::Correct;
    result.diagnosis = u"Y is X turned by RoPE at positions 0..%1 with %2 pairs, the table's and the rotation's "
                       "alike, attention factor %3"_s.arg(positions.size() - 1)
                           .arg(word(result.rotation))
                           .arg(result.attentionFactor);
}

} // namespace

std::variant<Result, QString> check(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared)
{
    if (x.rows() != y.rows() || x.cols() != y.cols())
        return u"X is %1 x %2 and Y %3 x %4: the same rows and columns are a query or key before and after RoPE"_s
            .arg(x.rows())
            .arg(x.cols())
            .arg(y.rows())
            .arg(y.cols());
    if (x.cols() < 2 || x.cols() % 2 != 0)
        return u"X has %1 columns: a head's RoPE turns pairs of columns, so head_dim is even and >= 2"_s.arg(x.cols());
    if (x.rows() < 3)
        return u"X has %1 rows: at least 3 positions tell the frequencies"_s.arg(x.rows());
    if (!x.allFinite() || !y.allFinite())
        return u"X or Y holds a value that is not finite"_s;
    Result result;
    const Reading r = bestReading(x, y);
    const double u = unitRoundoff(y);
    if (!(r.spread < std::max(1e-3, 64.0 * u))) {
        result.diagnosis = u"Y is not X turned pair by pair: no pairing of its columns, half (rotate_half) or "
                           "interleaved (rotate_every_two), keeps each pair's length times one factor"_s;
        return result;
    }
    result.rotation = r.rotation;
    result.table = r.table;
    result.attentionFactor = r.factor;
    const MatrixRows angles = anglesTable(r, x, u);
    TableCheck::Declared asRope;
    asRope.family = Encoding::Rope;
    asRope.keys = {u"rope-layout"_s};
    asRope.params.rope.layout = RopeLayout::Half;
    auto identified = TableCheck::identify(angles, asRope);
    const TableMatch *m = std::get_if<TableMatch>(&identified);
    if (!m || !m->params || m->family != Encoding::Rope) {
        result.diagnosis
            = u"Y is X turned pair by pair (%1 pairs), but its angles are no RoPE frequencies at "
              "positions the check can read"_s.arg(r.rotation == RopeLayout::Half ? u"half"_s : u"interleaved"_s);
        result.notes.append(u"the angles as a RoPE cos table: "_s + (m ? m->diagnosis : std::get<QString>(identified)));
        return result;
    }
    // The attention factor as the identification reads it (the type's, where the median is within
    // its rounding): the reference the cells are compared with.
    const MatchValue factor = m->finding(u"attention_factor"_s);
    if (const auto *read = std::get_if<double>(&factor))
        result.attentionFactor = *read;
    result.params = m->params;
    result.params->rope.layout = r.table;
    // "rope-cos, half layout, rope_type ...": the angles' table and its layout are this check's own.
    result.frequencies = m->referenceText.section(u", "_s, 2);
    result.correctAgainst = m->correctAgainst;
    for (const QString &mistake : m->mistakes) {
        if (mistake != CheckMistakes::kPositionOffset)
            result.mistakes.append(mistake);
    }
    const FrequencySchedule schedule = RopeFrequencies::schedule(*m->params);
    const std::vector<std::int64_t> positions = positionsOf(r, schedule, u);
    result.positions = runsOf(positions);
    compare(result, x, y, schedule, positions, u);
    conclude(result, declared, positions);
    return result;
}

} // namespace posenc::ApplyCheck
