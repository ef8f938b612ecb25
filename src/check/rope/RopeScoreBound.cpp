// RopeSearch's bounds on a hypothesis's count (docs/ARCHITECTURE.md, Checking a table): the columns of
// the references it has counted that a hypothesis shares, each counted once.
#include "RopeScoreBound.h"

#include "check/CellTolerance.h"
#include "check/rope/RopeSearch.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace posenc::RopeFit {

namespace {

// What a cell must pass its limit by, relative to the amplitude, to be surely beyond it (or within it):
// the kernel's float32 value and this double one differ by an ulp or two of the amplitude.
constexpr double kSurelyBeyond = 1e-5;
constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();

} // namespace

ScoreBound::ScoreBound(const FitInput &input)
    : m_input(input)
{ }

bool ScoreBound::bounded(const PairReferenceSpec &spec)
{
    return spec.rowPositions.empty() && spec.paddingRows.empty() && spec.positionRounding == PositionRounding::None
        && spec.angles == Angles::Exact;
}

// A column's frequency (its bits) and whether it holds the cos: 2^64 - 1 or - 2 for a zero column.
std::uint64_t ScoreBound::keyOf(const PairReferenceSpec &spec, std::int64_t column)
{
    const ReferenceColumn &c = spec.columns[std::size_t(column)];
    if (c.pair < 0 || std::size_t(c.pair) >= spec.schedule.w.size())
        return std::numeric_limits<std::uint64_t>::max() - (c.isCos ? 1u : 0u);
    const double w = spec.schedule.w[std::size_t(c.pair)];
    // A frequency's bits below 2^63 (w >= 0), shifted once: distinct from the zero columns' keys.
    return (std::bit_cast<std::uint64_t>(std::fabs(w)) << 1) | (c.isCos ? 1u : 0u);
}

ScoreBound::Learned *ScoreBound::learnedOf(const PairReferenceSpec &spec, bool add)
{
    // The tolerance's shared terms are those of the amplitude, its slack and the fastest frequency
    // (cellTolerance): the same three, the same terms.
    double fastest = 0.0;
    for (std::int64_t j = 0; j < spec.cols(); ++j)
        fastest = std::max(fastest, std::fabs(spec.frequency(j)));
    const Shared shared {spec.schedule.amplitude, spec.amplitudeSlack, fastest, spec.firstRow, spec.positionOffset};
    for (Learned &l : m_learned) {
        if (l.shared == shared)
            return &l;
    }
    if (!add || m_learned.size() >= kMostLearned)
        return nullptr;
    Learned l {shared, Columns(std::size_t(m_input.sample.cols())), {}};
    const TableSample &sample = m_input.sample;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t row = sample.rows[std::size_t(k)];
        if (spec.compared(row))
            l.rows.push_back({k, double(spec.position(row)), k > 0 && sample.rows[std::size_t(k - 1)] == row - 1});
    }
    for (auto &counts : l.columns)
        counts.reserve(64);
    m_learned.push_back(std::move(l));
    return &m_learned.back();
}

// The cells of column `c` that `spec` leaves surely beyond `tolerance` (float32 angles'), and those
// that may be.
ScoreBound::Count ScoreBound::countColumn(const PairReferenceSpec &spec, const CellTolerance &tolerance,
                                          const Learned &learned, std::int64_t c) const
{
    const TableSample &sample = m_input.sample;
    const double amplitude = spec.schedule.amplitude;
    const double margin = kSurelyBeyond * std::max(1.0, std::fabs(amplitude));
    const ReferenceColumn &column = spec.columns[std::size_t(c)];
    const bool zero = column.pair < 0 || std::size_t(column.pair) >= spec.schedule.w.size();
    const double w = zero ? 0.0 : spec.schedule.w[std::size_t(column.pair)];
    // cos and sin of the angle, turned by w from one row to the next within a run of the sample (each
    // step's error some 1e-16, far within the margin), taken afresh at each run's first row.
    const double stepCos = std::cos(w), stepSin = std::sin(w);
    double cosine = 1.0, sine = 0.0;
    Count beyond;
    for (const Row &r : learned.rows) {
        if (r.follows) {
            const double next = cosine * stepCos - sine * stepSin;
            sine = sine * stepCos + cosine * stepSin;
            cosine = next;
        } else {
            cosine = std::cos(w * r.position);
            sine = std::sin(w * r.position);
        }
        const double reference = double(float(zero ? 0.0 : amplitude * (column.isCos ? cosine : sine)));
        const double error = std::fabs(double(sample.values(r.index, c)) - reference);
        double limit = tolerance.limit(reference, c, r.position);
        if (sample.cellRounding.size() != 0)
            limit += kCellRoundingMargin * double(sample.cellRounding(r.index, c));
        const double room = margin + kSurelyBeyond * limit;
        // A cell beyond by less than the room, or not finite, may go either way.
        beyond.least += error > limit + room ? 1 : 0;
        beyond.most += !(error <= limit - room) ? 1 : 0;
    }
    return beyond;
}

