#include "check/rope/RopeFrequencyMistakes.h"

#include "check/CellTolerance.h"
#include "check/DeclaredWords.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeFrequencyMistakes {

namespace {

// The largest error of a float32 angle a cell is compared at (radians): the product p·w rounded
// once, w itself from a few float32 operations (a power, a division, yarn's blend) that may each
// round, all within kAngleUnits units of float32 of p·w.
constexpr double kPinnedAngle = 0.02;
constexpr double kAngleUnits = 8.0;
// The rows read at once.
constexpr std::int64_t kChunkCells = std::int64_t(1) << 20;
// The rows of a table a candidate is read over: enough for the slow pairs, whose angles float32
// pins longest, to turn through several radians.
constexpr std::int64_t kMostRows = 16384;

bool differs(const std::vector<double> &a, const std::vector<double> &b)
{
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (std::fabs(a[i] - b[i]) > 1e-6 * std::max(std::fabs(a[i]), std::fabs(b[i])))
            return true;
    }
    return false;
}

// The interpolated branch of `w` (the frequencies of a rope_type that blends u_i and u_i / factor,
// u_i = theta^(-2i/d)) with the factor inside the power: each pair's share of the interpolated
// frequency, a_i = (1 - w_i / u_i) / (1 - 1 / factor), kept, u_i / factor replaced by
// u_i factor^(-2i/d). Nothing where no pair is interpolated.
std::optional<std::vector<double>> factorInPower(const std::vector<double> &w, const std::vector<double> &unscaled,
                                                 double factor)
{
    if (!(factor > 1.0) || w.size() != unscaled.size() || w.empty())
        return std::nullopt;
    const double pairs = double(w.size());
    std::vector<double> out(w.size());
    bool interpolated = false;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!(unscaled[i] > 0.0))
            return std::nullopt;
        const double share = std::clamp((1.0 - w[i] / unscaled[i]) / (1.0 - 1.0 / factor), 0.0, 1.0);
        interpolated = interpolated || share > 1e-9;
        out[i] = unscaled[i] * (1.0 - share) + unscaled[i] * std::pow(factor, -double(i) / pairs) * share;
    }
    if (!interpolated || !differs(out, w))
        return std::nullopt;
    return out;
}

} // namespace

std::vector<Candidate> powerCandidates(const Params &declared, double amplitude)
{
    const RopeType type = declared.rope.type;
    const bool divides = type == RopeType::Linear || type == RopeType::Llama3 || type == RopeType::Yarn;
    if (!divides || !declared.rope.factor)
        return {};
    std::vector<Params> at {declared};
    if (type == RopeType::Yarn) {
        at.push_back(declared);
        at.back().rope.yarnTruncate = !declared.rope.yarnTruncate;
    }
    std::vector<Candidate> out;
    for (const Params &p : at) {
        const std::vector<double> w = RopeFrequencies::table(p).inv;
        const auto power = factorInPower(w, unscaledOf(p.rope.theta, std::int64_t(w.size())), *p.rope.factor);
        if (!power)
            continue;
        Candidate c {kFactorInPower, *power, amplitude, {}, {}};
        const bool truncate = p.rope.yarnTruncate != declared.rope.yarnTruncate;
        if (truncate)
            c.also.append(u"yarn-truncate"_s);
        c.words = u"each interpolated pair turning at (factor rope_theta)^(-2i/d) = rope_theta^(-2i/d) factor^(-2i/d), "
                  "the factor %1 inside the power, where transformers divides by it, 1 / (factor rope_theta^(2i/d)) "
                  "(modeling_rope_utils.py: inv_freq_interpolation; apache/tvm#18576)"_s.arg(
                      NumberText::exact(*p.rope.factor))
            + (truncate ? u", and the ramp's ends %1 (truncate %2 where %3 %4: find_correction_range)"_s.arg(
                   p.rope.yarnTruncate ? u"floored and ceiled"_s : u"not rounded"_s,
                   p.rope.yarnTruncate ? u"true"_s : u"false"_s, declared.rope.yarnTruncate ? u"true"_s : u"false"_s,
                   DeclaredWords::isDeclared())
                        : QString())
            + u" (pair %1 at %2 radians a position "_s + DeclaredWords::whereGiven() + u" %3)"_s;
        out.push_back(std::move(c));
    }
    // Every pair at (factor rope_theta)^(-2i/d): the factor inside the power and the ramp lost besides, as
    // if the factor multiplied the base (apache/tvm#18576's parent found yarn's correction range with the
    // column index as the dimension, so every pair but the first took its freq_inter).
    const auto n = std::int64_t(RopeFrequencies::table(declared).inv.size());
    const std::vector<double> unscaled = unscaledOf(declared.rope.theta, n);
    std::vector<double> whole(unscaled.size());
    const double pairs = double(unscaled.size());
    for (std::size_t i = 0; i < unscaled.size(); ++i)
        whole[i] = unscaled[i] * std::pow(*declared.rope.factor, -double(i) / pairs);
    const bool repeated
        = std::any_of(out.begin(), out.end(), [&](const Candidate &c) { return !differs(c.w, whole); });
    if (*declared.rope.factor > 1.0 && !whole.empty() && !repeated) {
        Candidate c {kFactorInPower, whole, amplitude, {}, {}};
        c.words = u"every pair turning at (factor rope_theta)^(-2i/d) = rope_theta^(-2i/d) factor^(-2i/d), the "
                  "factor %1 inside the power and no pair kept at its own frequency, as if the factor multiplied the base "
                  "(rope_theta %2), where transformers divides the interpolated pairs by it, 1 / (factor "
                  "rope_theta^(2i/d)) (modeling_rope_utils.py: inv_freq_interpolation; apache/tvm#18576)"_s.arg(
                      NumberText::exact(*declared.rope.factor),
                      NumberText::compact(*declared.rope.factor * declared.rope.theta, 6))
            + u" (pair %1 at %2 radians a position "_s + DeclaredWords::whereGiven() + u" %3)"_s;
        out.push_back(std::move(c));
    }
    return out;
}

