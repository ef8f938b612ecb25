#include "DropoutMask.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

namespace posenc {

DropoutMask::DropoutMask(const Params &params)
    : m_random(params.seed, RandomStream::Dropout)
    , m_lowBits(params.seed, RandomStream::DropoutLowBits)
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

namespace {

constexpr std::int64_t kCellsPerGroup = 16; // one byte of a Philox output per cell

std::uint32_t byteOf(const std::uint32_t *words, std::int64_t index)
{
    return (words[index / 4] >> (8 * (index % 4))) & 0xFFu;
}

// Row scratch reused by each thread, so that no row allocates.
template<typename T> T *scratch(std::vector<T> &buffer, std::int64_t size)
{
    if (buffer.size() < static_cast<std::size_t>(size))
        buffer.resize(static_cast<std::size_t>(size));
    return buffer.data();
}

thread_local std::vector<std::uint32_t> t_words;
thread_local std::vector<std::uint8_t> t_bytes;
thread_local std::vector<std::uint8_t> t_kept;

} // namespace

bool DropoutMask::kept(std::int64_t position, std::int64_t column) const
{
    const auto words = m_random.words(position, column / kCellsPerGroup);
    const std::uint64_t top = byteOf(words.data(), column % kCellsPerGroup);
    const std::uint64_t low = m_lowBits.words(position, column / 4)[column % 4] & 0xFFFFFFu;
    return ((top << 24) | low) < m_threshold;
}

DropoutMask::RowRule DropoutMask::rowRule(std::int64_t position) const
{
    // masked_fill zeroes the padding rows in training and in evaluation alike.
    if (m_mode == DropoutMode::MaskedFill && position >= m_seqLen)
        return RowRule::Zero;
    if (!m_training)
        return RowRule::PassThrough;
    if (m_mode == DropoutMode::ProtectSpecial && m_protected[static_cast<std::size_t>(position)])
        return RowRule::PassThrough;
    return RowRule::Dropout;
}

void DropoutMask::keepFlags(std::int64_t position, std::int64_t col0, std::int64_t cols, std::uint8_t *kept) const
{
    const std::int64_t group0 = col0 / kCellsPerGroup;
    const std::int64_t groups = (col0 + cols + kCellsPerGroup - 1) / kCellsPerGroup - group0;
    std::uint32_t *words = scratch(t_words, 4 * groups);
    m_random.fill(position, group0, groups, words);
    // Cell i of a group is byte i of its four words in little-endian order.
    const std::uint8_t *bytes = reinterpret_cast<const std::uint8_t *>(words);
    if constexpr (std::endian::native != std::endian::little) {
        std::uint8_t *ordered = scratch(t_bytes, kCellsPerGroup * groups);
        for (std::int64_t i = 0; i < kCellsPerGroup * groups; ++i)
            ordered[i] = static_cast<std::uint8_t>(byteOf(words, i));
        bytes = ordered;
    }
    const std::uint8_t *top = bytes + (col0 - kCellsPerGroup * group0);
    // With p = 0, T = 2^32 and its top byte, 256, is above every byte: all kept, no ties.
    const std::uint32_t topThreshold = static_cast<std::uint32_t>(m_threshold >> 24);
    for (std::int64_t c = 0; c < cols; ++c)
        kept[c] = top[c] < topThreshold ? 1 : 0;
    if (topThreshold > 0xFFu)
        return;
    // The rare cells whose top byte ties with T's are decided by their 24 low bits.
    const std::uint32_t lowThreshold = static_cast<std::uint32_t>(m_threshold & 0xFFFFFFu);
    const auto tie = static_cast<std::uint8_t>(topThreshold);
    const std::uint8_t *end = top + cols;
    for (const std::uint8_t *t = top;
         (t = static_cast<const std::uint8_t *>(std::memchr(t, tie, static_cast<std::size_t>(end - t)))); ++t) {
        const std::int64_t c = col0 + (t - top);
        const std::uint32_t low = m_lowBits.words(position, c / 4)[c % 4] & 0xFFFFFFu;
        kept[t - top] = low < lowThreshold ? 1 : 0;
    }
}

void DropoutMask::fillRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    if (!m_training || rowRule(position) == RowRule::PassThrough) {
        std::fill(dst, dst + cols, 1.0f);
        return;
    }
    std::uint8_t *kept = scratch(t_kept, cols);
    keepFlags(position, col0, cols, kept);
    for (std::int64_t c = 0; c < cols; ++c)
        dst[c] = kept[c] ? 1.0f : 0.0f;
}

void DropoutMask::applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const InputRow &x,
                           float *dst) const
{
    const float *e = x.embedding;
    const float *q = x.positional;
    const float s = x.scale;
    const RowRule rule = rowRule(position);
    if (rule == RowRule::Zero || (m_p >= 1.0 && m_mode != DropoutMode::Embedding && rule == RowRule::Dropout)) {
        std::fill(dst, dst + cols, 0.0f); // p = 1: nothing survives and nothing is divided by zero
        return;
    }
    if (rule == RowRule::PassThrough || m_p == 0.0) {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = s * e[c] + q[c];
        return;
    }
    if (m_p >= 1.0) {
        std::copy(q, q + cols, dst);
        return;
    }
    std::uint8_t *kept = scratch(t_kept, cols);
    keepFlags(position, col0, cols, kept);
    // One branch-free pass the compiler vectorises.
    const float keep = m_keep;
    if (m_mode == DropoutMode::Embedding) {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = (kept[c] ? (s * e[c]) / keep : 0.0f) + q[c];
    } else {
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = kept[c] ? (s * e[c] + q[c]) / keep : 0.0f;
    }
}

} // namespace posenc