ScoreBound::Count ScoreBound::bounds(const PairReferenceSpec &spec, std::int64_t enough, bool add)
{
    const Count unknown {0, kUnbounded};
    if (!bounded(spec) || spec.cols() != m_input.sample.cols())
        return unknown;
    Learned *learned = learnedOf(spec, add);
    if (!learned)
        return unknown;
    Count total;
    m_missing.clear();
    for (std::int64_t c = 0; c < spec.cols(); ++c) {
        const auto &counts = learned->columns[std::size_t(c)];
        if (const auto found = counts.find(keyOf(spec, c)); found != counts.end()) {
            total.least += found->second.least;
            total.most += found->second.most;
        } else {
            m_missing.push_back(c);
        }
    }
    if (m_missing.empty())
        return total;
    // The missing columns counted (and learned) until the count passes `enough`.
    const CellTolerance t = cellTolerance(m_input.format, true, m_input.stored, m_input.textRounding, spec);
    for (const std::int64_t c : m_missing) {
        if (total.least > enough)
            return {total.least, kUnbounded};
        const Count beyond = countColumn(spec, t, *learned, c);
        learned->columns[std::size_t(c)].emplace(keyOf(spec, c), beyond);
        total.least += beyond.least;
        total.most += beyond.most;
    }
    return total;
}

// RopeSearch's use of the bounds.

Hypothesis RopeSearch::measuredVariant(const Hypothesis &hyp) const
{
    Hypothesis measured = hyp;
    measured.amplitude = measuredAmplitude();
    measured.amplitudeSlack = amplitudeSlack();
    return measured;
}

bool RopeSearch::triesMeasured(const Hypothesis &hyp) const
{
    return hyp.amplitude != roundAmplitude() || amplitudeSlack() > 1e-6;
}

// Scored at `stopAfter` (consider()'s bound, the best's count or the caller's), a hypothesis whose
// every score passes it stops past it, whichever amplitude scored() takes, and is dropped: never the
// best, its count read by nothing after (the best's count or the caller's bound passed).
bool RopeSearch::surelyPast(const Hypothesis &hyp, const RopeFrequencies::Table &table, std::int64_t stopAfter)
{
    if (stopAfter == kUnbounded)
        return false;
    const PairReferenceSpec snapped = reference(hyp, m_input.framing, table);
    const ScoreBound::Count f = m_bound.bounds(snapped, stopAfter);
    if (f.least <= stopAfter)
        return false;
    if (!triesMeasured(hyp))
        return true;
    // The amplitude as measured: stopped as well, or never taken (scored() takes it only where it
    // leaves fewer than half the snapped one's cells beyond, or as many with exact angles, and the
    // snapped one's count passes the bound).
    const ScoreBound::Count g = m_bound.bounds(reference(measuredVariant(hyp), m_input.framing, table), stopAfter);
    if (g.least > stopAfter)
        return true;
    const std::int64_t most = f.most != kUnbounded ? f.most : m_bound.bounds(snapped, kUnbounded).most;
    return most != kUnbounded && 2 * g.least >= most;
}

void RopeSearch::learnDefault(const Hypothesis &hyp, const RopeFrequencies::Table &table)
{
    m_bound.learn(reference(hyp, m_input.framing, table));
    if (triesMeasured(hyp))
        m_bound.learn(reference(measuredVariant(hyp), m_input.framing, table));
}

} // namespace posenc::RopeFit