std::size_t mostMoved(const std::vector<double> &candidate, const std::vector<double> &reference)
{
    std::size_t shown = 0;
    double most = 0.0;
    for (std::size_t i = 0; i < candidate.size() && i < reference.size(); ++i) {
        const double moved = std::fabs(std::log(std::max(candidate[i], 1e-300) / std::max(reference[i], 1e-300)));
        if (reference[i] > 0.0 && moved > most) {
            most = moved;
            shown = i;
        }
    }
    return shown;
}

std::vector<double> unscaledOf(double theta, std::int64_t pairs)
{
    std::vector<double> u(static_cast<std::size_t>(std::max<std::int64_t>(pairs, 0)));
    for (std::int64_t i = 0; i < pairs; ++i)
        u[std::size_t(i)] = std::pow(theta, -2.0 * double(i) / double(2 * pairs));
    return u;
}

std::vector<Candidate> candidates(const std::vector<double> &w, double amplitude, const std::vector<double> &unscaled)
{
    std::vector<Candidate> out;
    Candidate twice {kAppliedTwice, w, amplitude * amplitude, {}, {}};
    for (double &x : twice.w)
        x *= 2.0;
    twice.words = u"every angle twice "_s + DeclaredWords::referenceOf()
        + u" (2 p inv_freq) and the amplitude %1, its attention factor %2 squared: the rotation applied to what it had "
          u"already rotated, R(p w) R(p w) = R(2 p w) "
          "(NVIDIA/TensorRT-LLM#16378: RoPE applied by the unfused path's RotaryEmbedding and again by the "
          "attention kernel)"_s.arg(NumberText::compact(twice.amplitude, 6), NumberText::compact(amplitude, 6));
    out.push_back(std::move(twice));
    if (unscaled.size() == w.size()) {
        // The scaling applied to pos_freqs = theta^(2i/d): each pair's own factor kept, the base
        // frequency inverted (w / u^2 = s / u where the reference is u s).
        Candidate fromPos {kFrequenciesInverted, w, amplitude, {}, {}};
        bool valid = true;
        for (std::size_t i = 0; i < w.size(); ++i) {
            valid = valid && unscaled[i] > 0.0;
            fromPos.w[i] = valid ? w[i] / (unscaled[i] * unscaled[i]) : 0.0;
        }
        fromPos.words = u"each pair turning at "_s + DeclaredWords::the()
            + u" scaling of pos_freqs = theta^(2i/d) where transformers scales inv_freq = theta^(-2i/d) (pair %1 at "
              "%2 radians a position "_s
            + DeclaredWords::whereGiven()
            + u" %3): the frequencies computed from their reciprocals, as "
              "`interpolation = 1.0 / (factor * inv_freq)` does (microsoft/onnxruntime-genai#2076)"_s;
        if (valid && differs(fromPos.w, w))
            out.push_back(std::move(fromPos));
    }
    Candidate reciprocal {kFrequenciesInverted, w, amplitude, {}, {}};
    bool valid = true;
    for (double &x : reciprocal.w) {
        valid = valid && x > 0.0;
        x = x > 0.0 ? 1.0 / x : 0.0;
    }
    reciprocal.words = u"each pair turning at the reciprocal of "_s + DeclaredWords::the()
        + u" frequency, 1 / inv_freq (pair %1 at %2 radians a position "_s + DeclaredWords::whereGiven()
        + u" %3): the frequencies inverted"_s;
    if (valid && differs(reciprocal.w, w) && (out.size() < 2 || differs(reciprocal.w, out.back().w)))
        out.push_back(std::move(reciprocal));
    return out;
}

