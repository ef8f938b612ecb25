#include "MropeTableFit.h"

#include "check/FitNumbers.h"
#include "check/PairAngles.h"
#include "core/mrope/MropeRotation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace posenc::MropeTableFit {

namespace {

constexpr double kPi = std::numbers::pi;
// The angle below which a float32 cosine is 1: cos(a) > 1 - 2^-25 for a < 2.4e-4.
constexpr double kFlatAngle = 2.5e-4;
// rope_theta of the models that ship M-RoPE (resources/presets): Qwen2-VL and Qwen2.5-VL 1e6,
// Qwen3-VL 5e6; and RoPE's 10000 and 500000.
constexpr std::array kModelThetas {1e6, 5e6, 1e4, 5e5};

using PairValues = PairAngles::PairSample;

// The pairs, with row 0, whose ids are (0, 0, 0) in every prompt, first.
std::optional<PairValues> pairValues(const TableEvidence &e)
{
    if (e.sample.size() < 3 || e.sample.rows.front() != 0)
        return std::nullopt;
    return PairAngles::read(e);
}

// rope_theta from row 1, whose ids are 0 or 1 on each axis: the first two pairs that turn there
// (of one axis in every split: text's all, an image's w or h pairs) turn by theta^(-j / pairs).
// Nothing where fewer than two pairs turn by enough to measure.
std::optional<double> thetaOfRow1(const PairValues &p, const TableSample &sample)
{
    if (sample.rows.size() < 2 || sample.rows[1] != 1)
        return std::nullopt;
    const std::int64_t pairs = p.value.cols();
    std::vector<std::pair<std::int64_t, double>> turning;
    for (std::int64_t j = 0; j < pairs && turning.size() < 2; ++j) {
        if (const double a = p.angle(1, j); a > 1e-2)
            turning.push_back({j, a});
    }
    if (turning.size() < 2 || turning[1].second >= turning[0].second)
        return std::nullopt;
    const double steps = double(turning[1].first - turning[0].first);
    return std::pow(turning[0].second / turning[1].second, double(pairs) / steps);
}

// How a split is judged at a theta: the sample's pairs, each pair's frequency, the cells' tolerance.
class SplitFit
{
public:
    SplitFit(const PairValues &p, double theta, const CellTolerance &tolerance)
        : m_p(p)
        , m_tolerance(tolerance)
    {
        const std::int64_t pairs = p.value.cols();
        for (std::int64_t j = 0; j < pairs; ++j) {
            // HF's default inv_freq: 1 / theta^(2j / rotary_dim).
            m_inv.push_back(std::pow(theta, -double(j) / double(pairs)));
            // float32 angles (inv_freq @ position_ids in float32): a few units of 2^-24 of each
            // angle; pair 0 (inv_freq 1) turns by the id itself, exactly.
            m_perId.push_back(j == 0 ? 0.0 : 4.0 * 0x1p-24 * m_inv.back());
        }
    }

    std::int64_t rows() const { return m_p.value.rows(); }
    std::int64_t pairs() const { return m_p.value.cols(); }
    const std::vector<double> &inv() const { return m_inv; }

    // The pairs of row i beyond the tolerance at `id` (slowFirst: the pairs of one axis).
    std::int64_t badAt(std::int64_t i, const std::vector<std::int64_t> &slowFirst, std::int64_t id,
                       double *squares = nullptr) const
    {
        std::int64_t bad = 0;
        for (const std::int64_t j : slowFirst) {
            const double angle = double(id) * m_inv[std::size_t(j)];
            const double ref = m_p.cosine ? std::cos(angle) : std::sin(angle);
            const double error = std::fabs(m_p.value(i, j) - ref);
            if (squares)
                *squares += error * error;
            if (!(error <= m_tolerance.relative * std::fabs(ref) + m_tolerance.absolute
                      + m_perId[std::size_t(j)] * double(id)))
                ++bad;
        }
        return bad;
    }

