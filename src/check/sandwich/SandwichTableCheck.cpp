#include "SandwichTableCheck.h"

#include "check/HeadBiasFit.h"
#include "check/OffsetFit.h"
#include "check/SampleScore.h"
#include "core/NumberText.h"
#include "core/sandwich/SandwichBias.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

using namespace Qt::StringLiterals;

namespace posenc::SandwichTableCheck {

namespace {

const QString kTable = u"sandwich-bias"_s;
const QString kScaleMistake = u"scale-not-8h-over-H"_s;
// The distances a fit reads: every one up to this, then a few farther.
constexpr std::int64_t kNearDistances = 32;
// The distances the scale is measured over.
constexpr std::int64_t kScaleDistances = 64;

// What the table shows: the per-head dim, the scale and the heads it names, the mask.
struct Found
{
    std::int64_t headDim = 0;
    double scale = 0.0; // 8K/H where a head has it, else as measured
    std::int64_t heads = 0; // the fewest heads with a head of that scale; 0: none
    std::int64_t head = 0;
    // After the query: causal, NeMo's own value there (the bias of distance 0) where the fill is
    // NaN, else a mask's fill; or the bias of the distance (bidirectional).
    HeadBiasFit::After after;

    SandwichMask mask() const { return after.twoSided ? SandwichMask::Bidirectional : SandwichMask::Causal; }
};

// The bias at distance r as the sample holds it, r >= 0: read before the query (t = -r) where
// the table has more than one row, else after it.
struct DistanceSide
{
    std::vector<std::int64_t> distances; // 0 first
    std::vector<double> values;
};

std::optional<DistanceSide> distanceSide(const OffsetProfile &profile)
{
    const bool before = profile.has(-1);
    DistanceSide side;
    const std::int64_t farthest = before ? -profile.first : profile.last();
    for (std::int64_t r = 0; r <= farthest;) {
        const std::int64_t t = before ? -r : r;
        if (profile.has(t) && std::isfinite(profile.at(t))) {
            side.distances.push_back(r);
            side.values.push_back(double(profile.at(t)));
        }
        r = r < kNearDistances ? r + 1 : r + r / 4;
    }
    if (side.distances.size() < 3 || side.distances.front() != 0 || side.distances[1] != 1)
        return std::nullopt;
    return side;
}

// The relative agreement a 16-bit format's rounding leaves between the table and a candidate.
double agreement(ValueFormat format)
{
    return format == ValueFormat::Float32 ? 1e-4 : 1e-2;
}

// Sandwich's sums, SandwichBias::cosineSum(frequencies(d), r), at distance 1 and at a probe's for
// every head dim d of one parity up to kMaxHeadDim, index (d - 1) / 2: the same for every head of a
// table, which the check fits one by one (each head of a 12-head ALiBi table tried as Sandwich's took
// 2048 dims' frequencies and sums, 95 % of its check's time). Computed once a process for each
// parity and probe distance (the probe is among the near distances, a few of which a table asks).
struct ShapeSums
{
    std::vector<double> atOne;
    std::vector<double> atProbe;
};

const ShapeSums &shapeSums(bool odd, std::int64_t probe)
{
    static std::mutex mutex;
    static std::map<std::pair<bool, std::int64_t>, ShapeSums> computed; // a node's address stays
    const std::lock_guard lock(mutex);
    const auto [at, added] = computed.try_emplace({odd, probe});
    if (added)
        for (std::int64_t d = odd ? 1 : 2; d <= SandwichParams::kMaxHeadDim; d += 2) {
            const std::vector<double> w = SandwichBias::frequencies(d);
            at->second.atOne.push_back(SandwichBias::cosineSum(w, 1));
            at->second.atProbe.push_back(SandwichBias::cosineSum(w, probe));
        }
    return at->second;
}

// The head dim and scale whose shape (sum - d/2) / s fits the side best, by least squares over its
// distances; the candidates are the dims of the parity the value at distance 0 shows (0 for an
// even d, 1/2 / s for an odd one), each tried first at distances 1 and 2.
std::optional<std::pair<std::int64_t, double>> fitShape(const DistanceSide &side, ValueFormat format)
{
    const double v0 = side.values[0], v1 = side.values[1];
    const bool odd = v0 != 0.0;
    if (v0 < 0.0 || v1 == 0.0 || !std::isfinite(v1))
        return std::nullopt;
    const std::size_t probe = std::min<std::size_t>(side.distances.size() - 1, 8);
    // The sums of a probe past the near distances (cells missing there) are computed here, each time.
    const std::int64_t probeDistance = side.distances[probe];
    const ShapeSums *sums = probeDistance <= kNearDistances ? &shapeSums(odd, probeDistance) : nullptr;
    const double tolerance = agreement(format);
    std::optional<std::pair<std::int64_t, double>> best;
    double bestResidual = std::numeric_limits<double>::infinity();
    for (std::int64_t d = odd ? 1 : 2; d <= SandwichParams::kMaxHeadDim; d += 2) {
        const auto index = std::size_t((d - 1) / 2);
        std::vector<double> w;
        if (!sums)
            w = SandwichBias::frequencies(d);
        const double half = 0.5 * double(d);
        const double s = ((sums ? sums->atOne[index] : SandwichBias::cosineSum(w, 1)) - half) / v1;
        if (!(s > 0.0) || (odd && std::fabs(0.5 / s - v0) > tolerance * v0))
            continue;
        const double atProbe = sums ? sums->atProbe[index] : SandwichBias::cosineSum(w, probeDistance);
        const double predicted = (atProbe - half) / s;
        if (std::fabs(predicted - side.values[probe])
            > tolerance * std::max(std::fabs(side.values[probe]), std::fabs(v1)))
            continue;
        if (sums)
            w = SandwichBias::frequencies(d);
        // The scale from the near distances, where float32 angles (NeMo's) are off by little.
        double ff = 0.0, fv = 0.0;
        std::vector<double> f;
        for (std::size_t i = 0; i < side.distances.size(); ++i) {
            f.push_back(SandwichBias::cosineSum(w, side.distances[i]) - half);
            if (side.distances[i] <= kScaleDistances) {
                ff += f.back() * f.back();
                fv += f.back() * side.values[i];
            }
        }
        const double fitted = ff / fv;
        double residual = 0.0;
        for (std::size_t i = 0; i < f.size(); ++i)
            residual += std::pow(f[i] / fitted - side.values[i], 2);
        if (fitted > 0.0 && residual < bestResidual) {
            bestResidual = residual;
            best = std::pair(d, fitted);
        }
    }
    return best;
}

// The fewest heads H with a head K whose 8K/H is the measured scale, to `tolerance`.
void nameHead(Found &found, double measured, double tolerance)
{
    found.scale = measured;
    for (std::int64_t n = 1; n <= SandwichParams::kMaxHeads; ++n) {
        const auto k = std::int64_t(std::llround(measured * double(n) / 8.0));
        if (k < 1 || k > n)
            continue;
        const double s = SandwichBias::scale(n, k);
        if (std::fabs(s / measured - 1.0) <= tolerance) {
            found.heads = n;
            found.head = k;
            found.scale = s;
            return;
        }
    }
}

// The mask from the keys after the query: the bias of distance 0 (NeMo's tril), a mask's fill,
// or the bias of the same distance before it.
bool findMask(Found &found, const OffsetProfile &profile, ValueFormat format, const DistanceSide &side,
              double tolerance)
{
    if (!profile.has(-1)) { // one row: its keys are all at or after the query
        found.after.twoSided = true;
        return true;
    }
    const auto after = HeadBiasFit::readAfter(
        profile, format, side.values[1], side.values[0],
        [&](double a, double b) { return std::fabs(a - b) <= tolerance * std::fabs(side.values[1]); }, found.after);
    if (after)
        found.after = *after;
    return after.has_value();
}

std::optional<Found> find(const OffsetProfile &profile, ValueFormat format)
{
    const std::optional<DistanceSide> side = distanceSide(profile);
    if (!side)
        return std::nullopt;
    const auto shape = fitShape(*side, format);
    if (!shape)
        return std::nullopt;
    Found found;
    found.headDim = shape->first;
    nameHead(found, shape->second, format == ValueFormat::Float32 ? 2e-5 : 4e-3);
    if (!findMask(found, profile, format, *side, agreement(format)))
        return std::nullopt;
    return found;
}

// Head dim 1's table: its one frequency, 10000^-2 = 1e-8, turns by less than float32 shows at any
// length, so every cell is 1/2 / (8K/H), before the query and after it (causal or not). The sample
// of every row the same (which is otherwise the mistake same-row) holding one value that is a head's.
std::optional<Found> constantHead(const TableEvidence &e)
{
    const RowMatrixXf &values = e.sample.values;
    if (!e.sameRow || values.size() == 0 || e.rows() != e.cols())
        return std::nullopt;
    const double c = values(0, 0);
    if (!(c > 0.0) || !std::isfinite(c) || (values.array() - float(c)).abs().maxCoeff() > 1e-6 * c)
        return std::nullopt;
    Found found;
    found.headDim = 1;
    found.after.twoSided = true;
    // A constant such as 256 is every format's: a head whose value float32 holds is taken before one
    // only a 16-bit format's rounding allows (4080 heads' 255.0 against 4096's 256).
    nameHead(found, 0.5 / c, 2e-5);
    if (found.heads == 0 && e.format != ValueFormat::Float32)
        nameHead(found, 0.5 / c, 4e-3);
    if (found.heads == 0)
        return std::nullopt;
    return found;
}

// The reference's values at every offset of a table of `e`'s rows and columns.
OffsetReference::Values valuesOf(const Found &found, const TableEvidence &e)
{
    // Each distance's sum once, not once a cell (SandwichBias::DistanceSums): scoring a 16384 x 16384
    // table's sample summed its 16384 distances again for every run of rows, minutes at head dim 4096.
    auto sums = std::make_shared<const SandwichBias::DistanceSums>(found.headDim,
                                                                   std::max(e.rows() + e.sample.queryStart, e.cols()));
    return HeadBiasFit::values(
        [sums, found](std::int64_t d) { return SandwichBias::ofSum(sums->at(d), found.headDim, found.scale); },
        found.after, SandwichBias::afterQuery(found.headDim, found.scale));
}

// The rounding of the table's values, and with `float32Angles` NeMo's: each term's angle
// r inv_freq_k off by a dozen units of 2^-24 (the float32 exponent 2k/d, pow, the division, the
// product), each cosine and the sum by a few more, all divided by the scale.
CellTolerance toleranceOf(const TableEvidence &e, const Found &found, bool float32Angles)
{
    const std::vector<double> w = SandwichBias::frequencies(found.headDim);
    const double terms = double(w.size());
    CellTolerance t = OffsetFit::tolerance(e, (terms + 0.5 * double(found.headDim)) / found.scale, 2.0);
    double frequencySum = 0.0;
    for (const double f : w)
        frequencySum += f;
    const double farthest = double(std::max(e.rows(), e.cols()) - 1);
    if (float32Angles)
        t.absolute += (12.0 * farthest * frequencySum + 4.0 * terms) * std::ldexp(1.0, -24) / found.scale;
    return t;
}

// The sample against the reference, rounded once (posenc's table) and with float32 angles
// (NeMo's): float32 angles where they explain cells that one rounding does not.
struct Scored
{
    SampleScore score;
    bool float32Angles = false;
    std::int64_t bad() const { return float32Angles ? score.badWithFloat32Angles : score.bad; }
};

Scored scored(const TableEvidence &e, const Found &found, const OffsetReference &reference)
{
    const CellTolerance angles = toleranceOf(e, found, true);
    Scored s {scoreOnSample(reference, e.sample, toleranceOf(e, found, false), &angles)};
    s.float32Angles = s.score.badWithFloat32Angles < s.score.bad;
    return s;
}

QString maskWords(const Found &found)
{
    if (found.after.twoSided)
        return u"bidirectional"_s;
    if (std::isnan(found.after.fill))
        return u"causal (keys after the query at distance 0, NeMo's tril)"_s;
    return u"causal (keys after the query %1)"_s.arg(HeadBiasFit::fillWords(found.after.fill));
}

QString referenceText(const Found &found)
{
    const QString head = found.heads > 0 ? u"head %1 of %2"_s.arg(found.head).arg(found.heads)
                                         : u"scale %1"_s.arg(NumberText::exact(found.scale));
    return u"sandwich-bias, %1, d = %2, %3"_s.arg(head).arg(found.headDim).arg(maskWords(found));
}

QStringList notes(const Found &found, std::int64_t rows)
{
    QStringList notes;
    if (found.heads > 0)
        notes.append(u"one head's table tells d and its scale 8K/H = %1, not H: head %2 of %3 and head %4 of %5 (any "
                     "multiple) give the same table; the fewest heads named"_s.arg(NumberText::compact(found.scale, 6))
                         .arg(found.head)
                         .arg(found.heads)
                         .arg(2 * found.head)
                         .arg(2 * found.heads));
    if (found.headDim % 2 == 1)
        notes.append(u"an odd d: NeMo's torch.arange(1, d/2 + 1) takes ⌈d/2⌉ = %1 terms, so distance 0 holds "
                     "1/2 / (8K/H), not 0"_s.arg((found.headDim + 1) / 2));
    if (rows == 1)
        notes.append(u"one row holds the keys at and after the query: read as bidirectional"_s);
    if (found.headDim == 1)
        notes.append(u"d = 1: its one frequency, 10000^-2, turns by less than float32 shows, so every cell is 1/2 / "
                     "(8K/H) and every row the same, causal or bidirectional alike (read as bidirectional)"_s);
    if (!found.after.twoSided && !std::isnan(found.after.fill))
        notes.append(u"the keys after the query hold a mask's fill: NeMo's bias holds the bias of distance 0 there "
                     "and leaves the mask to the attention"_s);
    return notes;
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference,
                   bool float32Angles)
{
    TableMatch m
        = OffsetFit::match(e, kTable, std::move(reference), toleranceOf(e, found, float32Angles), float32Angles);
    m.findings = HeadBiasFit::headFindings(found.heads, found.head);
    m.findings += {{u"head_dim"_s, MatchValue(found.headDim)},
                   {u"scale"_s, found.scale},
                   {u"mask"_s, found.after.twoSided ? u"bidirectional"_s : u"causal"_s}};
    m.referenceText = referenceText(found);
    m.notes = notes(found, e.rows());
    if (float32Angles)
        m.notes.append(u"its cells differ from the formula in float64 by the rounding of float32 angles r · inv_freq, "
                       "as NeMo's torch computes them: allowed"_s);
    if (found.heads == 0) {
        m.mistakes = {kScaleMistake};
        m.verdict = CheckVerdict::Mistake;
        m.diagnosis = u"Sandwich's shape for d = %1, divided by %2, which is 8K/H for no head K of at most %3 heads: "
                      "NeMo divides head h's bias by h·8/H"_s.arg(found.headDim)
                          .arg(NumberText::exact(found.scale))
                          .arg(SandwichParams::kMaxHeads);
        return m;
    }
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst
        = u"NeMo's SandwichRelativePositionEmbedding for head %1 of %2 heads"_s.arg(found.head).arg(found.heads);
    m.diagnosis
        = u"Sandwich's bias of head %1 of %2 as NeMo makes it: (Σₖ cos(r/10000^(2k/%3)) − %4)/%5, %6"_s.arg(found.head)
              .arg(found.heads)
              .arg(found.headDim)
              .arg(NumberText::compact(0.5 * double(found.headDim), 6), NumberText::compact(found.scale, 6),
                   maskWords(found));
    Params p;
    p.encoding = Encoding::Sandwich;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    p.sandwich = {found.heads, found.head, found.headDim, found.mask()};
    if (p.isValid())
        m.params = p;
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    const std::optional<OffsetProfile> profile = OffsetFit::profile(e);
    const std::optional<Found> found = profile ? find(*profile, e.format) : constantHead(e);
    if (!found)
        return std::nullopt;
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart, valuesOf(*found, e),
                                                                   found->after.masked());
    const Scored s = scored(e, *found, *reference);
    TableCandidate c;
    c.compared = s.score.compared;
    c.bad = s.bad();
    c.claims = explains(c.compared, c.bad);
    if (c.claims)
        c.match = matchOf(e, *found, reference, s.float32Angles);
    return c;
}

// The match against exactly the table of `params` (HeadBiasFit::hypothesis's expect).
TableMatch expect(const TableEvidence &e, const Params &params)
{
    Found found;
    found.heads = params.sandwich.heads;
    found.head = params.sandwich.head;
    found.headDim = params.sandwich.headDim;
    found.scale = SandwichBias::scale(found.heads, found.head);
    found.after.twoSided = params.sandwich.mask == SandwichMask::Bidirectional;
    found.after = HeadBiasFit::declaredAfter(e, found.after);
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart, valuesOf(found, e),
                                                                   found.after.masked());
    return matchOf(e, found, reference, scored(e, found, *reference).float32Angles);
}

} // namespace

TableHypothesis hypothesis()
{
    // Its words are SandwichWords.json's "check".
    TableHypothesis h = HeadBiasFit::hypothesis(SandwichBias::biasFamily(), fit, expect);
    h.mistakes = QStringList {kScaleMistake} + h.mistakes;
    return h;
}

} // namespace posenc::SandwichTableCheck