Agreement agree(const TableRows &table, const std::vector<ReferenceColumn> &columns,
                const std::function<std::int64_t(std::int64_t)> &position, const Candidate &candidate, double unit,
                double slack, std::int64_t maxRows)
{
    Agreement a;
    const std::int64_t cols = table.cols();
    if (std::int64_t(columns.size()) != cols || cols == 0)
        return a;
    const std::int64_t rows = std::min(table.rows(), maxRows);
    const std::int64_t chunk = std::max<std::int64_t>(1, kChunkCells / cols);
    std::vector<float> cells;
    QString error;
    const double units = kAngleUnits * std::ldexp(1.0, -24);
    std::vector<std::int64_t> pairCompared(candidate.w.size(), 0), pairBeyond(candidate.w.size(), 0);
    for (std::int64_t r0 = 0; r0 < rows; r0 += chunk) {
        const std::int64_t count = std::min(chunk, rows - r0);
        cells.resize(std::size_t(count * cols));
        if (!table.read(r0, count, cells.data(), error))
            return {};
        bool anyPinned = false;
        for (std::int64_t r = 0; r < count; ++r) {
            const std::int64_t p = position(r0 + r);
            if (p < 0)
                continue;
            for (std::int64_t c = 0; c < cols; ++c) {
                const ReferenceColumn &col = columns[std::size_t(c)];
                if (col.pair < 0 || std::size_t(col.pair) >= candidate.w.size())
                    continue;
                const double angle = double(p) * candidate.w[std::size_t(col.pair)];
                const double angleError = units * std::fabs(angle);
                if (angleError > kPinnedAngle)
                    continue;
                anyPinned = true;
                const double expected = candidate.amplitude * (col.isCos ? std::cos(angle) : std::sin(angle));
                const double limit = candidate.amplitude * (angleError + 4.0 * unit) + slack;
                const double cell = double(cells[std::size_t(r * cols + c)]);
                if (std::isnan(cell))
                    continue; // a cell that tells nothing (an angle --apply cannot read)
                ++a.compared;
                ++pairCompared[std::size_t(col.pair)];
                if (!(std::fabs(cell - expected) <= limit)) {
                    ++a.beyond;
                    ++pairBeyond[std::size_t(col.pair)];
                }
            }
        }
        if (!anyPinned)
            break;
    }
    for (std::size_t k = 0; k < pairCompared.size(); ++k) {
        a.pairs += pairCompared[k] > 0 ? 1 : 0;
        a.pairsAgreeing += pairCompared[k] > 0 && pairBeyond[k] * 1000 <= pairCompared[k] ? 1 : 0;
    }
    return a;
}

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table)
{
    const auto *reference = dynamic_cast<const PairReference *>(declared.reference.get());
    if (!reference || reference->cols() != table.cols() || !declared.params)
        return std::nullopt;
    const PairReferenceSpec &spec = reference->spec();
    if (!spec.rowPositions.empty() || spec.schedule.w.empty())
        return std::nullopt;
    const std::vector<double> unscaled = unscaledOf(declared.params->rope.theta, spec.schedule.pairs());
    const double unit = std::max(halfUnit(storedFormat(table.storedType())), declared.tolerance.relative);
    const auto position
        = [&](std::int64_t row) -> std::int64_t { return reference->compared(row) ? reference->position(row) : -1; };
    // The declared reference's other table too (cos for sin): of two tables both deviating in every
    // cell, the stream may have kept either.
    std::vector<ReferenceColumn> other = spec.columns;
    for (ReferenceColumn &col : other)
        col.isCos = !col.isCos;
    std::vector<Candidate> all = candidates(spec.schedule.w, spec.schedule.amplitude, unscaled);
    for (Candidate &c : powerCandidates(*declared.params, spec.schedule.amplitude)) {
        if (c.w.size() == spec.schedule.w.size())
            all.push_back(std::move(c));
    }
    for (const Candidate &c : all) {
        bool flipped = false;
        Agreement a = agree(table, spec.columns, position, c, unit, table.textRounding(), kMostRows);
        if (!a.holds(table.cols())) {
            a = agree(table, other, position, c, unit, table.textRounding(), kMostRows);
            flipped = true;
        }
        if (!a.holds(table.cols()))
            continue;
        const std::size_t shown = mostMoved(c.w, spec.schedule.w);
        TableMatch m = declared;
        if (flipped && !other.empty()) {
            const bool cos = other.front().isCos;
            m.table = cos ? u"rope-cos"_s : u"rope-sin"_s;
            m.referenceText.replace(cos ? u"rope-sin"_s : u"rope-cos"_s, m.table);
        }
        m.mistakes = QStringList {c.id} + c.also;
        m.correctAgainst.clear();
        m.notes.prepend(m.diagnosis);
        const QString words = c.id == kAppliedTwice
            ? c.words
            : c.words.arg(shown).arg(NumberText::compact(c.w[shown], 6),
                                     NumberText::compact(spec.schedule.w[shown], 6));
        m.diagnosis = u"the table is "_s + DeclaredWords::reference()
            + u" with %1; %2 of its cells whose float32 angle pins them "
              "compared, %3 beyond the rounding (%4 of %5 pairs agree in every one but a thousandth)"_s.arg(words)
                  .arg(a.compared)
                  .arg(a.beyond)
                  .arg(a.pairsAgreeing)
                  .arg(a.pairs);
        return m;
    }
    return std::nullopt;
}

} // namespace posenc::RopeFrequencyMistakes