    // Whether `id` gives row i's values of `slowFirst` exactly, rounded to float32.
    bool reproduces(std::int64_t i, const std::vector<std::int64_t> &slowFirst, std::int64_t id) const
    {
        return std::all_of(slowFirst.begin(), slowFirst.end(), [&](std::int64_t j) {
            const double angle = double(id) * m_inv[std::size_t(j)];
            return float(m_p.cosine ? std::cos(angle) : std::sin(angle)) == float(m_p.value(i, j));
        });
    }

    // The id row i turns one axis's pairs by, read from the slowest pair (or from `prior`, the
    // row's id on another axis, where this axis's slowest pair turns too fast to tell its turns),
    // each faster pair refining it; and the pairs it leaves beyond the tolerance.
    std::pair<std::int64_t, std::int64_t> axisId(std::int64_t i, const std::vector<std::int64_t> &slowFirst,
                                                 std::int64_t prior = -1) const
    {
        if (slowFirst.empty())
            return {std::max<std::int64_t>(prior, 0), 0};
        const std::size_t s = std::size_t(slowFirst.front());
        std::vector<double> starts {std::max(0.0, m_p.angle(i, slowFirst.front()) / m_inv[s])};
        if (prior >= 0)
            starts.push_back(double(prior));
        std::pair<std::int64_t, std::int64_t> best {0, std::numeric_limits<std::int64_t>::max()};
        double bestSquares = std::numeric_limits<double>::infinity();
        for (const double start : starts) {
            const double x = refine(i, slowFirst, start);
            for (const double id : {std::floor(x), std::ceil(x)}) {
                if (id < 0.0 || id >= double(MropePrompt::kMaxId))
                    continue;
                double squares = 0.0;
                const std::int64_t bad = badAt(i, slowFirst, std::int64_t(id), &squares);
                if (bad < best.second || (bad == best.second && squares < bestSquares)) {
                    best = {std::int64_t(id), bad};
                    bestSquares = squares;
                }
            }
        }
        if (best.second == std::numeric_limits<std::int64_t>::max())
            best = {0, std::int64_t(slowFirst.size())};
        return best;
    }

    // Row i's ids under a split (each axis's pairs slowest first), and its pairs beyond the
    // tolerance: the axes read in the order of their slowest pair, each later one from the first's
    // id where its own pairs turn too fast.
    std::pair<MropeIds, std::int64_t> rowIds(std::int64_t i, const std::array<std::vector<std::int64_t>, 3> &axes) const
    {
        std::array<int, 3> order {0, 1, 2};
        const auto slowest = [&](int a) {
            return axes[std::size_t(a)].empty() ? std::numeric_limits<double>::infinity()
                                                : m_inv[std::size_t(axes[std::size_t(a)].front())];
        };
        std::sort(order.begin(), order.end(), [&](int a, int b) { return slowest(a) < slowest(b); });
        std::array<std::int64_t, 3> id {0, 0, 0}, off {0, 0, 0};
        std::int64_t prior = -1;
        for (const int a : order) {
            const auto [value, beyond] = axisId(i, axes[std::size_t(a)], prior);
            id[std::size_t(a)] = value;
            off[std::size_t(a)] = beyond;
            if (prior < 0 && !axes[std::size_t(a)].empty())
                prior = value;
        }
        // An axis whose pairs turn too slowly to tell its id from another axis's (their float32
        // values the same) takes that one: a text token's ids are one.
        for (std::size_t a = 0; a < 3; ++a) {
            for (std::size_t b = 0; b < 3; ++b) {
                if (a == b || id[a] == id[b] || axes[a].empty() || axes[b].empty())
                    continue;
                if (off[a] == 0 && reproduces(i, axes[a], id[b]))
                    id[a] = id[b];
            }
        }
        return {MropeIds {MropeTokenKind::Text, id[0], id[1], id[2]}, off[0] + off[1] + off[2]};
    }

    // Whether one id explains `slowFirst` in every sampled row.
    bool oneAxis(const std::vector<std::int64_t> &slowFirst) const
    {
        for (std::int64_t i = 0; i < rows(); ++i) {
            if (axisId(i, slowFirst).second > 0)
                return false;
        }
        return true;
    }

