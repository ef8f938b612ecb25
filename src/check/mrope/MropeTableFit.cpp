#include "MropeTableFit.h"

#include "check/FitNumbers.h"
#include "check/PairAngles.h"
#include "check/PairReference.h"
#include "check/SampleScore.h"
#include "core/ThreadPools.h"
#include "core/mrope/MropeRotation.h"

#include <algorithm>
#include <array>
#include <atomic>
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

// The sample's pairs and their angles as the values show them (PairSample::angle), each computed
// once for every split and theta the search tries.
struct SampledPairs
{
    explicit SampledPairs(const PairValues &values)
        : p(values)
        , angle(values.value.rows(), values.value.cols())
    {
        for (std::int64_t i = 0; i < angle.rows(); ++i) {
            for (std::int64_t j = 0; j < angle.cols(); ++j)
                angle(i, j) = p.angle(i, j);
        }
    }
    const PairValues &p;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> angle;
};

// What a cell's angle may be off by, per unit of id: M-RoPE's own allowance, or the float32 angles'
// the check allows any table of sines and cosines (CellTolerance.cpp), |ln w| units of 2^-24 wider.
enum class IdAllowance { Mrope, Float32Angles };

// How a split is judged at a theta: the sample's pairs, each pair's frequency, the cells' tolerance.
// The search asks each row the same few ids (its own, one off, another axis's) for every count of
// pairs it tries: each cell keeps the reference values of its last ids and refine's last step
// through it, so that a cell's cosine is computed a few times, not once per count (issue 62:
// seconds of a wide table's check).
class SplitFit
{
public:
    SplitFit(const SampledPairs &sampled, double theta, const CellTolerance &tolerance,
             IdAllowance allowance = IdAllowance::Mrope)
        : m_p(sampled.p)
        , m_angle(sampled.angle)
        , m_tolerance(tolerance)
        , m_known(std::size_t(sampled.angle.size()))
        , m_steps(2 * std::size_t(sampled.angle.size()))
    {
        const std::int64_t pairs = m_p.value.cols();
        for (std::int64_t j = 0; j < pairs; ++j) {
            // HF's default inv_freq: 1 / theta^(2j / rotary_dim).
            m_inv.push_back(std::pow(theta, -double(j) / double(pairs)));
            // float32 angles (inv_freq @ position_ids in float32): a few units of 2^-24 of each
            // angle; pair 0 (inv_freq 1) turns by the id itself, exactly.
            m_perId.push_back(j == 0 ? 0.0 : 4.0 * 0x1p-24 * m_inv.back());
        }
        if (allowance == IdAllowance::Float32Angles) {
            PairReferenceSpec spec;
            spec.schedule.w = m_inv;
            for (std::int64_t j = 0; j < pairs; ++j)
                spec.columns.push_back({j, m_p.cosine});
            m_perId = cellTolerance(ValueFormat::Float32, true, StoredType::Float32, 0.0, spec).perPosition;
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
            const double ref = reference(i, j, id);
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
        return std::all_of(slowFirst.begin(), slowFirst.end(),
                           [&](std::int64_t j) { return float(reference(i, j, id)) == float(m_p.value(i, j)); });
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
        const double slowest = m_angle(i, slowFirst.front()), slack = m_p.slack(i, slowFirst.front());
        // The estimate a pair only agreeing within its slack leaves (PairAngles::refined), from the
        // least id the slowest pair allows: a half format's rounding pins a still pair's angle too
        // loosely for its reading to be the id's. Where that leaves pairs beyond the tolerance, each
        // pair's reading taken in turn, from the slowest pair's (a pair's reading finer than the
        // slack it agreed within). Each from the other axis's id too.
        std::vector<std::pair<double, bool>> starts {{PairAngles::leastId(slowest, slack, m_inv[s]), true}};
        if (prior >= 0)
            starts.push_back({double(prior), true});
        starts.push_back({std::max(0.0, slowest / m_inv[s]), false});
        if (prior >= 0)
            starts.push_back({double(prior), false});
        std::pair<std::int64_t, std::int64_t> best {0, std::numeric_limits<std::int64_t>::max()};
        double bestSquares = std::numeric_limits<double>::infinity();
        // An id judged already is judged the same again, and a tie keeps the first: each once.
        std::array<double, 8> judged;
        std::size_t seen = 0;
        for (std::size_t k = 0; k < starts.size(); ++k) {
            if (!starts[k].second && best.second == 0)
                break;
            if (k > 0 && starts[k] == starts[k - 1])
                continue;
            const double x = refine(i, slowFirst, starts[k].first, starts[k].second);
            for (const double id : {std::floor(x), std::ceil(x)}) {
                if (id < 0.0 || id >= double(MropePrompt::kMaxId)
                    || std::find(judged.begin(), judged.begin() + seen, id) != judged.begin() + seen)
                    continue;
                judged[seen++] = id;
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

    // Whether one id explains `slowFirst` in every sampled row (not once the check is cancelled).
    bool oneAxis(const std::vector<std::int64_t> &slowFirst) const
    {
        for (std::int64_t i = 0; i < rows(); ++i) {
            if (ScoringCancel::requested() || axisId(i, slowFirst).second > 0)
                return false;
        }
        return true;
    }

    // The pairs beyond the tolerance over every row, counted until they pass `stopAfter`: the
    // whole count, or a part of it above `stopAfter` (no caller takes a count above its best). A
    // sample of many cells is counted on every core, a tile of rows each (a row's cells are its
    // tile's alone), a small one in this thread, where handing tiles over would cost more than
    // counting them; once the check is cancelled, the largest count (a split that explains nothing).
    std::int64_t splitBad(const std::array<std::vector<std::int64_t>, 3> &axes,
                          std::int64_t stopAfter = std::numeric_limits<std::int64_t>::max()) const
    {
        constexpr std::int64_t kTileRows = 16, kParallelCells = std::int64_t(1) << 16;
        std::atomic<std::int64_t> bad {0};
        std::atomic<bool> stop {false};
        const bool cancelled = ScoringCancel::requested();
        if (!cancelled) {
            const int threads = rows() * pairs() >= kParallelCells ? 0 : 1;
            forEachTile((rows() + kTileRows - 1) / kTileRows, threads, &stop, [&](std::int64_t tile) {
                std::int64_t tileBad = 0;
                for (std::int64_t i = tile * kTileRows; i < std::min(rows(), (tile + 1) * kTileRows); ++i)
                    tileBad += rowIds(i, axes).second;
                if (bad.fetch_add(tileBad) + tileBad > stopAfter)
                    stop = true;
            });
        }
        if (cancelled || ScoringCancel::requested())
            return std::numeric_limits<std::int64_t>::max();
        return bad.load();
    }

private:
    // Pair j's reference value in row i at `id`: its cos or sin of id * inv_freq, as computed the
    // first time the cell was asked it.
    double reference(std::int64_t i, std::int64_t j, std::int64_t id) const
    {
        Known &k = m_known[cell(i, j)];
        for (std::size_t slot = 0; slot < Known::kIds; ++slot) {
            if (k.id[slot] == id)
                return k.value[slot];
        }
        const double angle = double(id) * m_inv[std::size_t(j)];
        const double value = m_p.cosine ? std::cos(angle) : std::sin(angle);
        k.id[k.next] = std::int32_t(id);
        k.value[k.next] = value;
        k.next = (k.next + 1) % Known::kIds;
        return value;
    }

    // `agreeing`: a pair within its slack of the estimate leaves it (PairAngles::refined); else each
    // pair's reading is taken.
    double refine(std::int64_t i, const std::vector<std::int64_t> &slowFirst, double x, bool agreeing) const
    {
        for (const std::int64_t j : slowFirst) {
            // The counts of a search pass the same estimates through a row's pairs: each pair's
            // last step is kept, a way each.
            Step &k = m_steps[2 * cell(i, j) + std::size_t(agreeing)];
            if (k.from == x) {
                x = k.to;
                continue;
            }
            k.from = x;
            const double inv = m_inv[std::size_t(j)], a = m_angle(i, j);
            // A cosine that float32 rounds to 1 or -1 holds its angle only below 2.4e-4 rad (from 0 or
            // pi): a pair there that agrees with the estimate within that says nothing finer.
            const bool flat = m_p.cosine && (a == 0.0 || a == kPi);
            const auto [turn, gap] = PairAngles::nearestTurn(a, m_p.cosine, x * inv);
            if (!(flat && gap < kFlatAngle))
                x = agreeing ? PairAngles::refined(x, a, m_p.slack(i, j), m_p.cosine, inv) : turn / inv;
            k.to = x;
        }
        return x;
    }

    // A cell's last ids (below MropePrompt::kMaxId; -1: none yet) and their reference values, a
    // cache line each; and refine's last step through it (from NaN: none yet).
    static_assert(MropePrompt::kMaxId <= std::numeric_limits<std::int32_t>::max());
    struct alignas(64) Known
    {
        static constexpr std::size_t kIds = 4;
        std::array<std::int32_t, kIds> id {-1, -1, -1, -1};
        std::array<double, kIds> value {};
        std::size_t next = 0;
    };
    struct Step
    {
        double from = std::numeric_limits<double>::quiet_NaN();
        double to = 0.0;
    };
    std::size_t cell(std::int64_t i, std::int64_t j) const { return std::size_t(i * pairs() + j); }

    const PairValues &m_p;
    const decltype(SampledPairs::angle) &m_angle;
    CellTolerance m_tolerance;
    std::vector<double> m_inv;
    std::vector<double> m_perId;
    mutable std::vector<Known> m_known;
    mutable std::vector<Step> m_steps;
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

// Whether one id explains every pair of every sampled row (table rows `rows`): the row's own index
// within the float32 angles' allowance (`angles`), which a RoPE table's row holds also past its
// slowest pair's half turn (position pi / w: 23,600 at head_dim 64), where reading from the slowest
// pair up finds no id; or an id read from the row's pairs within M-RoPE's own narrower allowance
// (`mrope`). An id read from the pairs is not taken at the wider allowance: far into a prompt, an
// image token whose h and w ids differ from its t id by one on the slowest pairs alone is within it.
bool oneIdEveryRow(const SplitFit &angles, const SplitFit &mrope, const std::vector<std::int64_t> &rows)
{
    const std::vector<std::int64_t> all = range(0, angles.pairs());
    for (std::int64_t i = 0; i < angles.rows(); ++i) {
        if (ScoringCancel::requested())
            return false;
        const std::int64_t own = rows[std::size_t(i)];
        if (own < MropePrompt::kMaxId && angles.badAt(i, all, own) == 0)
            continue;
        if (mrope.axisId(i, all).second > 0)
            return false;
    }
    return true;
}

// The most pairs, counted from `from` down, that one id explains in every row: the largest n with
// oneAxis(range(from - n, from)), found by halving (fewer pairs are explained wherever more are),
// so that a wide table costs pairs * log(pairs) reads, not pairs^2.
std::int64_t oneIdRun(const SplitFit &fit, std::int64_t from)
{
    std::int64_t lo = 0, hi = from; // oneAxis holds for lo pairs; the answer is at most hi
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (fit.oneAxis(range(from - mid, from)))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// Contiguous sections read from the slowest pair up: w the most pairs one id explains in every
// row, then h, t the rest.
std::vector<std::int64_t> chunkedSections(const SplitFit &fit)
{
    const std::int64_t pairs = fit.pairs();
    const std::int64_t w = oneIdRun(fit, pairs);
    const std::int64_t h = oneIdRun(fit, pairs - w);
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
            // Counted no further than the best count so far: a worse count is not taken.
            const std::int64_t bad = fit.splitBad(groups, bestBad);
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
// the published ones, the fewest pairs beyond the tolerance, ties to a published split. Nothing
// when one id explains every pair: `chunked` is then nothing.
std::optional<Split> bestSplit(const SplitFit &fit, const std::vector<std::int64_t> &chunked)
{
    const std::vector<PublishedSplit> published = publishedSplits(fit.pairs());
    std::vector<Split> candidates;
    for (const PublishedSplit &p : published)
        candidates.push_back({p.section, p.interleaved});
    candidates.push_back({chunked, false});
    candidates.push_back({interleavedSections(fit, published), true});
    std::optional<Split> best;
    for (Split &c : candidates) {
        MropeParams m;
        m.section = c.section;
        m.interleaved = c.interleaved;
        if (MropeAxes::sectionProblem(m, fit.pairs()))
            continue;
        c.bad = fit.splitBad(axisPairs(MropeAxes::axes(m, fit.pairs())), best ? best->bad : c.bad);
        if (!best || c.bad < best->bad)
            best = c;
    }
    return best;
}

// Each sampled row's ids at a split and theta, its kind as the ids show it (a row whose axes differ
// is a vision token's).
Reading readingAt(const TableEvidence &e, const PairValues &p, const SampledPairs &sampled,
                  const CellTolerance &tolerance, double theta, const std::vector<std::int64_t> &section,
                  bool interleaved)
{
    Reading r;
    r.cosine = p.cosine;
    r.theta = theta;
    r.section = section;
    r.interleaved = interleaved;
    const SplitFit fit(sampled, r.theta, tolerance);
    MropeParams m;
    m.section = r.section;
    m.interleaved = r.interleaved;
    r.turns.axes = MropeAxes::axes(m, fit.pairs());
    r.turns.inv = fit.inv();
    r.turns.half = p.half;
    const AxisPairs groups = axisPairs(r.turns.axes);
    for (std::int64_t i = 0; i < fit.rows(); ++i) {
        MropeIds ids = fit.rowIds(i, groups).first;
        const bool vision = ids.t != ids.h || ids.h != ids.w;
        ids.kind = vision ? MropeTokenKind::Image : MropeTokenKind::Text;
        r.visionRows += vision ? 1 : 0;
        r.rows.push_back(e.sample.rows[std::size_t(i)]);
        r.ids.push_back(ids);
    }
    return r;
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
    const SampledPairs sampled(*p);
    // One id on every axis of every sampled row, at any of the thetas: RoPE's table, left to RoPE (an
    // M-RoPE reading would be a worse one of the same rows). A row's own index is taken within the
    // float32 angles the check allows RoPE's table, as RoPE reads it: a faithful table of positions
    // up to 1M is no M-RoPE table whose far rows no split explains, nor worth the split search (most
    // of such a table's check). An id read from the pairs is taken within M-RoPE's own allowance,
    // as the split search takes it, so that a table this passes is one the search's own test passed.
    for (const double theta : thetas) {
        if (ScoringCancel::requested()
            || oneIdEveryRow(SplitFit(sampled, theta, tolerance, IdAllowance::Float32Angles),
                             SplitFit(sampled, theta, tolerance), e.sample.rows))
            return std::nullopt;
    }
    std::optional<std::pair<double, Split>> best;
    for (const double theta : thetas) {
        if (ScoringCancel::requested())
            return std::nullopt;
        const SplitFit fit(sampled, theta, tolerance);
        const auto split = bestSplit(fit, chunkedSections(fit));
        if (split && (!best || split->bad < best->second.bad))
            best = std::pair {theta, *split};
        if (best && best->second.bad == 0)
            break;
    }
    if (!best)
        return std::nullopt;
    const Reading r = readingAt(e, *p, sampled, tolerance, best->first, best->second.section, best->second.interleaved);
    if (r.visionRows == 0)
        return std::nullopt;
    return r;
}

std::optional<Reading> readAt(const TableEvidence &e, double theta, const std::vector<std::int64_t> &section,
                              bool interleaved)
{
    const auto p = pairValues(e);
    if (!p)
        return std::nullopt;
    std::int64_t sum = 0;
    for (const std::int64_t n : section)
        sum += n;
    if (section.size() != 3 || sum != p->value.cols())
        return std::nullopt;
    const CellTolerance tolerance = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    const SampledPairs sampled(*p);
    return readingAt(e, *p, sampled, tolerance, theta, section, interleaved);
}

} // namespace posenc::MropeTableFit
