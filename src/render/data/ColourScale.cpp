#include "ColourScale.h"

#include "core/alibi/AlibiSlopes.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

namespace posenc::ColourScale {

namespace {

// Standard deviations of s·E within the range: all but 0.27 % of a normal's cells.
constexpr double kSpreads = 3.0;

// The standard deviation of E's cells: the init's, or the loaded rows' RMS over their finite
// cells (a NaN of the file is drawn as one, not spread over the whole range).
double embeddingSpread(const Params &params)
{
    if (!params.embeddings)
        return params.sigma();
    const RowMatrixXf &values = params.embeddings->values;
    double sum = 0.0;
    std::int64_t count = 0;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        const double v = values.data()[i];
        if (std::isfinite(v)) {
            sum += v * v;
            ++count;
        }
    }
    return count == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(count));
}

// Whether the parameters have the quantity (its family is chosen): its family's numbers are read
// only then.
bool hasQuantity(Quantity quantity, const Params &params)
{
    return !Quantities::spec(quantity).missing(params);
}

} // namespace

double extent(Quantity quantity, const Params &params)
{
    const double embedding = kSpreads * std::abs(params.scale()) * embeddingSpread(params);
    const double input = params.compose == Compose::Sum ? 1.0 + embedding : std::max(1.0, embedding);
    double value = 1.0;
    switch (quantity) {
    case Quantity::Pe:
    case Quantity::Mask:
        value = 1.0;
        break;
    case Quantity::Embedding:
        value = embedding;
        break;
    case Quantity::Input:
        value = input;
        break;
    case Quantity::Output:
        if (!params.training || params.dropout <= 0.0)
            value = input;
        else if (params.dropout < 1.0)
            value = input / (1.0 - params.dropout);
        else // everything dropped: Y is the PE in the embedding variant, else zero
            value = 1.0;
        break;
    case Quantity::Similarity:
        value = std::max(1.0, std::ceil(static_cast<double>(params.peColumns()) / 2.0));
        break;
    case Quantity::Error:
        value = std::min(2.0, static_cast<double>(params.maxLen - 1) * std::ldexp(1.0, -23) + std::ldexp(1.0, -24));
        break;
    case Quantity::RopeFrequencies:
    case Quantity::RopeScore:
        value = 1.0;
        break;
    // cos and sin carry the attention factor; the rotation keeps a pair's norm, times that factor.
    case Quantity::RopeCos:
    case Quantity::RopeSin:
        value = hasQuantity(quantity, params) ? RopeFrequencies::table(params).attentionFactor : 1.0;
        break;
    case Quantity::RopeInput:
        value = embedding
            * (hasQuantity(quantity, params) ? std::max(1.0, RopeFrequencies::table(params).attentionFactor) : 1.0);
        break;
    // A slope is below 1: m_1 = 2^(-8/H) is the largest.
    case Quantity::AlibiSlopes:
        value = 1.0;
        break;
    // The farthest key's finite bias: m_K (L - 1).
    case Quantity::AlibiBias:
        value = hasQuantity(quantity, params)
            ? AlibiSlopes::of(params.alibi.heads, params.alibi.head) * static_cast<double>(params.maxLen - 1)
            : 1.0;
        break;
    // The last bucket.
    case Quantity::T5Bucket:
        value = static_cast<double>(params.t5.buckets - 1);
        break;
    // The bucket of the farthest pair, signed and not capped.
    case Quantity::DebertaBucket:
        value = hasQuantity(quantity, params) ? static_cast<double>(
                    DebertaBuckets::bucket(params.maxLen - 1, params.deberta.buckets, params.deberta.maxPosition))
                                              : 1.0;
        break;
    }
    return value > 0.0 && std::isfinite(value) ? value : 1.0;
}

} // namespace posenc::ColourScale