    std::int64_t splitBad(const std::array<std::vector<std::int64_t>, 3> &axes) const
    {
        std::int64_t bad = 0;
        for (std::int64_t i = 0; i < rows(); ++i)
            bad += rowIds(i, axes).second;
        return bad;
    }

private:
    double refine(std::int64_t i, const std::vector<std::int64_t> &slowFirst, double x) const
    {
        for (const std::int64_t j : slowFirst) {
            const double inv = m_inv[std::size_t(j)], a = m_p.angle(i, j);
            const auto [best, gap] = m_p.nearestTurn(i, j, x * inv);
            // A cosine that float32 rounds to 1 or -1 holds its angle only below 2.4e-4 rad (from 0 or
            // pi): a pair there that agrees with the estimate within that says nothing finer.
            const bool flat = m_p.cosine && (a == 0.0 || a == kPi);
            if (flat && gap < kFlatAngle)
                continue;
            x = best / inv;
        }
        return x;
    }

    const PairValues &m_p;
    CellTolerance m_tolerance;
    std::vector<double> m_inv;
    std::vector<double> m_perId;
};

using AxisPairs = std::array<std::vector<std::int64_t>, 3>;

// Each axis's pairs, slowest (the highest index) first.
AxisPairs axisPairs(const std::vector<int> &axes)
{
    AxisPairs out;
    for (std::int64_t j = std::ssize(axes) - 1; j >= 0; --j)
        out[std::size_t(axes[std::size_t(j)])].push_back(j);
    return out;
}

std::vector<std::int64_t> range(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> out;
    for (std::int64_t j = to - 1; j >= from; --j)
        out.push_back(j);
    return out;
}

// Contiguous sections read from the slowest pair up: w the most pairs one id explains in every
// row, then h, t the rest. Nothing when one id explains every pair (no row's axes differ).
std::optional<std::vector<std::int64_t>> chunkedSections(const SplitFit &fit)
{
    const std::int64_t pairs = fit.pairs();
    std::int64_t w = 0;
    while (w < pairs && fit.oneAxis(range(pairs - w - 1, pairs)))
        ++w;
    if (w == pairs)
        return std::nullopt;
    std::int64_t h = 0;
    while (w + h < pairs && fit.oneAxis(range(pairs - w - h - 1, pairs - w)))
        ++h;
    return std::vector<std::int64_t> {pairs - w - h, h, w};
}

// The interleave's counts: h's and w's turns (pairs 1 and 2 mod 3 below 3 s), each the count that
// leaves the fewest pairs beyond the tolerance with t's, ties to a published count, then the most.
std::vector<std::int64_t> interleavedSections(const SplitFit &fit, const std::vector<PublishedSplit> &published)
{
    const std::int64_t pairs = fit.pairs();
    std::vector<std::int64_t> section {0, 0, 0};
    for (int axis = 1; axis <= 2; ++axis) {
        std::int64_t best = 0, bestBad = std::numeric_limits<std::int64_t>::max();
        bool bestPublished = false;
        // Beyond `most` turns the axis owns no more pairs.
        const std::int64_t most = (pairs - axis + 2) / 3;
        for (std::int64_t s = 0; s <= most; ++s) {
            MropeParams m;
            m.interleaved = true;
            m.section = {0, axis == 1 ? s : 0, axis == 2 ? s : 0};
            AxisPairs groups = axisPairs(MropeAxes::axes(m, pairs));
            // The other axis's turns left out: judged by t's pairs and this axis's alone.
            const int other = axis == 1 ? 2 : 1;
            std::erase_if(groups[0], [&](std::int64_t j) { return j % 3 == other; });
            groups[std::size_t(other)].clear();
            const std::int64_t bad = fit.splitBad(groups);
            const bool isPublished = std::any_of(published.begin(), published.end(), [&](const PublishedSplit &p) {
                return p.interleaved && p.section[std::size_t(axis)] == s;
            });
            if (bad < bestBad || (bad == bestBad && (isPublished || !bestPublished))) {
                best = s;
                bestBad = bad;
                bestPublished = isPublished;
            }
        }
        section[std::size_t(axis)] = best;
    }
    // t takes the rest: apply_interleaved_mrope never reads its count; the pairs it owns.
    MropeParams m;
    m.interleaved = true;
    m.section = section;
    section[0] = MropeAxes::pairsPerAxis(MropeAxes::axes(m, pairs))[0];
    return section;
}

struct Split
{
    std::vector<std::int64_t> section;
    bool interleaved = false;
    std::int64_t bad = std::numeric_limits<std::int64_t>::max();
};

// The split of the pairs that best explains the sample at `theta`: the sections read from it and
// the published ones, the fewest pairs beyond the tolerance, ties to a published split.
std::optional<Split> bestSplit(const SplitFit &fit)
{
    const auto chunked = chunkedSections(fit);
    if (!chunked)
        return std::nullopt;
    const std::vector<PublishedSplit> published = publishedSplits(fit.pairs());
    std::vector<Split> candidates;
    for (const PublishedSplit &p : published)
        candidates.push_back({p.section, p.interleaved});
    candidates.push_back({*chunked, false});
    candidates.push_back({interleavedSections(fit, published), true});
    std::optional<Split> best;
    for (Split &c : candidates) {
        MropeParams m;
        m.section = c.section;
        m.interleaved = c.interleaved;
        if (MropeAxes::sectionProblem(m, fit.pairs()))
            continue;
        c.bad = fit.splitBad(axisPairs(MropeAxes::axes(m, fit.pairs())));
        if (!best || c.bad < best->bad)
            best = c;
    }
    return best;
}

} // namespace

