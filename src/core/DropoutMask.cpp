#include "DropoutMask.h"

#include <cmath>

namespace posenc {

DropoutMask::DropoutMask(const Params &params)
    : m_random(params.seed, RandomStream::Dropout)
    , m_p(params.dropout)
    , m_keep(static_cast<float>(1.0 - params.dropout))
    , m_threshold(static_cast<std::uint64_t>(std::llround(std::ldexp(1.0 - params.dropout, 32))))
    , m_training(params.training)
    , m_mode(params.dropoutMode)
    , m_seqLen(params.sequenceLength())
{
    if (m_mode == DropoutMode::ProtectSpecial) {
        m_protected.assign(static_cast<std::size_t>(params.maxLen), false);
        for (const std::int64_t row : params.specialRows())
            m_protected[static_cast<std::size_t>(row)] = true;
    }
}

bool DropoutMask::kept(std::int64_t position, std::int64_t column) const
{
    const auto words = m_random.words(position, column / 4);
    return words[column % 4] < m_threshold;
}

DropoutMask::RowRule DropoutMask::rowRule(std::int64_t position) const
{
    if (!m_training)
        return RowRule::PassThrough;
    if (m_mode == DropoutMode::ProtectSpecial && m_protected[static_cast<std::size_t>(position)])
        return RowRule::PassThrough;
    if (m_mode == DropoutMode::MaskedFill && position >= m_seqLen)
        return RowRule::Zero;
    return RowRule::Dropout;
}

void DropoutMask::fillBits(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    const std::int64_t end = col0 + cols;
    std::int64_t c = col0;
    while (c < end) {
        const auto words = m_random.words(position, c / 4);
        const std::int64_t groupEnd = std::min(end, (c / 4 + 1) * 4);
        for (; c < groupEnd; ++c)
            dst[c - col0] = words[c % 4] < m_threshold ? 1.0f : 0.0f;
    }
}

void DropoutMask::fillRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    if (rowRule(position) == RowRule::PassThrough) {
        std::fill(dst, dst + cols, 1.0f);
        return;
    }
    fillBits(position, col0, cols, dst);
}

void DropoutMask::applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const float *embeddingPart,
                           const float *positionalPart, float *dst) const
{
    const RowRule rule = rowRule(position);
    if (rule == RowRule::PassThrough || m_p == 0.0) {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = embeddingPart[c] + positionalPart[c];
        return;
    }
    if (rule == RowRule::Zero) {
        std::fill(dst, dst + cols, 0.0f);
        return;
    }
    // Bits first, then one branch-free pass the compiler vectorises.
    fillBits(position, col0, cols, dst);
    const float keep = m_keep;
    if (m_p >= 1.0) { // nothing survives, and nothing is divided by zero
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = m_mode == DropoutMode::Embedding ? positionalPart[c] : 0.0f;
        return;
    }
    if (m_mode == DropoutMode::Embedding) {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = (dst[c] != 0.0f ? embeddingPart[c] / keep : 0.0f) + positionalPart[c];
    } else {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = dst[c] != 0.0f ? (embeddingPart[c] + positionalPart[c]) / keep : 0.0f;
    }
}

} // namespace posenc
