#include "DropoutMask.h"

#include <algorithm>
#include <bit>
#include <cmath>
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
thread_local std::vector<std::uint64_t> t_bits;
thread_local std::vector<std::uint32_t> t_ties;
thread_local std::vector<std::uint32_t> t_groups;
thread_local std::vector<std::uint32_t> t_low;

} // namespace

DropoutTarget dropoutTarget(DropoutMode mode)
{
    switch (mode) {
    case DropoutMode::Embedding:
        return DropoutTarget::Embedding;
    case DropoutMode::Positional:
        return DropoutTarget::Positional;
    case DropoutMode::Sum:
    case DropoutMode::ProtectSpecial:
    case DropoutMode::MaskedFill:
        break;
    }
    return DropoutTarget::Sum;
}

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

void DropoutMask::keepBits(std::int64_t position, std::int64_t col0, std::int64_t cols, std::uint64_t *bits) const
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
    const std::uint32_t lowThreshold = static_cast<std::uint32_t>(m_threshold & 0xFFFFFFu);
    const std::int64_t bitWords = (cols + 63) / 64;
    if (topThreshold > 0xFFu) {
        std::fill_n(bits, bitWords, ~std::uint64_t(0));
        if (cols % 64 != 0)
            bits[bitWords - 1] = (std::uint64_t(1) << (cols % 64)) - 1;
        return;
    }
    // Cells whose top byte ties with T's, by column from col0; with T's low bits all zero a tie
    // is never below T.
    std::uint32_t *ties = scratch(t_ties, cols + 1);
    const std::int64_t tieCount = compareBytes(top, cols, topThreshold, bits, ties);
    if (lowThreshold == 0 || tieCount == 0)
        return;
    // The rare ties (1 cell in 256) are decided by their 24 low bits, drawn together.
    std::uint32_t *tieGroups = scratch(t_groups, tieCount);
    std::uint32_t *low = scratch(t_low, 4 * tieCount);
    for (std::int64_t i = 0; i < tieCount; ++i)
        tieGroups[i] = static_cast<std::uint32_t>((col0 + ties[i]) / 4);
    m_lowBits.gather(position, tieGroups, tieCount, low);
    // Without a branch: whether a tie is kept is as random as the dice, so a branch would often
    // mispredict.
    for (std::int64_t i = 0; i < tieCount; ++i) {
        const std::uint32_t c = ties[i];
        const std::uint64_t below = (low[4 * i + (col0 + c) % 4] & 0xFFFFFFu) < lowThreshold;
        bits[c / 64] |= below << (c % 64);
    }
}

void DropoutMask::fillRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    // A row's rule comes first: masked-fill's padding is zeroed whatever the dice say (in
    // evaluation too), and pass-through rows (protected, or evaluation) are kept whole.
    switch (rowRule(position)) {
    case RowRule::Zero:
        std::fill(dst, dst + cols, 0.0f);
        return;
    case RowRule::PassThrough:
        std::fill(dst, dst + cols, 1.0f);
        return;
    case RowRule::Dropout:
        break;
    }
    std::uint64_t *bits = scratch(t_bits, (cols + 63) / 64);
    keepBits(position, col0, cols, bits);
    maskOfBits(bits, cols, dst);
}

void DropoutMask::applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const InputRow &x, float *dst,
                           bool streaming) const
{
    const RowRule rule = rowRule(position);
    const DropoutTarget target = dropoutTarget(m_mode);
    if (rule == RowRule::Zero || (m_p >= 1.0 && target == DropoutTarget::Sum && rule == RowRule::Dropout)) {
        std::fill(dst, dst + cols, 0.0f); // p = 1: nothing survives and nothing is divided by zero
        return;
    }
    if (rule == RowRule::PassThrough || m_p == 0.0) {
        addScaled(x, cols, dst, streaming);
        return;
    }
    if (m_p >= 1.0 && target == DropoutTarget::Embedding) {
        std::copy(x.positional, x.positional + cols, dst);
        return;
    }
    if (m_p >= 1.0) { // the PE all dropped: Y = s E
        for (std::int64_t c = 0; c < cols; ++c)
            dst[c] = x.scale * x.embedding[c];
        return;
    }
    std::uint64_t *bits = scratch(t_bits, (cols + 63) / 64);
    keepBits(position, col0, cols, bits);
    applyDropout(x, bits, m_keep, target, cols, dst, streaming);
}

} // namespace posenc