std::vector<PublishedSplit> publishedSplits(std::int64_t pairs)
{
    if (pairs != 64)
        return {};
    return {{{16, 24, 24}, false}, {{24, 20, 20}, true}};
}

std::optional<Reading> read(const TableEvidence &e)
{
    const auto p = pairValues(e);
    if (!p || p->value.cols() < 3)
        return std::nullopt;
    std::vector<double> thetas;
    if (const auto estimate = thetaOfRow1(*p, e.sample); estimate && std::isfinite(*estimate) && *estimate > 1.0)
        thetas = FitNumbers::roundings(*estimate, 4);
    for (const double theta : kModelThetas) {
        if (std::find(thetas.begin(), thetas.end(), theta) == thetas.end())
            thetas.push_back(theta);
    }
    const CellTolerance tolerance = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    std::optional<std::pair<double, Split>> best;
    for (const double theta : thetas) {
        const SplitFit fit(*p, theta, tolerance);
        const auto split = bestSplit(fit);
        if (split && (!best || split->bad < best->second.bad))
            best = std::pair {theta, *split};
        if (best && best->second.bad == 0)
            break;
    }
    if (!best)
        return std::nullopt;
    Reading r;
    r.cosine = p->cosine;
    r.theta = best->first;
    r.section = best->second.section;
    r.interleaved = best->second.interleaved;
    const SplitFit fit(*p, r.theta, tolerance);
    MropeParams m;
    m.section = r.section;
    m.interleaved = r.interleaved;
    r.turns.axes = MropeAxes::axes(m, fit.pairs());
    r.turns.inv = fit.inv();
    r.turns.half = p->half;
    const AxisPairs groups = axisPairs(r.turns.axes);
    for (std::int64_t i = 0; i < fit.rows(); ++i) {
        MropeIds ids = fit.rowIds(i, groups).first;
        // The kind as the ids show it: a row whose axes differ is a vision token's.
        const bool vision = ids.t != ids.h || ids.h != ids.w;
        ids.kind = vision ? MropeTokenKind::Image : MropeTokenKind::Text;
        r.visionRows += vision ? 1 : 0;
        r.rows.push_back(e.sample.rows[std::size_t(i)]);
        r.ids.push_back(ids);
    }
    if (r.visionRows == 0)
        return std::nullopt;
    return r;
}

} // namespace posenc::MropeTableFit
