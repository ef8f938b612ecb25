#include "DropoutMask.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

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
thread_local std::vector<std::uint64_t> t_tieWords;
thread_local std::vector<std::uint64_t> t_tieSummary;
thread_local std::vector<std::uint32_t> t_ties;
thread_local std::vector<std::uint32_t> t_groups;
thread_local std::vector<std::uint32_t> t_low;

bool bitOf(const std::uint64_t *bits, std::int64_t c)
{
    return (bits[c / 64] >> (c % 64)) & 1u;
}

#if defined(__AVX512F__)
// The keep bits of cells c .. c + 15 (c a multiple of 16) as a register mask.
__mmask16 maskOf(const std::uint64_t *bits, std::int64_t c)
{
    return static_cast<__mmask16>(bits[c / 64] >> (c % 64));
}

void store16(float *dst, __m512 values, bool stream)
{
    if (stream)
        _mm512_stream_ps(dst, values);
    else
        _mm512_storeu_ps(dst, values);
}

bool startsCacheLine(const float *p)
{
    return (reinterpret_cast<std::uintptr_t>(p) & 63u) == 0;
}
#endif

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
    // Cells whose top byte ties with T's; with T's low bits all zero a tie is never below T, so
    // none are recorded. A word's ties go to tieWords[k], and whether it has any to bit k of
    // tieSummary, without a branch: a branch on these rare bits (1 cell in 256) would mispredict
    // for one word in five.
    const std::int64_t bitWords = (cols + 63) / 64;
    std::uint64_t *tieWords = scratch(t_tieWords, bitWords);
    std::uint64_t *tieSummary = scratch(t_tieSummary, (bitWords + 63) / 64);
    std::fill_n(tieSummary, (bitWords + 63) / 64, std::uint64_t(0));
    const std::uint64_t recordTies = lowThreshold != 0 ? ~std::uint64_t(0) : 0;
    for (std::int64_t k = 0; k < bitWords; ++k) {
        const std::uint8_t *t = top + 64 * k;
        const std::int64_t n = std::min<std::int64_t>(64, cols - 64 * k);
        std::uint64_t keep = 0;
        std::uint64_t tie = 0;
#if defined(__AVX512BW__)
        if (n == 64 && topThreshold <= 0xFFu) {
            const __m512i top64 = _mm512_loadu_si512(t);
            const __m512i threshold = _mm512_set1_epi8(static_cast<char>(topThreshold));
            keep = _mm512_cmplt_epu8_mask(top64, threshold);
            tie = _mm512_cmpeq_epu8_mask(top64, threshold);
        } else
#endif
        {
            for (std::int64_t i = 0; i < n; ++i) {
                keep |= std::uint64_t(t[i] < topThreshold) << i;
                tie |= std::uint64_t(t[i] == topThreshold) << i;
            }
        }
        bits[k] = keep;
        tieWords[k] = tie & recordTies;
        tieSummary[k / 64] |= std::uint64_t(tieWords[k] != 0) << (k % 64);
    }
    // The tied cells, by column from col0.
    std::uint32_t *ties = scratch(t_ties, cols);
    std::int64_t tieCount = 0;
    for (std::int64_t w = 0; 64 * w < bitWords; ++w) {
        for (std::uint64_t withTies = tieSummary[w]; withTies != 0; withTies &= withTies - 1) {
            const std::int64_t k = 64 * w + std::countr_zero(withTies);
            for (std::uint64_t tie = tieWords[k]; tie != 0; tie &= tie - 1)
                ties[tieCount++] = static_cast<std::uint32_t>(64 * k + std::countr_zero(tie));
        }
    }
    if (tieCount == 0)
        return;
    // The rare ties (1 cell in 256) are decided by their 24 low bits, drawn together.
    std::uint32_t *tieGroups = scratch(t_groups, tieCount);
    std::uint32_t *low = scratch(t_low, 4 * tieCount);
    for (std::int64_t i = 0; i < tieCount; ++i)
        tieGroups[i] = static_cast<std::uint32_t>((col0 + ties[i]) / 4);
    m_lowBits.gather(position, tieGroups, tieCount, low);
    for (std::int64_t i = 0; i < tieCount; ++i) {
        const std::int64_t c = ties[i];
        if ((low[4 * i + (col0 + c) % 4] & 0xFFFFFFu) < lowThreshold)
            bits[c / 64] |= std::uint64_t(1) << (c % 64);
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
    for (std::int64_t c = 0; c < cols; ++c)
        dst[c] = bitOf(bits, c) ? 1.0f : 0.0f;
}

void DropoutMask::applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const InputRow &x, float *dst,
                           bool streaming) const
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
    std::uint64_t *bits = scratch(t_bits, (cols + 63) / 64);
    keepBits(position, col0, cols, bits);
    const float keep = m_keep;
    const bool embeddingOnly = m_mode == DropoutMode::Embedding;
    std::int64_t c = 0;
#if defined(__AVX512F__)
    // Sixteen cells at a time; the keep bits select the lanes of a zero-masked division, so
    // dropped cells are exact zeros and survivors exactly X / (1 - p), as below.
    const bool stream = streaming && startsCacheLine(dst);
    const __m512 scale = _mm512_set1_ps(s);
    const __m512 keepv = _mm512_set1_ps(keep);
    for (; c + 16 <= cols; c += 16) {
        const __mmask16 kept = maskOf(bits, c);
        const __m512 scaled = _mm512_mul_ps(scale, _mm512_loadu_ps(e + c));
        const __m512 positional = _mm512_loadu_ps(q + c);
        const __m512 y = embeddingOnly ? _mm512_add_ps(_mm512_maskz_div_ps(kept, scaled, keepv), positional)
                                       : _mm512_maskz_div_ps(kept, _mm512_add_ps(scaled, positional), keepv);
        store16(dst + c, y, stream);
    }
#else
    (void)streaming;
#endif
    for (; c < cols; ++c) {
        const bool kept = bitOf(bits, c);
        dst[c] = embeddingOnly ? (kept ? (s * e[c]) / keep : 0.0f) + q[c] : (kept ? (s * e[c] + q[c]) / keep : 0.0f);
    }
}

} // namespace posenc
