#include "SandwichBias.h"

#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/ParamText.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::SandwichBias {

std::int64_t terms(std::int64_t headDim)
{
    // torch.arange(1, d / 2 + 1): the values 1, 2, ... below the end d/2 + 1, so ceil(d/2) of them.
    return (headDim + 1) / 2;
}

std::vector<double> frequencies(std::int64_t headDim)
{
    std::vector<double> w;
    const std::int64_t n = terms(headDim);
    w.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
    for (std::int64_t k = 1; k <= n; ++k)
        w.push_back(1.0 / std::pow(10000.0, 2.0 * static_cast<double>(k) / static_cast<double>(headDim)));
    return w;
}

double scale(std::int64_t heads, std::int64_t head)
{
    return static_cast<double>(head) * 8.0 / static_cast<double>(heads);
}

double cosineSum(const std::vector<double> &w, std::int64_t r)
{
    const auto distance = static_cast<double>(r);
    double sum = 0.0;
    for (const double f : w)
        sum += std::cos(distance * f);
    return sum;
}

std::int64_t distance(std::int64_t query, std::int64_t key, SandwichMask mask)
{
    if (mask == SandwichMask::Causal && key > query)
        return 0;
    return std::abs(query - key);
}

double atDistance(const std::vector<double> &w, std::int64_t headDim, double scale, std::int64_t r)
{
    return ofSum(cosineSum(w, r), headDim, scale);
}

double ofSum(double sum, std::int64_t headDim, double scale)
{
    return (sum - 0.5 * static_cast<double>(headDim)) / scale;
}

namespace {

std::atomic<std::int64_t> g_sumsComputed {0};

} // namespace

DistanceSums::DistanceSums(std::int64_t headDim, std::int64_t most)
    : m_headDim(headDim)
    , m_w(frequencies(headDim))
    , m_chunks(static_cast<std::size_t>(std::max<std::int64_t>(most, 0) / kChunk + 1))
    , m_done(std::make_unique<std::once_flag[]>(m_chunks.size()))
{ }

DistanceSums::DistanceSums(const Params &params)
    : DistanceSums(params.sandwich.headDim, params.maxLen)
{ }

double DistanceSums::at(std::int64_t r) const
{
    const auto chunk = static_cast<std::size_t>(r / kChunk);
    if (r < 0 || chunk >= m_chunks.size()) {
        g_sumsComputed.fetch_add(1, std::memory_order_relaxed);
        return cosineSum(m_w, r);
    }
    std::call_once(m_done[chunk], [&] {
        auto sums = std::make_unique<double[]>(kChunk);
        for (std::int64_t k = 0; k < kChunk; ++k)
            sums[static_cast<std::size_t>(k)] = cosineSum(m_w, static_cast<std::int64_t>(chunk) * kChunk + k);
        g_sumsComputed.fetch_add(kChunk, std::memory_order_relaxed);
        m_chunks[chunk] = std::move(sums);
    });
    return m_chunks[chunk][static_cast<std::size_t>(r % kChunk)];
}

std::int64_t sumsComputed()
{
    return g_sumsComputed.load(std::memory_order_relaxed);
}

double bias(const SandwichParams &params, std::int64_t query, std::int64_t key)
{
    return atDistance(frequencies(params.headDim), params.headDim, scale(params.heads, params.head),
                      distance(query, key, params.mask));
}

void biases(const SandwichParams &params, const DistanceSums &sums, std::int64_t first, std::int64_t count, float *out)
{
    const double s = scale(params.heads, params.head);
    const auto after = static_cast<float>(afterQuery(params.headDim, s));
    for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t t = first + k;
        if (t > 0 && params.mask == SandwichMask::Causal)
            out[k] = after;
        else
            out[k] = static_cast<float>(ofSum(sums.at(std::abs(t)), params.headDim, s));
    }
}

double afterQuery(std::int64_t headDim, double scale)
{
    return (static_cast<double>(terms(headDim)) - 0.5 * static_cast<double>(headDim)) / scale;
}

QString maskText(SandwichMask mask)
{
    return mask == SandwichMask::Causal ? u"causal (NeMo's tril: distance 0 after the query)"_s : u"bidirectional"_s;
}

QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head)
{
    return HeadBias::drawnHeads(heads, head, kMaxDrawnHeads);
}

Description describe(const Params &params)
{
    const SandwichParams &p = params.sandwich;
    const std::vector<double> w = frequencies(p.headDim);
    Description d;
    d.terms = terms(p.headDim);
    d.firstFrequency = w.front();
    d.lastFrequency = w.back();
    d.scale = scale(p.heads, p.head);
    d.afterQuery = afterQuery(p.headDim, d.scale);
    d.nearBias = atDistance(w, p.headDim, d.scale, 1);
    d.farthestBias = atDistance(w, p.headDim, d.scale, params.maxLen - 1);
    d.farMean = -0.5 * static_cast<double>(p.headDim) / d.scale;
    return d;
}

const HeadBias::Family &biasFamily()
{
    static const HeadBias::Family family = [] {
        HeadBias::Family f = HeadBias::family(
            Encoding::Sandwich, &Params::sandwich, &SandwichParams::mask, u"Sandwich"_s, FamilyWords(u"Sandwich"_s),
            {u"sandwich-heads"_s, u"sandwich-head"_s, u"sandwich-mask"_s, u"sandwich-bias"_s});
        f.at = [](const Params &p, std::int64_t t) { return bias(p.sandwich, 0, t); };
        // Each distance's sum once a table, kept by its engine, for all of its offsets.
        f.biases = [](const Engine &engine, std::int64_t first, std::int64_t count, float *out) {
            biases(engine.params().sandwich, engine.source<DistanceSums>(), first, count, out);
        };
        f.bound = [](const Params &p) { return largest(p.sandwich, p.sandwich.head); };
        f.tableParameters = [](const Params &p) {
            const QString mask = ParamText::get(p, u"sandwich-mask"_s);
            return QStringList {u"head %1 of %2"_s.arg(p.sandwich.head).arg(p.sandwich.heads),
                                u"d = %1, %2, L = %3"_s.arg(p.sandwich.headDim).arg(mask, NumberText::count(p.maxLen))};
        };
        return f;
    }();
    return family;
}

// The largest |bias| head `head` can give: |sum - d/2| <= terms + d/2.
double largest(const SandwichParams &p, std::int64_t head)
{
    return (static_cast<double>(terms(p.headDim)) + 0.5 * static_cast<double>(p.headDim)) / scale(p.heads, head);
}

} // namespace posenc::SandwichBias
